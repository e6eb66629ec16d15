"""Quiz: practice (one question at a time, feedback after each attempt, a review, typed
seeds; never a certificate) or a certification attempt (``ui.certification``). A quiz is
kept in the store (``ui.quiz_store``): the first answer to a question stands."""

import streamlit as st

from grpo_core.format import plural
from practice.session import (
    MAX_SEED,
    missed_questions,
    next_question,
    progress,
    retry_missed,
    score,
    start_quiz,
)
from ui import certificate, certification, page, present, state
from ui import quiz_store as kept
from ui import quiz_widgets as qw
from ui.secret import cert_key_or_problem, cert_secret_or_problem

PREFIX = "qz"


def begin(quiz) -> None:
    """Make ``quiz`` the current quiz: forget the last one's answers, go to its next question."""
    s = st.session_state
    qw.forget(PREFIX)
    s["qz.state"] = quiz
    s["qz.current"] = next_question(quiz)


def new_quiz(full: bool = False) -> None:
    """A new quiz from the "New quiz" settings (seed, filter), or a full random one."""
    s = st.session_state
    too_long = qw.bounded("qz.seed_in", 10, "The seed")
    seed_text = "" if full else (s.get("qz.seed_in") or "").strip()
    if seed_text:
        if too_long or not seed_text.isdigit() or int(seed_text) > MAX_SEED:
            s["qz.setup_error"] = f"The seed must be a whole number from 0 to {MAX_SEED}."
            return
        seed = int(seed_text)
    else:
        seed = kept.random_seed()
    pool = (
        qw.bank_ids()
        if full
        else qw.bank_ids(kinds=s.get("qz.kinds") or (), topics=s.get("qz.topics") or ())
    )
    if not pool:
        s["qz.setup_error"] = "No question has that kind and topic: widen the filter."
        return
    s.pop("qz.setup_error", None)
    begin(kept.keep(start_quiz(qw.bank_ids(), seed, only=pool)))


def on_answer(question_id: str, credit) -> None:
    seconds = kept.seconds_on(PREFIX, question_id)
    s = st.session_state
    s["qz.state"] = kept.answer(s["qz.state"], qw.by_id()[question_id], credit, seconds)


def go_next() -> None:
    st.session_state["qz.current"] = next_question(st.session_state["qz.state"])


def retry() -> None:
    begin(kept.keep(retry_missed(st.session_state["qz.state"])))


page.start()
s = st.session_state
st.title("Quiz")
secret, _ = cert_secret_or_problem()
key, key_problem = cert_key_or_problem()
link = st.query_params.get(state.QUIZ_PROGRESS_PARAM)
link_attempt = certification.linked_attempt(link, secret)
if link_attempt is not None and link != s.get("qz.param"):
    s["qz.mode"], s["qz.param"] = "Certification", link
# Presenting, the question comes first, under an unlabelled Mode: above a 1280x720 fold.
shown = "collapsed" if present.active() else "visible"
mode = st.segmented_control(
    "Mode",
    ["Practice", "Certification"],
    key="qz.mode",
    default="Practice",
    width="stretch",
    label_visibility=shown,
)
if mode == "Certification":
    certification.view(secret, key, key_problem, link_attempt)
    st.stop()
first, then = st.container(), st.container()
setup, asked = (then, first) if present.active() else (first, then)
with setup:
    qw.mode_intro(qw.PRACTICE_INTRO, "How practice works")

# Restore: this session's quiz, else the link's, else a fresh quiz; its answers are always
# the store's. A link is read when it is not the one this session last wrote.
link = st.query_params.get(state.QUIZ_PROGRESS_PARAM)
if link_attempt is not None or (
    s.get("qz.state") and certification.is_attempt(s["qz.state"].quiz_id)
):
    link = None  # a certification attempt is never continued as practice
    s.pop("qz.state", None)
if "qz.state" not in s or (link and link != s.get("qz.param")):
    restored = kept.from_link(link, secret) if link else None
    if link and restored is None:
        setup.info(
            "That quiz link could not be read (it is incomplete, edited, or from an older "
            "question bank), so here is a fresh quiz."
        )
    begin(restored or kept.keep(start_quiz(qw.bank_ids(), kept.random_seed())))
quiz = s["qz.state"] = kept.load(s["qz.state"].quiz_id) or s["qz.state"]
param = s["qz.param"] = qw.progress_param(quiz, secret)
qw.keep_progress_in_url(param)

with setup.expander(f"New practice quiz · this one: {len(quiz.order)} questions"):
    qw.new_quiz_filters()
    st.caption(
        f"The seed fixes the order and the drills' numbers (this quiz's: {quiz.seed}); type "
        "it to practise the same quiz again."
    )
    st.button("Start a new quiz", key="qz.new", on_click=new_quiz, type="primary")
    if s.get("qz.setup_error"):
        st.warning(s["qz.setup_error"])

sc = score(quiz)
current = s.get("qz.current")
if current is not None and current in quiz.order:
    with asked:
        position = quiz.order.index(current) + 1
        st.progress(
            progress(quiz),
            text=f"Question {position} of {sc.total} · {sc.shown} "
            f"{plural(sc.correct, 'point', with_count=False)} so far",
        )
        question = qw.by_id()[current]
        qw.header(question, f"Question {position}")
        answered = qw.show_question(
            question,
            prefix=PREFIX,
            seed=quiz.seed,
            on_answer=on_answer,
            drill=qw.drill_for(quiz, current),
        )
        if answered:
            last = next_question(quiz) is None
            st.button(
                "See my score" if last else "Next question",
                key="qz.next",
                type="primary",
                icon=":material/arrow_forward:",
                on_click=go_next,
            )
    st.stop()

# The end of the quiz ---------------------------------------------------------------------
st.progress(1.0, text=f"Finished · {sc.shown} of {sc.total} points")
st.subheader("Your score")
st.markdown(f"### {sc.shown} of {sc.total} points ({sc.percent:.1f}%)")
st.caption(certificate.SCORING)
st.caption("Practice issues no certificate: switch to **Certification** mode for one.")

wrong = missed_questions(quiz, qw.bank())
buttons = st.container(horizontal=True)
if wrong:
    buttons.button(
        f"Retry what I missed ({len(wrong)})",
        key="qz.retry",
        on_click=retry,
        type="primary",
        icon=":material/replay:",
    )
buttons.button(
    "Start a new full quiz",
    key="qz.restart",
    on_click=new_quiz,
    args=(True,),
    icon=":material/shuffle:",
)

st.subheader("Review: what you missed")
if not wrong:
    st.success("Nothing: every answer was right.")
for question in wrong:
    with st.container(border=True):
        qw.answer_key(question, quiz.seed, qw.drill_for(quiz, question.id), prefix=PREFIX)
