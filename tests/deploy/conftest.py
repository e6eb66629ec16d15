"""The deployment under test: 2 replicas behind Debian's nginx, on free loopback ports.

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
import os
import shutil
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from deploy.run import NGINX, Deployment


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
    """Start any replica that is down, then have nginx forget that one failed (it skips a
    replica that refused a connection for fail_timeout, 10 s: a reload starts new workers
    with no such memory) and wait until it sends new browsers to every replica."""
    for i, process in enumerate(dep.apps):
        if process is None or process.poll() is not None:
            dep.start_replica(i)
    dep.nginx.send_signal(signal.SIGHUP)
    wanted = {str(i + 1) for i in range(len(dep.apps))}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if routed(dep, tries=4 * len(wanted)) == wanted:
            return
        time.sleep(0.5)
    raise AssertionError(f"nginx does not route to every replica {seconds:.0f} s after a restart")


def routed(dep: Deployment, tries: int) -> set[str]:
    """The replicas (X-Replica) that ``tries`` new affinity cookies land on."""
    seen = set()
    for n in range(tries):
        request = urllib.request.Request(
            dep.url + "/_stcore/health", headers={"Cookie": f"grpo_replica=restore{n}"}
        )
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
