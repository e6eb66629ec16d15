"""One practice question of each kind, on screen: the quiz and the interview drill share these.

A question is answered in a form, so nothing is revealed (or rerun) until the
learner presses Check (or "Reveal model answer" for a follow-up). The grading
comes from grpo_core.quiz; what was graded is kept per question id in
``st.session_state["<prefix>.graded"]``, and a page learns of an answer
through its ``on_answer(question_id, correct)`` callback.

Widget keys, for a page prefix ``p`` and question id ``q``: ``p.choice.q``,
``p.blank.q.<j>``, ``p.num.q``, ``p.text.q`` (inputs) and ``p.check.q``,
``p.reveal.q``, ``p.got.q``, ``p.missed.q`` (buttons).
"""

from __future__ import annotations

import html
import string
import time
from collections.abc import Callable, Iterable

import numpy as np
import streamlit as st

import content
from grpo_core.certificates import sign_progress, unsign_progress
from grpo_core.quiz import (
    MAX_ANSWER_CHARS,
    MAX_NUMBER_CHARS,
    TOPICS,
    Drill,
    Question,
    QuizState,
    decode_progress,
    encode_progress,
    grade_blanks,
    grade_choice,
    grade_drill,
    load_bank,
    make_drill,
)
from ui.citations import cite

MAX_FOLLOWUP_CHARS = 4000
"""A written follow-up answer is for the learner's eyes only; this bounds what is kept."""

KIND_TITLES = {
    "blanks": "Fill in the blanks",
    "choice": "Multiple choice",
    "numeric": "Numeric drill",
    "redflag": "Spot the red flag",
    "followup": "Interviewer follow-up",
}
_INPUT_KINDS = ("choice", "blank", "num", "text")

OnAnswer = Callable[[str, bool], None]


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


def _graded(prefix: str) -> dict:
    return st.session_state.setdefault(f"{prefix}.graded", {})


def graded(prefix: str, question_id: str) -> dict | None:
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
        record = {"chosen": int(chosen), "correct": result.correct}
    elif question.kind == "blanks":
        answers = [s.get(f"{prefix}.blank.{qid}.{j}") or "" for j in range(len(question.blanks))]
        if any(not a.strip() for a in answers):
            return _notice(prefix, qid, "Fill in every blank first, then press Check.")
        results = grade_blanks(question, answers)
        typed = [a[:MAX_ANSWER_CHARS] for a in answers]
        record = {"results": results, "correct": all(r.correct for r in results), "typed": typed}
    elif question.kind == "numeric":
        text = s.get(f"{prefix}.num.{qid}") or ""
        result = grade_drill(drill, text)
        if result.value is None:  # not a number: a typo, not an attempt
            return _notice(prefix, qid, result.feedback)
        record = {
            "result": result,
            "correct": result.correct,
            "typed": [text.strip()[:MAX_NUMBER_CHARS]],
        }
    else:  # followup: reveal, then the learner grades themself
        text = s.get(f"{prefix}.text.{qid}") or ""
        if not text.strip():
            return _notice(
                prefix, qid, "Write your answer first (a few lines is enough), then reveal."
            )
        _graded(prefix)[qid] = {"correct": None, "typed": text[:MAX_FOLLOWUP_CHARS]}
        return
    _graded(prefix)[qid] = record
    on_answer(qid, record["correct"])


def _self_grade(question_id: str, prefix: str, correct: bool, on_answer: OnAnswer) -> None:
    record = _graded(prefix).get(question_id)
    if record is None or record["correct"] is not None:
        return
    record["correct"] = correct
    on_answer(question_id, correct)


def header(question: Question, where: str) -> None:
    """The kind and topic of a question, with its id (handy when reporting a problem)."""
    st.caption(
        f"{where} · **{KIND_TITLES[question.kind]}** · {TOPICS[question.topic]} · "
        f"id `{question.id}`"
    )


