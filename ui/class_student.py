"""The student's view of class mode: join, answer the open round, see the reveal.

The student's token is in the URL (``?class=<code>&student=<token>``), so a reload or a
reconnection to another replica brings them back. An answer is first written to the URL
as a pending vote (round, a fresh submit id, the answer), then sent; the store's receipt
clears it. A pending vote still in the URL when the page runs again (the replica died
before it answered) is sent again with the same submit id, which the store counts once.

Only ``watch`` polls: a tiny fragment that reruns the page when the lecturer opens,
closes or reveals a round, so the answer widgets are never redrawn under a typing thumb.
A vote may carry how sure the student is (optional: ``CONFIDENCES``); a round with a
countdown shows the time left, ticking in the browser between two polls.
Widget keys: ``cls.nickname``, ``cls.join``, ``cls.answer.<round>``, ``cls.sure.<round>``,
``cls.send.<round>``.
"""

from __future__ import annotations

import re
import time

import streamlit as st

from grpo_core.format import signed
from practice import limits
from practice.class_group import room_group, why
from practice.class_link import (
    PENDING_PARAM,
    TOKEN_PARAM,
    PendingVote,
    pending_text,
    read_pending,
)
from practice.class_results import shown_answer
from practice.class_round import clock_text, grade_answer, time_left
from practice.grading import grade_numeric, parse_number
from practice.store.base import (
    MAX_ANSWER_CHARS,
    MAX_NICKNAME_CHARS,
    ClassSession,
    ClassStore,
    Round,
    RoundClosed,
    StoreRefusal,
    StoreUnavailable,
    UnknownSession,
    new_token,
)
from practice.store.class_rules import CONFIDENCES, ClassFull
from ui import class_round_view as view
from ui import class_seat as seat
from ui import client as client_address
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
  .cls-clock {{ font-size: 1.4rem; font-weight: 700; }}
