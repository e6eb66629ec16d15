"""Real TRL logs, made once per TRL version and kept in .cache/ (git-ignored).

``trl_logs`` runs scripts/make_trl_logs.py (GRPOTrainer on CPU, a few seconds a
configuration) when the cache lacks a run, then returns the folder holding one
``<run>/completions/completions_<step>.parquet`` set per configuration. Tests using it are
marked ``trainer`` (slow: out of the fast tier).

The trainer runs with one torch thread: its model is 2 layers of width 32, too small to
gain from a second thread, and on a busy machine (the other xdist worker, other jobs) each
of its tiny matrix products waited for a descheduled thread (3-9 s a training step with
two threads at load 16, 0.1-0.7 s with one). Under xdist the first worker to need the logs
builds them while holding a lock; the other waits for it and finds them made.
"""

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import make_trl_logs  # noqa: E402


@pytest.fixture(scope="session")
def trl_logs() -> Path:
    trl = pytest.importorskip("trl")
    cache = ROOT / ".cache" / "trl_logs" / f"trl-{trl.__version__}"
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; released when closed
        missing = [r.name for r in make_trl_logs.RUNS if not (cache / r.name / "run.json").exists()]
        if missing:
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "make_trl_logs.py"), str(cache), *missing],
                check=True,
                cwd=ROOT,
                capture_output=True,
                env={**os.environ, "OMP_NUM_THREADS": "1"},
            )
    return cache