def show_question(
    question: Question, *, prefix: str, on_answer: OnAnswer, drill: Drill | None = None
) -> bool:
    """The question, its answer widgets and, after the attempt, the feedback.

    Returns True once the question is answered (and, for a follow-up, self-graded).
    """
    qid = question.id
    record = graded(prefix, qid)
    if question.kind == "numeric":
        st.markdown(drill.prompt)
    else:
        st.markdown(question.prompt)

    if record is None:
        _form(question, prefix, drill, on_answer)
        notice = st.session_state.get(f"{prefix}.notice")
        if notice and notice[0] == qid:
            st.warning(notice[1])
        return False
    # After the attempt the form gives way to what was answered, shown as plain text.
    if question.kind in ("choice", "redflag"):
        _choice_feedback(question, record)
    elif question.kind == "blanks":
        _typed(question.blanks, record["typed"])
        _blanks_feedback(question, record)
    elif question.kind == "numeric":
        _typed([f"Your value of A_{drill.ask}"], record["typed"])
        _numeric_feedback(question, record, drill)
    else:
        return _followup_feedback(question, record, prefix, on_answer)
    return True


def _form(question: Question, prefix: str, drill: Drill | None, on_answer: OnAnswer) -> None:
    """The answer widgets and the button that grades them (nothing reruns before it)."""
    qid = question.id
    with st.form(key=f"{prefix}.form.{qid}", border=False, enter_to_submit=True):
        if question.kind in ("choice", "redflag"):
            label = "Pick the wrong one" if question.kind == "redflag" else "Your answer"
            st.radio(
                label,
                range(len(question.options)),
                index=None,
                format_func=lambda i: question.options[i].text,
                key=f"{prefix}.choice.{qid}",
            )
        elif question.kind == "blanks":
            columns = st.columns(len(question.blanks))
            for j, (blank, column) in enumerate(zip(question.blanks, columns, strict=True)):
                column.text_input(
                    _label(blank.label),
                    max_chars=MAX_ANSWER_CHARS,
                    key=f"{prefix}.blank.{qid}.{j}",
                    placeholder="a word, a symbol or LaTeX",
                )
        elif question.kind == "numeric":
            st.text_input(
                f"Your value of A_{drill.ask}",
                max_chars=MAX_NUMBER_CHARS,
                key=f"{prefix}.num.{qid}",
                placeholder="e.g. -0.87 (4 decimals are plenty)",
                help=f"Accepted within ±{drill.tol:g}. A fraction such as 3/4 works too.",
            )
        else:
            st.text_area(
                "Your answer, as you would say it to the interviewer",
                max_chars=MAX_FOLLOWUP_CHARS,
                key=f"{prefix}.text.{qid}",
                height=140,
            )
        st.form_submit_button(
            "Reveal model answer" if question.kind == "followup" else "Check",
            key=f"{prefix}.{'reveal' if question.kind == 'followup' else 'check'}.{qid}",
            type="primary",
            on_click=_check,
            args=(question, prefix, drill, on_answer),
        )


def _label(text: str) -> str:
    return text[:1].upper() + text[1:]


def _typed(labels, typed) -> None:
    """What the learner typed, as plain text (never Markdown or HTML)."""
    for label, text in zip(labels, typed, strict=True):
        name = label if isinstance(label, str) else _label(label.label)
        st.caption(f"You wrote ({name}):")
        st.text(text)


def _choice_feedback(question: Question, record: dict) -> None:
    chosen = question.options[record["chosen"]]
    if record["correct"]:
        st.success(f"**Right.** {chosen.why}")
    else:
        st.error(f"**Not this one.** {chosen.why}")
    _options_key(question, chosen=record["chosen"])
    _explanation(question)


def _options_key(question: Question, chosen: int | None = None) -> None:
    """Every option with why it is right or wrong; the answer and the learner's pick marked."""
    pick = "the wrong one, to pick" if question.kind == "redflag" else "the answer"
    with st.container(border=True):
        st.markdown("**Why each option**")
        for i, option in enumerate(question.options):
            tags = [pick] if i == question.answer else []
            tags += ["your pick"] if i == chosen else []
            mark = (
                ":green[:material/check_circle:]"
                if i == question.answer
                else ":gray[:material/cancel:]"
            )
            tag = f" *({', '.join(tags)})*" if tags else ""
            st.markdown(f"{mark} {option.text}{tag}  \n{option.why}")


def _blanks_feedback(question: Question, record: dict) -> None:
    results = record["results"]
    right = sum(r.correct for r in results)
    if record["correct"]:
        st.success("**Right: every blank.**")
    else:
        st.error(f"**Not quite: {right} of {len(results)} blanks right.**")
    for blank, result in zip(question.blanks, results, strict=True):
        text = f"**{_label(blank.label)}.** {result.feedback}"
        (st.success if result.correct else st.error)(text)
    _blanks_key(question)
    _explanation(question)


