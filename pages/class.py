"""Class mode: the room answers on phones, the projector shows the room, the class is the group."""

import streamlit as st

from practice.class_link import CODE_PARAM, LECTURER_PARAM, TOKEN_PARAM, is_lecturer, lecturer_tag
from practice.store.base import StoreRefusal, normal_code
from ui import class_lecturer as lecturer
from ui import class_student as student
from ui import page
from ui.class_store import class_store
from ui.secret import cert_secret_or_problem
from ui.text import markdown_safe

page.start()
st.title("Class mode")
store = class_store()
secret, problem = cert_secret_or_problem()
if problem:
    st.error(f"Class mode needs the deployment's secret: {problem}")
    st.stop()

code = normal_code(st.query_params.get(CODE_PARAM, ""))
if not code:
    st.markdown(
        "Every student answers on a phone; the projector shows the room's answers live. "
        "In a **be the group** round the students' rewards form one GRPO group."
    )
    left, right = st.columns(2)
    with left.form("cls.code_form"):
        typed = st.text_input("Join code", max_chars=12, key="cls.code", placeholder="ABC234")
        if st.form_submit_button("Join the class", key="cls.go", type="primary"):
            st.query_params[CODE_PARAM] = normal_code(typed)
            st.rerun()
    with right:
        st.markdown("**Lecturer**")
        if st.button("Start a class session", key="cls.start", icon=":material/co_present:"):
            new = store.create_session()
            tag = lecturer_tag(new.code, new.created, secret=secret)
            st.query_params.update({CODE_PARAM: new.code, LECTURER_PARAM: tag})
            st.rerun()
    st.stop()

try:
    session = store.session(code)
except StoreRefusal as refusal:
    st.error(markdown_safe(str(refusal)))
    if st.button("Type another code", key="cls.again"):
        st.query_params.clear()
        st.rerun()
    st.stop()

if is_lecturer(code, session.created, st.query_params.get(LECTURER_PARAM), secret=secret):
    current = store.current_round(code)
    lecturer.join_panel(session, secret, compact=current is not None)
    if current is not None:
        lecturer.round_panel(store, code, current)
    if not session.ended:
        lecturer.ask_panel(store, code, first=current is None)
    lecturer.end_panel(store, session)
else:
    token = st.query_params.get(TOKEN_PARAM)
    if token and store.student(code, token):
        student.student_view(store, session, token)
    else:
        student.join_form(store, session)
