"""A store outage in AppTest, on a real append-only redis-server killed and started again:
the phone and the projector show "Reconnecting", never a traceback; a vote tapped during the
outage is kept and counted once the store is back; a lecturer's click during the outage
says it did nothing; a learner's progress that cannot be read is a message.

AppTest runs a page file directly (``open_page`` switches pages in Streamlit's older mode),
while the server runs every page inside app.py's ``store_guard.run``; ``guarded_page`` runs
the page inside the guard as app.py does. tests/deploy/test_rehearsal.py checks the same
on real servers."""

from __future__ import annotations

import shutil
import signal
import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from deploy.run import RedisServer
from practice.class_link import lecturer_tag
from practice.class_round import RoundSpec
from practice.store import open_store
from tests.app.conftest import ROOT

PAGE = "pages/class.py"
SECRET = "class-mode-test-secret-0123456789"
SPEC = RoundSpec("choice-which-rewards", False, 1).encode()


@pytest.fixture
def redis_server(tmp_path, monkeypatch):
    """A real redis-server with append-only persistence, the app's store (GRPO_STORE)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path / "redis").start()
    monkeypatch.setenv("GRPO_STORE", server.url)
    monkeypatch.setenv("GRPO_CERT_SECRET", SECRET)
    yield server
    server.stop()


def _through_the_guard(page: str) -> None:
    """The AppTest script: ``page`` run as app.py runs it, inside the guard."""
    import runpy

    from ui import nav, store_guard

    nav._navigated = True  # the page's start() need not reroute through app.py
    store_guard.run(lambda: runpy.run_path(page))


def guarded_page(page: str, query: dict) -> AppTest:
    at = AppTest.from_function(_through_the_guard, args=(str(ROOT / page),), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def all_text(at) -> str:
    kinds = ("markdown", "success", "error", "info", "warning", "caption", "subheader", "metric")
    return "\n".join(str(e.value) for kind in kinds for e in getattr(at, kind))


def test_a_vote_tapped_while_redis_is_down_is_kept_and_counted_once_it_is_back(redis_server):
    store = open_store(redis_server.url)
    session = store.create_session()
    token = store.join(session.code, "Ann").token
    store.open_round(session.code, SPEC)
    phone = guarded_page(PAGE, {"class": session.code, "student": token})
    assert not phone.exception

    redis_server.kill(signal.SIGKILL)
    phone.radio(key="cls.answer.1").set_value(1)
    phone.button(key="cls.send.1").click().run()
    assert not phone.exception
    assert "Reconnecting: your answer will be sent" in all_text(phone)
    pending = phone.query_params["pending"]
    pending = pending if isinstance(pending, str) else pending[0]
    assert pending.startswith("1~"), "the vote is kept in the URL"
    assert phone.radio(key="cls.answer.1"), "the phone keeps its question and its Send button"
    phone.run()  # the probe's next look: still down, still calm
    assert not phone.exception and "Reconnecting" in all_text(phone)

    redis_server.start()
    phone.run()  # what the probe does once the store answers: the page runs again
    assert not phone.exception
    assert "Your answer is in" in all_text(phone)
    assert "Live: the next question appears here by itself." in all_text(phone)
    assert "pending" not in phone.query_params
    assert store.tally(session.code, 1) == {"1": 1}
    phone.run()
    assert store.tally(session.code, 1) == {"1": 1}, "sent once, counted once"


def test_a_vote_tapped_while_redis_is_down_asks_the_store_once(redis_server, caplog):
    """The run that carries the vote meets the outage at its first read; its other calls
    (the vote's submit, the polling fragment's reads) do not wait out Redis's retries again
    (each outage met is a logged warning; there were three, 0.7 s each, until session 17)."""
    store = open_store(redis_server.url)
    session = store.create_session()
    token = store.join(session.code, "Ann").token
    store.open_round(session.code, SPEC)
    phone = guarded_page(PAGE, {"class": session.code, "student": token})
    redis_server.kill(signal.SIGKILL)
    caplog.clear()
    phone.radio(key="cls.answer.1").set_value(1)
    phone.button(key="cls.send.1").click().run()
    assert "Reconnecting: your answer will be sent" in all_text(phone)
    assert "Live:" not in all_text(phone), "no 'live' line while the store is away"
    met = [r.getMessage() for r in caplog.records if "store outage in" in r.getMessage()]
    assert len(met) == 1, met
    caplog.clear()
    phone.run()  # the next run asks again, once
    assert "Reconnecting" in all_text(phone)
    assert len([r for r in caplog.records if "store outage in" in r.getMessage()]) == 1


def test_the_projector_and_the_lecturers_clicks_stay_calm_during_an_outage(redis_server):
    store = open_store(redis_server.url)
    session = store.create_session()
    store.join(session.code, "Ann")
    store.open_round(session.code, SPEC)
    tag = lecturer_tag(session.code, session.created, secret=SECRET)
    projector = guarded_page(PAGE, {"class": session.code, "lecturer": tag})
    assert not projector.exception and projector.button(key="cls.reveal")

    redis_server.kill(signal.SIGTERM)
    projector.button(key="cls.reveal").click().run()  # a callback, before the page runs
    assert not projector.exception
    text = all_text(projector)
    assert "your last click did nothing" in text and "Reconnecting" in text
    assert "ConnectionError" not in text

    redis_server.start()
    projector.run()
    assert not projector.exception and "Reconnecting" not in all_text(projector)
    assert store.current_round(session.code).open, "the click that did nothing changed nothing"
    projector.button(key="cls.reveal").click().run()
    assert not projector.exception
    assert not store.current_round(session.code).open


def test_an_unknown_code_after_a_store_lost_its_data_is_a_message(redis_server):
    store = open_store(redis_server.url)
    session = store.create_session()
    token = store.join(session.code, "Ann").token
    phone = guarded_page(PAGE, {"class": session.code, "student": token})
    store.r.flushall()  # a Redis run as a cache, restarted: the session is gone
    phone.run()
    assert not phone.exception
    assert "No class session has the code" in all_text(phone)


def test_progress_that_cannot_be_read_is_a_message_on_the_review_page(tmp_path, monkeypatch):
    path = tmp_path / "grpo.sqlite3"
    monkeypatch.setenv("GRPO_STORE", f"sqlite://{path}")
    key = open_store(f"sqlite://{path}").create_learner()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO learner_cards VALUES (?, ?, ?)", (key, "q1", "{not json"))
    at = guarded_page("pages/review.py", {"learner": key})
    assert not at.exception
    assert any("could not be read" in e.value for e in at.error)


def test_a_pending_vote_is_also_kept_in_the_session_for_its_own_seat_only(redis_server):
    store = open_store(redis_server.url)
    session = store.create_session()
    ann, bob = store.join(session.code, "Ann").token, store.join(session.code, "Bob").token
    store.open_round(session.code, SPEC)
    phone = guarded_page(PAGE, {"class": session.code, "student": ann})
    redis_server.kill(signal.SIGKILL)
    phone.radio(key="cls.answer.1").set_value(2)
    phone.button(key="cls.send.1").click().run()
    assert "your answer will be sent" in all_text(phone)
    redis_server.start()
    phone.query_params["student"] = bob  # the same browser session, another seat
    del phone.query_params["pending"]
    phone.run()
    assert not phone.exception and store.tally(session.code, 1) == {}, "never Bob's vote"
    phone.query_params["student"] = ann  # the URL lost its pending vote; the session has it
    phone.run()
    assert not phone.exception and "Your answer is in" in all_text(phone)
    assert [(a.label, a.answer) for a in store.answers(session.code, 1)] == [("Ann", "2")]
