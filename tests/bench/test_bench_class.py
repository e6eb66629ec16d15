"""bench/bench_class.py's verdict: a setup meets its target only with no error, no vote
lost and p95 within bounds; a real run that misses its target exits 1 and still prints
its last line in the documented form."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

from bench.bench_class import SETUPS, met

ROOT = Path(__file__).resolve().parents[2]


def test_the_targets_are_the_issues():
    assert SETUPS["sqlite"][1:] == (60, 1000.0)
    assert SETUPS["redis"][1:] == (150, 2000.0)


def test_a_setup_meets_its_target_only_without_errors_losses_or_a_slow_p95():
    assert met(0, 0, 999.0, 1000.0)
    assert met(0, 0, 1000.0, 1000.0)
    assert not met(0, 0, 1001.0, 1000.0)
    assert not met(1, 0, 10.0, 1000.0)
    assert not met(0, 1, 10.0, 1000.0)
    assert not met(0, 0, math.nan, 1000.0), "no latency measured is no pass"


def test_a_real_run_that_misses_its_target_exits_1_with_the_usual_last_line():
    result = subprocess.run(
        [sys.executable, "bench/bench_class.py", "--setups", "sqlite", "--students", "2",
         "--rounds", "1", "--target-ms", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert "MISSED" in result.stdout
    assert re.fullmatch(r"class: 2 students, 0 errors, 0 lost, p95 \d+ ms", lines[-1]), lines
