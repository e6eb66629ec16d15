"""Presentation mode, for projecting the app to a room: ``?present=1`` or the sidebar toggle.

Large type and charts readable from the back, the navigation moved to a slim top
bar and the sidebar gone; pages may also hide controls a presenter does not need
(``active()``). The walkthrough's steps answer to the arrow keys in every mode, and
while presenting each step is a slide: its title, formula and chart on one 1280×720 screen.
"""

import plotly.graph_objects as go
import streamlit as st

from ui.state import PRESENT_PARAM
from ui.theme import TEXT

KEY = PRESENT_PARAM
BODY_PX = 21
"""Body text while presenting (the root font size): nothing a room reads is smaller."""
SLIDE_CHART_PX = 400
"""A slide's chart height: under the bar, the step's title and its formula on 720 px."""
_CSS = f"""
<style>
  html {{ font-size: {BODY_PX}px; }}
  [data-testid="stMainBlockContainer"] {{ max-width: 100%; padding: 4.2rem 3rem 4rem; }}
  [data-testid="stMain"] h1 {{ font-size: 2.1rem; padding-top: 0; }}
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] {{ display: none; }}
  [data-testid="stBaseButton-primary"], [data-testid="stBaseButton-secondary"] {{
    min-height: 3rem; font-size: 1.1rem;
  }}
  [data-testid="stCaptionContainer"] {{ font-size: 1rem; }}  /* the key numbers of a chart */
  /* Chart text in the app's text colour as the theme changes: the server coloured it for the
     theme of its last run, and a switch of the system's scheme brings no run. */
  [data-testid="stPlotlyChart"] :is(.xtick text, .ytick text, .xtitle, .ytitle, .gtitle,
    .legendtext, .annotation-text, .bartext-outside, .cbaxis text, .cbtitle text) {{
    fill: currentColor !important;
  }}
  .katex {{ font-size: 1.35em; }}
  .katex-display {{ margin: 0.4em 0; }}
  /* The exit button sits in the top bar, right, instead of taking a row of every slide. */
  .st-key-present-exit {{
    position: fixed; top: 0.55rem; right: 4.5rem; z-index: 999991; width: auto;
  }}
</style>
"""


def read_link() -> None:
    """Turn presentation mode on or off from the URL (once per session)."""
    if "present.read" not in st.session_state:
        st.session_state["present.read"] = True
        st.session_state[KEY] = st.query_params.get(KEY) in ("1", "true", "on")


def active() -> bool:
    return bool(st.session_state.get(KEY, False))


def keep_in_url() -> None:
    """Put ``?present=1`` back into the URL on every run while presenting.

    Streamlit clears the query parameters when the reader moves to another page; without
    this a reload after the top bar's navigation would fall back to the normal view.
    """
    if active() and st.query_params.get(KEY) != "1":
        st.query_params[KEY] = "1"


def link_params() -> dict[str, str]:
    """The query parameters a link to another page carries so the view stays as it is."""
    return {KEY: "1"} if active() else {}


def text_colour() -> str:
    """The theme's full-contrast text colour (light or dark, as the reader's browser)."""
    return TEXT["dark" if st.context.theme.type == "dark" else "light"]


def scale_figure(figure, *, slide: bool = False):
    """The figure as a room reads it, while presenting (else as it is).

    Every text on it (titles, ticks, axis titles, legend, colour bar, annotations, bar
    labels) at least body size and in the theme's text colour; 1.3 times as tall, or
    ``SLIDE_CHART_PX`` tall for a slide. Presenting, a copy is changed: figures may be
    cached and shared between sessions.
    """
    if not active():
        return figure
    figure = go.Figure(figure)
    before = figure.layout.height or 400
    after = SLIDE_CHART_PX if slide else int(before * 1.3)
    legend = figure.layout.legend
    if legend.yref == "container" and legend.y is not None:  # hangs under a title, now larger
        grow = BODY_PX / (figure.layout.template.layout.font.size or 14)
        legend.y = 1 - (1 - legend.y) * before * grow / after
    return readable(figure, text_colour(), BODY_PX).update_layout(height=after)


def readable(figure: go.Figure, colour: str, size: int) -> go.Figure:
    """``figure`` with every text at least ``size`` px, in ``colour``; changed in place."""
    font = {"size": size, "color": colour}
    template = figure.layout.template.layout
    base = template.font.size or 14
    top = figure.layout.margin.t if figure.layout.margin.t is not None else template.margin.t
    if figure.layout.title.pad.t:  # a title in lines, padded down by lines of larger type
        figure.layout.title.pad.t = round(figure.layout.title.pad.t * size / base)
    figure.update_layout(  # the room for the title, legend and labels above the plot grows too
        margin_t=round((top or 72) * size / base),
        font=font,
        title_font={"size": round(size * 1.2), "color": colour},
        legend_font=font,
        hoverlabel_font_size=size,
    )
    figure.update_xaxes(tickfont=font, title_font=font, automargin=True)
    figure.update_yaxes(tickfont=font, title_font=font, automargin=True)
    figure.update_annotations(font_color=colour)
    for note in figure.layout.annotations:
        note.font.size = max(note.font.size or 0, size)
    for trace in figure.data:
        if "colorbar" in trace:
            trace.colorbar.update(tickfont=font, title_font=font)
        if trace.type in ("bar", "scatter", "heatmap"):
            trace.textfont.size = size
    return figure


def _switch(on: bool) -> None:
    st.session_state[KEY] = on
    if on:
        st.query_params[KEY] = "1"
    elif KEY in st.query_params:
        del st.query_params[KEY]


def controls() -> None:
    """The switch: a sidebar toggle normally, an exit button (in the top bar) while presenting."""
    if active():
        st.html(_CSS)
        st.button(
            "Exit presentation mode",
            key="present-exit",
            on_click=_switch,
            args=(False,),
            icon=":material/close_fullscreen:",
            type="tertiary",
        )
    else:
        st.sidebar.button(
            "Presentation mode",
            key="present.enter",
            on_click=_switch,
            args=(True,),
            icon=":material/co_present:",
            help="Large type for projecting; also ?present=1",
        )
