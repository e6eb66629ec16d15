"""Figures of the "From advantage to update" page: per-token heatmaps in the critic page's
visual language (rows = answers, columns = token positions, blank padding, a mark in each
cell so nothing is told by colour alone). Numbers from grpo_core.loss; only colour ranges,
marks and labels are chosen here."""

from __future__ import annotations

import numpy as np

from ui.figures.common import cached_figure, figure
from ui.theme import ACCENT, NEGATIVE, POSITIVE, SERIES

DIVERGING = [[0.0, NEGATIVE], [0.5, "#FFFFFF"], [1.0, POSITIVE]]
REGIONS = (  # clip code: name, mark, colour (grpo_core.loss FREE, LOW, HIGH, DELTA)
    ("gradient flows", "", "#EEEEEE"),  # light grey, not white: a map of only these shows its cells
    ("clipped low", "L", NEGATIVE),
    ("clipped high", "H", POSITIVE),
    ("ratio cap", "δ", SERIES[3]),
)
ROW_PX = 28
MARKED_COLUMNS = 30
"""Cells carry their mark while a row has at most this many tokens (wider: too narrow)."""


def _rows(mask) -> np.ndarray:
    return np.asarray(mask) > 0


def _heatmap(
    z, rows, *, title: str, text, colorscale, zmin, zmax, colorbar: dict, hover: str, **extra
):
    z = np.asarray(z, dtype=float)
    b, t = z.shape
    cells = {
        "type": "heatmap",
        "z": z,
        "x": list(range(1, t + 1)),
        "y": list(rows),
        "colorscale": colorscale,
        "zmin": zmin,
        "zmax": zmax,
        "text": text,
        "texttemplate": "%{text}" if t <= MARKED_COLUMNS else None,
        "textfont": {"size": 11},
        "xgap": 1,
        "ygap": 2,
        "hoverongaps": False,
        "colorbar": {"thickness": 12, **colorbar},
        "hovertemplate": f"%{{y}}<br>token %{{x}}<br>{hover}<extra></extra>",
        **extra,
    }
    return figure(
        [cells],
        title,
        110 + ROW_PX * b,
        margin={"l": 84, "r": 8, "t": 40, "b": 40},
        yaxis={"autorange": "reversed", "type": "category", "showgrid": False},
        xaxis={"title": "token", "showgrid": False, "range": [0.5, t + 0.5], "dtick": 2},
    )


def _signs(z: np.ndarray, centre: float = 0.0) -> np.ndarray:
    return np.where(np.isnan(z), "", np.where(z > centre, "+", np.where(z < centre, "−", "")))


@cached_figure
def signed_heatmap(z, mask, rows: tuple[str, ...], *, title: str, limit: float, name: str) -> dict:
    """A signed per-token quantity (push on log p, per-token loss): vermillion − / white /
    blue +, on ±``limit``; NaN (padding) blank."""
    z = np.where(_rows(mask), np.asarray(z, dtype=float), np.nan)
    return _heatmap(
        z,
        rows,
        title=title,
        text=_signs(z),
        colorscale=DIVERGING,
        zmin=-limit,
        zmax=limit,
        colorbar={"title": {"text": f"{name}: + / −", "side": "right"}},
        hover=f"{name} = %{{z:.4f}}",
    )


@cached_figure
def ratio_heatmap(ratio, mask, rows: tuple[str, ...], *, title: str, bounds: tuple) -> dict:
    """r = p / p_old per token on a log scale centred at 1, the clip range's ends marked
    on the colour bar; + above 1, − below, 1 on a ratio of exactly 1 (the first update
    after sampling: white cells, which would read as an empty chart without it)."""
    r = np.where(_rows(mask), np.asarray(ratio, dtype=float), np.nan)
    lo, hi = bounds
    reach = max(float(np.nanmax(np.abs(np.log(r)))) if np.isfinite(r).any() else 0.0, np.log(hi))
    return _heatmap(
        np.log(r),
        rows,
        title=title,
        text=np.where(r == 1.0, "1", _signs(r, 1.0)),
        colorscale=DIVERGING,
        zmin=-reach,
        zmax=reach,
        colorbar={"title": {"text": "ratio r", "side": "right"}, **_ratio_ticks(lo, hi, reach)},
        hover="r = %{customdata:.4f}",
        customdata=r,
    )


RATIO_TICK_GAP = 0.12
"""The least distance between two of the ratio bar's labels, as a share of the bar."""


