"""Figures of the training simulator: one line per estimator against the training step,
each estimator in its own colour, dash and marker (``Estimator.style``) on every chart."""

from __future__ import annotations

import numpy as np
import pandas as pd

from grpo_core.estimators import ESTIMATORS
from ui.figures.common import DASHES, MARKERS, cached_figure, figure, hex_rgba
from ui.theme import SERIES

TOP_MARGIN = {"t": 96}  # room for the legend of six estimators above the plot


def estimator_style(name: str) -> tuple[str, str, str]:
    """(colour, dash, marker) of an estimator."""
    i = ESTIMATORS[name].style
    return SERIES[i], DASHES[i], MARKERS[i]


def _line(name: str, x, y, *, every: int) -> dict:
    colour, dash, symbol = estimator_style(name)
    label = ESTIMATORS[name].label
    return {
        "type": "scatter",
        "x": x,
        "y": y,
        "name": label,
        "legendgroup": name,
        "mode": "lines+markers",
        "line": {"color": colour, "dash": dash, "width": 2},
        "marker": {"symbol": symbol, "size": 7, "maxdisplayed": max(len(x) // every, 8)},
        "hovertemplate": f"{label}<br>step %{{x}}: %{{y:.4g}}<extra></extra>",
    }


def _band(x, lower, upper, colour: str, alpha: float, **trace) -> dict:
    """A shaded area between two curves (no line), drawn as one closed polygon."""
    return {
        "type": "scatter",
        "x": np.concatenate([x, x[::-1]]),
        "y": np.concatenate([upper, lower[::-1]]),
        "fill": "toself",
        "fillcolor": hex_rgba(colour, alpha),
        "line": {"width": 0},
        "hoverinfo": "skip",
        **trace,
    }


def _steps(y_axis: dict) -> dict:
    return {"xaxis": {"title": "training step"}, "yaxis": y_axis, "margin": TOP_MARGIN}


@cached_figure
def accuracy_figure(bands: pd.DataFrame, *, lower: str, upper: str, title: str) -> dict:
    """Mean accuracy per estimator with a shaded band between columns ``lower`` and ``upper``."""
    data = []
    for name, rows in bands.groupby("estimator", sort=False):
        step = rows["step"].to_numpy()
        colour = estimator_style(name)[0]
        band = _band(step, rows[lower].to_numpy(), rows[upper].to_numpy(), colour, 0.15)
        data.append({**band, "showlegend": False, "legendgroup": name})
        data.append(_line(name, step, rows["mean"].to_numpy(), every=20))
    y_axis = {"title": "P(correct), mean over prompts", "range": [0, 1], "tickformat": ".0%"}
    return figure(data, title, 430, **_steps(y_axis))


@cached_figure
def curves_figure(
    curves: pd.DataFrame, column: str, *, title: str, y_title: str, log=False, pct=False
) -> dict:
    """One line per estimator of ``column`` against the training step."""
    data = [
        _line(name, rows["step"].to_numpy(), rows[column].to_numpy(), every=20)
        for name, rows in curves.groupby("estimator", sort=False)
    ]
    y_axis = {"title": y_title, "type": "log" if log else "linear"}
    if log:
        y_axis.update(dtick=1, exponentformat="power")  # one label a decade
    if pct:
        y_axis.update(range=[0, 1.02], tickformat=".0%")
    return figure(data, title, 380, **_steps(y_axis))


@cached_figure
def critic_error_figure(bands: pd.DataFrame, *, title: str) -> dict:
    """The critic's RMS value error per step: mean over seeds and its min-max band."""
    colour, dash, _ = estimator_style("ppo-critic")
    step = bands["step"].to_numpy()
    data = [
        _band(
            step,
            bands["min"].to_numpy(),
            bands["max"].to_numpy(),
            colour,
            0.18,
            name="min–max over seeds",
        ),
        {
            "type": "scatter",
            "x": step,
            "y": bands["mean"].to_numpy(),
            "name": "mean over seeds",
            "line": {"color": colour, "dash": dash, "width": 2},
            "hovertemplate": "step %{x}: RMS error %{y:.3f}<extra></extra>",
        },
    ]
    y_axis = {"title": "RMS of V − E[R] over prompts", "rangemode": "tozero"}
    return figure(data, title, 380, **_steps(y_axis))
