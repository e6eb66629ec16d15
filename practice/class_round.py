"""One round of class mode: what is asked, how a student's answer is kept as text, graded
into a reward, and counted into a distribution the projector can show.

A round asks one bank question (choice, redflag, numeric drill, formula blanks). A
numeric question draws its drill from the round's seed, so every replica and every
student sees the same numbers. An answer is stored as text (``practice.store`` keeps at
most 500 characters): a choice as its option index ("2"), a number as typed, the blanks
as a JSON list of strings. Grading never raises on what a student sent.

In a "be the group" round the rewards are the grader's verdicts: 1 or 0, and for formula
blanks the share of blanks right (partial credit).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from grpo_core import CONVENTIONS
from grpo_core.format import fmt
from practice.class_questions import NumberQuestion, number_drill
from practice.drills import Drill, make_drill
from practice.grading import grade_blanks, grade_choice, grade_drill, parse_number
from practice.questions import Question
from practice.session import option_order

ASKABLE_KINDS = ("choice", "numeric", "blanks", "redflag")
"""Kinds a class round can ask (a follow-up is self-graded, so it has no room tally)."""
OPTION_LETTERS = "ABCDEFGHIJ"
MAX_BARS = 10
"""A distribution of typed answers shows the 9 most given and one bar for the rest."""
LONGEST_DECIMAL = 1e5
"""A typed number at least this large is labelled in 3 significant digits, not 2 decimals."""


@dataclass(frozen=True)
class RoundSpec:
    """What a round asks: stored in the round as JSON text."""

    question_id: str
    group: bool
    """True for a "be the group" round: the rewards become one GRPO group."""
    seed: int
    """Seeds the drill of a numeric question (the same numbers for every student)."""
    convention: str = "trl"
    """The convention the students' own advantages are computed with in a group round."""
    order: tuple[int, ...] = ()
    """The options' order for the whole room: element j is the index of the option shown
    with letter j (A, B, ...); () shows them in the bank's order."""

    def encode(self) -> str:
        raw = {"q": self.question_id, "g": self.group, "s": self.seed, "c": self.convention}
        return json.dumps(raw | ({"o": list(self.order)} if self.order else {}))


def new_spec(question: Question, group: bool, seed: int, convention: str) -> RoundSpec:
    """A round of ``question`` with its options shuffled by ``seed`` (0..2**32-1), one
    order for every phone and the projector (the bank lists the right answer first)."""
    return RoundSpec(question.id, group, seed, convention, option_order(question, seed))


def decode_spec(text: str) -> RoundSpec | None:
    """The RoundSpec of ``RoundSpec.encode``; None for anything else."""
    try:
        raw = json.loads(text)
        order = tuple(int(i) for i in raw.get("o", ()))
        spec = RoundSpec(str(raw["q"]), bool(raw["g"]), int(raw["s"]), str(raw["c"]), order)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return spec if spec.convention in CONVENTIONS else None


def shown_order(question: Question, spec: RoundSpec | None) -> tuple[int, ...]:
    """The option indices in the order the round shows them (the bank's order when the
    round has none, or one that is not a permutation of this question's options)."""
    n = len(question.options)
    order = spec.order if spec is not None else ()
    return order if sorted(order) == list(range(n)) else tuple(range(n))


def drill_of(question: Question, seed: int) -> Drill | None:
    """The drill of a numeric question for this round's seed (a lecturer's number question:
    its fixed value and tolerance); None for other kinds."""
    if isinstance(question, NumberQuestion):
        return number_drill(question)
    if question.kind != "numeric":
        return None
    return make_drill(question.drill, np.random.default_rng([seed]))


def encode_blanks(texts: Sequence[str]) -> str:
    return json.dumps(list(texts), ensure_ascii=False)


def _blanks(question: Question, answer: str) -> list[str] | None:
    try:
        texts = json.loads(answer)
    except ValueError:
        return None
    if not isinstance(texts, list) or len(texts) != len(question.blanks):
        return None
    return [t if isinstance(t, str) else "" for t in texts]


