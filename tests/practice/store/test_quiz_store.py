"""One suite, every backend: quiz ids, and the first answer to a question of a quiz stands
(also when answers race), while another quiz asks again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest

from practice.store.base import TextRefused, UnknownQuiz, is_quiz_id, new_quiz_id

IDS = ["blanks-grpo", "choice-mean", "followup-std"]


def test_a_quiz_keeps_its_seed_and_questions(make_store, clock):
    store = make_store(clock=clock)
    quiz_id = store.create_quiz(42, ["choice-mean", "blanks-grpo"])
    assert is_quiz_id(quiz_id) and len(quiz_id) == 22
    stored = store.quiz(quiz_id)
    assert (stored.quiz_id, stored.seed, stored.question_ids) == (
        quiz_id, 42, ("blanks-grpo", "choice-mean"),
    )  # fmt: skip
    assert dict(stored.answers) == {} and stored.created == clock.now
    assert len({store.create_quiz(1, IDS) for _ in range(20)}) == 20


def test_the_first_answer_stands(make_store):
    store = make_store()
    quiz_id = store.create_quiz(7, IDS)
    assert store.answer_quiz(quiz_id, "choice-mean", Fraction(0)) == 0
    assert store.answer_quiz(quiz_id, "choice-mean", Fraction(1)) == 0  # replayed: ignored
    assert store.answer_quiz(quiz_id, "followup-std", Fraction(2, 3)) == Fraction(2, 3)
    assert store.answer_quiz(quiz_id, "followup-std", True) == Fraction(2, 3)
    assert list(store.quiz(quiz_id).answers.items()) == [
        ("choice-mean", 0), ("followup-std", Fraction(2, 3)),
    ]  # fmt: skip
    other = store.create_quiz(7, IDS)  # a new quiz asks again
    assert store.answer_quiz(other, "choice-mean", True) == 1
    assert store.quiz(quiz_id).answers["choice-mean"] == 0


def test_racing_answers_store_exactly_one(make_store):
    store = make_store()
    quiz_id = store.create_quiz(3, IDS)
    credits = [Fraction(n % 2) for n in range(16)]
    with ThreadPoolExecutor(8) as pool:
        stood = set(pool.map(lambda c: store.answer_quiz(quiz_id, "choice-mean", c), credits))
    assert len(stood) == 1 and dict(store.quiz(quiz_id).answers) == {"choice-mean": stood.pop()}


def test_unknown_quizzes_foreign_questions_and_bad_credit_are_refused(make_store):
    store = make_store()
    quiz_id = store.create_quiz(3, IDS)
    for junk in (new_quiz_id(), "", None, 5, "x" * 22 + "'", "../" * 8):
        assert store.quiz(junk) is None
    with pytest.raises(UnknownQuiz, match="not known here"):
        store.answer_quiz(new_quiz_id(), "choice-mean", True)
    with pytest.raises(TextRefused, match="not part of this quiz"):
        store.answer_quiz(quiz_id, "numeric-3", True)
    for credit in (0.5, Fraction(3, 2), -1, "1"):
        with pytest.raises(TextRefused):
            store.answer_quiz(quiz_id, "choice-mean", credit)
    for seed, ids in ((-1, IDS), (2**32, IDS), (1, []), (1, ["a", "a"]), (1, ["a\nb"])):
        with pytest.raises(TextRefused):
            store.create_quiz(seed, ids)
    assert dict(store.quiz(quiz_id).answers) == {}
