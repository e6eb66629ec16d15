"""What a practice question shows after the attempt: the feedback, the keys and the solution.

Everything the learner typed is shown back as plain text (``st.text``), never as
Markdown or HTML. The quiz's review of missed questions reuses the keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from practice.drills import Drill
from practice.grading import NumericResult, Result
from practice.questions import Question
from ui.citations import cite

SelfGrade = Callable[[bool], None]


@dataclass(frozen=True)
class Attempt:
    """What was graded for one question in one round (kept in session state per question id)."""

    correct: bool | None
    """Right or wrong; None for a follow-up revealed but not yet self-graded."""
    typed: tuple[str, ...] = ()
    """What the learner typed, cut to the input's limit, one entry per input."""
    chosen: int | None = None
    """choice and redflag: the index of the option picked."""
    results: tuple[Result, ...] = ()
    """blanks: one result per blank."""
    numeric: NumericResult | None = None
    """numeric: the grading of the typed number."""


def label(text: str) -> str:
    """``text`` with a capital first letter (a blank's label as a widget label)."""
    return text[:1].upper() + text[1:]


def show_typed(labels, texts) -> None:
    """What the learner typed, as plain text (never Markdown or HTML); a label or a Blank each."""
    for item, text in zip(labels, texts, strict=True):
        name = item if isinstance(item, str) else label(item.label)
        st.caption(f"You wrote ({name}):")
        st.text(text)


def choice_feedback(question: Question, attempt: Attempt, order: Sequence[int]) -> None:
    """Right or not, with the picked option's reason, then every option's key."""
    chosen = question.options[attempt.chosen]
    if attempt.correct:
        st.success(f"**Right.** {chosen.why}")
    else:
        st.error(f"**Not this one.** {chosen.why}")
    options_key(question, order, chosen=attempt.chosen)
    explanation(question)


def options_key(question: Question, order: Sequence[int], chosen: int | None = None) -> None:
    """Every option, in the shown ``order``, with why it is right or wrong; the answer and
    the learner's pick (an option index) marked."""
    pick = "the wrong one, to pick" if question.kind == "redflag" else "the answer"
    with st.container(border=True):
        st.markdown("**Why each option**")
        for i in order:
            option = question.options[i]
            tags = [pick] if i == question.answer else []
            tags += ["your pick"] if i == chosen else []
            mark = (
                ":green[:material/check_circle:]"
                if i == question.answer
                else ":gray[:material/cancel:]"
            )
            tag = f" *({', '.join(tags)})*" if tags else ""
            st.markdown(f"{mark} {option.text}{tag}  \n{option.why}")


def blanks_feedback(question: Question, attempt: Attempt) -> None:
    """Every blank right or not, with why, then the model answer."""
    results = attempt.results
    right = sum(r.correct for r in results)
    if attempt.correct:
        st.success("**Right: every blank.**")
    else:
        st.error(f"**Not quite: {right} of {len(results)} blanks right.**")
    for blank, result in zip(question.blanks, results, strict=True):
        text = f"**{label(blank.label)}.** {result.feedback}"
        (st.success if result.correct else st.error)(text)
    blanks_key(question)
    explanation(question)


def blanks_key(question: Question) -> None:
    """The model answer of every blank."""
    lines = [f"- {label(b.label)}: **{b.answer}**" for b in question.blanks]
    st.markdown("**Model answer**\n\n" + "\n".join(lines))


def numeric_feedback(question: Question, attempt: Attempt, drill: Drill) -> None:
    """Right or not (naming a classic mistake), then the worked solution."""
    result = attempt.numeric
    (st.success if result.correct else st.error)(result.feedback)
    worked_solution(drill)
    explanation(question)


def worked_solution(drill: Drill) -> None:
    """The drill's solution, one LaTeX line per step."""
    with st.container(border=True):
        st.markdown("**Worked solution**")
        for line in drill.solution:
            st.latex(line)


def followup_feedback(
    question: Question, attempt: Attempt, *, key_prefix: str, on_self_grade: SelfGrade
) -> bool:
    """The learner's answer beside the model answer, then the self-grading buttons.

    ``on_self_grade(correct)`` is the buttons' callback. Returns True once self-graded.
    """
    mine, model = st.columns(2)
    with mine.container(border=True):
        st.markdown("**Your answer**")
        st.text(attempt.typed[0])
    with model:
        followup_key(question)
    if attempt.correct is None:
        st.markdown("**Did your answer make these points?** Grade yourself honestly.")
        left, right = st.columns(2)
        left.button(
            "Yes, I covered them",
            key=f"{key_prefix}.got.{question.id}",
            icon=":material/check:",
            width="stretch",
            on_click=on_self_grade,
            args=(True,),
        )
        right.button(
            "Not yet: count it as missed",
            key=f"{key_prefix}.missed.{question.id}",
            icon=":material/close:",
            width="stretch",
            on_click=on_self_grade,
            args=(False,),
        )
        return False
    if attempt.correct:
        st.success("You marked this as covered.")
    else:
        st.error("You marked this as missed: it will be in your review.")
    return True


def followup_key(question: Question) -> None:
    """The model answer and the key points of a follow-up."""
    with st.container(border=True):
        st.markdown(f"**Model answer.** {question.model_answer}")
        st.markdown("**Key points**\n\n" + "\n".join(f"- {p.text}" for p in question.key_points))
        if question.explanation:
            st.markdown(cite(question.explanation))


def explanation(question: Question) -> None:
    """The question's explanation, shown after every attempt and in the review."""
    st.info(f"**Explanation.** {cite(question.explanation)}", icon=":material/school:")
