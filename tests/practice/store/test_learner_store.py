"""One suite, every backend: learner keys, attempts, card states, JSON export and import,
and a delete that leaves nothing behind (read from the backend itself)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from practice.store.base import (
    MAX_CARD_CHARS,
    Attempt,
    TextRefused,
    UnknownLearner,
    is_learner_key,
    new_learner_key,
)
from practice.store.learner_json import (
    FORMAT,
    MAX_IMPORT_ATTEMPTS,
    MAX_IMPORT_BYTES,
    export_json,
    import_json,
    parse_progress,
)

CARD = {"card_id": 7, "state": 2, "step": None, "stability": 3.5, "difficulty": 5.0,
        "due": "2027-01-03T00:00:00+00:00", "last_review": "2027-01-01T00:00:00+00:00"}  # fmt: skip


def attempt(qid="choice-mean", score=1.0, rating=3, at=1_800_000_000.0) -> Attempt:
    return Attempt(qid, "choice", score, 12.5, rating, at)


def test_learner_keys_are_random_and_of_one_form(make_store):
    store = make_store()
    keys = {store.create_learner() for _ in range(20)}
    assert len(keys) == 20
    assert all(is_learner_key(k) and len(k) == 32 for k in keys)
    assert all(store.learner_exists(k) for k in keys)
    assert not store.learner_exists(new_learner_key()), "a well-formed guess is not a learner"
    for junk in ("", "x", None, 5, "a" * 33, "../" * 11 + "abc", "<script>alert(1)</script>"):
        assert not store.learner_exists(junk)


def test_an_unknown_learner_is_refused_and_nothing_is_written(make_store):
    store = make_store()
    guess = new_learner_key()
    with pytest.raises(UnknownLearner, match="not known here"):
        store.add_attempt(guess, attempt())
    with pytest.raises(UnknownLearner):
        store.set_card(guess, "choice-mean", CARD)
    with pytest.raises(UnknownLearner):
        store.attempts("not a key")
    assert not store.learner_exists(guess)


def test_attempts_keep_their_order_and_fields(make_store):
    store = make_store()
    key, other = store.create_learner(), store.create_learner()
    first, second = attempt(score=0.0, rating=1), attempt("numeric-trl", 0.5, 2, 1_800_000_100.0)
    store.add_attempt(key, first)
    store.add_attempt(key, second)
    assert store.attempts(key) == [first, second]
    assert store.attempts(other) == [], "one learner's attempts are not another's"


@pytest.mark.parametrize(
    "bad",
    [
        Attempt("q", "choice", 1.5, 1.0, 3, 0.0),
        Attempt("q", "choice", 1.0, -1.0, 3, 0.0),
        Attempt("q", "choice", 1.0, 1.0, 5, 0.0),
        Attempt("q", "choice", 1.0, 1.0, True, 0.0),
        Attempt("q" * 41, "choice", 1.0, 1.0, 3, 0.0),
        Attempt("q", "choice", "1", 1.0, 3, 0.0),
    ],
)
def test_an_attempt_out_of_range_is_refused(make_store, bad):
    store = make_store()
    key = store.create_learner()
    with pytest.raises(TextRefused):
        store.add_attempt(key, bad)
    assert store.attempts(key) == []


def test_card_states_per_learner_and_question(make_store):
    store = make_store()
    key = store.create_learner()
    assert store.card(key, "choice-mean") is None
    store.set_card(key, "choice-mean", CARD)
    store.set_card(key, "choice-mean", {**CARD, "stability": 9.0})
    store.set_card(key, "blanks-formula", CARD)
    assert store.card(key, "choice-mean")["stability"] == 9.0
    assert set(store.cards(key)) == {"choice-mean", "blanks-formula"}
    with pytest.raises(TextRefused):
        store.set_card(key, "q", {"x": "y" * MAX_CARD_CHARS})


def test_export_then_import_under_another_key_gives_the_same_progress(make_store):
    store = make_store()
    key = store.create_learner()
    store.add_attempt(key, attempt(score=0.0, rating=1))
    store.add_attempt(key, attempt(at=1_800_000_500.0))
    store.set_card(key, "choice-mean", CARD)
    text = export_json(store, key)
    assert key not in text, "the private key is never in the file"
    assert json.loads(text)["format"] == FORMAT

    other = store  # another machine's key: a fresh learner (make_store() would flush Redis)
    new_key = other.create_learner()
    other.add_attempt(new_key, attempt("old-progress"))
    assert import_json(other, new_key, text) == 2
    assert other.attempts(new_key) == store.attempts(key)
    assert other.cards(new_key) == store.cards(key)
    assert export_json(other, new_key) == text


@pytest.mark.parametrize(
    "data, message",
    [
        ("not json", "not JSON"),
        ("[]", "not a progress export"),
        (json.dumps({"format": "other"}), "not a progress export"),
        (json.dumps({"format": FORMAT, "attempts": {}, "cards": {}}), "no attempts list"),
        (json.dumps({"format": FORMAT, "attempts": [{"x": 1}], "cards": {}}), "exactly"),
        (
            json.dumps({"format": FORMAT, "attempts": [], "cards": {"q": [1]}}),
            "JSON object",
        ),
        (
            json.dumps(
                {"format": FORMAT, "attempts": [{}] * (MAX_IMPORT_ATTEMPTS + 1), "cards": {}}
            ),
            "too much",
        ),
        ("x" * (MAX_IMPORT_BYTES + 1), "too large"),
    ],
)
def test_a_bad_import_is_refused_and_changes_nothing(make_store, data, message):
    store = make_store()
    key = store.create_learner()
    store.add_attempt(key, attempt())
    with pytest.raises(TextRefused, match=message):
        import_json(store, key, data)
    assert store.attempts(key) == [attempt()]


def test_parse_progress_reads_bytes():
    data = json.dumps({"format": FORMAT, "attempts": [], "cards": {}}).encode()
    assert parse_progress(data) == ([], {})


def _stored_anywhere(store, key: str) -> list:
    """Every row or Redis key that mentions the learner key, read from the backend itself."""
    if hasattr(store, "r"):
        return list(store.r.scan_iter(match=f"*{key}*"))
    with sqlite3.connect(store.path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        found = []
        for table in tables:
            columns = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
            for column in columns:
                found += db.execute(
                    f"SELECT * FROM {table} WHERE CAST({column} AS TEXT) = ?", (key,)
                ).fetchall()
        return found


def test_delete_really_deletes(make_store):
    store = make_store()
    key, kept = store.create_learner(), store.create_learner()
    for k in (key, kept):
        store.add_attempt(k, attempt())
        store.set_card(k, "choice-mean", CARD)
    assert _stored_anywhere(store, key), "the probe finds what is stored"
    store.delete_learner(key)
    assert _stored_anywhere(store, key) == []
    assert not store.learner_exists(key)
    with pytest.raises(UnknownLearner):
        store.attempts(key)
    assert store.attempts(kept) == [attempt()], "other learners are untouched"
    store.delete_learner(key)  # twice, or a junk key: nothing happens
    store.delete_learner("junk")


def test_learner_progress_never_expires(make_store, clock):
    store = make_store(clock=clock)
    key = store.create_learner()
    store.add_attempt(key, attempt())
    clock.now += 10 * 365 * 24 * 3600
    store.purge_expired()
    assert store.attempts(key) == [attempt()]
    if hasattr(store, "r"):
        assert all(store.r.ttl(k) == -1 for k in store.r.scan_iter(match=f"*{key}*"))
