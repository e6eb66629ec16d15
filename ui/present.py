"""Presentation mode, for projecting the app to a room: ``?present=1`` or the sidebar toggle.

Large type and charts readable from the back, the navigation moved to a slim top
bar and the sidebar gone; pages may also hide controls a presenter does not need
(``active()``). The walkthrough's steps answer to the arrow keys in every mode.
"""

import plotly.graph_objects as go
import streamlit as st

KEY = "present"
_CSS = """
<style>
  html { font-size: 21px; }
  [data-testid="stMainBlockContainer"] { max-width: 100%; padding: 5.5rem 3rem 4rem; }
  [data-testid="stMain"] h1 { font-size: 2.6rem; }
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] { display: none; }
  [data-testid="stBaseButton-primary"], [data-testid="stBaseButton-secondary"] {
    min-height: 3rem; font-size: 1.1rem;
  }
  .katex { font-size: 1.35em; }
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


def scale_figure(figure):
    """The figure with type and height a room can read, while presenting (else as it is).

    Presenting, a copy is scaled: figures may be cached and shared between sessions.
    """
    if not active():
        return figure
    height = figure.layout.height or 400
    return go.Figure(figure).update_layout(font_size=19, height=int(height * 1.3))


def _switch(on: bool) -> None:
    st.session_state[KEY] = on
    if on:
        st.query_params[KEY] = "1"
    elif KEY in st.query_params:
        del st.query_params[KEY]


def controls() -> None:
    """The switch: a sidebar toggle normally, an exit button while presenting."""
    if active():
        st.html(_CSS)
        st.button(
            "Exit presentation mode", key="present.exit", on_click=_switch, args=(False,),
            icon=":material/close_fullscreen:", type="tertiary",
        )  # fmt: skip
    else:
        st.sidebar.button(
            "Presentation mode", key="present.enter", on_click=_switch, args=(True,),
            icon=":material/co_present:", help="Large type for projecting; also ?present=1",
        )  # fmt: skip
