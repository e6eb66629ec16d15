"""The store guard on real backends: a Redis that is down or killed, a SQLite file locked by
another writer and a stored record that cannot be read each become the guard's own error;
a refusal passes unchanged; a restarted append-only Redis has every acknowledged vote."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import time

import pytest

from deploy.run import RedisServer, free_port
from practice.store import open_store
from practice.store import sqlite as sqlite_backend
from practice.store.base import StoreUnavailable, UnknownSession
from ui.store_guard import GuardedStore, StoreFailed


@pytest.fixture
def redis_server(tmp_path):
    """A real redis-server with append-only persistence in tmp_path, stopped after."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


def test_a_redis_nobody_listens_on_is_an_outage_within_seconds():
    store = GuardedStore(open_store(f"redis://127.0.0.1:{free_port()}/0"))
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as caught:
        store.session("ABCDEF")
    assert time.monotonic() - started < 5, "a phone does not wait long for a dead store"
    assert "reconnecting" in str(caught.value) and "Error" not in str(caught.value)
    with pytest.raises(StoreUnavailable):
        store.ping()


def test_a_killed_redis_is_an_outage_and_after_a_restart_every_vote_is_there(redis_server):
    store = GuardedStore(open_store(redis_server.url))
    session = store.create_session()
    students = [store.join(session.code, f"s{i}") for i in range(3)]
    store.open_round(session.code, "q")
    for i, s in enumerate(students):
        store.submit(session.code, 1, s.token, "AB"[i % 2], f"vote-{i}")
    redis_server.kill(signal.SIGKILL)
    with pytest.raises(StoreUnavailable):
        store.submit(session.code, 1, students[0].token, "B", "vote-late")
    with pytest.raises(UnknownSession):  # a refusal is not translated
        store.session("")
    redis_server.start()
    store.ping()
    assert store.tally(session.code, 1) == {"A": 2, "B": 1}
    assert not store.submit(session.code, 1, students[0].token, "B", "vote-late").duplicate
    assert store.submit(session.code, 1, students[0].token, "B", "vote-late").duplicate
    assert store.tally(session.code, 1) == {"A": 1, "B": 2}


def test_a_sqlite_file_locked_past_the_busy_timeout_is_an_outage(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_backend, "BUSY_SECONDS", 0.2)
    path = tmp_path / "grpo.sqlite3"
    store = GuardedStore(open_store(f"sqlite://{path}"))
    session = store.create_session()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store.join(session.code, "late")
        assert "locked" in caught.value.detail
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.join(session.code, "late").label == "late"


def test_a_stored_record_that_cannot_be_read_is_a_message_not_a_traceback(tmp_path):
    path = tmp_path / "grpo.sqlite3"
    store = GuardedStore(open_store(f"sqlite://{path}"))
    key = store.create_learner()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO learner_cards VALUES (?, ?, ?)", (key, "q1", "{not json"))
    with pytest.raises(StoreFailed) as caught:
        store.cards(key)
    assert "could not be read" in str(caught.value) and "JSON" not in str(caught.value)
    assert store.attempts(key) == [], "the rest of the store still answers"


def test_attributes_that_are_not_calls_pass_through(tmp_path):
    raw = open_store(f"sqlite://{tmp_path / 'g.sqlite3'}")
    store = GuardedStore(raw)
    assert store.path == raw.path and store.unguarded is raw
