"""One look for every page: an Okabe-Ito (colour-blind safe) palette and a Plotly template.

Sign is never carried by colour alone: positive bars are blue, labelled "+",
and point up; negative bars are vermillion, hatched, labelled "−", and point down.
"""

import plotly.graph_objects as go
import plotly.io as pio

POSITIVE = "#0072B2"  # blue
NEGATIVE = "#D55E00"  # vermillion
NEUTRAL = "#6B7280"  # grey
ACCENT = "#009E73"  # bluish green
BAND = "rgba(230, 159, 0, 0.22)"  # orange, translucent
BAND_EDGE = "#E69F00"
TEXT = {"light": "#1B1F24", "dark": "#E6EAF0"}
"""The themes' text colours (.streamlit/config.toml): full contrast on their backgrounds."""
INK = "#7A828E"  # mid grey: reference lines that read on light and dark backgrounds
# Okabe-Ito, with grey for its black, which would vanish on the dark theme.
SERIES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C8C8C")
NEGATIVE_PATTERN = "/"

TEMPLATE = "grpo"
pio.templates[TEMPLATE] = go.layout.Template(
    layout=go.Layout(
        font={"family": "sans-serif", "size": 14},  # colour from the light or dark theme
        colorway=list(SERIES),
        margin={"l": 56, "r": 16, "t": 72, "b": 48},
        title={"x": 0, "xanchor": "left", "y": 0.97, "yanchor": "top"},
        hoverlabel={"font_size": 13},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1},
        xaxis={"gridcolor": "rgba(128, 128, 128, 0.25)", "zerolinecolor": INK},
        yaxis={
            "gridcolor": "rgba(128, 128, 128, 0.25)",
            "zerolinecolor": INK,
            "zerolinewidth": 1.5,
        },
    )
)
CHART_CONFIG = {"displayModeBar": False}
"""Plotly's toolbar off: on a phone it sat on the chart's title. Dragging still zooms, a
double click resets, and Streamlit's own toolbar shows the chart full screen."""
