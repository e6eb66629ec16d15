"""Plotly figures shared by several pages: numbers in, a figure out, nothing computed."""

from __future__ import annotations

import functools

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from grpo_core.format import fmt
from ui import present
from ui.theme import (
    BAND,
    BAND_EDGE,
    CHART_CONFIG,
    INK,
    NEGATIVE,
    NEGATIVE_PATTERN,
    NEUTRAL,
    POSITIVE,
    TEMPLATE,
)


def cached_figure(builder):
    """Build each distinct figure once per server process, then copy it (~1 ms).

    Plotly spends 30-60 ms validating a figure built with add_hline/update_yaxes,
    holding the GIL: with a class on one server that is most of a rerun. A class
    opening the same link asks for the same figures again and again. The cache
    keys on the exact bytes of the values and on the other arguments, holds at
    most 512 figures (a few MB), and stores the validated figure as a dict; callers
    get a fresh ``go.Figure`` built from a copy of it (no second validation); its arrays
    are in plotly's typed-array form ({"dtype", "bdata"}), exactly as they go to the browser.
    """
    cache = functools.lru_cache(maxsize=512)(
        lambda values, shape, args, kwargs: builder(
            np.frombuffer(values).reshape(shape), *args, **dict(kwargs)
        ).to_dict()
    )

    @functools.wraps(builder)
    def wrapper(values, *args, **kwargs):
        array = np.ascontiguousarray(values, dtype=float)
        try:
            key = (array.tobytes(), array.shape, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # an unhashable argument: build it every time
            return builder(values, *args, **kwargs)
        return go.Figure(cache(*key), _validate=False)

    wrapper.cache_info = cache.cache_info
    return wrapper


def answer_labels(k: int) -> list[str]:
    return [f"#{i}" for i in range(1, k + 1)]


@cached_figure
def rewards_figure(
    rewards,
    mean: float | None,
    std: float | None,
    *,
    title: str,
    centred: bool = False,
) -> go.Figure:
    """Rewards of one group as bars, the group mean as a line (unless None) and
    mean ± std as a band (unless None). With ``centred`` the bars show R - mean
    and the line sits at 0."""
    rewards = np.asarray(rewards, dtype=float)
    x = answer_labels(len(rewards))
    level = 0.0 if centred else (mean or 0.0)
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 320})
    if std is not None and std > 0:
        fig.add_hrect(
            y0=level - std,
            y1=level + std,
            fillcolor=BAND,
            line={"color": BAND_EDGE, "width": 1, "dash": "dot"},
            layer="below",
        )
        band_marker = {"symbol": "square", "size": 14, "color": BAND, "line": {"color": BAND_EDGE}}
        fig.add_trace(  # a legend entry for the band
            go.Scatter(
                x=[None], y=[None], mode="markers", name=f"± 1 std ({fmt(std)})", marker=band_marker
            )
        )
    fig.add_trace(
        go.Bar(
            x=x,
            y=rewards,
            name="R − mean" if centred else "reward",
            marker={"color": NEUTRAL},
            text=[fmt(r) for r in rewards],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="answer %{x}: %{y}<extra></extra>",
        )
    )
    if mean is not None:
        fig.add_hline(
            y=level,
            line={"color": INK, "width": 2, "dash": "dash"},
            annotation={
                "text": "0 = the mean" if centred else f"mean {fmt(mean)}",
                "bgcolor": "rgba(128, 128, 128, 0.18)",
            },
            annotation_position="top right",
        )
    fig.update_yaxes(title="R − mean" if centred else "reward")
    fig.update_xaxes(title="answer", type="category")
    return fig


@cached_figure
def advantages_figure(advantages, *, title: str, clip: float | None = None) -> go.Figure:
    """Signed bars: up and blue with "+" for pushed up, down, vermillion, hatched, "−" for down."""
    advantages = np.asarray(advantages, dtype=float)
    positive = advantages > 0
    fig = go.Figure(layout={"template": TEMPLATE, "title": title, "height": 320})
    fig.add_trace(
        go.Bar(
            x=answer_labels(len(advantages)),
            y=advantages,
            marker={
                "color": [POSITIVE if p else NEGATIVE for p in positive],
                "pattern": {"shape": ["" if p else NEGATIVE_PATTERN for p in positive]},
            },
            text=[signed(a) for a in advantages],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="answer %{x}: A = %{y:.4g}<extra></extra>",
            showlegend=False,
        )
    )
    if clip is not None:
        for y in (clip, -clip):
            fig.add_hline(y=y, line={"color": NEUTRAL, "dash": "dot"})
    fig.add_hline(y=0, line={"color": INK, "width": 1.5})
    fig.update_yaxes(title="advantage A", zeroline=True)
    fig.update_xaxes(title="answer", type="category")
    return fig


def signed(x: float) -> str:
    """'+0.935', '−0.935' (a real minus sign) or '0'."""
    if x == 0:
        return "0"
    return ("+" if x > 0 else "−") + fmt(abs(x))


def show(figure: go.Figure, *, key: str, container=None) -> None:
    """Draw a figure with the app's chart settings; larger type while presenting."""
    (container or st).plotly_chart(present.scale_figure(figure), key=key, config=CHART_CONFIG)
