"""What a practice question shows after the attempt: the feedback, the keys and the solution.

Everything the learner typed is shown back as plain text (``st.text``), never as
Markdown or HTML. The quiz's review of missed questions reuses the keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import streamlit as st

from content.citations import cite
from practice.drills import Drill
from practice.flags import Flag, export_flags
from practice.flags import flag as make_flag
from practice.grader_trust import load_trust, trust_sentence
from practice.grading import FollowupResult, NumericResult, Result, without_verdict
from practice.questions import Question
from practice.store.base import StoreRefusal
from ui.class_store import class_store
from ui.state import LEARNER_SESSION_KEY
from ui.text import markdown_safe


@dataclass(frozen=True)
class Attempt:
    """What was graded for one question in one round (kept in session state per question id)."""

    correct: bool
    """Right or wrong (a follow-up: every key point made)."""
    credit: Fraction = Fraction(0)
    """What the answer counts for, 0 to 1: 1 or 0, or a follow-up's fraction of points."""
    typed: tuple[str, ...] = ()
    """What the learner typed, cut to the input's limit, one entry per input."""
    chosen: int | None = None
    """choice and redflag: the index of the option picked."""
    results: tuple[Result, ...] = ()
    """blanks: one result per blank."""
    numeric: NumericResult | None = None
    """numeric: the grading of the typed number."""
    followup: FollowupResult | None = None
    """followup: the grading, point by point."""


def label(text: str) -> str:
    """``text`` with a capital first letter (a blank's label as a widget label)."""
    return text[:1].upper() + text[1:]


def show_typed(labels, texts) -> None:
    """What the learner typed, as plain text (never Markdown or HTML); a label or a Blank each."""
    for item, text in zip(labels, texts, strict=True):
        name = item if isinstance(item, str) else label(item.label)
        st.caption(f"You wrote ({name}):")
        st.text(text)


def verdict_and_reason(question: Question, attempt: Attempt) -> str:
    """One verdict, then the picked option's reason without a verdict word of its own
    (an option's "Wrong: ..." is the reason a red flag is one, not a second verdict)."""
    reason = without_verdict(question.options[attempt.chosen].why)
    if question.kind == "redflag":
        verdict = "Right: that is the red flag." if attempt.correct else "Not this one: it holds."
    else:
        verdict = "Right." if attempt.correct else "Not this one."
    return f"**{verdict}** {reason}"


def choice_feedback(question: Question, attempt: Attempt, order: Sequence[int]) -> None:
    """One verdict with the picked option's reason, then every option's key."""
    (st.success if attempt.correct else st.error)(verdict_and_reason(question, attempt))
    options_key(question, order, chosen=attempt.chosen)
    explanation(question)


def options_key(
    question: Question,
    order: Sequence[int],
    chosen: int | None = None,
    letters: Sequence[str] = (),
) -> None:
    """Every option, in the shown ``order``, with why it is right or wrong; the answer and
    the learner's pick (an option index) marked; each under its letter when the options
    were shown lettered (class mode: a room votes "B")."""
    pick = "the wrong one, to pick" if question.kind == "redflag" else "the answer"
    with st.container(border=True):
        st.markdown("**Why each option**")
        for j, i in enumerate(order):
            option = question.options[i]
            letter = f"**{letters[j]}.** " if j < len(letters) else ""
            tags = [pick] if i == question.answer else []
            tags += ["your pick"] if i == chosen else []
            mark = (
                ":green[:material/check_circle:]"
                if i == question.answer
                else ":gray[:material/cancel:]"
            )
            tag = f" *({', '.join(tags)})*" if tags else ""
            st.markdown(f"{mark} {letter}{option.text}{tag}  \n{option.why}")


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


def followup_feedback(question: Question, attempt: Attempt) -> None:
    """The points the answer made (quoting the words that earned each), the ones it
    missed, the red flags it raised, then the answer beside the model answer."""
    result = attempt.followup
    made, n = sum(result.hits), len(result.hits)
    verdict = f"**{made} of {n} key points made** (counts {made}/{n} toward your score)."
    if result.problem:
        verdict += f" {result.problem}"
    (st.success if made == n else st.warning if made else st.error)(verdict)
    for point, match in zip(question.key_points, result.matches, strict=True):
        if match.hit:
            st.markdown(f":green[:material/check_circle:] **{cite(point.text)}**")
            words = " · ".join(f"“{markdown_safe(w)}”" for w in match.words)
            st.caption(f"Earned by: {words} in:")
            st.text(match.quote)
        else:
            st.markdown(f":gray[:material/cancel:] Missed: {cite(point.text)}")
    for flag in result.red_flags:
        st.error(flag, icon=":material/flag:")
    trust_caption(question.id)
    mine, model = st.columns(2)
    with mine.container(border=True):
        st.markdown("**Your answer**")
        st.text(attempt.typed[0])
    with model:
        followup_key(question)


