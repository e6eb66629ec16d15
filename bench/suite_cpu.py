"""Where the full suite's CPU goes: runs ``python3 dev.py test`` and counts every process it
starts by kind (Chromium's renderers, its GPU process, the app servers, the pytest workers,
...), because on 2 cores the suite is CPU-bound and only less work shortens it (issue 20).

    python3 bench/suite_cpu.py                  # the full suite
    python3 bench/suite_cpu.py -- tests/e2e -k sweep

It reads /proc every ``--interval`` seconds and keeps each process's last CPU time (user +
system), so a process that starts and ends between two readings is missed, as is the CPU a
process spends after the last reading that saw it (at most one interval's). The readings
are the measure: ``getrusage`` of the children counts only processes their parents waited
for, and saw 12 CPU-s where the readings saw 19 (one browser file and one core file).
Session 12 found the GPU process's shimmer this way (README, "Tests"). Not one of
``python3 dev.py bench``'s benchmarks (``bench_*.py``): it runs the whole suite. Prints the
wall time, the share of the machine's cores used and one line per kind, largest first; the
last line is pytest's own.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.procfs import cmdline, descendants, processes  # noqa: E402


def kind(line: str) -> str:
    """What a process is, from its command line (arguments joined by spaces)."""
    if "chromium" in line:
        found = re.search(r"--type=([\w-]+)", line)
        if not found:
            return "chromium browser"
        sub = re.search(r"--utility-sub-type=([\w.]+)", line)
        return f"chromium {found.group(1)}" + (f" ({sub.group(1)})" if sub else "")
    if "streamlit" in line and " run " in f"{line} ":
        return "streamlit server"
    if "playwright" in line and ("node" in line or "driver" in line):
        return "playwright driver"
    if "execnet" in line or "sys.stdin.readline" in line:
        return "pytest worker"
    if "-m pytest" in line:
        return "pytest main"
    if "multiprocessing" in line:
        return "python multiprocessing child"
    for name in ("redis-server", "nginx", "pip", "apt", "dpkg", "git"):
        if name in line.split(" ", 1)[0] or f"-m {name}" in line:
            return name
    return "other: " + Path(line.split(" ", 1)[0]).name[:30]


def _echo(stream, lines: list[str]) -> None:
    """Copy the suite's output to ours, keeping its non-empty lines."""
    for text in stream:
        sys.stdout.write(text)
        if text.strip():
            lines.append(text.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between readings")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to dev.py test")
    args = parser.parse_args()
    seen: dict[int, tuple[str, float]] = {}  # pid -> (kind, last CPU seconds)
    start = time.monotonic()
    suite = subprocess.Popen(
        [sys.executable, "dev.py", "test", *args.pytest_args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    echo = threading.Thread(target=_echo, args=(suite.stdout, lines), daemon=True)
    echo.start()
    while suite.poll() is None:
        table = processes()
        for pid in [suite.pid, *descendants(suite.pid, table)]:
            if pid not in seen:
                line = cmdline(pid)
                if line is None:
                    continue
                seen[pid] = (kind(line), 0.0)
            seen[pid] = (seen[pid][0], table[pid][1])
        time.sleep(args.interval)
    echo.join()
    wall = time.monotonic() - start
    by_kind: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for name, cpu in seen.values():
        by_kind[name] += cpu
        count[name] += 1
    total, cores = sum(by_kind.values()), os.cpu_count()
    busy = total / (wall * cores)
    print(f"\nwall {wall:.0f} s; {total:.0f} CPU-s seen, {busy:.0%} of {cores} cores")
    for name, cpu in by_kind.most_common():
        print(f"{cpu:8.0f} CPU-s {cpu / total:6.1%}  {count[name]:4d}  {name}")
    print(lines[-1] if lines else "")
    return suite.returncode


if __name__ == "__main__":
    sys.exit(main())
