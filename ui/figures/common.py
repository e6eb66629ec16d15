"""What every figure shares: the cache, the drawing call, styling and small dict pieces.

Plotly spends 30-60 ms validating a figure, holding the GIL: with a class on one
server that would be most of a rerun. So a builder returns a plain dict and
``cached_figure`` validates it once per distinct input, keeps the validated figure
as a dict, and hands every caller a fresh ``go.Figure`` built from a copy of it
without validating again (~1 ms). A rerun with the same inputs builds nothing.
"""

from __future__ import annotations

import functools
import html
import re
import textwrap
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from ui import present
from ui.theme import CHART_CONFIG, INK, NEGATIVE, NEGATIVE_PATTERN, NEUTRAL, POSITIVE, TEMPLATE

DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
"""Line dashes in series order, so lines are told apart without colour too."""
MARKERS = ("circle", "square", "diamond", "triangle-up", "x", "star")
"""Marker symbols in series order."""
LABEL_BG = "rgba(128, 128, 128, 0.16)"
"""Background of text labels on a chart: reads on the light and the dark theme."""
CACHE_SIZE = 512
"""Figures kept per builder (a few MB in all)."""


# --- the one way to build, cache and draw a figure -----------------------------------------


def cached_figure(builder):
    """Decorate a builder returning a Plotly dict: validate each distinct figure once.

    The key is the arguments, with arrays and tables frozen to their bytes and values
    (``freeze``); an argument that cannot be frozen builds the figure every time.
    ``wrapper.cache_info()`` counts hits and misses; ``wrapper.__wrapped__`` is the builder.
    """
    cache: OrderedDict = OrderedDict()
    lock = threading.Lock()
    counts = Counter()

    @functools.wraps(builder)
    def wrapper(*args, **kwargs):
        try:
            key = freeze((args, kwargs))
            hash(key)
        except TypeError:  # an unhashable argument: build it every time
            return go.Figure(builder(*args, **kwargs))
        with lock:
            spec = cache.get(key)
            if spec is not None:
                cache.move_to_end(key)
                counts["hits"] += 1
        if spec is None:
            spec = go.Figure(builder(*args, **kwargs)).to_dict()
            with lock:
                counts["misses"] += 1
                cache[key] = spec
                if len(cache) > CACHE_SIZE:
                    cache.popitem(last=False)
        return go.Figure(spec, _validate=False)  # a copy: the page may change it

    wrapper.cache_info = lambda: CacheInfo(counts["hits"], counts["misses"], len(cache))
    return wrapper


@dataclass(frozen=True)
class CacheInfo:
    """What a ``cached_figure`` builder's cache holds and how often it was asked."""

    hits: int
    """Calls answered from the cache (no figure built)."""
    misses: int
    """Calls that built and validated a figure."""
    size: int
    """Figures held."""


