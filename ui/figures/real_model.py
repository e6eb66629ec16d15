"""The real-model page's figure: Δ log p(answer) after one step against the advantage.

One point per answer; a point in the upper-right or lower-left quadrant moved in the
direction of its advantage. Answer text never reaches the figure: points are numbered.
"""

from __future__ import annotations

import numpy as np

from ui.figures.common import cached_figure, figure, hline, sign_colour
from ui.theme import NEUTRAL


@cached_figure
def delta_figure(advantages: np.ndarray, delta: np.ndarray) -> dict:
    """Scatter of (A_i, Δ log p_i), numbered 1..K, with the zero lines.

    Answers with the same advantage (a binary reward gives two values) are set side by side
    around it, in the order of their Δ log p, so their numbers never overprint; the hover
    gives each answer's exact A.
    """
    a = np.asarray(advantages, dtype=float)
    d = np.asarray(delta, dtype=float)
    # Side by side 6 % of the axis apart, about 15 px on a 390 px phone's plot, numbers
    # above and below in turn: neighbours of nearly equal Δ never cover each other's number
    # (2.5 % apart with numbers on the right overprinted three numbers there).
    x, rank = _side_by_side(a, d, width=0.06 * (max(a.max(), 0.0) - min(a.min(), 0.0) + 0.6))
    low, high = min(x.min(), 0.0) - 0.3, max(x.max(), 0.0) + 0.3  # no point on an edge
    numbers = [str(i + 1) for i in range(len(a))]
    spread = float(d.max() - d.min()) or max(abs(float(d.max())), 1e-3)
    data = [
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": x,
            "y": d,
            "text": numbers,
            "customdata": a,
            "textposition": ["top center" if r % 2 == 0 else "bottom center" for r in rank],
            "marker": {
                "size": 13,
                "color": [sign_colour(v) for v in a],
                "symbol": ["triangle-up" if v > 0 else "triangle-down" for v in a],
            },
            "hovertemplate": (
                "answer %{text}: A = %{customdata:.3f}, Δ log p = %{y:.4f}<extra></extra>"
            ),
            "name": "answers",
        }
    ]
    return figure(
        data,
        "Δ log p(answer) after one step, against its advantage",
        380,
        xaxis={
            "title": "advantage A",
            "zeroline": True,
            "zerolinecolor": NEUTRAL,
            "range": [low, high],
        },
        yaxis={
            "title": "Δ log p(answer) (nats)",
            "range": [min(d.min(), 0.0) - 0.15 * spread, max(d.max(), 0.0) + 0.15 * spread],
        },
        shapes=[hline(0.0, dash="dot", color=NEUTRAL)],
        showlegend=False,
    )


def _side_by_side(a: np.ndarray, d: np.ndarray, width: float) -> tuple[np.ndarray, np.ndarray]:
    """(K,) x positions and (K,) ranks: each answer at its advantage, those sharing one
    spread ``width`` apart around it, ordered by Δ log p (rank: the place in that order)."""
    x, rank = a.copy(), np.zeros(len(a), dtype=int)
    for value in np.unique(a):
        same = np.flatnonzero(a == value)
        same = same[np.argsort(d[same], kind="stable")]
        x[same] = value + (np.arange(len(same)) - (len(same) - 1) / 2) * width
        rank[same] = np.arange(len(same))
    return x, rank


@cached_figure
def curve_figure(steps_taken: tuple[int, ...], right: tuple[int, ...], k: int) -> dict:
    """Pass rate (right / K) of each fresh group, in the order sampled, labelled by the
    steps taken before it (a group without a spread takes no step: the next one is labelled
    the same)."""
    groups = list(range(1, len(right) + 1))
    data = [
        {
            "type": "scatter",
            "mode": "lines+markers+text",
            "x": groups,
            "y": [r / k for r in right],
            "text": [f"{r}/{k}" for r in right],
            "textposition": "top center",
            "marker": {"size": 11, "color": NEUTRAL},
            "line": {"color": NEUTRAL},
            "hovertemplate": "group %{x}: %{text} right<extra></extra>",
            "name": "pass rate",
        }
    ]
    ticks = [f"{g}<br>after {s}" for g, s in zip(groups, steps_taken, strict=True)]
    return figure(
        data,
        "Pass rate of each fresh group",
        300,
        xaxis={
            "title": "group, after how many steps",
            "tickvals": groups,
            "ticktext": ticks,
            "range": [0.6, len(groups) + 0.4],
        },
        yaxis={"title": "pass rate", "range": [-0.05, 1.2], "tickformat": ".0%"},
        showlegend=False,
    )
