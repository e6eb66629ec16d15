"""Figures of the zero-spread / dynamic sampling page: how often a group has no spread,
and what DAPO's dynamic sampling keeps and refills."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.figures.common import (
    DASHES,
    cached_figure,
    figure,
    panels,
)
from ui.theme import (
    BAND_EDGE,
    NEGATIVE_PATTERN,
    NEUTRAL,
    POSITIVE,
    SERIES,
)


@cached_figure
def zero_spread_figure(
    x, curves: dict[str, np.ndarray], *, x_title: str, title: str, highlight: str
) -> dict:
    """Lines of P(all K answers equal); ``highlight`` names the line drawn thickest."""
    data = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": x,
            "y": y,
            "name": name,
            "line": {
                "color": SERIES[i % len(SERIES)],
                "dash": DASHES[i % len(DASHES)],
                "width": 5 if name == highlight else 2,
            },
            "hovertemplate": "%{x:.3g}: %{y:.1%}<extra>" + name + "</extra>",
        }
        for i, (name, y) in enumerate(curves.items())
    ]
    return figure(
        data,
        title,
        400,
        xaxis={"title": x_title},
        yaxis={"title": "P(all answers equal)", "range": [0, 1.02], "tickformat": ".0%"},
    )


@cached_figure
def stages_figure(summary: pd.DataFrame) -> dict:
    """Stacked bars per stage: groups with signal (blue) and without (grey, hatched)."""
    data = [
        {
            "type": "bar",
            "x": summary["stage"].to_numpy(),
            "y": summary["with_signal"].to_numpy(),
            "name": "groups with signal",
            "marker": {"color": POSITIVE},
            "text": summary["with_signal"].to_numpy(),
            "textposition": "inside",
        },
        {
            "type": "bar",
            "x": summary["stage"].to_numpy(),
            "y": summary["without_signal"].to_numpy(),
            "name": "all-equal groups (no signal)",
            "marker": {"color": NEUTRAL, "pattern": {"shape": NEGATIVE_PATTERN}},
            "text": [n or "" for n in summary["without_signal"]],
            "textposition": "outside",  # above the stack, on the background, not on hatching
            "cliponaxis": False,
        },
    ]
    return figure(data, "The batch at each stage", 400, barmode="stack", yaxis={"title": "groups"})


@cached_figure
def pass_rates_figure(before: pd.DataFrame, after: np.ndarray) -> dict:
    """Pass rates of the first batch (with / without signal) and of the refilled batch.

    before: columns p, signal (bool).
    """
    axes, notes = panels(["first batch", "refilled batch"])
    bins = {"start": 0, "end": 1, "size": 0.05}
    data = [
        {
            "type": "histogram",
            "x": before.loc[before["signal"], "p"].to_numpy(),
            "xbins": bins,
            "name": "with signal",
            "marker": {"color": POSITIVE},
        },
        {
            "type": "histogram",
            "x": before.loc[~before["signal"], "p"].to_numpy(),
            "xbins": bins,
            "name": "all-equal (dropped)",
            "marker": {"color": NEUTRAL, "pattern": {"shape": NEGATIVE_PATTERN}},
        },
        {
            "type": "histogram",
            "x": after,
            "xbins": bins,
            "xaxis": "x2",
            "yaxis": "y2",
            "name": "refilled batch (all with signal)",
            "marker": {"color": BAND_EDGE},
        },
    ]
    for suffix in ("", "2"):
        axes[f"xaxis{suffix}"].update(title="prompt's pass rate p", range=[0, 1])
    axes["yaxis"]["title"] = "prompts"
    axes["yaxis2"]["matches"] = "y"
    return figure(
        data,
        "",
        430,
        barmode="stack",
        annotations=notes,
        margin={"t": 40, "b": 110},
        legend={"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0, "xanchor": "left"},
        **axes,
    )
