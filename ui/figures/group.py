"""Figures of one group of answers (home, playground, walkthrough): its rewards and its
advantages as bars, one bar per answer."""

from __future__ import annotations

import numpy as np

from grpo_core.format import fmt, signed
from ui.figures.common import band, cached_figure, figure, hline
from ui.theme import BAND, BAND_EDGE, INK, NEGATIVE, NEGATIVE_PATTERN, NEUTRAL, POSITIVE


def answer_labels(group_size: int, numbers=None) -> list[str]:
    """'#1', '#2', ... for the answers of a group: their ``numbers`` (one per answer, as a
    grid's rows, where a cell left out keeps its number), or 1..K when None."""
    numbers = range(1, group_size + 1) if numbers is None else numbers
    labels = [f"#{int(i)}" for i in numbers]
    if len(labels) != group_size:
        raise ValueError(f"{len(labels)} answer numbers for {group_size} answers.")
    return labels


def _clip_line(y: float) -> dict:
    return hline(y, xref="x domain", width=2, color=NEUTRAL, dash="dot")


def _axes(y_title: str) -> dict:
    return {"yaxis": {"title": y_title}, "xaxis": {"title": "answer", "type": "category"}}


@cached_figure
def rewards_figure(
    rewards,
    mean: float | None,
    std: float | None,
    *,
    title: str,
    centred: bool = False,
    numbers=None,
) -> dict:
    """Rewards of one group as bars, the group mean as a line (unless None) and
    mean ± std as a band (unless None). With ``centred`` the bars show R - mean
    and the line sits at 0. Bars are labelled by the answers' ``numbers`` (1..K if None)."""
    rewards = np.asarray(rewards, dtype=float)
    level = 0.0 if centred else (mean or 0.0)
    data, shapes = [], []
    if std is not None and std > 0:
        edge = {"color": BAND_EDGE, "width": 1, "dash": "dot"}
        shapes.append(band(level - std, level + std, fillcolor=BAND, line=edge))
        band_marker = {"symbol": "square", "size": 14, "color": BAND, "line": {"color": BAND_EDGE}}
        data.append(  # a legend entry for the band
            {
                "type": "scatter",
                "x": [None],
                "y": [None],
                "mode": "markers",
                "name": f"± 1 std ({fmt(std)})",
                "marker": band_marker,
            }
        )
    data.append(
        {
            "type": "bar",
            "x": answer_labels(len(rewards), numbers),
            "y": rewards,
            "name": "R − mean" if centred else "reward",
            "marker": {"color": NEUTRAL},
            "text": [signed(r) if centred else fmt(r) for r in rewards],  # −0.5, as A's bars
            "textposition": "outside",
            "cliponaxis": False,
            "hovertemplate": "answer %{x}: %{y}<extra></extra>",
        }
    )
    if mean is not None:
        shapes.append(hline(level, xref="x domain", width=2, dash="dash"))
        data.append(  # the line's name in the legend: written on the plot it sat on a bar
            {
                "type": "scatter",
                "x": [None],
                "y": [None],
                "mode": "lines",
                "name": "0 = the mean" if centred else f"mean {fmt(mean)}",
                "line": {"color": INK, "width": 2, "dash": "dash"},
            }
        )
    return figure(
        data,
        title,
        320,
        shapes=shapes,
        **_axes("R − mean" if centred else "reward"),
    )


@cached_figure
def advantages_figure(advantages, *, title: str, clip: float | None = None, numbers=None) -> dict:
    """Signed bars: up and blue with "+" for pushed up, down, vermillion, hatched, "−" for down;
    labelled by the answers' ``numbers`` (1..K if None)."""
    advantages = np.asarray(advantages, dtype=float)
    positive = advantages > 0
    marker = {
        "color": [POSITIVE if p else NEGATIVE for p in positive],
        "pattern": {"shape": ["" if p else NEGATIVE_PATTERN for p in positive]},
    }
    bars = {
        "type": "bar",
        "x": answer_labels(len(advantages), numbers),
        "y": advantages,
        "marker": marker,
        "text": [signed(a) for a in advantages],
        "textposition": "outside",
        "cliponaxis": False,
        "hovertemplate": "answer %{x}: A = %{y:.4g}<extra></extra>",
        "showlegend": False,
    }
    shapes = [] if clip is None else [_clip_line(y) for y in (clip, -clip)]
    axes = _axes("advantage A")
    axes["yaxis"]["zeroline"] = True
    return figure([bars], title, 320, shapes=[*shapes, hline(0, xref="x domain")], **axes)
