"""Interview drill: a timed mock round of follow-up questions, answered in writing, self-graded."""

import secrets
import time

import streamlit as st

from practice.session import MAX_SEED, next_question, progress, record_answer, score, start_quiz
from ui import page
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


def on_answer(question_id: str, correct: bool) -> None:
    s = st.session_state
    s["iv.round"] = record_answer(s["iv.round"], question_id, correct)
    if s["iv.round"].finished:
        s["iv.end"] = time.time()


def go_next() -> None:
    st.session_state["iv.current"] = next_question(st.session_state["iv.round"])


def end_round() -> None:
    for key in ("iv.round", "iv.current", "iv.start", "iv.end"):
        st.session_state.pop(key, None)
    qw.forget(PREFIX)


page.start()
s = st.session_state
st.title("Interview drill")
st.markdown(
    "A mock round of the follow-up questions interviewers ask about GRPO's advantage. For "
    "each one, write (or say, then jot down) your answer, reveal the model answer and its "
    "key points, and grade yourself. The clock runs, but nothing is cut off."
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
    st.stop()

round_ = s["iv.round"]
running = s.get("iv.end") is None


@st.fragment(run_every=1 if running else None)
def clock() -> None:
    words = "elapsed" if running else "in total"
    st.markdown(f":material/timer: **{qw.elapsed(s['iv.start'], s.get('iv.end'))}** {words}")


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
    st.button("End this round", key="iv.quit", type="tertiary", on_click=end_round)
    st.stop()

# Summary ---------------------------------------------------------------------------------
st.subheader("Round summary")
st.markdown(f"### {sc.correct} of {sc.total} covered, in {qw.elapsed(s['iv.start'], s['iv.end'])}")
for qid in round_.order:
    question = qw.by_id()[qid]
    covered = round_.answers.get(qid)
    with st.container(border=True):
        mark = (
            ":green[:material/check_circle: Covered]"
            if covered
            else ":gray[:material/cancel: Missed]"
        )
        st.markdown(f"{mark} · {question.prompt}")
        if not covered:
            st.markdown(
                "**Key points to make next time**\n\n"
                + "\n".join(f"- {p.text}" for p in question.key_points)
            )
st.button("Start another round", key="iv.again", type="primary", on_click=end_round)
