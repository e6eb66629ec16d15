"""One quiz as an immutable record: which questions, in which order, the answers and the score.

Contract: ``start_quiz`` orders the questions with a seeded permutation, so a seed and
a set of ids give the same quiz on every server (which is what lets a quiz travel in a
link). ``record_answer`` and ``retry_missed`` return new states; the first answer to a
question stands. An answer earns credit from 0 to 1 (right or wrong, or for an interview
follow-up the fraction of its key points made), kept as an exact fraction. A quiz passes
with at least ``PASS_PERCENT`` of its questions' worth of credit, compared exactly. Only a
certification attempt (``practice.certification``) issues a certificate, and only when
``certificate_earned``: full, finished (submitted) and passed; a practice quiz never does.

A quiz in the app is kept in the store (``practice.store.base.QuizStore``) under a random
``quiz_id``: ``stored_quiz`` rebuilds the state from what the store holds (its seed, the
ids it asks and the first answer to each), so the score is never taken from a link or a
browser, and ``certificate_terms`` is what a certificate of it states.

The options of a choice or redflag question are shown in ``option_order(question, seed)``:
a permutation seeded by the quiz's seed and the question's id, so everyone who opens a
shared quiz link sees the same order, a new quiz reorders them, and the bank file's order
(where the right option may well come first) gives nothing away.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from practice.questions import Question

PASS_PERCENT = 80
"""The pass mark: a quiz (and a certificate) needs at least this share of its questions right."""

MAX_SEED = 2**32 - 1
"""Seeds are 0..MAX_SEED (4 bytes in a progress link)."""


@dataclass(frozen=True)
class QuizState:
    """One quiz: which questions, in which order, and the answers so far.

    Build it with ``start_quiz`` and change it with ``record_answer`` and
    ``retry_missed``, which return new states. The order is a function of
    ``seed`` and the questions, which is what lets ``encode_progress`` be short.
    """

    bank_ids: tuple[str, ...]
    """Every id of the bank, sorted: the frame progress is encoded against."""
    seed: int
    order: tuple[str, ...]
    """The ids asked in this quiz, in the order they are asked."""
    answers: Mapping[str, Fraction]
    """Question id -> credit earned, 0 to 1 (1: right); only answered questions appear."""
    quiz_id: str = ""
    """The store's id of this quiz ("" for a quiz the store does not keep)."""

    @property
    def full(self) -> bool:
        """The quiz asks every question of the bank (the kind that earns a certificate)."""
        return len(self.order) == len(self.bank_ids)

    @property
    def finished(self) -> bool:
        return len(self.answers) == len(self.order)


@dataclass(frozen=True)
class Score:
    correct: Fraction
    """Credit earned: one per right answer, a fraction for a follow-up's key points."""
    answered: int
    total: int
    """Questions in the quiz, answered or not."""

    @property
    def percent(self) -> float:
        """Credit as a percentage of the quiz's questions."""
        return 100.0 * float(self.correct) / self.total

    @property
    def passing(self) -> bool:
        """At least ``PASS_PERCENT`` of the quiz's questions' worth of credit (exact)."""
        return self.correct * 100 >= self.total * PASS_PERCENT

    @property
    def shown(self) -> str:
        """The credit as a page shows it: "41" or "40.75"."""
        return (
            str(int(self.correct))
            if self.correct.denominator == 1
            else f"{float(self.correct):.2f}"
        )


def start_quiz(
    bank_ids: Iterable[str], seed: int, *, only: Iterable[str] | None = None
) -> QuizState:
    """A new quiz over the bank's ids (or the subset ``only``), in a random order from ``seed``.

    The order is ``numpy.random.default_rng(seed).permutation`` of the sorted ids,
    so the same seed and questions give the same order on every server.
    """
    ids = tuple(sorted(bank_ids))
    if not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
        raise ValueError("bank_ids must be a non-empty collection of distinct string ids.")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}.")
    pool = ids if only is None else tuple(sorted(set(only)))
    missing = sorted(set(pool) - set(ids))
    if missing:
        raise ValueError(f"question {missing[0]!r} is not in the bank.")
    if not pool:
        raise ValueError("a quiz needs at least one question.")
    order = np.random.default_rng(seed).permutation(len(pool))
    return QuizState(ids, seed, tuple(pool[j] for j in order), MappingProxyType({}))


