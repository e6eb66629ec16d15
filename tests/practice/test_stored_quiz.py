"""A quiz kept in the store: the first graded answer stands, a replayed progress link
changes nothing, and a certificate's score is computed from the stored answers only."""

from fractions import Fraction

import pytest

from practice.bank import load_bank
from practice.progress_link import decode_progress, encode_progress
from practice.questions import TOPICS
from practice.session import (
    certificate_terms,
    record_answer,
    score,
    start_quiz,
    stored_quiz,
)
from practice.store import open_store

BANK = load_bank()
BY_ID = {q.id: q for q in BANK}
IDS = sorted(BY_ID)


@pytest.fixture
def store(tmp_path):
    return open_store(f"sqlite://{tmp_path}/grpo.sqlite3")


def keep(store, seed: int, only=None):
    quiz = start_quiz(IDS, seed, only=only)
    return load(store, store.create_quiz(seed, quiz.order))


def load(store, quiz_id: str):
    s = store.quiz(quiz_id)
    return stored_quiz(IDS, s.quiz_id, s.seed, s.question_ids, s.answers)


def test_stored_quiz_rebuilds_the_order_and_the_answers():
    quiz = start_quiz(IDS, 11)
    a, b = quiz.order[:2]
    rebuilt = stored_quiz(IDS, "id", 11, sorted(quiz.order), {b: Fraction(1, 2), a: Fraction(1)})
    assert rebuilt.order == quiz.order and rebuilt.quiz_id == "id"
    assert list(rebuilt.answers.items()) == [(a, 1), (b, Fraction(1, 2))]
    assert stored_quiz(IDS, "id", 11, [*IDS, "gone-from-the-bank"], {}) is None
    assert stored_quiz(IDS, "id", 11, IDS[:3], {IDS[5]: Fraction(1)}) is None
    assert stored_quiz(IDS, "id", 11, IDS, {a: Fraction(3, 2)}) is None


def test_the_first_graded_answer_stands(store):
    quiz = keep(store, 5)
    qid = quiz.order[0]
    store.answer_quiz(quiz.quiz_id, qid, False)
    store.answer_quiz(quiz.quiz_id, qid, True)  # answered again: ignored
    assert load(store, quiz.quiz_id).answers == {qid: 0}
    again = keep(store, 5)  # a new quiz asks again
    store.answer_quiz(again.quiz_id, qid, True)
    assert load(store, again.quiz_id).answers == {qid: 1}


def test_replaying_an_old_progress_link_does_not_change_the_score(store):
    quiz = keep(store, 8)
    old_link = encode_progress(quiz)  # taken before any answer
    first = quiz.order[0]
    store.answer_quiz(quiz.quiz_id, first, False)
    place = decode_progress(old_link, IDS)
    replayed = load(store, place.quiz_id)  # the old link's quiz, as stored now
    assert replayed.answers == {first: 0} and score(replayed).correct == 0
    # the browser's stale state answers again: the store keeps the first answer
    stale = record_answer(quiz, first, True)
    store.answer_quiz(stale.quiz_id, first, stale.answers[first])
    assert score(load(store, place.quiz_id)).correct == 0


def test_certificate_terms_come_from_the_stored_answers(store):
    quiz = keep(store, 2)
    wrong = quiz.order[:3]
    for qid in quiz.order:
        store.answer_quiz(quiz.quiz_id, qid, qid not in wrong)
    for qid in wrong:  # laundering: a right answer after the wrong one counts for nothing
        store.answer_quiz(quiz.quiz_id, qid, True)
    correct, total, details = certificate_terms(load(store, quiz.quiz_id), BY_ID, TOPICS)
    assert (correct, total) == (len(IDS) - 3, len(IDS))
    assert details["kinds"] == sorted({q.kind for q in BANK})
    assert details["topics"] == [t for t in TOPICS if t in {q.topic for q in BANK}]


def test_no_certificate_terms_for_an_unfinished_partial_or_failed_quiz(store):
    quiz = keep(store, 4)
    with pytest.raises(ValueError, match="full, finished"):
        certificate_terms(quiz, BY_ID, TOPICS)  # nothing answered
    partial = keep(store, 4, only=IDS[:5])
    for qid in partial.order:
        store.answer_quiz(partial.quiz_id, qid, True)
    with pytest.raises(ValueError, match="full, finished"):
        certificate_terms(load(store, partial.quiz_id), BY_ID, TOPICS)
    for qid in quiz.order:
        store.answer_quiz(quiz.quiz_id, qid, False)
    with pytest.raises(ValueError, match="pass mark"):
        certificate_terms(load(store, quiz.quiz_id), BY_ID, TOPICS)
