"""The student's view of class mode: join, answer the open round, see the reveal.

The student's token is in the URL (``?class=<code>&student=<token>``), so a reload or a
reconnection to another replica brings them back. An answer is first written to the URL
as a pending vote (round, a fresh submit id, the answer), then sent; the store's receipt
clears it. A pending vote still in the URL when the page runs again (the replica died
before it answered) is sent again with the same submit id, which the store counts once.

Only ``watch`` polls: a tiny fragment that reruns the page when the lecturer opens,
closes or reveals a round, so the answer widgets are never redrawn under a typing thumb.
Widget keys: ``cls.nickname``, ``cls.join``, ``cls.answer.<round>``, ``cls.send.<round>``.
"""

from __future__ import annotations

import streamlit as st

from grpo_core.format import signed
from practice.class_group import room_group, why
from practice.class_link import PENDING_PARAM, TOKEN_PARAM
from practice.class_results import shown_answer
from practice.class_round import grade_answer
from practice.store.base import (
    MAX_ANSWER_CHARS,
    MAX_NICKNAME_CHARS,
    ClassSession,
    ClassStore,
    Round,
    StoreRefusal,
    StoreUnavailable,
    UnknownSession,
    new_token,
)
from ui import class_round_view as view
from ui import class_seat as seat
from ui import quiz_widgets as qw
from ui import store_guard
from ui.class_projector import state_of
from ui.text import markdown_safe

POLL_SECONDS = 1.5
"""How often a phone asks whether the round changed."""
TARGET_PX = 44
"""The smallest tap target on a phone: an option, the Send button (WCAG 2.2 asks 24)."""
_PHONE_CSS = f"""
<style>
  .st-key-cls-phone [data-testid="stRadioOption"] {{
    min-height: {TARGET_PX}px; min-width: {TARGET_PX + 12}px; align-items: center !important;
    padding: 0 0.5rem; margin-right: 0.25rem; border-radius: 0.5rem;
    border: 1px solid rgba(128, 128, 128, 0.35);
  }}
  .st-key-cls-phone [data-testid="stRadio"] [role="radiogroup"] {{ gap: 0.5rem; }}
  .st-key-cls-phone [data-testid="stFormSubmitButton"] button {{
    min-height: {TARGET_PX + 4}px; min-width: 9rem; font-size: 1.05rem;
  }}
</style>
"""
_DECIMAL_KEYPAD = """<script>
(() => {
  const fields = '.st-key-cls-phone input[aria-label^="Your value"]';
  const mark = () => document.querySelectorAll(fields).forEach(i => {
    if (i.getAttribute('inputmode') !== 'decimal') i.setAttribute('inputmode', 'decimal');
  });
  mark();
  new MutationObserver(mark).observe(document.body, {childList: true, subtree: true});
})();
</script>"""
"""A numeric answer opens the phone's decimal keypad: ``inputmode="decimal"`` on the
answer field (Streamlit's text input takes no such option)."""


def join_form(store: ClassStore, session: ClassSession) -> None:
    """An optional nickname and the Join button: the seat goes into the URL and the tab
    (``ui.class_seat``); a browser that already has a seat gets the same one back."""
    st.subheader(f"Join class {session.code}")
    client = seat.client_key()
    with st.form("cls.join_form"):
        nickname = st.text_input(
            "Nickname (optional: shown on the projector)",
            max_chars=MAX_NICKNAME_CHARS,
            key="cls.nickname",
            placeholder="leave empty to stay anonymous",
        )
        if st.form_submit_button("Join", key="cls.join", type="primary"):
            token = seat.seat(store, session.code)
            if token is None:
                try:
                    name = (nickname or "")[:MAX_NICKNAME_CHARS]
                    token = store.join(session.code, name, client=client).token
                except StoreRefusal as refusal:
                    st.error(markdown_safe(str(refusal)))
                    return
            seat.seats()[session.code] = token
            st.query_params[TOKEN_PARAM] = token
            st.rerun()
    seat.remember_client()  # last: a script element here never moves the form


@st.fragment(run_every=POLL_SECONDS)
@store_guard.calm
def watch(store: ClassStore, code: str, shown) -> None:
    """Rerun the page when the round it shows changed (opened, closed, revealed)."""
    try:
        session = store.session(code)
        now = state_of(store.current_round(code), session)
    except UnknownSession:
        now = "gone"
    except Exception:
        st.caption(":orange[Reconnecting to the class…]")
        return
    if now != shown:
        st.rerun()
    st.caption(":green[:material/wifi:] Live: the next question appears here by itself.")