def _choice(question: Question, answer: str) -> int | None:
    return int(answer) if answer.isdigit() and int(answer) < len(question.options) else None


@dataclass(frozen=True)
class Grade:
    correct: bool
    reward: float
    """1/0, or the share of blanks right."""
    feedback: str


def grade_answer(question: Question, drill: Drill | None, answer: str) -> Grade:
    """A student's stored answer, graded by the quiz's own grader; never raises."""
    if question.kind in ("choice", "redflag"):
        chosen = _choice(question, answer)
        if chosen is None:
            return Grade(False, 0.0, "No option was picked.")
        result = grade_choice(question, chosen)
        return Grade(result.correct, float(result.correct), result.feedback)
    if question.kind == "numeric" and drill is not None:
        result = grade_drill(drill, answer)
        return Grade(result.correct, float(result.correct), result.feedback)
    if question.kind == "blanks":
        texts = _blanks(question, answer)
        if texts is None:
            return Grade(False, 0.0, "The blanks were not filled in.")
        results = grade_blanks(question, texts)
        right = sum(r.correct for r in results)
        return Grade(
            right == len(results), right / len(results), " ".join(r.feedback for r in results)
        )
    raise ValueError(f"question {question.id!r} is a {question.kind} question: not askable.")


def answer_label(
    question: Question, drill: Drill | None, answer: str, order: Sequence[int] = ()
) -> str:
    """How an answer is counted on the projector: the letter the option was shown with
    (``order``, see ``shown_order``), the number read (to 2 decimals; from
    ``LONGEST_DECIMAL`` on, 3 significant digits: "1e308" is not 312 digits on the
    projector's axis), or which blanks
    are right ("mean ✓ · std ✗")."""
    if question.kind in ("choice", "redflag"):
        chosen = _choice(question, answer)
        if chosen is None:
            return "no option"
        order = list(order) or list(range(len(question.options)))
        return OPTION_LETTERS[order.index(chosen)]
    if question.kind == "numeric":
        value = parse_number(answer)
        if value is None:
            return "not a number"
        return f"{value:.2f}" if abs(value) < LONGEST_DECIMAL else fmt(value, 3)
    texts = _blanks(question, answer)
    if texts is None:
        return "empty"
    results = grade_blanks(question, texts)
    return " · ".join(
        f"{b.label} {'✓' if r.correct else '✗'}"
        for b, r in zip(question.blanks, results, strict=True)
    )


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    correct: bool


def distribution(
    question: Question, drill: Drill | None, tally: Mapping[str, int], order: Sequence[int] = ()
) -> list[Bar]:
    """The room's answers counted by ``answer_label``: every option of a choice question
    (also those nobody picked) by the letter it was shown with, A first; for other kinds
    the labels, most given first, at most ``MAX_BARS`` bars (the rarest ones together)."""
    order = list(order) or list(range(len(question.options)))
    counts: dict[str, int] = {}
    correct: dict[str, bool] = {}
    for answer, n in tally.items():
        label = answer_label(question, drill, answer, order)
        counts[label] = counts.get(label, 0) + n
        correct[label] = grade_answer(question, drill, answer).correct
    if question.kind in ("choice", "redflag"):
        letters = OPTION_LETTERS[: len(question.options)]
        return [
            Bar(x, counts.get(x, 0), order[j] == question.answer) for j, x in enumerate(letters)
        ]
    ranked = sorted(counts, key=lambda x: (-counts[x], x))
    shown, rest = ranked[: MAX_BARS - 1], ranked[MAX_BARS - 1 :]
    if len(rest) == 1:
        shown, rest = ranked, []
    bars = [Bar(x, counts[x], correct[x]) for x in shown]
    if rest:
        bars.append(Bar(f"{len(rest)} other answers", sum(counts[x] for x in rest), False))
    return bars


def time_left(closes: float | None, now: float) -> float | None:
    """Seconds until a round's countdown reaches 0 (never below 0); None without one."""
    return None if closes is None else max(0.0, closes - now)


def clock_text(seconds: float) -> str:
    """A countdown as a clock reads: 75.2 -> "1:16" (whole seconds, rounded up)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"
