"""The deployment under test: 2 replicas behind Debian's nginx, on free loopback ports.

``deployment`` starts once per test session and is shared by every module here (its tests
form one xdist group, so it starts on one worker only): a test that stops a replica starts
it again before it ends. A module whose tests break the deployment for good (kill Redis,
kill replicas and leave them down) asks for ``private_deployment`` instead: its own,
started once for that module (whose tests then form an xdist group of their own).

Locally, a machine without nginx skips these tests with a message; in CI (CI=true)
a missing nginx is a failure, never a skip (`python3 dev.py test` installs it as root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
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
def deployment():
    """The session's deployment (2 replicas, nginx, one Redis). Leave it as you found it."""
    with running_deployment() as dep:
        yield dep


@pytest.fixture(scope="module")
def private_deployment():
    """A deployment of this module's own (2 replicas, nginx, one Redis), for tests that
    kill parts of it: another configuration of the world than the shared ``deployment``,
    which the other modules need whole."""
    with running_deployment() as dep:
        yield dep
