"""Class mode's figures: the room's answers as bars, and the room's advantages.

Labels are nicknames students typed: Plotly renders <b>, <a> and <br> in tick labels and
hover text, so every label is HTML-escaped once before it reaches a figure: &, < and >
only, since Plotly decodes those but shows "&quot;" literally (quotes need no escaping).
"""

from __future__ import annotations

import html
import math

from grpo_core.format import plural, signed
from practice.class_group import RoomGroup
from practice.class_round import Bar
from ui.figures.common import cached_figure, figure, sign_marker
from ui.theme import NEUTRAL, POSITIVE

MAX_LABELLED = 60
"""Up to this many students each get a labelled bar; a larger room is drawn unlabelled."""


@cached_figure
def distribution_figure(
    bars: tuple[Bar, ...], title: str, show_correct: bool, top: int | None = None
) -> dict:
    """(len(bars),) counts, one bar per answer (a category each, numbers too); the right
    ones marked once revealed. The count axis runs from 0 to ``top`` (the larger of two
    votes shown side by side, so both share one scale), with whole-number ticks."""
    top = max([top or 0, *(b.count for b in bars), 1])
    labels = [html.escape(b.label, quote=False) for b in bars]
    colours = [POSITIVE if show_correct and b.correct else NEUTRAL for b in bars]
    text = [f"{b.count} ✓" if show_correct and b.correct else str(b.count) for b in bars]
    data = [
        {
            "type": "bar",
            "x": labels,
            "y": [b.count for b in bars],
            "text": text,
            "textposition": "outside",
            "cliponaxis": False,  # a count over the tallest bar is drawn whole, never cut
            "marker": {"color": colours},
            "hovertemplate": "%{x}: %{y}<extra></extra>",
        }
    ]
    yaxis = {
        "title": "students",
        "range": [0, top * 1.25],
        "tickmode": "linear",
        "tick0": 0,
        "dtick": math.ceil(top / 5),
        "tickformat": "d",
    }
    xaxis = {"type": "category", "categoryorder": "array", "categoryarray": labels}
    return figure(data, title, 360, xaxis=xaxis, yaxis=yaxis)


@cached_figure
def advantage_figure(labels: tuple[str, ...] | None, group: RoomGroup) -> dict:
    """(K,) one bar per student: their advantage, blue up, vermillion hatched down.

    ``labels`` None draws the room anonymously (the projector): bars numbered, no names.
    """
    values = [float(a) for a in group.advantages]
    k = len(values)
    named = labels is not None and k <= MAX_LABELLED
    names = [html.escape(x, quote=False) for x in labels] if labels is not None else [""] * k
    bar = {
        "type": "bar",
        "x": names if named else list(range(1, k + 1)),
        "y": values,
        "marker": sign_marker(values),
        "customdata": [
            [f"{n}: " if n else "", float(r)] for n, r in zip(names, group.rewards, strict=True)
        ],
        "hovertemplate": "%{customdata[0]}reward %{customdata[1]}, advantage %{y:+.3f}"
        "<extra></extra>",
    }
    if k <= MAX_LABELLED:
        bar.update(text=[signed(v) for v in values], textposition="outside")
    if named:
        xaxis = {"type": "category", "tickangle": -45 if k > 12 else 0}
    else:
        xaxis = {"title": plural(k, "student"), "showticklabels": False}
    title = f"The room as one group: K = {group.k}, advantages under {group.convention}"
    return figure([bar], title, 420, xaxis=xaxis, yaxis={"title": "advantage", "zeroline": True})