</style>
"""
_CLOCK = """<div class="cls-clock" data-left="{left:.2f}">{text} left to answer</div>
<script>
(() => {{
  const pad = s => String(s).padStart(2, '0');
  document.querySelectorAll('.cls-clock:not([data-until])').forEach(e =>
    e.dataset.until = Date.now() + 1000 * parseFloat(e.dataset.left));
  window.clsClock = window.clsClock || setInterval(() => {{
    document.querySelectorAll('.cls-clock[data-until]').forEach(e => {{
      const s = Math.max(0, Math.ceil((e.dataset.until - Date.now()) / 1000));
      e.textContent = s > 0 ? `${{Math.floor(s / 60)}}:${{pad(s % 60)}} left to answer`
                            : 'Time is up';
    }});
  }}, 250);
}})();
</script>"""
"""The countdown on a phone: the server's time left, counted down by the browser between
two polls (a poll draws it afresh, so the browser's clock never drifts far)."""
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


NICKNAME_LABEL = "Nickname (optional: only your lecturer sees it; the projector shows no names)"
"""The projector is anonymous (``ui.class_projector``); names reach the lecturer's screen
and the results CSV only."""


def join_form(store: ClassStore, session: ClassSession) -> None:
    """An optional nickname and the Join button: the seat goes into the URL and the tab
    (``ui.class_seat``); a browser that already has a seat gets the same one back."""
    st.subheader(f"Join class {session.code}")
    client = seat.client_key()
    with st.form("cls.join_form"):
        nickname = st.text_input(
            NICKNAME_LABEL,
            max_chars=MAX_NICKNAME_CHARS,
            key="cls.nickname",
            placeholder="leave empty to stay anonymous",
        )
        if st.form_submit_button("Join", key="cls.join", type="primary"):
            token = seat.seat(store, session.code)
            if token is None:
                try:
                    name = (nickname or "")[:MAX_NICKNAME_CHARS]
                    client_address.spend(limits.JOIN, scope=session.code)
                    token = store.join(session.code, name, client=client).token
                except StoreRefusal as refusal:
                    if isinstance(refusal, limits.OverBudget | ClassFull):  # the lecturer sees it
                        limits.note_refused_join(store, session.code)
                    st.error(markdown_safe(str(refusal)))
                    return
            seat.seats()[session.code] = token
            st.query_params[TOKEN_PARAM] = token
            st.rerun()
    seat.remember_client()  # last: a script element here never moves the form


@st.fragment(run_every=POLL_SECONDS)
@store_guard.calm
def watch(store: ClassStore, code: str, shown, closes: float | None = None) -> None:
    """Rerun the page when the round it shows changed (opened, closed by the lecturer or
    its countdown, revealed); show the time left of a countdown ending at ``closes``."""
    try:
        session = store.session(code)
        now = state_of(store.current_round(code), session)
    except UnknownSession:
        session, now = None, "gone"
    except Exception:
        st.caption(":orange[Reconnecting to the class…]")
        return
    if now != shown:
        st.rerun()
    if session is None or session.ended:
        return  # nothing more will appear here: no "live" line under "this session ended"
    left = time_left(closes, time.time())
    if left is not None and left > 0:
        st.html(_CLOCK.format(left=left, text=clock_text(left)), unsafe_allow_javascript=True)
    if not store_guard.reconnecting():  # else the calm line below says "reconnecting"
        st.caption(":green[:material/wifi:] Live: the next question appears here by itself.")


def send(store: ClassStore, code: str, token: str, vote: PendingVote) -> bool:
    """Send the pending vote; clear it once the store answered (a receipt or a refusal),
    keep it when the store could not be reached. Whether the store acknowledged it."""
    try:  # a duplicate is acknowledged too
        store.submit(code, vote.number, token, vote.answer, vote.submit_id, vote.confidence)
    except RoundClosed as refusal:  # too late: said calmly, not as an error
        st.session_state["cls.notice"] = ("info", markdown_safe(str(refusal)))
        acknowledged = False
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
    if (vote := read_pending(pending)) is not None:
        send(store, code, token, vote)
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
    watch(store, code, state_of(r, session), r and r.closes)
    if session.ended:
        st.info("The lecturer ended this session. Thank you for taking part!")
        return
    if r is None:
        st.info("You're in. The first question appears here as soon as the lecturer opens it.")
        return
    if (shown := view.shown_round(r, store, code)) is None:
        return
    spec, question, drill, order = shown
    answers = store.answers(code, r.number)
    mine = next((a for a in answers if a.token == token), None)
    title = "Vote again" if r.revote_of else f"Question {r.number}"
    st.subheader(f"{title}: {view.kind_title(question)}")
    if spec.group and r.reveal != "answer":  # the projector says "Be the group": so does this
        st.caption(GROUP_NOTE)
    view.prompt(question, drill, order)
    if r.open:
        sent = None
        if question.kind == "numeric":
            st.html(_DECIMAL_KEYPAD, unsafe_allow_javascript=True, width="content")
        with st.form(f"cls.form.{r.number}", border=False, enter_to_submit=True):
            answer = view.inputs(
                question, drill, f"cls.answer.{r.number}", mine and mine.answer, order
            )
            sure = st.radio(
                "How sure are you? (optional)",
                CONFIDENCES,
                index=CONFIDENCES.index(mine.confidence) if mine and mine.confidence else None,
                key=f"cls.sure.{r.number}",
                horizontal=True,
            )
            if st.form_submit_button("Send answer", key=f"cls.send.{r.number}", type="primary"):
                if answer is None:
                    st.session_state["cls.notice"] = ("warning", "Pick or type an answer first.")
                elif (problem := not_a_number(question, answer)) is not None:
                    st.session_state["cls.notice"] = ("warning", f"Not sent: {problem}")
                elif len(answer) > MAX_ANSWER_CHARS:
                    st.session_state["cls.notice"] = (
                        "warning",
                        f"Too long: at most {MAX_ANSWER_CHARS} characters.",
                    )
                else:
                    vote = PendingVote(r.number, new_token(), answer, sure or "")
                    st.query_params[PENDING_PARAM] = pending_text(vote)
                    if send(store, code, token, vote):
                        sent = vote
        notice()
        given = sent or mine
        if given is not None:
            st.success(voted(question, given.answer, order, given.confidence))
        return
    if st.session_state.get(f"cls.send.{r.number}"):  # tapped as the round closed
        st.session_state["cls.notice"] = ("info", str(RoundClosed()))
    notice()
    up = "Time is up. " if r.closes is not None and r.reveal == "none" else ""
    if mine is None:
        st.info(f"{up}This round is closed; you did not answer it.")
        if r.reveal == "answer":  # the room learns the answer now: so does this phone
            view.answer_key(question, drill, order)
    elif r.reveal != "answer":
        gave = markdown_safe(shown_answer(question, mine.answer, order))
        sure = f" ({mine.confidence})" if mine.confidence else ""
        st.info(f"{up}Answers are closed: yours is **{gave}**{sure}. Wait for the reveal.")
    else:
        result(store, code, r, question, drill, spec, answers, mine, order)


GROUP_NOTE = (
    ":material/groups: **Be the group**: the room's answers are one GRPO group. Your "
    "answer's reward joins it; your advantage comes with the answer."
)


def voted(question, answer: str, order, confidence: str = "") -> str:
    """ "You voted B; you can change it until the round closes." (or "answered 0.5"), with
    how sure the student said they were."""
    verb = "voted" if question.kind in ("choice", "redflag") else "answered"
    shown = markdown_safe(shown_answer(question, answer, order))
    sure = f" ({confidence})" if confidence else ""
    return (
        f"Your answer is in. You {verb} **{shown}**{sure}; "
        "you can change it until the round closes."
    )


def not_a_number(question, answer: str) -> str | None:
    """Why a typed answer to a number question is no number ("Use a dot as the decimal
    point, e.g. 0.94."), in the quiz's words; None when it is one, or the question asks
    for no number. Such an answer is not sent: a typo is not a vote."""
    if question.kind != "numeric" or parse_number(answer) is not None:
        return None
    return grade_numeric(answer, 0.0, tol=1.0).feedback


_VERDICT = re.compile(r"^(?:Right|Not quite)\s*[:.]\s*")


def without_verdict(feedback: str) -> str:
    """A number's feedback without the grader's own verdict ("Right: the exact value is
    0.7071." -> "The exact value is 0.7071."): the phone says **Right.** already."""
    rest = _VERDICT.sub("", feedback, count=1)
    return rest[:1].upper() + rest[1:]


def notice() -> None:
    kind, text = st.session_state.pop("cls.notice", (None, None))
    if kind:
        getattr(st, kind)(text)


def result(store, code, r: Round, question, drill, spec, answers, mine, order) -> None:
    """Right or wrong, the explanation and, in "be the group", the student's advantage."""
    grade = grade_answer(question, drill, mine.answer)
    feedback = without_verdict(grade.feedback) if question.kind == "numeric" else grade.feedback
    (st.success if grade.correct else st.error)(
        ("**Right.** " if grade.correct else "**Not this time.** ") + feedback
    )
    if spec.group:
        group = room_group(
            [grade_answer(question, drill, a.answer).reward for a in answers], spec.convention
        )
        i = next(i for i, a in enumerate(answers) if a.token == mine.token)
        st.metric("Your advantage", signed(float(group.advantages[i])), border=True)
        st.markdown(why(group, i))
    view.answer_key(question, drill, order)
