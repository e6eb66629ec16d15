"""One suite, every backend: learner keys, attempts, card states, JSON export and import,
and a delete that leaves nothing behind (read from the backend itself)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from practice.flags import Flag
from practice.flags import flag as make_flag
from practice.store.base import (
    MAX_CARD_CHARS,
    Attempt,
    TextRefused,
    UnknownLearner,
    is_learner_key,
    new_learner_key,
)
from practice.store.flag_store import MAX_FLAGS
from practice.store.learner_json import (
    FORMAT,
    MAX_IMPORT_ATTEMPTS,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_CARDS,
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


def card(**changes) -> dict:
    """A card state the fsrs library accepts, with ``changes``."""
    state = {"card_id": 1, "state": 2, "step": None, "stability": 3.2, "difficulty": 5.1,
             "due": "2025-02-01T09:00:00+00:00",
             "last_review": "2025-01-29T09:00:00+00:00"}  # fmt: skip
    return {**state, **changes}


def export(cards=None, attempts=()) -> str:
    return json.dumps({"format": FORMAT, "attempts": list(attempts), "cards": cards or {}})


@pytest.mark.parametrize(
    "data, message",
    [
        ("not json", "not JSON"),
        ("[]", "not a progress export"),
        (json.dumps({"format": "other"}), "not a progress export"),
        (json.dumps({"format": FORMAT}), "top level: 'attempts' is a required property"),
        (json.dumps({"format": FORMAT, "attempts": {}, "cards": {}}), "attempts: must be array"),
        (export(attempts=[{"x": 1}]), "attempts → 0: 'question_id' is a required property"),
        (export({"q": [1]}), "cards → q: must be object"),
        (
            json.dumps(
                {"format": FORMAT, "attempts": [{}] * (MAX_IMPORT_ATTEMPTS + 1), "cards": {}}
            ),
            "attempts: holds too much",
        ),
        # 300 KB of empty attempts: refused by the size limit at once (validating every
        # entry first took a minute; the 2 MB a file may have, several)
        (
            json.dumps(
                {"format": FORMAT, "attempts": [{}] * 100_000, "cards": {}}, separators=(",", ":")
            ),
            "attempts: holds too much",
        ),
        (export({str(i): {} for i in range(MAX_IMPORT_CARDS + 1)}), "cards: holds too much"),
        ("x" * (MAX_IMPORT_BYTES + 1), "too large"),
        # issue 24, item 6: a deeply nested file, refused before any parser sees it
        ("[" * 30_000 + "]" * 30_000, "nests lists or objects more than 8 deep"),
        ('{"format": "' + "[" * 5000 + '"}', "not a progress export"),  # brackets in text: 0
        # issue 24, item 6: card states that passed the old check and broke Review later
        (export({"q": card(last_review="2025-01-29T09:00:00")}), "q → last_review: '2025-01-29"),
        (export({"q": card(due="2025-02-01 09:00")}), "q → due: '2025-02-01 09:00' is not a date"),
        (export({"q": card(step="x")}), "cards → q → step: must be integer or null, not 'x'"),
        (export({"q": card(stability="nan")}), "q → stability: must be number or null"),
        (export({"q": card()}).replace("3.2", "NaN"), "not JSON"),
        (export({"q": card(state=3, step=None)}), "q: FSRS cannot use this card state"),
        (export({"q": card(state=2, stability=None)}), "q: FSRS cannot use this card state"),
        (export({"q": card(state=7)}), "q → state: must be 1 or 2 or 3"),
        (export({"q": card(difficulty=1e300)}), "q → difficulty: 1e+300 is out of range"),
        (export({"q": card(extra=1)}), "q: has a field that is not part of an export"),
        (export(attempts=[{**attempt().__dict__, "score": 2}]), "attempts → 0 → score: 2 is out"),
        (export(attempts=[{**attempt().__dict__, "rating": True}]), "attempts → 0 → rating"),
        (b"\xff\xfe{}", "not text"),
    ],
)
def test_a_bad_import_is_refused_and_changes_nothing(make_store, data, message):
    store = make_store()
    key = store.create_learner()
    store.add_attempt(key, attempt())
    store.set_card(key, "q", card())
    with pytest.raises(TextRefused, match=re.escape(message)):
        import_json(store, key, data)
    assert store.attempts(key) == [attempt()] and store.cards(key) == {"q": card()}


def test_every_state_fsrs_writes_imports():
    from datetime import UTC, datetime

    from fsrs import Card, Rating

    from practice.review import SCHEDULER

    c, when = Card(card_id=5), datetime(2025, 1, 1, tzinfo=UTC)
    states = {}
    for n, rating in enumerate([Rating.Good, Rating.Good, Rating.Again, Rating.Easy]):
        c = SCHEDULER.review_card(c, rating, review_datetime=when)[0]
        states[f"q{n}"] = c.to_dict()
        when = c.due
    assert parse_progress(export(states))[1] == states


def test_parse_progress_reads_bytes():
    data = json.dumps({"format": FORMAT, "attempts": [], "cards": {}}).encode()
    assert parse_progress(data) == ([], {}, None)


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
        store.set_flag(k, make_flag("followup-factor", "it's the std", [False, True], [1]))
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


def test_flags_are_kept_per_answer_in_order_and_removed_when_unflagged(make_store):
    store = make_store()
    key, other = store.create_learner(), store.create_learner()
    first = make_flag("followup-factor", "It's the std.", [False, True, False], [1])
    second = make_flag("followup-why-std", "Scale.\nLine two «ü»", [True, False], [2])
    store.set_flag(key, first)
    store.set_flag(key, second)
    assert store.flags(key) == [first, second]
    assert store.flags(other) == [], "another learner sees none"
    changed = make_flag("followup-factor", "It's the std.", [False, True, False], [1, 3])
    store.set_flag(key, changed)
    assert store.flags(key) == [changed, second], "the same answer is one flag, in its place"
    store.set_flag(key, make_flag("followup-factor", "It's the std.", [False, True, False], []))
    assert store.flags(key) == [second]
    store.replace_progress(key, [], {})
    assert store.flags(key) == [second], "importing progress keeps the flags"


@pytest.mark.parametrize(
    "bad",
    [
        Flag("", "text", (1,), ()),
        Flag("followup-factor", "x" * 4001, (1,), ()),
        Flag("followup-factor", "text", (0,), ()),
        Flag("followup-factor", "text", (1,), (1,)),
        Flag("followup-factor", "text", (True,), ()),
    ],
)
def test_a_flag_out_of_bounds_is_refused(make_store, bad):
    store = make_store()
    key = store.create_learner()
    with pytest.raises(TextRefused, match="flag"):
        store.set_flag(key, bad)
    assert store.flags(key) == []
    with pytest.raises(UnknownLearner):
        store.set_flag(new_learner_key(), make_flag("q", "a", [False], [1]))


def test_flags_are_bounded_per_learner(make_store, monkeypatch):
    store = make_store()
    key = store.create_learner()
    import practice.store.redis_learner as redis_learner
    import practice.store.sqlite_learner as sqlite_learner

    for module in (redis_learner, sqlite_learner):
        monkeypatch.setattr(module, "MAX_FLAGS", 3)
    for i in range(3):
        store.set_flag(key, make_flag("q", f"answer {i}", [False], [1]))
    with pytest.raises(TextRefused, match="At most 3"):
        store.set_flag(key, make_flag("q", "answer 3", [False], [1]))
    store.set_flag(key, make_flag("q", "answer 0", [False], [1]))  # a change is not a new one
    assert len(store.flags(key)) == 3 < MAX_FLAGS