def record_answer(state: QuizState, question_id: str, credit: bool | Fraction) -> QuizState:
    """The state with this answer's credit recorded (True/False, or a fraction from 0 to 1).

    The first answer stands: a second one is ignored. ValueError for credit outside [0, 1].
    """
    if question_id not in state.order:
        raise ValueError(f"question {question_id!r} is not part of this quiz.")
    if isinstance(credit, float) or not isinstance(credit, (bool, int, Fraction)):
        raise ValueError(f"credit must be True, False or an exact fraction, got {credit!r}.")
    if not 0 <= credit <= 1:
        raise ValueError(f"credit must be between 0 and 1, got {credit}.")
    if question_id in state.answers:
        return state
    answers = {**state.answers, question_id: Fraction(credit)}
    return QuizState(
        state.bank_ids, state.seed, state.order, MappingProxyType(answers), state.quiz_id
    )


def stored_quiz(
    bank_ids: Iterable[str],
    quiz_id: str,
    seed: int,
    question_ids: Iterable[str],
    answers: Mapping[str, Fraction],
) -> QuizState | None:
    """The quiz a store holds: asked ids and seed give the order (``start_quiz``), the stored
    first answers the credit. None when the bank no longer has one of its questions, or
    the stored answers are not the quiz's."""
    try:
        state = start_quiz(bank_ids, seed, only=question_ids)
    except ValueError:
        return None
    if not set(answers) <= set(state.order) or not all(0 <= c <= 1 for c in answers.values()):
        return None
    ordered = {q: Fraction(answers[q]) for q in state.order if q in answers}
    return QuizState(state.bank_ids, seed, state.order, MappingProxyType(ordered), quiz_id)


def next_question(state: QuizState) -> str | None:
    """The first unanswered id in the quiz's order; None when the quiz is finished."""
    return next((q for q in state.order if q not in state.answers), None)


def score(state: QuizState) -> Score:
    """Credit earned, answered questions and questions in the quiz."""
    credit = sum((Fraction(c) for c in state.answers.values()), Fraction(0))
    return Score(credit, len(state.answers), len(state.order))


def progress(state: QuizState) -> float:
    """The share of the quiz's questions answered, from 0 to 1 (for a progress bar)."""
    return len(state.answers) / len(state.order)


def missed(state: QuizState) -> tuple[str, ...]:
    """Ids answered without full credit, in the quiz's order (for the review and a retry)."""
    return tuple(q for q in state.order if q in state.answers and state.answers[q] < 1)


def missed_questions(state: QuizState, bank: Sequence[Question]) -> list[Question]:
    """The questions answered wrong, in the quiz's order, for the end-of-quiz review."""
    by_id = {q.id: q for q in bank}
    return [by_id[q] for q in missed(state) if q in by_id]


def retry_missed(state: QuizState, seed: int | None = None) -> QuizState:
    """A new quiz over the missed questions, in a new order (seed + 1 unless given)."""
    wrong = missed(state)
    if not wrong:
        raise ValueError("there is nothing to retry: no question was answered wrong.")
    new_seed = (state.seed + 1) % (MAX_SEED + 1) if seed is None else seed
    return start_quiz(state.bank_ids, new_seed, only=wrong)


def certificate_earned(state: QuizState) -> bool:
    """A full quiz, finished, with at least ``PASS_PERCENT`` right."""
    return state.full and state.finished and score(state).passing


def certificate_terms(
    state: QuizState, questions: Mapping[str, Question], topic_order: Iterable[str]
) -> tuple[Fraction, int, dict]:
    """(credit, questions, details) a certificate of ``state`` states; ValueError unless
    ``certificate_earned``. ``state`` must be the stored quiz (``stored_quiz``), so the
    score is the first graded answer of each question. ``questions``: id -> question;
    details: the topics (in ``topic_order``) and kinds covered, and how it was scored."""
    if not certificate_earned(state):
        raise ValueError("only a full, finished quiz with a pass mark earns a certificate.")
    asked = [questions[q] for q in state.order]
    sc = score(state)
    topics = {q.topic for q in asked}
    details = {
        "topics": [t for t in topic_order if t in topics],
        "kinds": sorted({q.kind for q in asked}),
    }
    return sc.correct, sc.total, details


def option_order(question: Question, seed: int) -> tuple[int, ...]:
    """The order to show ``question``'s options in: a permutation of their indices.

    Element j is the index into ``question.options`` of the option shown j-th; a page
    shows ``options[order[j]]`` and grades the option index the learner picked, so the
    shown position maps back to the option. Seeded by (``seed``, the question's id)
    through ``numpy.random.default_rng``, the same on every server; () for a question
    without options. ValueError for a seed outside 0..MAX_SEED.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}.")
    id_key = int.from_bytes(hashlib.sha256(question.id.encode("utf-8")).digest()[:8], "big")
    rng = np.random.default_rng([seed, id_key])
    return tuple(int(i) for i in rng.permutation(len(question.options)))
