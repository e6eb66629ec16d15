"""The deployment under test: 2 replicas behind Debian's nginx, on free loopback ports.

Locally, a machine without nginx skips these tests with a message; in CI (CI=true)
a missing nginx is a failure, never a skip (`python3 dev.py test` installs it as root).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from deploy.run import NGINX, Deployment


def pytest_configure(config):
    config.addinivalue_line("markers", "deploy: app replicas behind a real nginx on loopback")


@pytest.fixture(scope="module")
def deployment():
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{NGINX} is missing in CI: the proxy test must run, not skip")
        pytest.skip(f"{NGINX} not installed; run `python3 dev.py test` as root to install it")
    run_dir = tempfile.mkdtemp(prefix="grpo-deploy-")
    try:
        with Deployment(2, run_dir=run_dir) as dep:
            yield dep
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