def send(store: ClassStore, code: str, token: str, pending: str) -> bool:
    """Send the pending vote ``<round>~<submit id>~<answer>``; clear it once the store
    answered (a receipt or a refusal), keep it when the store could not be reached.
    Whether the store acknowledged it."""
    number, submit_id, answer = pending.split("~", 2)
    try:
        store.submit(code, int(number), token, answer, submit_id)  # a duplicate is fine too
    except StoreRefusal as refusal:
        st.session_state["cls.notice"] = ("error", markdown_safe(str(refusal)))
        acknowledged = False
    except StoreUnavailable:
        raise  # ui.store_guard shows "reconnecting" and reruns the page once it is back
    except Exception:
        st.session_state["cls.notice"] = (
            "warning",
            "Not sent yet: the connection dropped. It is sent again by itself.",
        )
        return False
    else:
        acknowledged = True
    store_guard.vote_acknowledged()
    if PENDING_PARAM in st.query_params:
        del st.query_params[PENDING_PARAM]
    return acknowledged


def resend_pending(store: ClassStore, code: str, token: str) -> None:
    """A vote left pending in the URL or the session (a reload, a replica that died, a
    store outage) is sent again."""
    pending = store_guard.pending_vote()
    if pending and pending.count("~") >= 2 and pending.split("~", 1)[0].isdigit():
        send(store, code, token, pending)
    elif pending is not None:
        store_guard.vote_acknowledged()
        if PENDING_PARAM in st.query_params:
            del st.query_params[PENDING_PARAM]


def student_view(store: ClassStore, session: ClassSession, token: str) -> None:
    """The phone: the open round's question and answer widgets, or the result."""
    with st.container(key="cls-phone"):
        st.html(_PHONE_CSS)
        _student_view(store, session, token)


def _student_view(store: ClassStore, session: ClassSession, token: str) -> None:
    code = session.code
    resend_pending(store, code, token)
    r = store.current_round(code)
    watch(store, code, state_of(r, session))
    if session.ended:
        st.info("The lecturer ended this session. Thank you for taking part!")
        return
    if r is None:
        st.info("You're in. The first question appears here as soon as the lecturer opens it.")
        return
    if (shown := view.shown_round(r)) is None:
        return
    spec, question, drill, order = shown
    answers = store.answers(code, r.number)
    mine = next((a for a in answers if a.token == token), None)
    title = "Vote again" if r.revote_of else f"Question {r.number}"
    st.subheader(f"{title}: {qw.KIND_TITLES[question.kind]}")
    view.prompt(question, drill, order)
    if r.open:
        sent = None
        if question.kind == "numeric":
            st.html(_DECIMAL_KEYPAD, unsafe_allow_javascript=True, width="content")
        with st.form(f"cls.form.{r.number}", border=False, enter_to_submit=True):
            answer = view.inputs(
                question, drill, f"cls.answer.{r.number}", mine and mine.answer, order
            )
            if st.form_submit_button("Send answer", key=f"cls.send.{r.number}", type="primary"):
                if answer is None:
                    st.session_state["cls.notice"] = ("warning", "Pick or type an answer first.")
                elif len(answer) > MAX_ANSWER_CHARS:
                    st.session_state["cls.notice"] = (
                        "warning",
                        f"Too long: at most {MAX_ANSWER_CHARS} characters.",
                    )
                else:
                    pending = f"{r.number}~{new_token()}~{answer}"
                    st.query_params[PENDING_PARAM] = pending
                    if send(store, code, token, pending):
                        sent = answer
        notice()
        given = sent if sent is not None else (mine.answer if mine else None)
        if given is not None:
            st.success(voted(question, given, order))
        return
    if mine is None:
        st.info("This round is closed; you did not answer it.")
    elif r.reveal != "answer":
        st.info("Answers are closed. Wait for the reveal.")
    else:
        result(store, code, r, question, drill, spec, answers, mine, order)


def voted(question, answer: str, order) -> str:
    """ "You voted B; you can change it until the round closes." (or "answered 0.5")."""
    verb = "voted" if question.kind in ("choice", "redflag") else "answered"
    shown = markdown_safe(shown_answer(question, answer, order))
    return f"Your answer is in. You {verb} **{shown}**; you can change it until the round closes."


def notice() -> None:
    kind, text = st.session_state.pop("cls.notice", (None, None))
    if kind:
        getattr(st, kind)(text)


def result(store, code, r: Round, question, drill, spec, answers, mine, order) -> None:
    """Right or wrong, the explanation and, in "be the group", the student's advantage."""
    grade = grade_answer(question, drill, mine.answer)
    (st.success if grade.correct else st.error)(
        ("**Right.** " if grade.correct else "**Not this time.** ") + grade.feedback
    )
    if spec.group:
        group = room_group(
            [grade_answer(question, drill, a.answer).reward for a in answers], spec.convention
        )
        i = next(i for i, a in enumerate(answers) if a.token == mine.token)
        st.metric("Your advantage", signed(float(group.advantages[i])), border=True)
        st.markdown(why(group, i))
    view.answer_key(question, drill, order)
