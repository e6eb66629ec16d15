"""Prose and figures of the "PPO critic vs GRPO" and "Training simulator" pages.

Numbers in, a figure out: every number comes from grpo_core; only colour ranges
and labels are chosen here.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import plotly.graph_objects as go

import content
from ui.citations import cite
from ui.theme import INK, NEGATIVE, POSITIVE, SERIES, TEMPLATE

DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SIGN_TITLE = "A: + up, − down"


@functools.cache
def _sections() -> dict[str, str]:
    text = cite(content.read_text("critic.md"))
    parts = re.split(r"^## +(.+?)\s*$", text, flags=re.M)
    return {name.strip(): body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def section(name: str) -> str:
    """The Markdown under ``## name`` in content/critic.md."""
    return _sections()[name]


# --- the critic page --------------------------------------------------------------------


def colour_limit(*arrays) -> float:
    """One symmetric colour range for several heatmaps, so equal colours mean equal numbers."""
    finite = [np.abs(a[np.isfinite(a)]) for a in arrays]
    top = max((float(f.max()) for f in finite if f.size), default=0.0)
    return top if top > 0 else 1.0


def heatmap_figure(z, rows: list[str], *, title: str, limit: float) -> go.Figure:
    """Per-token advantages: rows = responses, columns = token positions, NaN = padding.

    Diverging vermillion - white - blue centred at 0; each cell also carries "+" or "−"
    (when the cells are wide enough) so the sign is not told by colour alone.
    """
    z = np.asarray(z, dtype=float)
    b, t = z.shape
    signs = np.where(np.isnan(z), "", np.where(z > 0, "+", np.where(z < 0, "−", "0")))
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=list(range(1, t + 1)),
            y=rows,
            colorscale=[[0.0, NEGATIVE], [0.5, "#FFFFFF"], [1.0, POSITIVE]],
            zmid=0,
            zmin=-limit,
            zmax=limit,
            text=signs,
            texttemplate="%{text}" if t <= 40 else None,
            textfont={"size": 11},  # plotly picks black or white per cell for contrast
            xgap=1,
            ygap=2,
            hoverongaps=False,
            colorbar={"title": {"text": SIGN_TITLE, "side": "right"}, "thickness": 12},
            hovertemplate="%{y}<br>token %{x}<br>A = %{z:.4f}<extra></extra>",
        ),
        layout={
            "template": TEMPLATE,
            "title": title,
            "height": 110 + 30 * b,
            "margin": {"l": 110, "r": 8, "t": 40, "b": 40},
        },
    )
    fig.update_yaxes(autorange="reversed", type="category", showgrid=False)
    fig.update_xaxes(title="token position", showgrid=False, range=[0.5, t + 0.5])
    return fig


def token_lines_figure(series: dict[str, np.ndarray], *, title: str) -> go.Figure:
    """Advantage per token of one response, one line per method (colour and dash)."""
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 340})
    for i, (name, y) in enumerate(series.items()):
        fig.add_trace(
            go.Scatter(
                x=list(range(1, len(y) + 1)),
                y=y,
                name=name,
                mode="lines+markers",
                line={"color": SERIES[i], "dash": DASHES[i]},
                marker={"size": 5, "symbol": ["circle", "square", "diamond"][i % 3]},
                hovertemplate=f"{name}<br>token %{{x}}: A = %{{y:.4f}}<extra></extra>",
            )
        )
    fig.add_hline(y=0, line={"color": INK, "width": 1})
    fig.update_xaxes(title="token position")
    fig.update_yaxes(title="advantage A")
    fig.update_layout(legend={"y": 1.02})
    return fig


MODEL_STYLE = {  # colour and hatch per model: the stack is told apart without colour too
    "policy": (SERIES[0], ""),
    "reference model": (SERIES[5], "."),
    "reward model": (SERIES[4], "x"),
    "value model": (SERIES[1], "/"),
}


def memory_figure(by_model, *, title: str) -> go.Figure:
    """Stacked bars of GB per model, one bar per setup (with / without the critic)."""
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 380})
    for model, (colour, hatch) in MODEL_STYLE.items():
        rows = by_model[by_model["model"] == model]
        if rows.empty:
            continue
        fig.add_trace(
            go.Bar(
                x=rows["setup"],
                y=rows["gb"],
                name=model,
                marker={"color": colour, "pattern": {"shape": hatch, "fgcolor": INK}},
                text=[f"{model}<br>{gb:,.0f} GB" for gb in rows["gb"]],
                textposition="inside",
                insidetextanchor="middle",
                hovertemplate=f"{model}: %{{y:,.1f}} GB<extra>%{{x}}</extra>",
            )
        )
    fig.update_layout(barmode="stack", legend={"traceorder": "normal"})
    fig.update_yaxes(title="GB (10⁹ bytes)")
    return fig