def _blanks_key(question: Question) -> None:
    lines = [f"- {_label(b.label)}: **{b.answer}**" for b in question.blanks]
    st.markdown("**Model answer**\n\n" + "\n".join(lines))


def _numeric_feedback(question: Question, record: dict, drill: Drill) -> None:
    result = record["result"]
    (st.success if result.correct else st.error)(result.feedback)
    worked_solution(drill)
    _explanation(question)


def worked_solution(drill: Drill) -> None:
    with st.container(border=True):
        st.markdown("**Worked solution**")
        for line in drill.solution:
            st.latex(line)


def _followup_feedback(question: Question, record: dict, prefix: str, on_answer: OnAnswer) -> bool:
    mine, model = st.columns(2)
    with mine.container(border=True):
        st.markdown("**Your answer**")
        st.text(record["typed"])
    with model:
        _followup_key(question)
    qid = question.id
    if record["correct"] is None:
        st.markdown("**Did your answer make these points?** Grade yourself honestly.")
        left, right = st.columns(2)
        left.button(
            "Yes, I covered them",
            key=f"{prefix}.got.{qid}",
            icon=":material/check:",
            width="stretch",
            on_click=_self_grade,
            args=(qid, prefix, True, on_answer),
        )
        right.button(
            "Not yet: count it as missed",
            key=f"{prefix}.missed.{qid}",
            icon=":material/close:",
            width="stretch",
            on_click=_self_grade,
            args=(qid, prefix, False, on_answer),
        )
        return False
    if record["correct"]:
        st.success("You marked this as covered.")
    else:
        st.error("You marked this as missed: it will be in your review.")
    return True


def _followup_key(question: Question) -> None:
    with st.container(border=True):
        st.markdown(f"**Model answer.** {question.model_answer}")
        st.markdown("**Key points**\n\n" + "\n".join(f"- {p}" for p in question.key_points))
        if question.explanation:
            st.markdown(cite(question.explanation))


def _explanation(question: Question) -> None:
    st.info(f"**Explanation.** {cite(question.explanation)}", icon=":material/school:")


def answer_key(question: Question, drill: Drill | None = None) -> None:
    """The review of a missed question: the prompt, the answer and the explanation."""
    header(question, "Missed")
    st.markdown(drill.prompt if drill is not None else question.prompt)
    if question.kind in ("choice", "redflag"):
        _options_key(question)
        _explanation(question)
    elif question.kind == "blanks":
        _blanks_key(question)
        _explanation(question)
    elif question.kind == "numeric":
        st.markdown(f"**Answer:** $A_{{{drill.ask}}} \\approx {drill.expected:.4f}$")
        worked_solution(drill)
        _explanation(question)
    else:
        _followup_key(question)


# --- the clock and the certificate -----------------------------------------------------------


def elapsed(start: float, end: float | None = None) -> str:
    """Time since ``start`` (until ``end``, or now) as m:ss."""
    seconds = int(max(0.0, (time.time() if end is None else end) - start))
    return f"{seconds // 60}:{seconds % 60:02d}"


def verify_url(cert_id: str) -> str:
    """The verify page's address for this ID, absolute when the app knows its own URL."""
    page = (st.context.url or "").split("?")[0].split("#")[0]
    base = page.rsplit("/", 1)[0] if page.count("/") > 2 else page.rstrip("/")
    return f"{base}/verify?id={cert_id}" if base else f"verify?id={cert_id}"


def certificate_html(cert: dict, cert_id: str, link: str) -> str:
    """content/certificate.html filled in; every value HTML-escaped (names are text, not markup)."""
    template = string.Template(content.read_text("certificate.html"))
    values = {
        "name": cert["name"],
        "correct": cert["correct"],
        "total": cert["total"],
        "percent": cert["percent"],
        "date": cert["date"],
        "cert_id": cert_id,
        "verify_url": link,
    }
    return template.substitute({k: html.escape(str(v), quote=True) for k, v in values.items()})


# --- progress in the URL ---------------------------------------------------------------------


def progress_param(quiz: QuizState, secret: bytes | None) -> str:
    """The quiz as a short URL parameter, signed with the certificate secret when there is one."""
    code = encode_progress(quiz)
    return sign_progress(code, secret=secret) if secret else code


def read_progress(text, secret: bytes | None) -> QuizState | None:
    """The quiz a ``progress_param`` holds; None for junk, a foreign signature or an older bank."""
    code = unsign_progress(text, secret=secret) if secret else text
    return decode_progress(code, [q.id for q in bank()]) if code else None
