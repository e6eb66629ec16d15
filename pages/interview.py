"""Interview drill: a timed mock round of follow-up questions, answered in writing, graded
point by point; a clock per question and for the round. Answers go to spaced review when
the reader has a learner key (``ui.quiz_store``)."""

import secrets
import time

import streamlit as st

from practice.session import MAX_SEED, next_question, progress, record_answer, score, start_quiz
from ui import page
from ui import quiz_feedback as fb
from ui import quiz_store as kept
from ui import quiz_widgets as qw

PREFIX = "iv"
SUGGESTED_MINUTES = 2


def start_round() -> None:
    """N follow-ups in a random order; the clock starts now."""
    s = st.session_state
    seed = secrets.randbelow(MAX_SEED + 1)
    chosen = start_quiz(qw.bank_ids(kinds=["followup"]), seed).order[: int(s["iv.n"])]
    qw.forget(PREFIX)
    s["iv.round"] = start_quiz(qw.bank_ids(), seed, only=chosen)
    s["iv.current"] = next_question(s["iv.round"])
    s["iv.start"], s["iv.end"] = time.time(), None
    s["iv.q_start"], s["iv.times"] = s["iv.start"], {}


def on_answer(question_id: str, credit) -> None:
    s = st.session_state
    s["iv.round"] = record_answer(s["iv.round"], question_id, credit)
    s["iv.times"] = {**s["iv.times"], question_id: time.time() - s["iv.q_start"]}
    kept.record_review(qw.by_id()[question_id], credit, s["iv.times"][question_id])
    if s["iv.round"].finished:
        s["iv.end"] = time.time()


def go_next() -> None:
    s = st.session_state
    s["iv.current"] = next_question(s["iv.round"])
    s["iv.q_start"] = time.time()


def end_early() -> None:
    """End the round at this question: the summary of what was answered, not a fresh start
    (the answers and their "I made this point" ticks were dropped)."""
    s = st.session_state
    s["iv.current"], s["iv.end"] = None, time.time()


def end_round() -> None:
    for key in ("iv.round", "iv.current", "iv.start", "iv.end", "iv.q_start", "iv.times"):
        st.session_state.pop(key, None)
    qw.forget(PREFIX)


page.start()
s = st.session_state
st.title("Interview drill")
st.markdown(
    "A mock round of the follow-up questions interviewers ask about GRPO's advantage. For "
    "each one, write (or say, then jot down) your answer and press Check: it is graded point by "
    "point against the key points, quoting the words that earned each, beside the model answer. "
    f"Each question has its own clock (aim for {SUGGESTED_MINUTES} minutes); nothing is cut off."
)
followups = qw.bank_ids(kinds=["followup"])

if "iv.round" not in s:
    c1, c2 = st.columns([1, 2], vertical_alignment="bottom")
    c1.number_input(
        "Questions in the round", 1, len(followups), value=min(5, len(followups)), key="iv.n"
    )
    c2.button("Start a mock round", key="iv.start_btn", type="primary", on_click=start_round)
    st.caption(
        f"{len(followups)} follow-ups in the bank. Aim for about {SUGGESTED_MINUTES} minutes "
        "an answer: long enough to be complete, short enough to keep an interviewer with you."
    )
    fb.trust_caption()
    st.stop()

round_ = s["iv.round"]
running = s.get("iv.end") is None


@st.fragment(run_every=1 if running else None)
def clock() -> None:
    """This question's time against the suggested minutes, and the round's total."""
    total = qw.elapsed(s["iv.start"], s.get("iv.end"))
    current = s.get("iv.current")
    if not running or current is None:
        st.markdown(f":material/timer: **{total}** in total")
        return
    done = s["iv.times"].get(current)
    spent = done if done is not None else time.time() - s["iv.q_start"]
    over = spent > 60 * SUGGESTED_MINUTES
    this = qw.elapsed(0, spent)
    color = "orange" if over else "blue"
    st.markdown(
        f":{color}[:material/timer: **{this}** on this question] (aim: {SUGGESTED_MINUTES}:00)"
        f" · {total} in total"
    )


clock()
sc = score(round_)
current = s.get("iv.current")
if current is not None:
    position = round_.order.index(current) + 1
    st.progress(progress(round_), text=f"Question {position} of {sc.total}")
    question = qw.by_id()[current]
    qw.header(question, f"Question {position}")
    if qw.show_question(question, prefix=PREFIX, seed=round_.seed, on_answer=on_answer):
        last = next_question(round_) is None
        st.button(
            "See my summary" if last else "Next question",
            key="iv.next",
            type="primary",
            icon=":material/arrow_forward:",
            on_click=go_next,
        )
    st.button("End this round", key="iv.quit", type="tertiary", on_click=end_early)
    st.stop()

# Summary ---------------------------------------------------------------------------------
st.subheader("Round summary")
st.markdown(
    f"### {sc.shown} of {sc.total} questions' worth of key points, in "
    f"{qw.elapsed(s['iv.start'], s['iv.end'])}"
)
for qid in round_.order:
    question = qw.by_id()[qid]
    attempt = qw.graded(PREFIX, qid)
    hits = attempt.followup.hits if attempt else (False,) * len(question.key_points)
    with st.container(border=True):
        made = sum(hits)
        mark = (
            ":green[:material/check_circle:]"
            if made == len(hits)
            else ":orange[:material/incomplete_circle:]"
            if made
            else ":gray[:material/cancel:]"
        )
        spent = f"in {qw.elapsed(0, s['iv.times'][qid])}" if qid in s["iv.times"] else "unanswered"
        st.markdown(f"{mark} **{made} of {len(hits)} points** {spent} · {question.prompt}")
        if attempt is not None:
            with st.expander("Points made, points missed, your answer"):
                fb.followup_review(question, attempt, PREFIX)
        missed = [p.text for p, hit in zip(question.key_points, hits, strict=True) if not hit]
        if missed:
            st.markdown(
                "**Key points to make next time**\n\n" + "\n".join(f"- {p}" for p in missed)
            )
st.button("Start another round", key="iv.again", type="primary", on_click=end_round)