def freeze(value):
    """A hashable stand-in for a builder's argument: equal values, equal keys.

    Arrays become their dtype, shape and bytes (object arrays their values); tables
    their columns, index and values; dicts, lists and tuples their frozen items in order.
    """
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "O":
            return ("objects", value.shape, tuple(freeze(v) for v in value.ravel().tolist()))
        return ("array", value.dtype.str, value.shape, np.ascontiguousarray(value).tobytes())
    if isinstance(value, pd.DataFrame):
        columns = tuple(freeze(value[c].to_numpy()) for c in value.columns)
        return ("frame", tuple(value.columns), freeze(value.index.to_numpy()), columns)
    if isinstance(value, pd.Series):
        return ("series", value.name, freeze(value.index.to_numpy()), freeze(value.to_numpy()))
    if isinstance(value, dict):
        return ("dict", tuple((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    return value


def show(figure: go.Figure, *, key: str, container=None, slide: bool = False) -> None:
    """Draw a figure with the app's chart settings; larger type while presenting.

    slide: the chart of a slide, sized to share a 1280×720 screen with a title and a formula
    while presenting (``present.SLIDE_CHART_PX``).
    """
    figure = present.scale_figure(figure, slide=slide)
    where = container or st
    if figure.layout.title.text:  # the title a phone reads, above the chart (ui/style.py)
        words = html.escape(" ".join(re.sub("<[^>]*>", " ", figure.layout.title.text).split()))
        where.html(f'<p class="{PHONE_TITLE_CLASS}">{words}</p>')
    where.plotly_chart(figure, key=key, config=CHART_CONFIG)


PHONE_TITLE_CLASS = "chart-title-phone"
"""A chart's title in HTML, shown above the chart only on a screen under 640 px, where it
wraps at the screen's edge and the chart's own title is hidden (ui/style.py): Plotly neither
wraps a title nor cuts it, and a title set in lines for a phone took two or three lines
on every desktop with room for one."""
TITLE_CHARS = 80
"""A title longer than this is set in lines: about what a 640 px chart holds in one."""
PHONE_LEGEND_PX = 320
"""The width a legend has on a 390 px phone."""
LINE_PX = 22
"""The height of a line of title or legend (14 px type)."""


def figure(data: list[dict], title: str, height: int, **layout) -> dict:
    """A figure dict in the app's template.

    The title is set in lines of at most ``TITLE_CHARS``. A legend left where the template
    puts it (above the plot) hangs from under the title and the top margin leaves room for
    as many rows as it takes on a phone, so the two never overprint at any width; a legend
    that takes a row an entry on a phone does so at every width (``one_per_row``).
    """
    lines = textwrap.wrap(title, TITLE_CHARS) or [""]
    text = "<br>".join(lines)
    # Plotly sets a title's last line where its first should be: pad it down by the others.
    heading = {"text": text, "y": 1, "pad": {"t": 8 + LINE_PX * (len(lines) - 1)}}
    title = heading if len(lines) > 1 else text
    layout = {"template": TEMPLATE, "title": title, "height": height, **layout}
    rows = legend_rows(data)
    if rows and "y" not in layout.get("legend", {}):
        under_title = 14 + LINE_PX * len(lines) if title else 8
        layout["legend"] = {
            "orientation": "h",
            "yref": "container",
            "y": 1 - under_title / height,
            "yanchor": "top",
            "x": 0,
            "xanchor": "left",
            **one_per_row(data, rows),
            **layout.get("legend", {}),
        }
        top = max(layout.get("margin", {}).get("t", 72), under_title + LINE_PX * rows + 16)
        layout["margin"] = {**layout.get("margin", {}), "t": top}
    elif len(lines) > 1:
        top = layout.get("margin", {}).get("t", 72) + LINE_PX * (len(lines) - 1)
        layout["margin"] = {**layout.get("margin", {}), "t": top}
    return {"data": data, "layout": layout}


ONE_PER_ROW_FROM = 3
"""A phone legend of this many rows or more, mostly one entry a row, is set one entry a
row at every width."""


def one_per_row(data: list[dict], rows: int) -> dict:
    """Legend settings that set one entry a row at every width (a vertical legend, still
    hung from under the title), when ``legend_rows`` counts a row an entry (a long legend
    of long names). Its top margin is sized for the phone; on a wide screen the same
    entries packed into a few rows left an empty band of that height between the legend
    and the plot (the Review page's 17 topics: about 170 px)."""
    if rows < ONE_PER_ROW_FROM or rows != len(legend_names(data)):
        return {}
    return {"orientation": "v"}


def legend_names(data: list[dict]) -> list[str]:
    return [t["name"] for t in data if t.get("showlegend", True) and t.get("name")]


def legend_rows(data: list[dict]) -> int:
    """Rows a horizontal legend of these traces takes on a phone (0: no legend).

    An entry is about 7 px a character of its name plus 40 px of symbol and gap. A legend
    of ``ONE_PER_ROW_FROM`` rows or more where fewer than half the rows hold two entries
    counts a row an entry: Plotly's own packing of a few short names differs from this
    estimate (RLOO and Dr. GRPO among the Review page's topics), so such a legend is set
    one entry a row (``one_per_row``) and its size is exact.
    """
    names = legend_names(data)
    if len(names) < 2:
        return 0
    rows, used = 1, 0
    for name in names:
        width = 7 * len(name) + 40
        if used and used + width > PHONE_LEGEND_PX:
            rows, used = rows + 1, 0
        used += width
    return len(names) if rows >= ONE_PER_ROW_FROM and 2 * rows > len(names) else rows


# --- signs -----------------------------------------------------------------------------------


def sign_colour(value: float) -> str:
    """Blue for up, vermillion for down, grey for 0."""
    return POSITIVE if value > 0 else NEGATIVE if value < 0 else NEUTRAL


def sign_pattern(value: float) -> str:
    """Hatched for down, so the sign is not told by colour alone."""
    return NEGATIVE_PATTERN if value < 0 else ""


def sign_marker(values) -> dict:
    """Bar marker with a colour and pattern per value (``sign_colour``, ``sign_pattern``)."""
    return {
        "color": [sign_colour(v) for v in values],
        "pattern": {"shape": [sign_pattern(v) for v in values]},
    }


def hex_rgba(colour: str, alpha: float) -> str:
    """'#0072B2', 0.15 -> 'rgba(0, 114, 178, 0.15)'."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


# --- pieces of a figure dict -----------------------------------------------------------------


def hline(y: float, *, xref: str = "paper", yref: str = "y", width: float = 1.5, **line) -> dict:
    """A line across the plot at height y (``line``: colour, dash to override)."""
    return {
        "type": "line",
        "xref": xref,
        "yref": yref,
        "x0": 0,
        "x1": 1,
        "y0": y,
        "y1": y,
        "line": {"color": INK, "width": width, **line},
    }


def vline(x: float, color: str, dash: str) -> dict:
    """A vertical line at data x, top to bottom."""
    return {
        "type": "line",
        "xref": "x",
        "yref": "paper",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"color": color, "dash": dash, "width": 2},
    }


def band(y0: float, y1: float, *, fillcolor: str, line: dict) -> dict:
    """A horizontal band from y0 to y1 across the plot, under the data."""
    return {
        "type": "rect",
        "xref": "x domain",
        "yref": "y",
        "x0": 0,
        "x1": 1,
        "y0": y0,
        "y1": y1,
        "fillcolor": fillcolor,
        "line": line,
        "layer": "below",
    }


def label(x: float, y: float, text: str, color: str | None = None, **where) -> dict:
    """A text label at data x, paper y; in the theme's text colour unless ``color`` is given."""
    font = {"size": 12} if color is None else {"size": 12, "color": color}
    return {
        "x": x,
        "xref": "x",
        "y": y,
        "yref": "paper",
        "text": text,
        "showarrow": False,
        "font": font,
        "bgcolor": LABEL_BG,
        **where,
    }


def panels(titles: list[str], gap: float = 0.06) -> tuple[dict, list[dict]]:
    """Side-by-side axes (x, x2, ...; y, y2, ...) and their titles, like make_subplots.

    A title "name: what it does" is set in two lines, so three panels' titles fit side by
    side on a phone.
    """
    n = len(titles)
    width = (1 - gap * (n - 1)) / n
    axes, notes = {}, []
    for i, title in enumerate(titles):
        suffix = "" if i == 0 else str(i + 1)
        start = i * (width + gap)
        axes[f"xaxis{suffix}"] = {"domain": [start, start + width], "anchor": f"y{suffix}"}
        axes[f"yaxis{suffix}"] = {"anchor": f"x{suffix}"}
        head, _, rest = title.partition(": ")  # "group: ÷ its own std" in two short lines
        notes.append(
            {
                "text": f"<b>{head}</b>" + (f"<br>{rest}" if rest else ""),
                "x": start + width / 2,
                "xref": "paper",
                "y": 1.0,
                "yref": "paper",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 12},
            }
        )
    return axes, notes
