"""Widgets several pages share: the advantage settings, the rewards grid, the share link.

Widgets hold their value under ``w.<key>`` and copy it to the shared key
``<key>`` (see ui.state) when changed, so settings survive switching pages.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from grpo_core import CONVENTIONS
from grpo_core.conventions import SCALES
from ui import state
from ui.text import markdown_safe


def _bind(key: str) -> dict:
    """Widget kwargs that keep ``w.<key>`` and the shared ``<key>`` in step."""
    widget_key = f"w.{key}"
    if widget_key not in st.session_state:
        st.session_state[widget_key] = st.session_state[key]
    return {"key": widget_key, "on_change": _store, "args": (key,)}


def _store(key: str) -> None:
    st.session_state[key] = st.session_state[f"w.{key}"]


def convention_label(name: str) -> str:
    return f"{name} · {CONVENTIONS[name].library}"


def settings_controls() -> state.Settings:
    """Convention picker, and ddof / eps / scale / clip when set by hand."""
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    left.selectbox(
        "Convention",
        list(CONVENTIONS),
        format_func=convention_label,
        help="Which trainer's formula to follow (see the Library conventions page).",
        **_bind("settings.convention"),
    )
    right.toggle("Set ddof, eps and scaling by hand", **_bind("settings.custom"))
    conv = CONVENTIONS[st.session_state["settings.convention"]]
    if st.session_state["settings.custom"]:
        c1, c2, c3, c4 = st.columns(4)
        c1.radio(
            "std divides by",
            [1, 0],
            format_func=lambda d: "K − 1 (ddof=1, torch.std)" if d else "K (ddof=0, population)",
            **_bind("settings.ddof"),
        )
        c2.text_input(
            "eps", help="Added to the std, e.g. 1e-4 (TRL), 1e-6 (verl)", **_bind("settings.eps")
        )
        c3.radio(
            "scale by",
            list(SCALES),
            help="group std, batch std, or none",
            **_bind("settings.scale"),
        )
        c4.text_input(
            "clip (blank = none)", help="OpenRLHF clamps to ±10", **_bind("settings.clip")
        )
        for error in state.settings_errors():
            st.warning(error)
    else:
        st.caption(f"{conv.description} Source: `{conv.source}`.")
    return state.settings()


def refresh_choice(key: str, shown) -> None:
    """Before the keyed selectbox ``key`` whose options read ``shown``: when those texts
    changed under the same values (other rewards, another source), set its value again so
    that the browser redraws the chosen option's text. Streamlit sends a keyed widget's
    value only when it changed, and the browser kept showing the old text: "answer 1
    (reward 1)" over the whiteboard's rewards 2, 4, 4, ..."""
    seen, shown = f"{key}.shown", list(shown)
    if st.session_state.get(seen) != shown:
        st.session_state[seen] = shown
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def rewards_editor() -> None:
    """The grid of rewards: one column per prompt, one row per answer, any text allowed."""
    columns = state.grid()
    group_size = max(len(c) for c in columns)
    frame = pd.DataFrame(
        {f"Prompt {p}": c + [""] * (group_size - len(c)) for p, c in enumerate(columns, start=1)},
        index=[f"answer {i}" for i in range(1, group_size + 1)],
        dtype="string",
    )
    edited = st.data_editor(
        frame,
        key=f"grid_{st.session_state['grid_version']}",
        column_config={
            name: st.column_config.TextColumn(name, width="small", max_chars=40)
            for name in frame.columns
        },
        height=min(38 + 35 * group_size, 420),
        width="stretch",
    )
    st.session_state["rewards_grid"] = [
        ["" if pd.isna(v) else str(v) for v in edited[name]] for name in edited.columns
    ]


def resize_grid(num_prompts: int, group_size: int) -> None:
    """Keep what is typed; new cells start at 0."""
    old = state.grid()
    columns = []
    for p in range(num_prompts):
        cells = old[p][:group_size] if p < len(old) else []
        columns.append(cells + ["0"] * (group_size - len(cells)))
    state.set_grid(columns)


def share_link() -> None:
    """The link that reproduces this view, with a copy button, in a popover ("Link to this
    view"); says what an opened link held that could not be used. Private parameters
    (``state.PRIVATE_PARAMS``) stay out.

    In a popover because Streamlit draws a code box with its syntax highlighter, whose
    script a page otherwise evaluates on every load for this one box: /playground and
    /walkthrough took 1.03 CPU-s of the browser a load with the box on the page, 0.82 with
    it in the popover (median of five rounds of four loads, session 18); the highlighter
    loads when the popover opens."""
    for problem in state.link_problems():
        st.warning(f"This link could not be used as it is. {problem}")
    ignored = state.link_values_ignored()
    if ignored:
        names = ", ".join(markdown_safe(key[:30]) for key in ignored[:5])
        message = (
            f"The link you opened had values this page cannot use ({names}): "
            "the defaults are shown instead."
        )
        st.warning(message)
        st.toast(message, icon=":material/link_off:")
    base = (st.context.url or "").split("?")[0]
    link = link_url(base, state.shareable(st.query_params.to_dict()))
    with st.popover("Link to this view", icon=":material/link:"):
        st.code(link, language=None, wrap_lines=True)


def link_url(base: str, params: dict[str, str]) -> str:
    """``base`` with ``params`` as its query; a view at its defaults has none (no bare "?").
    Without a base (AppTest) the query alone, "?" included."""
    query = urlencode(params)
    if not base:
        return f"?{query}"
    return f"{base}?{query}" if query else base