def trust_caption(question_id: str | None = None) -> None:
    """How far to trust the grade: the grader's measured figures on blind answers (on this
    follow-up's, with ``question_id``), and what to do when it missed a point
    (``practice.grader_trust``)."""
    st.caption(
        ":material/info: This grade comes from rules that read words and their relations, "
        f"not from a reader of meaning. {trust_sentence(load_trust(), question_id)} Weigh "
        "your answer "
        'against the model answer; where it missed a point you made, tick "I made this '
        'point" when you review the round at its end.'
    )


FLAGS = "followup.flags"
"""Session state: (prefix, question id) -> the ``Flag`` of that answer."""


def followup_review(question: Question, attempt: Attempt, prefix: str) -> None:
    """The end review of a follow-up: its partial credit, the points made with the words
    that earned each, the points missed (each with "I made this point"), the learner's own
    answer, then the model answer."""
    result = attempt.followup
    made, n = sum(result.hits), len(result.hits)
    st.markdown(f"**{made} of {n} key points made** (counted {made}/{n} in your score).")
    flagged = []
    for i, (point, match) in enumerate(zip(question.key_points, result.matches, strict=True)):
        if match.hit:
            words = " · ".join(f"“{markdown_safe(w)}”" for w in match.words)
            st.markdown(f":green[:material/check_circle:] Made: {cite(point.text)}")
            st.caption(f"Earned by {words} in:")
            st.text(match.quote)
            continue
        st.markdown(f":gray[:material/cancel:] Missed: {cite(point.text)}")
        if st.checkbox("I made this point", key=f"{prefix}.flag.{question.id}.{i}"):
            flagged.append(i + 1)
            where = (
                "with your progress (Review page lists it)"
                if st.session_state.get(LEARNER_SESSION_KEY)
                else "for this session (open Review for a learner link to keep it)"
            )
            st.caption(
                f":orange[:material/flag: Flagged: kept {where} for the grader's next "
                "review. It does not count toward your score or a certificate.]"
            )
    keep_flag(prefix, make_flag(question.id, attempt.typed[0], result.hits, flagged))
    if flagged:
        flags_export(f"{prefix}.flags.{question.id}")
    with st.container(border=True):
        st.markdown("**Your answer**")
        st.text(attempt.typed[0])
    followup_key(question)


def keep_flag(prefix: str, made: Flag) -> None:
    """Remember this answer's flag for the session (dropped when nothing is flagged) and,
    when it changed and the reader has a learner key, in the store with their progress."""
    kept = st.session_state.setdefault(FLAGS, {})
    before = kept.get((prefix, made.question))
    if made.flagged:
        kept[(prefix, made.question)] = made
    else:
        kept.pop((prefix, made.question), None)
    key = st.session_state.get(LEARNER_SESSION_KEY)
    if key and made != before and (made.flagged or before is not None):
        try:
            class_store().set_flag(key, made)
        except StoreRefusal as err:
            st.warning(f"Your flag is kept for this session only: {err}")


def flags_export(key: str) -> None:
    """A download of the session's flags (JSON lines), when there are any."""
    kept = list(st.session_state.get(FLAGS, {}).values())
    if not kept:
        return
    st.download_button(
        f"Export my flags ({len(kept)} answer{'' if len(kept) == 1 else 's'} so far, TOML)",
        export_flags(kept),
        file_name="grpo-followup-flags.toml",
        mime="application/toml",
        key=key,
        on_click="ignore",
        help="Your answers and the points you say they make, for whoever improves the grader.",
    )


def followup_key(question: Question) -> None:
    """The model answer and the key points of a follow-up."""
    with st.container(border=True):
        st.markdown(f"**Model answer.** {question.model_answer}")
        points = "\n".join(f"- {cite(p.text)}" for p in question.key_points)
        st.markdown("**Key points**\n\n" + points)
        if question.explanation:
            st.markdown(cite(question.explanation))


def explanation(question: Question) -> None:
    """The question's explanation, shown after every attempt and in the review."""
    st.info(f"**Explanation.** {cite(question.explanation)}", icon=":material/school:")
