"""Class mode: the room answers on phones, the projector shows the room, the class is the group.

Three screens of one session (``practice.class_link``): a student's phone
(``?class=<code>``), the projector (``&screen=projector``: public, no control) and the
lecturer's controls (``&screen=lecturer``: only in a browser holding the lecturer's right,
``ui.class_access``).
"""

import time

import streamlit as st

from practice.class_link import (
    CODE_PARAM,
    LECTURER,
    LECTURER_PARAM,
    PROJECTOR,
    SCREEN_PARAM,
    TOKEN_PARAM,
)
from practice.store.base import StoreRefusal, normal_code
from ui import class_access as access
from ui import class_lecturer as lecturer
from ui import class_projector as projector
from ui import class_seat as seat
from ui import class_student as student
from ui import page, present
from ui.class_store import class_store
from ui.secret import cert_secret_or_problem
from ui.text import markdown_safe

page.start()
store = class_store()
secret, problem = cert_secret_or_problem()
code = normal_code(st.query_params.get(CODE_PARAM, ""))
screen = st.query_params.get(SCREEN_PARAM)
if not (code and screen in (PROJECTOR, LECTURER)):
    st.title("Class mode")  # the lecturer's and the projector's screens title themselves
if problem:
    st.error(f"Class mode needs the deployment's secret: {problem}")
    st.stop()


def _project(typed: str) -> None:
    st.session_state[present.KEY] = True
    st.query_params.from_dict({CODE_PARAM: normal_code(typed), SCREEN_PARAM: PROJECTOR})


if not code:
    st.markdown(
        "Every student answers on a phone; the projector shows the room's answers live. "
        "In a **be the group** round the students' rewards form one GRPO group."
    )
    for held in seat.held():
        if st.button(f"Back to class {held}", key=f"cls.back.{held}", type="primary"):
            st.query_params.from_dict({CODE_PARAM: held})
            st.rerun()
    left, right = st.columns(2)
    with left.form("cls.code_form"):
        typed = st.text_input("Join code", max_chars=12, key="cls.code", placeholder="ABC234")
        if st.form_submit_button("Join the class", key="cls.go", type="primary"):
            st.query_params[CODE_PARAM] = normal_code(typed)
            st.rerun()
        if st.form_submit_button("Show this session on the projector", key="cls.project"):
            _project(typed)
            st.rerun()
    with right:
        st.markdown("**Lecturer**")
        st.button(
            "Start a class session",
            key="cls.start",
            icon=":material/co_present:",
            on_click=lecturer.start_session,
            args=(store,),
        )
        st.caption(
            "This window becomes your lecturer screen, with the controls; it opens the "
            "projector screen for the room. Or start on your phone, then type its code on "
            "the projector's computer and press *Show this session on the projector*."
        )
    st.stop()

try:
    session = store.session(code)
except StoreRefusal as refusal:
    st.error(markdown_safe(str(refusal)))
    if st.button("Type another code", key="cls.again"):
        st.query_params.clear()
        st.rerun()
    st.stop()

if screen == LECTURER or LECTURER_PARAM in st.query_params:
    if access.claim(session, secret):
        lecturer.lecturer_view(store, session, secret)
        access.remember(session, secret, time.time())
    else:
        st.title("Class mode")
        st.warning(
            f"This is the lecturer's screen of session {session.code}: open your lecturer "
            "link on this device to control it. The projector screen and the students' "
            "join page need no link."
        )
elif screen == PROJECTOR:
    projector.room_view(store, session.code)
else:
    token = seat.seat(store, code, st.query_params.get(TOKEN_PARAM))
    if token:
        if st.query_params.get(TOKEN_PARAM) != token:
            st.query_params[TOKEN_PARAM] = token
        seat.keep(session, token)
        student.student_view(store, session, token)
    else:
        student.join_form(store, session)
