"""One class round on screen, shared by the lecturer's and the student's views: the
prompt, the student's answer widgets (their value as the text the store keeps) and the
answer key after the reveal. Options carry letters (A, B, ...) so the projector's bars
and the phones' options name the same thing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

import streamlit as st

from grpo_core.format import shortest
from practice.class_questions import NumberQuestion, SetProblem, parse_set
from practice.class_round import (
    OPTION_LETTERS,
    RoundSpec,
    decode_spec,
    drill_of,
    encode_blanks,
    shown_order,
)
from practice.drills import Drill
from practice.grading import MAX_NUMBER_CHARS
from practice.questions import Question
from practice.store.base import MAX_ANSWER_CHARS, ClassStore, Round
from ui import quiz_feedback as fb
from ui import quiz_widgets as qw

log = logging.getLogger(__name__)


def own_questions(store: ClassStore, code: str) -> tuple[Question, ...]:
    """The lecturer's own questions of session ``code`` (checked when they were added)."""
    try:
        return parse_set(store.question_set(code))
    except SetProblem:  # never stored unchecked; an old or edited store row is left out
        log.warning("class %s: its stored question set no longer parses", code)
        return ()


def asked(store: ClassStore, code: str) -> dict[str, Question]:
    """Every question a round of session ``code`` may ask: the bank and the lecturer's own."""
    return qw.by_id() | {q.id: q for q in own_questions(store, code)}


def kind_title(question: Question) -> str:
    """ "Multiple choice", "Numeric drill", ... or "Number" for a lecturer's number question."""
    return "Number" if isinstance(question, NumberQuestion) else qw.KIND_TITLES[question.kind]


def shown_round(
    r: Round, store: ClassStore, code: str
) -> tuple[RoundSpec, Question, Drill | None, list[int]] | None:
    """(spec, question, drill, option order) of round ``r`` of session ``code`` as every
    screen shows it: a bank question, else one of the lecturer's own (read from the store
    only then); None, after saying so, when it is neither."""
    spec = decode_spec(r.question)
    question = qw.by_id().get(spec.question_id) if spec else None
    if spec and question is None:
        question = next((q for q in own_questions(store, code) if q.id == spec.question_id), None)
    if question is None:
        st.warning("This round's question is not in this server's bank.")
        return None
    return spec, question, drill_of(question, spec.seed), shown_order(question, spec)


def prompt(
    question: Question, drill: Drill | None, order: Sequence[int], *, columns: int = 1
) -> None:
    """The question and its options lettered in the round's ``order``, in ``columns``
    columns (2 on the projector for short options). A display formula is shown at full
    size, a blank as a box (``quiz_widgets.prompt``, as the quiz shows it): inline, the
    blanks' fraction was too small to read on a phone or from the back of the room."""
    qw.prompt(drill.prompt if drill is not None else question.prompt)
    if question.kind in ("choice", "redflag"):
        cells = st.columns(columns) if columns > 1 else [st.container()]
        for j, i in enumerate(order):
            cells[j % len(cells)].markdown(f"**{OPTION_LETTERS[j]}.** {question.options[i].text}")


def inputs(
    question: Question, drill: Drill | None, key: str, stored: str | None, order: Sequence[int]
) -> str | None:
    """The answer widgets under ``key`` (inside the caller's form), pre-filled with the
    stored answer; the answer as the store keeps it (a choice: the option's index in the
    bank, whatever letter it was shown with), or None when nothing is given."""
    if question.kind in ("choice", "redflag"):
        options = list(order)
        index = (
            options.index(int(stored))
            if stored and stored.isdigit() and int(stored) in options
            else None
        )
        label = "Pick the wrong one" if question.kind == "redflag" else "Your answer"
        chosen = st.radio(
            label,
            options,
            index=index,
            key=key,
            horizontal=True,
            format_func=lambda i: OPTION_LETTERS[options.index(i)],
        )
        return None if chosen is None else str(chosen)
    if question.kind == "numeric":
        own = isinstance(question, NumberQuestion)
        typed = st.text_input(
            "Your value" if own else f"Your value of {drill.name}",
            value=stored or "",
            max_chars=MAX_NUMBER_CHARS,
            key=key,
            placeholder="e.g. -0.87",
        )
        return typed.strip() or None
    texts = _stored_blanks(stored, len(question.blanks))
    typed = [
        st.text_input(
            fb.label(blank.label),
            value=texts[j],
            key=f"{key}.{j}",
            max_chars=MAX_ANSWER_CHARS // (2 * len(question.blanks)),
        )
        for j, blank in enumerate(question.blanks)
    ]
    return encode_blanks(typed) if any(t.strip() for t in typed) else None


def _stored_blanks(stored: str | None, count: int) -> list[str]:

    try:
        texts = json.loads(stored) if stored else []
    except ValueError:
        texts = []
    if not isinstance(texts, list) or len(texts) != count:
        return [""] * count
    return [t if isinstance(t, str) else "" for t in texts]


def answer_key(question: Question, drill: Drill | None, order: Sequence[int]) -> None:
    """The right answer and the explanation (after the reveal), options in ``order``."""
    if question.kind in ("choice", "redflag"):
        fb.options_key(question, order, letters=OPTION_LETTERS)
    elif question.kind == "blanks":
        fb.blanks_key(question)
    elif isinstance(question, NumberQuestion):
        st.markdown(
            f"**Answer:** {shortest(question.value)} (accepted within ± {shortest(question.tol)})"
        )
    elif drill is not None:
        st.markdown(f"**Answer:** ${drill.name_tex} \\approx {drill.expected:.4f}$")
        fb.worked_solution(drill)
    if question.explanation:
        fb.explanation(question)
