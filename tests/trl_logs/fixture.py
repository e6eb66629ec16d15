"""Real TRL logs, made once per TRL version and kept in .cache/ (git-ignored).

``trl_logs`` runs scripts/make_trl_logs.py (GRPOTrainer on CPU, about 20 s a
configuration) when the cache lacks a run, then returns the folder holding one
``<run>/completions/completions_<step>.parquet`` set per configuration. Tests using it are
marked ``trainer`` (slow: out of the fast tier).
"""

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
    missing = [r.name for r in make_trl_logs.RUNS if not (cache / r.name / "run.json").exists()]
    if missing:
        subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "make_trl_logs.py"), str(cache), *missing],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
    return cache
