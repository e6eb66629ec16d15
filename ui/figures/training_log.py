"""Figures of the training-log page: signal per step, rewards per step, what Dr. GRPO
changes per group, and the two multi-reward aggregations answer by answer.

Text from the uploaded file never reaches a figure: the axes show steps and numbers only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.figures.common import DASHES, MARKERS, cached_figure, figure, hex_rgba
from ui.theme import NEGATIVE, NEUTRAL, POSITIVE, SERIES


@cached_figure
def signal_figure(steps: pd.DataFrame) -> dict:
    """Lines over steps: zero-spread groups, near ties, and the effective batch (fractions)."""
    series = {
        "zero-spread groups": steps["zero_spread"],
        "near-tie groups": steps["near_tie"],
        "answers with signal (effective batch)": steps["effective_fraction"],
    }
    data = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "x": steps["step"].to_numpy(),
            "y": y.to_numpy(),
            "name": name,
            "line": {"color": SERIES[i], "dash": DASHES[i]},
            "marker": {"symbol": MARKERS[i]},
            "hovertemplate": "step %{x}: %{y:.1%}<extra>" + name + "</extra>",
        }
        for i, (name, y) in enumerate(series.items())
    ]
    return figure(
        data,
        "Signal per step",
        360,
        xaxis={"title": "step"},
        yaxis={"title": "fraction", "range": [0, 1.02], "tickformat": ".0%"},
    )


@cached_figure
def reward_figure(steps: pd.DataFrame) -> dict:
    """The mean reward per step with a band of ± one std (every reward of the step)."""
    x = steps["step"].to_numpy()
    mean, std = steps["reward_mean"].to_numpy(), steps["reward_std"].to_numpy()
    band = {
        "type": "scatter",
        "mode": "lines",
        "x": [*x, *x[::-1]],
        "y": [*(mean + std), *(mean - std)[::-1]],
        "fill": "toself",
        "fillcolor": hex_rgba(POSITIVE, 0.15),
        "line": {"width": 0},
        "hoverinfo": "skip",
        "name": "± one std",
    }
    line = {
        "type": "scatter",
        "mode": "lines+markers",
        "x": x,
        "y": mean,
        "name": "mean reward",
        "line": {"color": POSITIVE},
        "hovertemplate": "step %{x}: mean %{y:.4g}<extra></extra>",
    }
    return figure(
        [band, line], "Reward per step", 360, xaxis={"title": "step"}, yaxis={"title": "reward"}
    )


PUSH_SERIES = (
    ("grpo_push", "GRPO (divides by std)", POSITIVE),
    ("dr_grpo_push", "Dr. GRPO", NEUTRAL),
)


MAX_POINTS = 2_000
"""The most markers a per-group or per-answer scatter draws: a browser draws 10^5 SVG
markers in tens of seconds, and a million-row log has 60,000 groups."""


def drawn_points(frame: pd.DataFrame, columns: list[str]) -> tuple[pd.DataFrame, bool]:
    """The rows of ``frame`` a scatter of ``columns`` needs, and whether some were left out.

    Points that coincide on screen (equal to 4 significant digits: 0/1 rewards give a few
    dozen distinct groups) are drawn once; past MAX_POINTS, evenly spaced rows are kept.
    """
    rounded = pd.DataFrame({c: _significant(frame[c].to_numpy(), 4) for c in columns})
    distinct = frame.loc[~rounded.duplicated().to_numpy()]
    if len(distinct) <= MAX_POINTS:
        return distinct, False
    keep = np.linspace(0, len(distinct) - 1, MAX_POINTS).round().astype(int)
    return distinct.iloc[keep], True


def _significant(x: np.ndarray, digits: int) -> np.ndarray:
    """x rounded to ``digits`` significant digits (0 and non-finite values unchanged)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = 10.0 ** (digits - 1 - np.floor(np.log10(np.abs(x))))
    scale[~np.isfinite(scale)] = 1.0
    return np.round(x * scale) / scale


@cached_figure
def push_figure(effects: pd.DataFrame) -> dict:
    """Per group: the mean |advantage| under GRPO (trl) and Dr. GRPO against its mean
    reward (coinciding groups drawn once, at most MAX_POINTS)."""
    drawn, sampled = drawn_points(effects, ["mean", "grpo_push", "dr_grpo_push"])
    data = [
        {
            "type": "scatter",
            "mode": "markers",
            "x": drawn["mean"].to_numpy(),
            "y": drawn[column].to_numpy(),
            "name": name,
            "marker": {"color": colour, "symbol": MARKERS[i], "opacity": 0.7},
            "hovertemplate": "mean reward %{x:.3g}: push %{y:.3g}<extra>" + name + "</extra>",
        }
        for i, (column, name, colour) in enumerate(PUSH_SERIES)
    ]
    title = "How hard each group pushes"
    if sampled:
        title += f" ({MAX_POINTS:,} of {len(effects):,} groups drawn)"
    return figure(
        data,
        title,
        380,
        xaxis={"title": "group's mean reward (pass rate for 0/1 rewards)"},
        yaxis={"title": "mean |advantage| in the group"},
    )


@cached_figure
def aggregation_figure(compared: pd.DataFrame) -> dict:
    """One point per answer: sum-then-normalise (x) against normalise-then-sum (y); answers
    whose sign differs are drawn as vermillion crosses (coinciding answers drawn once, at
    most MAX_POINTS)."""
    compared, _ = drawn_points(compared, ["sum then normalise", "normalise then sum"])
    flipped = compared["sign_changed"].to_numpy()
    data = []
    for mask, name, colour, symbol in (
        (~flipped, "same sign", POSITIVE, "circle"),
        (flipped, "sign changes", NEGATIVE, "x"),
    ):
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": compared["sum then normalise"].to_numpy()[mask],
                "y": compared["normalise then sum"].to_numpy()[mask],
                "name": name,
                "marker": {"color": colour, "symbol": symbol, "size": 8},
                "hovertemplate": "sum then normalise %{x:.3g}<br>normalise then sum %{y:.3g}"
                "<extra>" + name + "</extra>",
            }
        )
    return figure(
        data,
        "Each answer's advantage, both ways",
        380,
        xaxis={"title": "sum, then normalise per group", "zeroline": True},
        yaxis={"title": "normalise each, then sum", "zeroline": True},
    )
