"""Confidence with each vote, a round's countdown closed by the store, and the lecturer's
own question set kept with the session: one suite, both backends (a real redis-server)."""

from __future__ import annotations

import sqlite3

import pytest

from practice.store import open_store
from practice.store.base import RoundClosed, TextRefused
from practice.store.class_rules import (
    CONFIDENCES,
    MAX_ROUND_SECONDS,
    MAX_SET_CHARS,
    check_seconds,
    is_open,
)


def room(store, students: int = 2):
    code = store.create_session().code
    return code, [store.join(code, f"s{i}") for i in range(students)]


def test_a_vote_keeps_its_confidence_and_a_change_replaces_both(make_store):
    store = make_store()
    code, (a, b) = room(store)
    n = store.open_round(code, "q").number
    store.submit(code, n, a.token, "0", "a1", confidence="certain")
    store.submit(code, n, b.token, "1", "b1")  # confidence is optional
    assert [(x.answer, x.confidence) for x in store.answers(code, n)] == [
        ("0", "certain"),
        ("1", ""),
    ]
    store.submit(code, n, a.token, "1", "a2", confidence="guessing")
    store.submit(code, n, b.token, "1", "b2", confidence="fairly sure")
    assert [(x.answer, x.confidence) for x in store.answers(code, n)] == [
        ("1", "guessing"),
        ("1", "fairly sure"),
    ]
    assert store.tally(code, n) == {"1": 2}, "confidence never splits the tally"
    store.submit(code, n, a.token, "1", "a3")  # the student takes the rating back
    assert store.answers(code, n)[0].confidence == ""


def test_a_resent_vote_with_its_confidence_counts_once(make_store):
    store = make_store()
    code, (a, _) = room(store)
    n = store.open_round(code, "q").number
    assert not store.submit(code, n, a.token, "2", "same", confidence="certain").duplicate
    store.submit(code, n, a.token, "3", "newer", confidence="guessing")
    late = store.submit(code, n, a.token, "2", "same", confidence="certain")
    assert late.duplicate
    (answer,) = store.answers(code, n)
    assert (answer.answer, answer.confidence) == ("3", "guessing")


@pytest.mark.parametrize("bad", ["sure", "CERTAIN", "x" * 600, 3, None])
def test_an_unknown_confidence_is_refused_and_nothing_is_stored(make_store, bad):
    store = make_store()
    code, (a, _) = room(store)
    n = store.open_round(code, "q").number
    with pytest.raises(TextRefused, match="How sure you are must be one of"):
        store.submit(code, n, a.token, "0", "id", confidence=bad)
    assert store.answers(code, n) == []
    assert set(CONFIDENCES) == {"guessing", "fairly sure", "certain"}


def test_the_store_closes_a_round_when_its_countdown_reaches_zero(make_store, clock):
    store = make_store(clock)
    code, (a, b) = room(store)
    r = store.open_round(code, "q", seconds=30)
    assert r.closes == clock.now + 30 and r.open
    clock.now += 29.5
    store.submit(code, r.number, a.token, "0", "a1", confidence="certain")
    assert store.current_round(code).open
    clock.now += 0.5  # exactly at the deadline: closed
    current = store.current_round(code)
    assert not current.open and current.closes == r.closes
    assert [x.open for x in store.rounds(code)] == [False]
    with pytest.raises(RoundClosed, match="closed"):
        store.submit(code, r.number, b.token, "1", "b1")
    assert store.tally(code, r.number) == {"0": 1}, "the vote in time still counts"
    assert store.submit(code, r.number, a.token, "0", "a1").duplicate, "acknowledged again"


def test_a_round_without_a_countdown_stays_open_and_a_new_one_closes_the_last(make_store, clock):
    store = make_store(clock)
    code, (a, _) = room(store)
    first = store.open_round(code, "q")
    assert first.closes is None
    clock.now += 10 * MAX_ROUND_SECONDS
    assert store.current_round(code).open
    second = store.open_round(code, "q", revote_of=1, seconds=5)
    assert not store.rounds(code)[0].open and second.revote_of == 1
    store.submit(code, second.number, a.token, "1", "v2")


def test_another_replica_sees_the_same_deadline(make_store, clock):
    one, two = make_store(clock), make_store(clock)
    code, (a, _) = room(one)
    r = one.open_round(code, "q", seconds=10)
    assert two.current_round(code).closes == r.closes
    clock.now += 10
    with pytest.raises(RoundClosed):
        two.submit(code, r.number, a.token, "0", "x")


@pytest.mark.parametrize("seconds", [0, -1, MAX_ROUND_SECONDS + 1, float("nan"), True, "30"])
def test_a_countdown_out_of_range_is_refused(make_store, seconds):
    store = make_store()
    code, _ = room(store)
    with pytest.raises(ValueError, match="seconds must be"):
        store.open_round(code, "q", seconds=seconds)
    assert store.rounds(code) == []


def test_the_rule_of_an_open_round():
    assert check_seconds(None) is None and check_seconds(45) == 45.0
    assert is_open(True, None, 1e12) and is_open(True, 10.0, 9.99)
    assert not is_open(True, 10.0, 10.0) and not is_open(False, None, 0.0)


def test_the_lecturers_question_set_is_kept_with_the_session(make_store):
    one, two = make_store(), make_store()
    code, _ = room(one)
    assert one.question_set(code) == ""
    text = '[[question]]\nid = "own-1"\nprompt = "<script>alert(1)</script> é ✓"\n'
    one.set_question_set(code, text)
    assert two.question_set(code) == text, "every replica reads the same set"
    one.set_question_set(code, "")
    assert two.question_set(code) == ""
    with pytest.raises(TextRefused, match="too long"):
        one.set_question_set(code, "x" * (MAX_SET_CHARS + 1))
    other, _ = room(one)
    assert one.question_set(other) == "", "one set per session"


def test_an_sqlite_file_from_before_gets_the_new_columns(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the tables as the last release made them
        db.executescript(
            "CREATE TABLE class_rounds (code TEXT NOT NULL, number INTEGER NOT NULL, "
            "question TEXT NOT NULL, open INTEGER NOT NULL, reveal TEXT NOT NULL, "
            "revote_of INTEGER, opened REAL NOT NULL, PRIMARY KEY (code, number));"
            "CREATE TABLE class_answers (code TEXT NOT NULL, number INTEGER NOT NULL, "
            "token TEXT NOT NULL, answer TEXT NOT NULL, at REAL NOT NULL, "
            "PRIMARY KEY (code, number, token));"
        )
    store = open_store(f"sqlite://{path}")
    open_store(f"sqlite://{path}")  # a second process opening it adds nothing twice
    code, (a, _) = room(store)
    n = store.open_round(code, "q", seconds=60).number
    store.submit(code, n, a.token, "0", "id", confidence="certain")
    assert store.answers(code, n)[0].confidence == "certain"
