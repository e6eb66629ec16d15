"""Figures of the epsilon lab: every answer's advantage against eps, with the regimes
where eps does not matter (z-score) and where it dominates (damped).

Log axes: Plotly places annotations on a log axis by the exponent, log10(eps);
shapes and traces take eps as it is.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from grpo_core.format import fmt
from ui.figures.common import (
    DASHES,
    cached_figure,
    figure,
    hline,
    label,
    vline,
)
from ui.theme import (
    ACCENT,
    BAND,
    INK,
    NEUTRAL,
    SERIES,
)

ZSCORE_BAND = "rgba(0, 114, 178, 0.10)"  # blue, for "std ≫ eps"
MAX_NAMED_LINES = 7
"""More distinct rewards than this are drawn as one grey trace without a legend per line."""


def _answers(numbers) -> str:
    numbers = list(numbers)
    shown = ", ".join(str(n) for n in numbers[:6]) + (", …" if len(numbers) > 6 else "")
    return f"answer{'s' * (len(numbers) > 1)} {shown}"


@cached_figure
def eps_sweep_figure(
    sweep: pd.DataFrame,
    *,
    std: float,
    bounds: tuple[float, float] | None,
    library_eps: dict[str, float],
    chosen: pd.DataFrame | None,
) -> dict:
    """Every answer's advantage against eps on a log axis.

    sweep: eps_sweep_frame over the eps grid; answers with equal rewards share a line.
    bounds: regime_bounds(std), shaded as "z-score" left of the first and "damped"
    right of the second (None for a group without spread). library_eps: vertical
    lines labelled "TRL 1e-4" etc. chosen: eps_sweep_frame at the page's eps (None
    for eps = 0, which a log axis cannot show), drawn as a line and diamonds.
    """
    eps = sweep["eps"].to_numpy()
    low, high = math.log10(eps.min()), math.log10(eps.max())
    first = sweep[sweep["eps"] == eps.min()]
    lines = first.groupby("reward", sort=True)["answer"].apply(list)
    data = []
    if len(lines) > MAX_NAMED_LINES:
        # One trace, lines separated by gaps: a legend of dozens of answers helps no one.
        wide = sweep.pivot(index="answer", columns="eps", values="advantage")
        gap = np.full((len(wide), 1), np.nan)
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": f"{len(wide)} answers, one line each",
                "x": np.hstack([np.tile(wide.columns.to_numpy(), (len(wide), 1)), gap]).ravel(),
                "y": np.hstack([wide.to_numpy(), gap]).ravel(),
                "line": {"color": NEUTRAL, "width": 2},
                "connectgaps": False,
                "hovertemplate": "eps %{x:.3g}: A = %{y:.4g}<extra></extra>",
            }
        )
    else:
        for i, (reward, answers) in enumerate(lines.items()):
            rows = sweep[sweep["answer"] == answers[0]]
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "x": rows["eps"].to_numpy(),
                    "y": rows["advantage"].to_numpy(),
                    "name": f"{_answers(answers)} (R = {reward:.12g})",
                    "line": {"color": SERIES[i], "dash": DASHES[i % len(DASHES)], "width": 3},
                    "hovertemplate": "eps %{x:.3g}: A = %{y:.4g}<extra>"
                    + f"R = {reward:.12g}</extra>",
                }
            )
    shapes, notes = [hline(0.0, width=1)], []
    if bounds is not None:
        # bands in eps; their labels at the band's middle in log10(eps)
        z_end, damped_start = bounds
        for x0, x1, color, text in (
            (eps.min(), min(z_end, eps.max()), ZSCORE_BAND, "z-score<br>std ≫ eps"),
            (max(damped_start, eps.min()), eps.max(), BAND, "damped<br>std ≪ eps"),
        ):
            if x1 > x0:
                shapes.append(
                    {
                        "type": "rect",
                        "xref": "x",
                        "yref": "paper",
                        "x0": x0,
                        "x1": x1,
                        "y0": 0,
                        "y1": 1,
                        "fillcolor": color,
                        "line": {"width": 0},
                        "layer": "below",
                    }
                )
                middle = (math.log10(x0) + math.log10(x1)) / 2
                notes.append(label(middle, 1.0, text, yanchor="bottom"))  # above the curves
        if eps.min() < std < eps.max():
            shapes.append(vline(std, NEUTRAL, "dot"))
            notes.append(
                label(
                    math.log10(std),
                    0.02,
                    f"eps = std<br>{fmt(std, 2)}",
                    NEUTRAL,
                    xanchor="left",
                    yanchor="bottom",
                    xshift=3,
                )
            )
    for library, value in library_eps.items():
        shapes.append(vline(value, INK, "dash"))
        notes.append(
            label(
                math.log10(value),
                0.80,
                f"{library} {fmt(value)}",
                xanchor="left",
                yanchor="bottom",
                xshift=3,
            )
        )
    if chosen is not None:
        at = float(chosen["eps"].iloc[0])
        shapes.append(vline(at, ACCENT, "solid"))
        notes.append(
            label(
                math.log10(at),
                0.12,
                f"your eps<br>{fmt(at)}",
                ACCENT,
                xanchor="left",
                yanchor="bottom",
                xshift=3,
            )
        )
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": "at your eps",
                "x": chosen["eps"].to_numpy(),
                "y": chosen["advantage"].to_numpy(),
                "text": chosen["answer"].to_numpy(),
                "marker": {
                    "color": ACCENT,
                    "size": 11,
                    "symbol": "diamond",
                    "line": {"color": INK, "width": 1},
                },
                "hovertemplate": "answer %{text}: A = %{y:.4g}<extra>your eps</extra>",
            }
        )
    return figure(
        data,
        "Advantages of the group at every eps",
        480,
        xaxis={
            "type": "log",
            "range": [low, high],
            "title": "eps (log scale)",
            "dtick": 1,
            "exponentformat": "power",
        },
        yaxis={"title": "advantage A"},
        legend={"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0, "xanchor": "left"},
        margin={"b": 130},
        shapes=shapes,
        annotations=notes,
    )
