"""One suite, every backend: certification attempts are held by a private token; the first
submission and the first certificate stand; a short form resolves to the full ID."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest

from practice.store.attempts import AttemptRefused

IDS = ["v-a", "v-b", "v-c"]


def started(store):
    learner = store.create_learner()
    attempt_id, token = store.create_attempt(learner, 42, None, IDS)
    return learner, attempt_id, token


def test_an_attempt_is_a_stored_quiz_held_by_its_learner(make_store, clock):
    store = make_store(clock=clock)
    learner, attempt_id, token = started(store)
    attempt = store.attempt(attempt_id)
    assert (attempt.learner, attempt.started, attempt.submitted, attempt.cert_id) == (
        learner, clock.now, None, None,
    )  # fmt: skip
    assert store.quiz(attempt_id).seed == 42 and store.latest_attempt(learner) == attempt
    assert store.attempt_token(attempt_id, learner) == token and len(token) >= 43
    assert store.attempt_token(attempt_id, store.create_learner()) is None
    assert store.attempt("junk") is None and store.latest_attempt("junk") is None
    with pytest.raises(AttemptRefused):
        store.create_attempt("not-a-key", 1, None, IDS)


def test_only_the_token_answers_submits_and_issues(make_store):
    store = make_store()
    _, attempt_id, token = started(store)
    for wrong in ("", None, token[:-1] + ("A" if token[-1] != "A" else "B"), "x" * 43):
        with pytest.raises(AttemptRefused):
            store.answer_attempt(attempt_id, wrong, "v-a", Fraction(1))
        with pytest.raises(AttemptRefused):
            store.submit_attempt(attempt_id, wrong)
        with pytest.raises(AttemptRefused):
            store.set_certificate(attempt_id, wrong, "GRPO2-x.y", "short-key-123456")
    assert store.answer_attempt(attempt_id, token, "v-a", Fraction(1)) == 1


def test_submitting_freezes_the_answers_and_counts_the_unanswered_as_zero(make_store, clock):
    store = make_store(clock=clock)
    _, attempt_id, token = started(store)
    store.answer_attempt(attempt_id, token, "v-b", Fraction(1))
    with pytest.raises(AttemptRefused, match="Submit"):
        store.set_certificate(attempt_id, token, "GRPO2-x.y", "short-key-123456")
    first = store.submit_attempt(attempt_id, token)
    clock.now += 60
    assert store.submit_attempt(attempt_id, token) == first == store.attempt(attempt_id).submitted
    assert dict(store.quiz(attempt_id).answers) == {"v-b": 1, "v-a": 0, "v-c": 0}
    with pytest.raises(AttemptRefused, match="final"):
        store.answer_attempt(attempt_id, token, "v-a", Fraction(1))


def test_the_first_certificate_stands_also_under_races(make_store):
    store = make_store()
    _, attempt_id, token = started(store)
    store.submit_attempt(attempt_id, token)
    ids = [f"GRPO2-body.sig{i:02d}" for i in range(10)]
    with ThreadPoolExecutor(5) as pool:
        stood = list(
            pool.map(lambda c: store.set_certificate(attempt_id, token, c, c[-16:] + "-k"), ids)
        )
    assert len(set(stood)) == 1 and stood[0] in ids
    assert store.attempt(attempt_id).cert_id == stood[0]
    assert store.certificate_by_short(stood[0][-16:] + "-k") == stood[0]
    assert store.certificate_by_short("unknown-short-key") is None
    assert store.certificate_by_short(None) is None


def test_the_latest_attempt_is_the_last_started(make_store, clock):
    store = make_store(clock=clock)
    learner, first, token = started(store)
    store.submit_attempt(first, token)
    clock.now += 10
    second, _ = store.create_attempt(learner, 7, 42, IDS)
    latest = store.latest_attempt(learner)
    assert latest.attempt_id == second and latest.previous_seed == 42


def test_one_open_attempt_per_learner_also_when_starts_race(make_store):
    store = make_store()
    learner = store.create_learner()

    def start(_):
        try:
            return store.create_attempt(learner, 1, None, IDS)[0]
        except AttemptRefused:
            return None

    with ThreadPoolExecutor(6) as pool:
        started_ids = [a for a in pool.map(start, range(12)) if a]
    assert len(started_ids) == 1
    token = store.attempt_token(started_ids[0], learner)
    store.submit_attempt(started_ids[0], token)
    assert store.create_attempt(learner, 2, 1, IDS)[0] != started_ids[0]  # then the next one
