"""Figures of the difficulty bias page: how GRPO's std division weights a group by its
pass rate, against Dr. GRPO's constant weight."""

from __future__ import annotations

import pandas as pd

from grpo_core.format import fmt
from ui.figures.common import (
    LABEL_BG,
    cached_figure,
    figure,
    hline,
    vline,
)
from ui.theme import (
    ACCENT,
    INK,
    NEGATIVE,
    NEUTRAL,
    POSITIVE,
)


@cached_figure
def weight_figure(
    curve: pd.DataFrame,
    groups: pd.DataFrame,
    *,
    chosen_p: float,
    chosen_weight: float,
    group_size: int,
) -> dict:
    """1/std against pass rate: the closed form as a line, sampled groups as rings.

    curve: columns p, weight. groups: SampledBinaryGroups.groups (p_hat, weight).
    """
    data = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": curve["p"].to_numpy(),
            "y": curve["weight"].to_numpy(),
            "name": "closed form 1/std",
            "line": {"color": POSITIVE, "width": 3},
            "hovertemplate": "p = %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "x": groups["p_hat"].to_numpy(),
            "y": groups["weight"].to_numpy(),
            "name": f"sampled groups of K = {group_size}",
            "marker": {
                "color": NEGATIVE,
                "size": 10,
                "opacity": 0.35,
                "symbol": "circle-open",
                "line": {"width": 2},
            },
            "hovertemplate": "group pass rate %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": [chosen_p],
            "y": [chosen_weight],
            "name": "your group",
            "text": [fmt(chosen_weight, 3)],
            "textposition": "top center",
            "marker": {
                "color": ACCENT,
                "size": 14,
                "symbol": "diamond",
                "line": {"color": INK, "width": 1},
            },
            "hovertemplate": "p = %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
    ]
    dr_grpo = hline(1.0, width=2, color=NEUTRAL, dash="dot")
    return figure(
        data,
        "How much GRPO's std division weights a group",
        440,
        xaxis={"title": "pass rate p (fraction of right answers)", "range": [0, 1]},
        yaxis={"title": "weight 1 / std", "rangemode": "tozero"},
        shapes=[dr_grpo],
        annotations=[
            {
                "text": "Dr. GRPO: weight 1",
                "x": 0.5,
                "xref": "x",
                "y": 1,
                "yref": "y",
                "yanchor": "top",
                "showarrow": False,
                "bgcolor": LABEL_BG,
            }
        ],
    )


@cached_figure
def binary_advantages_figure(frame: pd.DataFrame, *, chosen_p: float) -> dict:
    """Right and wrong answers' advantages against p, GRPO solid, Dr. GRPO dashed
    (``difficulty_bias_frame``)."""
    style = {
        ("GRPO", "correct"): (POSITIVE, "solid"),
        ("GRPO", "wrong"): (NEGATIVE, "solid"),
        ("Dr. GRPO", "correct"): (POSITIVE, "dash"),
        ("Dr. GRPO", "wrong"): (NEGATIVE, "dash"),
    }
    data = []
    for (method, answer), (color, dash) in style.items():
        rows = frame[(frame["method"] == method) & (frame["answer"] == answer)]
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": rows["p"].to_numpy(),
                "y": rows["advantage"].to_numpy(),
                "name": f"{method}, {'right (+)' if answer == 'correct' else 'wrong (−)'} answer",
                "line": {"color": color, "dash": dash, "width": 3},
                "hovertemplate": "p = %{x:.3g}: A = %{y:.3g}<extra>" + method + "</extra>",
            }
        )
    return figure(
        data,
        "A right and a wrong answer's advantage, GRPO vs Dr. GRPO",
        440,
        xaxis={"title": "pass rate p", "range": [0, 1]},
        yaxis={"title": "advantage A"},
        shapes=[hline(0.0), vline(chosen_p, ACCENT, "solid")],
    )
