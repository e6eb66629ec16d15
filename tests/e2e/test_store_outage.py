"""A Redis outage in a real browser: a 390 px phone and the 1280x720 projector on a real
streamlit whose append-only redis-server is SIGKILLed mid-round and started again. The
phone keeps its question, says "Reconnecting: your answer will be sent" for a vote tapped
during the outage, and recovers by itself; the projector's count says it is reconnecting
and then counts the vote. Never a traceback box. Screenshots: class_outage_*.png."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess

import pytest

from deploy.run import RedisServer
from practice.class_link import lecturer_query
from practice.class_round import RoundSpec
from practice.store import open_store
from tests.e2e.conftest import assert_healthy, free_port, settle, shot, start_streamlit

pytestmark = pytest.mark.e2e
SECRET = "class-outage-e2e-secret-0123456789abcdef"


def stop(process) -> None:
    """Stop a streamlit process: SIGTERM, then SIGKILL when it has not exited in 20 s (a
    server with open websockets and polling fragments can outlast its grace time)."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=20)


@pytest.fixture
def redis_app(tmp_path):
    """(app URL, RedisServer): one streamlit whose store is a real append-only Redis."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis = RedisServer(tmp_path / "redis").start()
    port = free_port()
    app = start_streamlit(port, env={"GRPO_STORE": redis.url, "GRPO_CERT_SECRET": SECRET})
    yield f"http://127.0.0.1:{port}", redis
    stop(app)
    redis.stop()


def test_a_phone_and_the_projector_ride_out_a_redis_restart(redis_app, clean_page):
    url, redis = redis_app
    store = open_store(redis.url)
    session = store.create_session()
    phone = clean_page({"width": 390, "height": 844})
    projector = clean_page({"width": 1280, "height": 720})
    phone.goto(f"{url}/class?class={session.code}")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("You're in").wait_for(timeout=30_000)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    query = lecturer_query(session.code, session.created, secret=SECRET)
    projector.goto(f"{url}/class?{query}")
    projector.get_by_text("0 of 1").wait_for(timeout=30_000)
    phone.locator('[data-testid="stRadioOption"]').first.wait_for(timeout=30_000)
    settle(phone, 300)

    redis.kill(signal.SIGKILL)
    option = phone.locator('[data-testid="stRadioOption"]')
    option.filter(has_text=re.compile("^B$")).click()
    phone.get_by_role("button", name="Send answer").click()
    phone.get_by_text("Reconnecting: your answer will be sent").wait_for(timeout=30_000)
    projector.get_by_text("Reconnecting").first.wait_for(timeout=30_000)
    projector.get_by_text("Reconnecting").first.scroll_into_view_if_needed()
    # no settle() here: during an outage the probe reruns the page every 2 s, so the
    # page is never quiet; the messages waited for above are the condition
    shot(phone, "class_outage_phone_reconnecting")
    shot(projector, "class_outage_projector_reconnecting")
    assert_healthy(phone)
    assert_healthy(projector)

    redis.start()
    phone.get_by_text("Your answer is in").wait_for(timeout=30_000)
    projector.get_by_text("1 of 1").wait_for(timeout=30_000)
    settle(phone, 300)
    shot(phone, "class_outage_phone_recovered")
    shot(projector, "class_outage_projector_recovered")
    assert_healthy(phone)
    assert_healthy(projector)
    assert phone.get_by_text("Reconnecting").count() == 0
    assert store.tally(session.code, 1) == {"1": 1}


def test_a_phone_rides_out_a_restart_of_the_single_sqlite_server(tmp_path, clean_page):
    store_url = f"sqlite://{tmp_path / 'grpo.sqlite3'}"
    env = {"GRPO_STORE": store_url, "GRPO_CERT_SECRET": SECRET}
    port = free_port()
    app = start_streamlit(port, env=env)
    store = open_store(store_url)
    session = store.create_session()
    phone = clean_page({"width": 390, "height": 844})
    try:
        phone.goto(f"http://127.0.0.1:{port}/class?class={session.code}")
        phone.get_by_role("button", name="Join").click()
        phone.get_by_text("You're in").wait_for(timeout=30_000)
        store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
        option = phone.locator('[data-testid="stRadioOption"]')
        option.filter(has_text=re.compile("^A$")).click(timeout=30_000)
        phone.get_by_role("button", name="Send answer").click()
        phone.get_by_text("Your answer is in").wait_for(timeout=30_000)

        app.send_signal(signal.SIGKILL)
        app.wait(timeout=20)
        # the phone has seen the server go (Streamlit's connection state), then it returns
        gone = '[data-testid="stApp"]:not([data-test-connection-state="CONNECTED"])'
        phone.locator(gone).wait_for(state="attached", timeout=30_000)
        app = start_streamlit(port, env=env)  # the same port and file
        # The browser reconnects by itself and runs the page of its URL on the new process.
        option.filter(has_text=re.compile("^C$")).click(timeout=60_000)
        phone.get_by_role("button", name="Send answer").click()
        phone.get_by_text("Your answer is in").wait_for(timeout=30_000)
        settle(phone, 300)
        shot(phone, "class_outage_phone_after_server_restart")
        assert_healthy(phone)
        assert store.tally(session.code, 1) == {"2": 1}
    finally:
        phone.goto("about:blank")  # its websocket closed before the server stops
        stop(app)
