"""Load + summary time and peak memory of a training log, for 10^4, 10^5 and 10^6 rows.

Each case runs in a fresh process (so the peak resident memory, ru_maxrss, is that
case's own): write a TRL-shaped log (step, prompt, reward, advantage; groups of 16;
training-log page computes (groups, per-step summary, worst groups, convention fit), and
the same load through the upload worker the page uses (``workers.upload``: a child process
with memory and time limits), with the child's own peak.
The 10^5 case is also run with a 300-character completion per row, and 10^6 rows also
come as 100 Parquet files of 10^4 rows loaded together (``log_files.load_logs``, as TRL's
completions folder is uploaded). Targets: <= 5 s and <= 1 GB for 10^6 rows without text
(one file or 100) and 10^5 rows with text.

    .venv/bin/python bench/bench_logs.py
"""

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

K, PROMPTS = 16, 128
CASES = [(10**4, False), (10**5, False), (10**6, False), (10**5, True)]


def write_log(rows: int, text: bool, fmt: str, folder: Path) -> Path:
    from grpo_core import group_advantages

    rng = np.random.default_rng(0)
    rewards = rng.integers(0, 2, rows).astype(np.float64)
    frame = pd.DataFrame(
        {
            "step": np.arange(rows) // (K * PROMPTS),
            "prompt": [f"prompt {p}" for p in (np.arange(rows) // K) % PROMPTS],
            "reward": rewards,
            "advantage": group_advantages(rewards, group_size=K).astype(np.float32),
        }
    )
    if text:
        frame["completion"] = [f"answer {i} " + "x" * 290 for i in range(rows)]
    path = folder / f"log_{rows}_{int(text)}.{fmt}"
    if fmt == "csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, index=False)
    return path


def write_files(count: int, rows: int, folder: Path) -> Path:
    """``count`` files completions_<step>.parquet of ``rows`` rows each, one step a file."""
    one = pd.read_parquet(write_log(rows, False, "parquet", folder))
    files = folder / f"completions_{count}x{rows}"
    files.mkdir()
    for step in range(1, count + 1):
        one.assign(step=step).to_parquet(files / f"completions_{step:05d}.parquet", index=False)
    return files


def measure(path: str) -> dict:
    """Run in the child: load and summarise ``path`` (a file, or a folder of files read
    together); seconds and peak MB."""
    from grpo_core import log_files
    from grpo_core.inference import fit_conventions
    from grpo_core.log_summary import log_groups, step_summary, worst_groups

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    paths = sorted(Path(path).iterdir()) if Path(path).is_dir() else [Path(path)]
    files = [(p.name, p.read_bytes()) for p in paths]
    frame = log_files.load_logs(files).frame
    loaded = time.perf_counter()
    groups = log_groups(frame)
    step_summary(groups)
    worst_groups(groups)
    order = groups.order
    fit_conventions(groups, frame["step"].to_numpy()[order], frame["advantage"].to_numpy()[order])
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    import bench_logs  # this file as a module: the worker's child cannot see __main__

    from workers import upload

    _peak_load = bench_logs._peak_load
    upload.isolated(_peak_load, [])  # starts the forkserver: once per server, not per file
    sent = time.perf_counter()
    _, worker_peak = upload.isolated(_peak_load, files)
    worker = time.perf_counter() - sent
    return {
        "load_s": loaded - start,
        "summary_s": done - loaded,
        "peak_mb": peak / 1024,
        "growth_mb": (peak - before) / 1024,
        "worker_s": worker,
        "worker_peak_mb": worker_peak / 1024,
    }


def _peak_load(files: list):
    """In the worker's child: the loaded log and the child's peak resident KB."""
    from grpo_core import log_files

    log = log_files.load_logs(files) if files else None
    return log, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    print(
        f"{'rows':>9} {'text':>5} {'format':>13} {'load s':>7} {'summary s':>9} {'peak MB':>8}"
        f" {'worker s':>8} {'worker MB':>9}"
    )
    with tempfile.TemporaryDirectory() as folder:
        runs = [
            (rows, text, fmt, lambda r=rows, t=text, f=fmt: write_log(r, t, f, Path(folder)))
            for rows, text in CASES
            for fmt in ("csv", "parquet")
        ]
        runs.append((10**6, False, "100 parquet", lambda: write_files(100, 10**4, Path(folder))))
        for rows, text, fmt, make in runs:
            out = subprocess.run(
                [sys.executable, __file__, "--measure", str(make())],
                capture_output=True,
                text=True,
                check=True,
            )
            r = json.loads(out.stdout)
            print(
                f"{rows:>9,} {'yes' if text else 'no':>5} {fmt:>13} {r['load_s']:>7.2f} "
                f"{r['summary_s']:>9.2f} {r['peak_mb']:>8.0f} {r['worker_s']:>8.2f} "
                f"{r['worker_peak_mb']:>9.0f}"
            )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        print(json.dumps(measure(sys.argv[2])))
    else:
        main()
