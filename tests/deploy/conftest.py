"""The deployments under test, on free loopback ports: 2 replicas behind Debian's nginx
(``deployment``; ``rehearsal``, the same supervised with deploy/run.py's own append-only
Redis) and one app process on a SQLite file (``sqlite_server``).

``deployment`` starts once per test session and is shared by every module here (its tests
form one xdist group, so it starts on one worker only); after a test that stopped a
replica, the fixture starts it again if needed and waits until nginx routes to it again.

A module whose tests break the deployment in other ways (kill Redis, kill replicas and
leave them down) asks for ``private_deployment`` instead: its own, started once for that
module, whose tests then form an xdist group of their own (tests/conftest.py), so it may
run on the other worker while the shared deployment's tests run.

Locally, a machine without nginx skips these tests with a message; in CI (CI=true)
a missing nginx is a failure, never a skip (`python3 dev.py test` installs it as root).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from deploy.run import (
    CERT_ENV,
    KEY_ENV,
    NGINX,
    REDIS_SERVER,
    STORE_ENV,
    Deployment,
    cert_key,
    cert_secret,
    free_port,
    start_app,
    wait_healthy,
)


def pytest_configure(config):
    config.addinivalue_line("markers", "deploy: app replicas behind a real nginx on loopback")
    config.addinivalue_line("markers", "xdist_group(name): run in one pytest-xdist worker")


@contextlib.contextmanager
def running_deployment(replicas: int = 2):
    """A Deployment of ``replicas`` in a temporary run directory, stopped and removed after."""
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{NGINX} is missing in CI: the proxy test must run, not skip")
        pytest.skip(f"{NGINX} not installed; run `python3 dev.py test` as root to install it")
    run_dir = tempfile.mkdtemp(prefix="grpo-deploy-")
    try:
        with Deployment(replicas, run_dir=run_dir) as dep:
            yield dep
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def session_deployment():
    with running_deployment() as dep:
        yield dep


@pytest.fixture
def deployment(session_deployment):
    """The session's deployment (2 replicas, nginx, one Redis). A test may stop a replica:
    after it, every replica is running again and nginx routes to it again."""
    before = list(session_deployment.apps)
    yield session_deployment
    if session_deployment.apps != before:
        restore(session_deployment)


def restore(dep: Deployment, seconds: float = 30) -> None:
    """Start any replica that is down and wait until nginx sends new browsers to every
    replica (it keeps no memory of failures, so no reload: a reload's old worker could
    still route a browser of the next test)."""
    for i, process in enumerate(dep.apps):
        if process is None or process.poll() is not None:
            dep.start_replica(i)
    wanted = {str(i + 1) for i in range(len(dep.apps))}
    deadline = time.monotonic() + seconds
    for attempt in itertools.count():
        if routed(dep, tries=4 * len(wanted), round_=attempt) == wanted:
            return
        if time.monotonic() >= deadline:
            break
        time.sleep(0.5)
    raise AssertionError(f"nginx does not route to every replica {seconds:.0f} s after a restart")


def routed(dep: Deployment, tries: int, round_: int = 0) -> set[str]:
    """The replicas (X-Replica) that ``tries`` new affinity cookies land on, cookies of
    their own for each ``round_``. Where a cookie lands depends on the replicas' ports,
    drawn afresh each run, so eight fixed cookies can all hash onto one replica (for an
    even split of two, 2 x 2^-8, about 1 % of runs), and then no retry saw the other: a
    fresh clone's run in session 10 failed both tests that restart a replica, in teardown,
    30 s after each restart."""
    seen = set()
    for n in range(tries):
        cookie = f"grpo_replica=restore{round_}-{n}"
        request = urllib.request.Request(dep.url + "/_stcore/health", headers={"Cookie": cookie})
        with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=5) as r:
            seen.add(r.headers.get("X-Replica"))
    return seen


@pytest.fixture(scope="module")
def private_deployment():
    """A deployment of this module's own (2 replicas, nginx, one Redis), for tests that
    kill parts of it: another configuration of the world than the shared ``deployment``,
    which the other modules need whole."""
    with running_deployment() as dep:
        yield dep


class Supervisor:
    """deploy/run.py's supervision loop (``Deployment.supervise``) in a thread, polling
    every half second, as ``deploy/run.py`` runs it in the foreground; ``paused()`` holds it,
    so a rehearsal can keep Redis down long enough to vote during the outage."""

    def __init__(self, deployment: Deployment):
        self.deployment = deployment
        self.thread: threading.Thread | None = None
        self.halt = threading.Event()

    def start(self) -> None:
        self.halt = threading.Event()
        self.thread = threading.Thread(
            target=self.deployment.supervise,
            args=(3600,),
            kwargs={"every": 0.5, "stop": self.halt},
            daemon=True,
        )
        self.thread.start()

    def stop(self) -> None:
        self.halt.set()
        if self.thread is not None:
            self.thread.join(timeout=180)

    @contextlib.contextmanager
    def paused(self):
        self.stop()
        try:
            yield
        finally:
            self.start()


@pytest.fixture(scope="module")
def rehearsal():
    """(deployment, supervisor): 2 replicas behind nginx and deploy/run.py's own Redis
    (append-only, data in <run-dir>/redis), supervised as deploy/run.py does. Started once
    for a module; mark its tests ``xdist_group("deploy")`` so one worker runs them."""
    if not Path(NGINX).exists() or not Path(REDIS_SERVER).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx or redis-server is missing in CI: the rehearsals must run")
        pytest.skip("nginx or redis-server not installed; run `python3 dev.py test` as root")
    run_dir = tempfile.mkdtemp(prefix="grpo-rehearsal-")
    supervisor = None
    try:
        with Deployment(2, run_dir=run_dir) as dep:
            supervisor = Supervisor(dep)
            supervisor.start()
            yield dep, supervisor
            supervisor.stop()
    finally:
        if supervisor is not None:
            supervisor.stop()
        shutil.rmtree(run_dir, ignore_errors=True)


class AppServer:
    """One ``streamlit run app.py`` on a fixed loopback port with a SQLite store file,
    which ``kill`` and ``start`` replace by a new process on the same port and file (a
    crash and a restart of the single-server setup)."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        self.port = free_port()
        self.store_url = f"sqlite://{run_dir / 'grpo.sqlite3'}"
        self.env = {STORE_ENV: self.store_url, CERT_ENV: cert_secret(run_dir),
                    KEY_ENV: cert_key(run_dir)}  # fmt: skip
        self.process = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppServer:
        self.process = start_app(self.port, env=self.env, log=self.run_dir / "app.log")
        wait_healthy(self.url + "/_stcore/health", self.process)
        return self

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def sqlite_server():
    """One app process on a SQLite file in a temporary folder (the default setup of
    one server); a rehearsal may kill it and start it again on the same port and file."""
    run_dir = Path(tempfile.mkdtemp(prefix="grpo-sqlite-server-"))
    server = AppServer(run_dir)
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(run_dir, ignore_errors=True)
