"""Figures of the "PPO critic vs GRPO" page: per-token advantages as heatmaps and lines,
and what the critic costs in memory and compute. Numbers from grpo_core; only colour
ranges and labels are chosen here."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.figures.common import DASHES, MARKERS, cached_figure, figure, hline
from ui.theme import INK, NEGATIVE, POSITIVE, SERIES

SIGN_TITLE = "A: + up, − down"
MODEL_STYLE = {  # colour and hatch per model: the stack is told apart without colour too
    "policy": (SERIES[0], ""),
    "reference model": (SERIES[5], "."),
    "reward model": (SERIES[4], "x"),
    "value model": (SERIES[1], "/"),
}
COMPUTE_PARTS = (  # column, name, colour, hatch of each part of a step's compute
    ("generation_tflop", "generation", SERIES[0], ""),
    ("update_tflop", "policy update", SERIES[2], "."),
    ("critic_tflop", "critic", SERIES[1], "/"),
)


def colour_limit(*arrays) -> float:
    """One symmetric colour range for several heatmaps, so equal colours mean equal numbers."""
    finite = [np.abs(a[np.isfinite(a)]) for a in arrays]
    top = max((float(f.max()) for f in finite if f.size), default=0.0)
    return top if top > 0 else 1.0


@cached_figure
def heatmap_figure(z, rows: tuple[str, ...], *, title: str, limit: float) -> dict:
    """Per-token advantages: rows = responses, columns = token positions, NaN = padding.

    Diverging vermillion - white - blue centred at 0; each cell also carries "+" or "−"
    (when the cells are wide enough) so the sign is not told by colour alone.
    """
    z = np.asarray(z, dtype=float)
    b, t = z.shape
    signs = np.where(np.isnan(z), "", np.where(z > 0, "+", np.where(z < 0, "−", "0")))
    cells = {
        "type": "heatmap",
        "z": z,
        "x": list(range(1, t + 1)),
        "y": list(rows),
        "colorscale": [[0.0, NEGATIVE], [0.5, "#FFFFFF"], [1.0, POSITIVE]],
        "zmid": 0,
        "zmin": -limit,
        "zmax": limit,
        "text": signs,
        "texttemplate": "%{text}" if t <= 40 else None,
        "textfont": {"size": 11},  # plotly picks black or white per cell for contrast
        "xgap": 1,
        "ygap": 2,
        "hoverongaps": False,
        "colorbar": {"title": {"text": SIGN_TITLE, "side": "right"}, "thickness": 12},
        "hovertemplate": "%{y}<br>token %{x}<br>A = %{z:.4f}<extra></extra>",
    }
    return figure(
        [cells],
        title,
        110 + 30 * b,
        margin={"l": 110, "r": 8, "t": 40, "b": 40},
        yaxis={"autorange": "reversed", "type": "category", "showgrid": False},
        xaxis={"title": "token position", "showgrid": False, "range": [0.5, t + 0.5]},
    )


@cached_figure
def token_lines_figure(series: dict[str, np.ndarray], *, title: str) -> dict:
    """Advantage per token of one response, one line per method (colour and dash)."""
    data = [
        {
            "type": "scatter",
            "x": list(range(1, len(y) + 1)),
            "y": y,
            "name": name,
            "mode": "lines+markers",
            "line": {"color": SERIES[i], "dash": DASHES[i]},
            "marker": {"size": 5, "symbol": MARKERS[i % 3]},
            "hovertemplate": f"{name}<br>token %{{x}}: A = %{{y:.4f}}<extra></extra>",
        }
        for i, (name, y) in enumerate(series.items())
    ]
    return figure(  # the legend where figure puts it: under the title, never over it
        data,
        title,
        380,
        shapes=[hline(0, xref="x domain", width=1)],
        xaxis={"title": "token position"},
        yaxis={"title": "advantage A"},
    )


@cached_figure
def memory_figure(by_model: pd.DataFrame, *, title: str) -> dict:
    """Stacked bars of GB per model, one bar per setup (with / without the critic).

    The numbers stand on the page's background, never on a fill: each model's GB in its
    legend entry, each setup's total above its bar. Fills are the model's colour with its
    hatch over it, so the stack reads without colour too.
    """
    data = []
    for model, (colour, hatch) in MODEL_STYLE.items():
        rows = by_model[by_model["model"] == model]
        if rows.empty:
            continue
        sizes = " / ".join(f"{gb:,.0f}" for gb in dict.fromkeys(rows["gb"]))
        data.append(
            {
                "type": "bar",
                "x": rows["setup"].to_numpy(),
                "y": rows["gb"].to_numpy(),
                "name": f"{model} {sizes} GB",
                "marker": {
                    "color": colour,
                    "pattern": {"shape": hatch, "fillmode": "overlay", "fgcolor": INK},
                },
                "hovertemplate": f"{model}: %{{y:,.1f}} GB<extra>%{{x}}</extra>",
            }
        )
    totals = by_model.groupby("setup", sort=False)["gb"].sum()
    notes = [
        {
            "x": setup,
            "y": gb,
            "text": f"<b>{gb:,.0f} GB</b>",
            "yanchor": "bottom",
            "showarrow": False,
            "font": {"size": 14},
        }
        for setup, gb in totals.items()
    ]
    return figure(
        data,
        title,
        420,
        barmode="stack",
        annotations=notes,
        legend={"traceorder": "normal"},
        yaxis={"title": "GB (10⁹ bytes)", "range": [0, float(totals.max()) * 1.15]},
    )


@cached_figure
def compute_figure(frame: pd.DataFrame, *, title: str) -> dict:
    """Stacked horizontal bars of TFLOP per training step: generation, policy update, critic."""
    data = [
        {
            "type": "bar",
            "y": frame["setup"].to_numpy(),
            "x": frame[column].to_numpy(),
            "name": name,
            "orientation": "h",
            "marker": {
                "color": colour,
                "pattern": {"shape": hatch, "fillmode": "overlay", "fgcolor": INK},
            },
            "hovertemplate": f"{name}: %{{x:,.0f}} TFLOP<extra>%{{y}}</extra>",
        }
        for column, name, colour, hatch in COMPUTE_PARTS
    ]
    return figure(
        data,
        title,
        120 + 44 * len(frame),
        barmode="stack",
        margin={"l": 190},
        yaxis={"autorange": "reversed", "type": "category"},
        xaxis={"title": "TFLOP per training step"},
    )
