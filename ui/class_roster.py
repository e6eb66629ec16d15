"""The lecturer's seats: how many are taken of the class size, the class size itself, and
freeing seats (a student who joined twice, or seats a script joined), their votes with them.

Widget keys: ``cls.seats`` (the expander), ``cls.size``, ``cls.free``, ``cls.free_go``.
"""

from __future__ import annotations

import streamlit as st

from grpo_core.format import plural
from practice import limits
from practice.store.base import ClassSession, ClassStore
from practice.store.class_rules import MAX_CLASS_SIZE

HOW = (
    "Count the room: more seats than students means someone joined twice, or a script "
    "joined. Close the session to new students, then free the extra seats; their votes "
    "leave every count."
)


def _resize(store: ClassStore, code: str) -> None:
    store.set_class_size(code, int(st.session_state["cls.size"]))


def _free(store: ClassStore, code: str, tokens: dict[str, str]) -> None:
    chosen = st.session_state.get("cls.free") or []
    freed = sum(store.remove_student(code, tokens[label]) for label in chosen if label in tokens)
    st.session_state["cls.free"] = []
    st.session_state["cls.freed"] = f"Freed {plural(freed, 'seat')}."


def roster_panel(store: ClassStore, session: ClassSession) -> None:
    """Seats taken of the class size, the size, and freeing chosen seats."""
    students = store.students(session.code)
    seats = store.class_size(session.code)
    label = f"Seats: {len(students)} of {seats} taken"
    with st.expander(label, icon=":material/event_seat:", key="cls.seats"):
        st.caption(HOW)
        if refused := limits.refused_joins(store, session.code):
            st.warning(
                f"{plural(refused, 'join')} refused: the class was full, or too many came at "
                "once from one network.",
                icon=":material/block:",
            )
        st.session_state.setdefault("cls.size", seats)
        st.number_input(
            "Class size: joins stop when every seat is taken",
            min_value=1,
            max_value=MAX_CLASS_SIZE,
            step=1,
            key="cls.size",
            on_change=_resize,
            args=(store, session.code),
        )
        tokens = {s.label: s.token for s in students}
        st.multiselect(
            "Seats to free (in the order they joined)",
            list(tokens),
            key="cls.free",
            placeholder="Choose seats",
        )
        st.button(
            "Free the chosen seats",
            key="cls.free_go",
            on_click=_free,
            args=(store, session.code, tokens),
            disabled=not st.session_state.get("cls.free"),
        )
        if note := st.session_state.pop("cls.freed", None):
            st.success(note)