def compute_figure(frame, *, title: str) -> go.Figure:
    """Stacked horizontal bars of TFLOP per training step: generation, policy update, critic."""
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 120 + 44 * len(frame)})
    parts = (
        ("generation_tflop", "generation", SERIES[0], ""),
        ("update_tflop", "policy update", SERIES[2], "."),
        ("critic_tflop", "critic", SERIES[1], "/"),
    )
    for column, name, colour, hatch in parts:
        fig.add_trace(
            go.Bar(
                y=frame["setup"],
                x=frame[column],
                name=name,
                orientation="h",
                marker={"color": colour, "pattern": {"shape": hatch, "fgcolor": INK}},
                hovertemplate=f"{name}: %{{x:,.0f}} TFLOP<extra>%{{y}}</extra>",
            )
        )
    fig.update_layout(barmode="stack", margin={"l": 190})
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title="TFLOP per training step")
    return fig


# --- the simulator page -------------------------------------------------------------------

SHORT_LABELS = {
    "grpo": "GRPO",
    "dr-grpo": "Dr. GRPO",
    "rloo": "RLOO",
    "reinforce": "REINFORCE",
    "reinforce-batch-mean": "REINFORCE − batch mean",
    "ppo-critic": "PPO critic",
}
ESTIMATOR_STYLE = {  # a fixed colour, dash and marker per estimator, on every chart
    name: (SERIES[i], DASHES[i], ("circle", "square", "diamond", "triangle-up", "x", "star")[i])
    for i, name in enumerate(SHORT_LABELS)
}


def _hex_rgba(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def _line(name: str, x, y, *, every: int) -> go.Scatter:
    colour, dash, symbol = ESTIMATOR_STYLE[name]
    return go.Scatter(
        x=x,
        y=y,
        name=SHORT_LABELS[name],
        legendgroup=name,
        mode="lines+markers",
        line={"color": colour, "dash": dash, "width": 2},
        marker={"symbol": symbol, "size": 7, "maxdisplayed": max(len(x) // every, 8)},
        hovertemplate=f"{SHORT_LABELS[name]}<br>step %{{x}}: %{{y:.4g}}<extra></extra>",
    )


def accuracy_figure(bands, *, lower: str, upper: str, title: str) -> go.Figure:
    """Mean accuracy per estimator with a shaded band between columns ``lower`` and ``upper``."""
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 430})
    for name, rows in bands.groupby("estimator", sort=False):
        colour = ESTIMATOR_STYLE[name][0]
        x = np.concatenate([rows["step"], rows["step"][::-1]])
        y = np.concatenate([rows[upper], rows[lower][::-1]])
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                fill="toself",
                fillcolor=_hex_rgba(colour, 0.15),
                line={"width": 0},
                hoverinfo="skip",
                showlegend=False,
                legendgroup=name,
            )
        )
        fig.add_trace(_line(name, rows["step"], rows["mean"], every=20))
    fig.update_xaxes(title="training step")
    fig.update_yaxes(title="P(correct), mean over prompts", range=[0, 1], tickformat=".0%")
    fig.update_layout(margin={"t": 96})
    return fig


def curves_figure(curves, column: str, *, title: str, y_title: str, log=False, pct=False):
    """One line per estimator of ``column`` against the training step."""
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 380})
    for name, rows in curves.groupby("estimator", sort=False):
        fig.add_trace(_line(name, rows["step"], rows[column], every=20))
    fig.update_xaxes(title="training step")
    fig.update_yaxes(title=y_title, type="log" if log else "linear")
    if log:
        fig.update_yaxes(dtick=1, exponentformat="power")  # one label a decade
    if pct:
        fig.update_yaxes(range=[0, 1.02], tickformat=".0%")
    fig.update_layout(margin={"t": 96})
    return fig


def critic_error_figure(bands, *, title: str) -> go.Figure:
    """The critic's RMS value error per step: mean over seeds and its min-max band."""
    colour = ESTIMATOR_STYLE["ppo-critic"][0]
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 380})
    x = np.concatenate([bands["step"], bands["step"][::-1]])
    y = np.concatenate([bands["max"], bands["min"][::-1]])
    fig.add_trace(
        go.Scatter(
            x=x,
            y=y,
            fill="toself",
            fillcolor=_hex_rgba(colour, 0.18),
            line={"width": 0},
            name="min–max over seeds",
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=bands["step"],
            y=bands["mean"],
            name="mean over seeds",
            line={"color": colour, "dash": ESTIMATOR_STYLE["ppo-critic"][1], "width": 2},
            hovertemplate="step %{x}: RMS error %{y:.3f}<extra></extra>",
        )
    )
    fig.update_xaxes(title="training step")
    fig.update_yaxes(title="RMS of V − E[R] over prompts", rangemode="tozero")
    fig.update_layout(margin={"t": 96})
    return fig
