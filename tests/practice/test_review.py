"""Spaced review: ratings from grade and time, FSRS scheduling at fixed dates, what is due
today (mistakes first), and record_attempt on a real store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from practice.bank import load_bank
from practice.questions import KINDS
from practice.review import (
    KIND_SECONDS,
    NEW_DUE,
    NEW_PER_DAY,
    Due,
    card_from_state,
    card_id,
    due_today,
    end_of_day,
    next_card,
    rating_for,
    record_attempt,
    review,
    threshold_rows,
)
from practice.store import open_store
from practice.store.base import Attempt

NOW = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def test_every_kind_has_thresholds_quick_before_slow():
    assert set(KIND_SECONDS) == set(KINDS)
    assert all(0 < quick < slow for quick, slow in KIND_SECONDS.values())
    assert [row["kind"] for row in threshold_rows()] == list(KIND_SECONDS)
    assert threshold_rows()[0] == {
        "kind": "choice", "Easy if right within": "10 s", "Hard if right after": "60 s"
    }  # fmt: skip


@pytest.mark.parametrize(
    "score, seconds, kind, expected",
    [
        (0.0, 3, "choice", Rating.Again),  # wrong, however quick
        (False, 30, "choice", Rating.Again),
        (0.4, 30, "followup", Rating.Again),  # partial under half
        (0.5, 30, "followup", Rating.Hard),  # partial from half up
        (1.0, 61, "choice", Rating.Hard),  # right but slow
        (1.0, 60, "choice", Rating.Good),
        (1.0, 11, "choice", Rating.Good),
        (1.0, 10, "choice", Rating.Easy),  # right quickly
        (True, 44, "numeric", Rating.Easy),  # a numeric drill has more time
        (1.0, 241, "numeric", Rating.Hard),
    ],
)
def test_rating_from_grade_and_time(score, seconds, kind, expected):
    assert rating_for(score, seconds, kind) == expected


def test_rating_refuses_unknown_kind_and_bad_score():
    with pytest.raises(ValueError, match="kind must be one of"):
        rating_for(1.0, 1, "essay")
    with pytest.raises(ValueError, match="score must be in"):
        rating_for(1.5, 1, "choice")


def test_a_new_card_is_due_since_long_ago_with_a_stable_id():
    card = card_from_state("choice-mean", None)
    assert card.due == NEW_DUE and card.card_id == card_id("choice-mean")
    assert card_from_state("choice-mean", {"junk": 1}).due == NEW_DUE, "an unreadable state"
    assert card_from_state("x", {**card.to_dict(), "due": "2027-01-01T00:00:00"}).due == NEW_DUE


@pytest.mark.parametrize(
    "change",
    [{"step": "x"}, {"stability": "nan"}, {"state": 3, "step": None}],
    ids=["step-text", "stability-nan", "relearning-without-step"],
)
def test_a_stored_state_fsrs_refuses_reads_as_a_new_card_that_can_be_reviewed(change):
    """States stored before imports were checked (issue 24) broke "Save and next"."""
    state = {**review(card_from_state("q", None), Rating.Good, NOW).to_dict(), **change}
    card = card_from_state("q", state)
    assert card.due == NEW_DUE
    assert review(card, Rating.Good, NOW).due > NOW


def test_fsrs_schedules_at_fixed_dates():
    card = card_from_state("q", None)
    again = review(card, Rating.Again, NOW)
    assert again.due == NOW + timedelta(minutes=1), "Again: the first learning step"
    easy = review(card, Rating.Easy, NOW)
    assert easy.due.date() > NOW.date(), "Easy on a new card graduates it to days"
    good = review(review(card, Rating.Good, NOW), Rating.Good, NOW + timedelta(minutes=10))
    assert good.due == NOW + timedelta(minutes=10, days=2), "Good twice: two days (FSRS-6)"
    assert card_from_state("q", good.to_dict()) == good, "a stored state reads back"


def test_end_of_day_is_the_next_utc_midnight():
    assert end_of_day(NOW) == datetime(2027, 3, 2, tzinfo=UTC)


def attempt(qid, score, at, rating=3):
    return Attempt(qid, "choice", score, 5.0, rating, at.timestamp())


def test_due_today_puts_mistakes_first_then_reviews_then_new():
    ids = ["a", "b", "c", "d", "e"]
    yesterday = NOW - timedelta(days=1)
    cards = {
        "a": review(card_from_state("a", None), Rating.Good, yesterday).to_dict(),  # due today
        "b": review(card_from_state("b", None), Rating.Again, NOW).to_dict(),  # a mistake
        "c": review(card_from_state("c", None), Rating.Easy, NOW).to_dict(),  # in days
    }
    attempts = [attempt("a", 1.0, yesterday), attempt("b", 0.0, NOW, 1), attempt("c", 1, NOW, 4)]
    due = due_today(ids, cards, attempts, NOW)
    assert [(d.question_id, d.reason) for d in due] == [
        ("b", "mistake"), ("a", "review"), ("d", "new"), ("e", "new"),
    ]  # fmt: skip
    assert due_today(ids, cards, attempts, NOW, new_per_day=3) == due[:3], (
        "c was started today: one new card left of three"
    )
    later = NOW + timedelta(days=30)
    assert {d.question_id for d in due_today(ids, cards, attempts, later)} == set(ids)


def test_new_cards_are_limited_per_day():
    ids = [f"q{i}" for i in range(NEW_PER_DAY + 5)]
    assert len(due_today(ids, {}, [], NOW)) == NEW_PER_DAY
    assert [d.question_id for d in due_today(ids, {}, [], NOW)] == ids[:NEW_PER_DAY]


def test_record_attempt_rates_reschedules_and_stores(tmp_path):
    store = open_store(f"sqlite://{tmp_path}/s.sqlite3")
    key = store.create_learner()
    bank = load_bank()
    q = next(q for q in bank if q.kind == "choice")
    stored = record_attempt(store, key, q.id, correct=False, seconds=4, kind=q.kind, when=NOW)
    assert stored == Attempt(q.id, "choice", 0.0, 4.0, int(Rating.Again), NOW.timestamp())
    due = due_today([x.id for x in bank], store.cards(key), store.attempts(key), NOW)
    assert (due[0].question_id, due[0].reason) == (q.id, "mistake")
    later = NOW + timedelta(minutes=2)
    overridden = record_attempt(
        store, key, q.id, correct=True, seconds=4, kind=q.kind, when=later, rating=Rating.Good
    )
    assert overridden.rating == Rating.Good, "the learner's rating wins over the computed Easy"
    card = card_from_state(q.id, store.card(key, q.id))
    assert card.last_review == later and card.due > later
    assert [a.score for a in store.attempts(key)] == [0.0, 1.0]


def test_the_next_card_is_the_first_already_due_else_the_earliest():
    soon, later = NOW + timedelta(minutes=1), NOW + timedelta(minutes=10)
    mistake, review_ = Due("m", "mistake", soon), Due("r", "review", later)
    new = Due("n", "new", NEW_DUE)
    assert next_card([mistake, review_, new], NOW) == new, "a card just missed waits its step"
    assert next_card([mistake, review_, new], soon) == mistake
    assert next_card([review_, mistake], NOW) == mistake, "nothing ready: the earliest"
    assert next_card([], NOW) is None


def test_a_card_shown_before_its_learning_step_ends_says_so():
    from practice.review import early_words

    due = Due("m", "mistake", NOW + timedelta(seconds=61))
    assert early_words(due, NOW).startswith("due again in 2 min (its learning step)")
    assert "nothing else is due" in early_words(due, NOW)
    assert early_words(due, NOW + timedelta(seconds=61)) == "", "due now: nothing to say"
    assert early_words(Due("n", "new", NEW_DUE), NOW) == ""
    later_today = Due("r", "review", NOW + timedelta(hours=5, minutes=30))
    assert early_words(later_today, NOW) == (
        "due at 14:30 UTC: shown now because nothing else is due"
    ), "a review due later today is no learning step"