def _ratio_ticks(lo: float, hi: float, reach: float) -> dict:
    """The ratio bar's labels, none closer than ``RATIO_TICK_GAP`` and no two alike: 1, the
    clip range's ends, then the bar's ends (the extreme ratios), each kept where it has room.
    When neither end of the clip range has room (a wide spread of ratios, as after a ratio
    typed by hand), 1's label names the range: "0.8–1.2"."""
    ticks: list[tuple[float, str]] = []

    def place(value: float, text: str) -> None:
        if all(abs(value - v) >= RATIO_TICK_GAP * 2 * reach for v, _ in ticks):
            ticks.append((float(value), text))

    for value, text in [(0.0, "1"), (np.log(lo), f"{lo:g}"), (np.log(hi), f"{hi:g}")]:
        place(value, text)
    for value in (-reach, reach):
        place(value, _end_label(np.exp(value), {text for _, text in ticks}))
    if len(ticks) < 2 or all(text != f"{lo:g}" and text != f"{hi:g}" for _, text in ticks):
        ticks[0] = (0.0, f"{lo:g}–{hi:g}" if lo < 1 or hi > 1 else "1")
    ticks.sort()
    return {"tickvals": [v for v, _ in ticks], "ticktext": [text for _, text in ticks]}


def _end_label(ratio: float, taken: set[str]) -> str:
    """An extreme ratio in two significant digits, or as many more as it takes not to read
    "1" or a label already on the bar (a narrow spread: 1.03 is not 1, 1.14 not the clip
    range's 1.1)."""
    for digits in range(2, 7):
        text = f"{ratio:.{digits}g}"
        if text != "1" and text not in taken:
            return text
    return text


@cached_figure
def clip_heatmap(code, mask, rows: tuple[str, ...], *, title: str) -> dict:
    """Which tokens are clipped: a colour and a letter per region (L, H, δ)."""
    real = _rows(mask)
    z = np.where(real, np.asarray(code, dtype=float), np.nan)
    n = len(REGIONS)
    scale = []
    for i, (_, _, colour) in enumerate(REGIONS):
        scale += [[i / n, colour], [(i + 1) / n, colour]]
    marks = np.array([mark for _, mark, _ in REGIONS])
    text = np.where(real, marks[np.asarray(code, dtype=int)], "")
    return _heatmap(
        z,
        rows,
        title=title,
        text=text,
        colorscale=scale,
        zmin=-0.5,
        zmax=n - 0.5,
        colorbar={
            "tickvals": list(range(n)),
            "ticktext": [f"{mark}: {name}" if mark else name for name, mark, _ in REGIONS],
        },
        hover="region %{z}",
    )


@cached_figure
def kl_heatmap(kl, mask, rows: tuple[str, ...], *, title: str) -> dict:
    """The per-token KL term (k3, >= 0): white at 0 to green; '+' on every non-zero cell."""
    z = np.where(_rows(mask), np.asarray(kl, dtype=float), np.nan)
    top = float(np.nanmax(z)) if np.isfinite(z).any() and np.nanmax(z) > 0 else 1.0
    return _heatmap(
        z,
        rows,
        title=title,
        text=np.where(np.isnan(z), "", np.where(z > 0, "+", "0")),
        colorscale=[[0.0, "#FFFFFF"], [1.0, ACCENT]],
        zmin=0.0,
        zmax=top,
        colorbar={"title": {"text": "KL term ≥ 0", "side": "right"}},
        hover="KL = %{z:.4f}",
    )


@cached_figure
def kl_bars(sums: dict[str, np.ndarray], rows: tuple[str, ...], *, title: str) -> dict:
    """k1, k2, k3 summed over each answer's tokens, side by side: one bar group per answer,
    each estimator a colour and a hatch (k1's bars can point down)."""
    hatches = ("", "/", ".")
    data = [
        {
            "type": "bar",
            "x": list(rows),
            "y": np.asarray(values, dtype=float),
            "name": name,
            "marker": {"color": SERIES[i], "pattern": {"shape": hatches[i]}},
            "hovertemplate": f"%{{x}}<br>{name} sum = %{{y:.4f}}<extra></extra>",
        }
        for i, (name, values) in enumerate(sums.items())
    ]
    return figure(
        data,
        title,
        340,
        barmode="group",
        xaxis={"type": "category", "tickangle": -45},
        yaxis={"title": "summed over the answer's tokens"},
    )
