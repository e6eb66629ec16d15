"""What a learner key keeps and how long an unused one lives, on every backend: anyone may
make keys, so a key that never kept anything goes after a week, and a used key keeps its
last attempts and a bounded number of cards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from practice.flags import flag as make_flag
from practice.store.base import TextRefused, UnknownLearner
from practice.store.learner_rules import MAX_CARDS, UNUSED_SECONDS
from tests.practice.store.test_learner_store import CARD, attempt
from tests.practice.store.test_parameter_store import OWN


def _uses(store, key, how: str) -> None:
    if how == "attempt":
        store.add_attempt(key, attempt())
    elif how == "card":
        store.set_card(key, "choice-mean", CARD)
    elif how == "flag":
        store.set_flag(key, make_flag("q", "an answer", [False], [1]))
    else:
        store.replace_progress(key, [attempt()], {})


@pytest.mark.parametrize("how", ["attempt", "card", "flag", "import"])
def test_a_key_never_used_goes_after_a_week_and_a_used_one_stays(make_store, clock, how):
    store = make_store(clock=clock)
    unused, used = store.create_learner(), store.create_learner()
    _uses(store, used, how)
    if hasattr(store, "r"):  # Redis expires the record itself, by its own clock
        assert 0 < store.r.ttl(f"grpo:learner:{unused}") <= UNUSED_SECONDS
        assert store.r.ttl(f"grpo:learner:{used}") == -1
        store.r.delete(f"grpo:learner:{unused}")  # what the expiry does a week later
    else:
        clock.now += UNUSED_SECONDS - 1
        store.create_learner()
        assert store.learner_exists(unused), "a key lives a week"
        clock.now += 2
        store.create_learner()  # making a key deletes the unused ones past their week
    assert not store.learner_exists(unused)
    with pytest.raises(UnknownLearner):
        store.add_attempt(unused, attempt())
    assert store.learner_exists(used)


def test_own_parameters_make_a_key_used(make_store, clock):
    store = make_store(clock=clock)
    key = store.create_learner()
    store.set_parameters(key, OWN)
    clock.now += 2 * UNUSED_SECONDS
    store.create_learner()
    assert store.learner_exists(key)
    if hasattr(store, "r"):
        assert store.r.ttl(f"grpo:learner:{key}") == -1


def test_a_key_keeps_its_last_attempts(make_store, monkeypatch):
    import practice.store.redis_learner as redis_learner
    import practice.store.sqlite_learner as sqlite_learner

    for module in (redis_learner, sqlite_learner):
        monkeypatch.setattr(module, "MAX_ATTEMPTS", 3)
    store = make_store()
    key = store.create_learner()
    for i in range(5):
        store.add_attempt(key, attempt(at=1_800_000_000.0 + i))
    assert [a.at for a in store.attempts(key)] == [1_800_000_002.0 + i for i in range(3)]


def test_a_key_keeps_a_bounded_number_of_cards(make_store, monkeypatch):
    import practice.store.learner_rules as learner_rules

    monkeypatch.setattr(learner_rules, "MAX_CARDS", 2)
    store = make_store()
    key = store.create_learner()
    store.set_card(key, "a", CARD)
    store.set_card(key, "b", CARD)
    with pytest.raises(TextRefused, match="at most 2 cards"):
        store.set_card(key, "c", CARD)
    store.set_card(key, "a", {**CARD, "step": 1})  # a change is not a new card
    assert set(store.cards(key)) == {"a", "b"} and MAX_CARDS >= 1000


def test_a_practice_quiz_never_answered_goes_after_a_week(make_store, clock):
    """Every first visit to the Quiz page starts a quiz: a script that reloads it made a row
    each time, kept for ever."""
    store = make_store(clock=clock)
    unanswered = store.create_quiz(7, ["a", "b"])
    answered = store.create_quiz(8, ["a", "b"])
    store.answer_quiz(answered, "a", Fraction(1))
    attempt_id, _ = store.create_attempt(store.create_learner(), 9, None, ["a", "b"])
    if hasattr(store, "r"):  # Redis expires the record itself, by its own clock
        assert 0 < store.r.ttl(f"grpo:quiz:{unanswered}") <= UNUSED_SECONDS
        assert store.r.ttl(f"grpo:quiz:{answered}") == store.r.ttl(f"grpo:quiz:{attempt_id}") == -1
        store.r.delete(f"grpo:quiz:{unanswered}")  # what the expiry does a week later
    else:
        clock.now += UNUSED_SECONDS + 1
        store.create_quiz(10, ["a"])  # starting a quiz deletes the unanswered ones past a week
    assert store.quiz(unanswered) is None
    assert dict(store.quiz(answered).answers) == {"a": Fraction(1)}
    assert store.quiz(attempt_id) is not None and store.attempt(attempt_id) is not None
