"""The store suite runs on every backend: SQLite in a temporary folder, and a real
``redis-server`` started here on a free loopback port (no persistence) and stopped after.

Locally, a machine without redis-server (or the ``redis`` client) skips the Redis half
with a message; in CI (CI=true) that is a failure (`python3 dev.py test` installs both).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import pytest

from practice.store import open_store


class FakeClock:
    """A clock the test moves by hand: ``clock()`` is Unix seconds."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _missing(what: str):
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing in CI: the Redis store tests must run, not skip")
    pytest.skip(f"{what} is missing; run `python3 dev.py test` as root to install it")


@pytest.fixture(scope="session")
def redis_url():
    """A fresh redis-server on loopback for this test session: its URL."""
    server = shutil.which("redis-server")
    if server is None:
        _missing("redis-server (Debian's redis-server)")
    try:
        import redis
    except ImportError:
        _missing("the redis client (pip install -r requirements.txt)")
    port = _free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(params=["sqlite", "redis"])
def make_store(request, tmp_path):
    """make_store(clock=...) -> a fresh store of the parametrized backend."""

    def make(clock=None):
        kwargs = {"clock": clock} if clock else {}
        if request.param == "sqlite":
            return open_store(f"sqlite://{tmp_path}/grpo.sqlite3", **kwargs)
        store = open_store(request.getfixturevalue("redis_url"), **kwargs)
        store.r.flushdb()  # each test starts from an empty database
        return store

    return make


@pytest.fixture
def clock():
    return FakeClock()
