"""One practice question of each kind, on screen: the quiz and the interview drill share these.

A question is answered in a form, so nothing is revealed (or rerun) until the
learner presses Check. Every kind is graded by ``practice.grading``, a typed follow-up
point by point; what was graded is kept as an ``Attempt`` per question id in
``st.session_state["<prefix>.graded"]``, and a page learns of an answer through its
``on_answer(question_id, credit)`` callback (credit: True/False, or a follow-up's
fraction of key points). What is shown after the attempt is in ``ui.quiz_feedback``.
When a question is first shown, ``(question id, clock seconds)`` is kept in
``st.session_state["<prefix>.shown"]``, so a callback knows how long the answer took.

Typed text is bounded on the server, not by the browser (a browser's ``max_chars``
silently drops a long paste): ``bounded`` keeps what fits and says the rest was too long.

Widget keys, for a page prefix ``p`` and question id ``q``: ``p.choice.q``,
``p.blank.q.<j>``, ``p.num.q``, ``p.text.q`` (inputs) and ``p.check.q`` (button).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from fractions import Fraction

import numpy as np
import streamlit as st

from practice.answer_text import MAX_ANSWER_CHARS
from practice.bank import load_bank
from practice.drills import Drill, make_drill
from practice.followup import MAX_FOLLOWUP_CHARS
from practice.grading import (
    MAX_NUMBER_CHARS,
    grade_blanks,
    grade_choice,
    grade_drill,
    grade_followup,
)
from practice.progress_link import (
    Place,
    decode_progress,
    encode_progress,
    sign_progress,
    unsign_progress,
)
from practice.questions import KINDS, TOPICS, Question
from practice.session import QuizState, option_order
from ui import present
from ui import quiz_feedback as fb
from ui.quiz_feedback import Attempt
from ui.state import QUIZ_PROGRESS_PARAM

KIND_TITLES = {
    "blanks": "Fill in the blanks",
    "choice": "Multiple choice",
    "numeric": "Numeric drill",
    "redflag": "Spot the red flag",
    "followup": "Interviewer follow-up",
}
_INPUT_KINDS = ("choice", "blank", "num", "text")

OnAnswer = Callable[[str, bool | Fraction], None]


# --- the bank -------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def bank() -> tuple[Question, ...]:
    """Every question of content/questions.toml, loaded once per server."""
    return tuple(load_bank())


@st.cache_resource(show_spinner=False)
def by_id() -> dict[str, Question]:
    return {q.id: q for q in bank()}


def bank_ids(*, kinds: Iterable[str] = (), topics: Iterable[str] = ()) -> list[str]:
    """Ids of the bank, or of the questions of these kinds and topics (empty = any)."""
    kinds, topics = set(kinds), set(topics)
    return [
        q.id for q in bank() if (not kinds or q.kind in kinds) and (not topics or q.topic in topics)
    ]


@st.cache_resource(show_spinner=False, max_entries=4096)
def _drill(question_id: str, seed: int, index: int) -> Drill:
    return make_drill(by_id()[question_id].drill, np.random.default_rng([seed, index]))


def drill_for(quiz: QuizState, question_id: str) -> Drill | None:
    """The drill of a numeric question in this quiz: the same numbers on every rerun and reload.

    Seeded with (quiz seed, the question's place in the quiz), so a new quiz or a
    retry draws fresh rewards. None for the other kinds.
    """
    question = by_id()[question_id]
    if question.kind != "numeric":
        return None
    return _drill(question_id, quiz.seed, quiz.order.index(question_id))


# --- answering one question ------------------------------------------------------------------


def _graded(prefix: str) -> dict[str, Attempt]:
    return st.session_state.setdefault(f"{prefix}.graded", {})


def graded(prefix: str, question_id: str) -> Attempt | None:
    """What was graded for this question in this round, or None before the attempt."""
    return _graded(prefix).get(question_id)


def forget(prefix: str) -> None:
    """Drop the graded answers and typed inputs of ``prefix`` (a new quiz or round starts)."""
    st.session_state[f"{prefix}.graded"] = {}
    st.session_state.pop(f"{prefix}.notice", None)
    for key in list(st.session_state):
        parts = str(key).split(".")
        if len(parts) > 2 and parts[0] == prefix and parts[1] in _INPUT_KINDS:
            del st.session_state[key]


def _notice(prefix: str, question_id: str, text: str) -> None:
    st.session_state[f"{prefix}.notice"] = (question_id, text)


def bounded(key: str, limit: int, what: str) -> str | None:
    """Keep the first ``limit`` characters of the text input ``key`` (call from a callback).

    Returns a notice when the text was longer ("... too long: N characters; the first
    ``limit`` are kept"), else None. The browser never cuts a paste short: we do, and say so.
    """
    s = st.session_state
    text = s.get(key)
    if not isinstance(text, str) or len(text) <= limit:
        return None
    s[key] = text[:limit]
    return (
        f"{what} is too long: {len(text):,} characters, at most {limit:,} are read. The first "
        f"{limit:,} are kept in the field: shorten it, then try again."
    )


def _check(question: Question, prefix: str, drill: Drill | None, on_answer: OnAnswer) -> None:
    """Grade what the form holds (a button callback); a non-attempt leaves a notice instead."""
    s, qid = st.session_state, question.id
    s.pop(f"{prefix}.notice", None)
    if qid in _graded(prefix):
        return
    if question.kind in ("choice", "redflag"):
        chosen = s.get(f"{prefix}.choice.{qid}")
        if chosen is None:
            return _notice(prefix, qid, "Pick an option first, then press Check.")
        result = grade_choice(question, int(chosen))
        attempt = Attempt(result.correct, Fraction(result.correct), chosen=int(chosen))
    elif question.kind == "blanks":
        keys = [f"{prefix}.blank.{qid}.{j}" for j in range(len(question.blanks))]
        for key, blank in zip(keys, question.blanks, strict=True):
            if problem := bounded(key, MAX_ANSWER_CHARS, f"The {blank.label}"):
                return _notice(prefix, qid, problem)
        answers = [s.get(key) or "" for key in keys]
        if any(not a.strip() for a in answers):
            return _notice(prefix, qid, "Fill in every blank first, then press Check.")
        results = grade_blanks(question, answers)
        right = all(r.correct for r in results)
        attempt = Attempt(right, Fraction(right), typed=tuple(answers), results=results)
    elif question.kind == "numeric":
        if problem := bounded(f"{prefix}.num.{qid}", MAX_NUMBER_CHARS, "The number"):
            return _notice(prefix, qid, problem)
        text = s.get(f"{prefix}.num.{qid}") or ""
        result = grade_drill(drill, text)
        if result.value is None:  # not a number: a typo, not an attempt
            return _notice(prefix, qid, result.feedback)
        attempt = Attempt(
            result.correct, Fraction(result.correct), typed=(text.strip(),), numeric=result
        )
    else:  # followup: graded point by point
        if problem := bounded(f"{prefix}.text.{qid}", MAX_FOLLOWUP_CHARS, "Your answer"):
            return _notice(prefix, qid, problem)
        text = s.get(f"{prefix}.text.{qid}") or ""
        if not text.strip():
            return _notice(prefix, qid, "Write your answer first (a few lines is enough).")
        result = grade_followup(qid, text)
        credit = Fraction(sum(result.hits), len(result.hits))
        attempt = Attempt(credit == 1, credit, typed=(text,), followup=result)
    _graded(prefix)[qid] = attempt
    on_answer(qid, attempt.credit if question.kind == "followup" else attempt.correct)


def header(question: Question, where: str) -> None:
    """The kind and topic of a question (no internal id or seed: those mean nothing to a
    learner)."""
    st.caption(f"{where} · **{KIND_TITLES[question.kind]}** · {TOPICS[question.topic]}")


def show_question(
    question: Question,
    *,
    prefix: str,
    seed: int,
    on_answer: OnAnswer,
    drill: Drill | None = None,
    feedback: bool = True,
) -> bool:
    """The question, its answer widgets and, after the attempt, the feedback.

    ``seed`` is the quiz's (or round's): options are shown in ``option_order(question, seed)``.
    ``feedback=False`` (a certification attempt): the button saves the answer and nothing
    says whether it was right. Returns True once the question is answered.
    """
    qid = question.id
    attempt = graded(prefix, qid)
    prompt(drill.prompt if question.kind == "numeric" else question.prompt)

    if attempt is None:
        shown = st.session_state.get(f"{prefix}.shown")
        if not shown or shown[0] != qid:
            st.session_state[f"{prefix}.shown"] = (qid, time.time())
        button = "Check" if feedback else "Save my answer"
        _form(question, prefix, option_order(question, seed), drill, on_answer, button)
        notice = st.session_state.get(f"{prefix}.notice")
        if notice and notice[0] == qid:
            st.warning(notice[1])
        return False
    if not feedback:
        st.info("Answer saved. Right or wrong is shown after you submit the attempt.")
        return True
    # After the attempt the form gives way to what was answered, shown as plain text.
    if question.kind in ("choice", "redflag"):
        fb.choice_feedback(question, attempt, option_order(question, seed))
    elif question.kind == "blanks":
        fb.show_typed(question.blanks, attempt.typed)
        fb.blanks_feedback(question, attempt)
    elif question.kind == "numeric":
        fb.show_typed([f"Your value of {drill.name}"], attempt.typed)
        fb.numeric_feedback(question, attempt, drill)
    else:
        fb.followup_feedback(question, attempt)
    return True


_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_BLANK = r"\boxed{\phantom{\mu_g}}"


def prompt(text: str) -> None:
    """A question's Markdown, its display formulas ($$...$$) at full size (``st.latex``,
    fractions in display style), every blank ``\\_\\_\\_`` a visible box."""
    parts = _DISPLAY_MATH.split(text)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            if part.strip():
                st.markdown(part)
        else:
            formula = part.replace(r"\_\_\_", _BLANK).replace(r"\frac", r"\dfrac")
            st.latex(formula)


def _form(
    question: Question,
    prefix: str,
    order: tuple[int, ...],
    drill: Drill | None,
    on_answer: OnAnswer,
    button: str = "Check",
) -> None:
    """The answer widgets and the button that grades them (nothing reruns before it).

    The radio's values are option indices listed in the shown ``order``, so what the
    learner picks is the option itself, whatever position it was shown at.
    """
    qid = question.id
    with st.form(key=f"{prefix}.form.{qid}", border=False, enter_to_submit=True):
        if question.kind in ("choice", "redflag"):
            label = "Pick the wrong one" if question.kind == "redflag" else "Your answer"
            st.radio(
                label,
                order,
                index=None,
                format_func=lambda i: question.options[i].text,
                key=f"{prefix}.choice.{qid}",
            )
        elif question.kind == "blanks":
            columns = st.columns(len(question.blanks))
            for j, (blank, column) in enumerate(zip(question.blanks, columns, strict=True)):
                column.text_input(
                    fb.label(blank.label),
                    key=f"{prefix}.blank.{qid}.{j}",
                    placeholder="a word, a symbol or LaTeX",
                )
        elif question.kind == "numeric":
            st.text_input(
                f"Your value of {drill.name}",
                key=f"{prefix}.num.{qid}",
                placeholder="e.g. -0.87 (4 decimals are plenty)",
                help=f"Accepted within ±{drill.tol:g}. A fraction such as 3/4 works too.",
            )
        else:
            st.text_area(
                "Your answer, as you would say it to the interviewer",
                key=f"{prefix}.text.{qid}",
                height=140,
                help=f"Graded point by point against the key points; up to "
                f"{MAX_FOLLOWUP_CHARS:,} characters are read.",
            )
        st.form_submit_button(
            button,
            key=f"{prefix}.check.{qid}",
            type="primary",
            on_click=_check,
            args=(question, prefix, drill, on_answer),
        )


def answer_key(
    question: Question,
    seed: int,
    drill: Drill | None = None,
    where: str = "Missed",
    prefix: str = "",
) -> None:
    """The review of a question (``where``: "Missed", "Right", ...): the prompt, the answer
    and the explanation; a follow-up graded in this session (under ``prefix``) with its
    partial credit.

    Options are listed in the order the quiz with ``seed`` showed them.
    """
    attempt = graded(prefix, question.id) if prefix else None
    partly = attempt is not None and attempt.followup is not None and attempt.credit > 0
    header(question, "Partly right" if partly else where)
    st.markdown(drill.prompt if drill is not None else question.prompt)
    if question.kind in ("choice", "redflag"):
        fb.options_key(question, option_order(question, seed))
        fb.explanation(question)
    elif question.kind == "blanks":
        fb.blanks_key(question)
        fb.explanation(question)
    elif question.kind == "numeric":
        st.markdown(f"**Answer:** ${drill.name_tex} \\approx {drill.expected:.4f}$")
        fb.worked_solution(drill)
        fb.explanation(question)
    elif attempt is not None and attempt.followup is not None:
        fb.followup_review(question, attempt, prefix)
    else:
        fb.followup_key(question)


# --- the clock and the certificate -----------------------------------------------------------


def elapsed(start: float, end: float | None = None) -> str:
    """Time since ``start`` (until ``end``, or now) as m:ss."""
    seconds = int(max(0.0, (time.time() if end is None else end) - start))
    return f"{seconds // 60}:{seconds % 60:02d}"


# --- progress in the URL ---------------------------------------------------------------------


def progress_param(quiz: QuizState, secret: bytes | None) -> str:
    """The stored quiz's place (quiz id, seed; never its answers) as a short URL parameter,
    signed with the certificate secret when there is one."""
    code = encode_progress(quiz)
    return sign_progress(code, secret=secret) if secret else code


def read_progress(text, secret: bytes | None) -> Place | None:
    """The place a ``progress_param`` holds; None for junk, a foreign signature or an older
    bank."""
    code = unsign_progress(text, secret=secret) if secret else text
    return decode_progress(code, [q.id for q in bank()]) if code else None


PRACTICE_INTRO = (
    "Practice: one question at a time. Answer first: the feedback, with why each answer is "
    "right or wrong, appears after you press **Check**, and your first answer to a question "
    "is the one that counts. Interview follow-ups are typed and graded point by point. At the "
    "end you get your score, a review of what you missed and a retry. Practice never issues "
    "a certificate: that is the **Certification** mode's job."
)


def mode_intro(text: str, title: str) -> None:
    """How a quiz mode works: a paragraph for the reader; folded under ``title`` when
    presenting, so that on a 1280x720 projector the question and its answer box sit
    above the fold (the paragraph pushed them below it)."""
    if present.active():
        with st.expander(title):
            st.markdown(text)
    else:
        st.markdown(text)


def keep_progress_in_url(param: str) -> None:
    """The quiz's progress link ``param`` in the URL, so that a reload or a bookmark
    resumes the quiz; except while presenting, when it leaves the URL: a projected address
    bar would hand the room the presenter's quiz, and whoever typed it in could answer
    its questions first (the first answer is the one that counts). The session keeps the
    quiz; the link comes back once presentation mode is off."""
    if present.active():
        if QUIZ_PROGRESS_PARAM in st.query_params:
            del st.query_params[QUIZ_PROGRESS_PARAM]
    elif st.query_params.get(QUIZ_PROGRESS_PARAM) != param:
        st.query_params[QUIZ_PROGRESS_PARAM] = param


def new_quiz_filters() -> None:
    """A new practice quiz's topics, kinds and seed (``qz.topics``, ``qz.kinds``,
    ``qz.seed_in``), which the quiz page's "Start a new quiz" reads."""
    c1, c2, c3 = st.columns([2, 2, 1])
    c1.multiselect(
        "Topics (none = all)",
        list(TOPICS),
        format_func=TOPICS.get,
        key="qz.topics",
        placeholder="All topics",
    )
    c2.multiselect(
        "Kinds (none = all)",
        list(KINDS),
        format_func=KIND_TITLES.get,
        key="qz.kinds",
        placeholder="All kinds",
    )
    c3.text_input("Seed (blank = random)", key="qz.seed_in")
