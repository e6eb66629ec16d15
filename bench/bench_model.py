"""The real model on this machine: load, a group of 8 x 48 new tokens, one GRPO step, a
few steps (the page's curve), and the process's peak memory after each.

    .venv/bin/python bench/bench_model.py          (needs requirements-model.txt)
    .venv/bin/python bench/bench_model.py --cold   (load from the GGUF file, as the first
                                                    load on a machine does)

The model loads from its verified copy (realmodel.weights_cache) when one is there, as every
load after a machine's first does; --cold reads the GGUF file instead (the copy it writes
goes to a temporary folder, removed at the end).

Targets on a 2-core machine: group <= 10 s, step <= 10 s, peak memory (max RSS, the whole
process, from the kernel) <= 2.5 GB (10^9 bytes; 2.33 GiB). "load" is the machine's load
average (1, 5, 15 min): above ~2, other programs shared the cores.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grpo_core import real_tasks  # noqa: E402
from realmodel import curve, groups, model, step  # noqa: E402

K, NEW_TOKENS, SEED, TEMPERATURE = 8, 48, 0, 0.8


def peak_gb() -> float:
    """This process's peak resident memory so far, in GB of 10^9 bytes (ru_maxrss is in
    KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str]) -> int:
    if not model.available():
        print("skipped: the real model's extra is not installed (requirements-model.txt)")
        return 0
    if "--cold" in argv:
        with tempfile.TemporaryDirectory(prefix="bench-model-") as root:
            return run(model.load(cache_root=Path(root)))
    return run(model.load())


def run(loaded: model.Loaded) -> int:
    print(
        f"load from the {loaded.source} (hash check included): {loaded.seconds:.1f} s, "
        f"peak memory so far {peak_gb():.2f} GB  {load()}"
    )
    task = real_tasks.TASKS[0]
    start = time.perf_counter()
    ids = model.sample_answers(
        loaded, task.prompt, K, seed=SEED, temperature=TEMPERATURE, max_new_tokens=NEW_TOKENS
    )
    sample_s = time.perf_counter() - start
    texts = tuple(model.decode(loaded, a) for a in ids)
    group = groups.RealGroup(task, texts, SEED, TEMPERATURE, NEW_TOKENS, tuple(map(tuple, ids)))
    tokens = sum(len(a) for a in ids)
    print(
        f"group of {K} x <= {NEW_TOKENS} new tokens: {sample_s:.1f} s ({tokens} tokens, "
        f"{int(group.rewards.sum())} right)  target <= 10 s  "
        f"peak so far {peak_gb():.2f} GB  {load()}"
    )
    adv = group.advantages if group.rewards.std() > 0 else [1.0, -1.0] * (K // 2)
    result = step.grpo_step(loaded, task.prompt, ids, adv, temperature=TEMPERATURE)
    moved, counted = step.moved_with_advantage(result.delta, adv)
    print(
        f"one GRPO step (log-probs, loss, backward, SGD, log-probs again): "
        f"{result.seconds:.1f} s, {moved} of {counted} moved with A  target <= 10 s  "
        f"peak so far {peak_gb():.2f} GB  {load()}"
    )
    start = time.perf_counter()
    points = curve.few_steps(
        loaded,
        real_tasks.TASKS[1],
        K,
        steps=curve.STEPS,
        seed=SEED,
        temperature=TEMPERATURE,
        lr=curve.LR,
        max_new_tokens=NEW_TOKENS,
    )
    print(
        f"a few steps ({curve.STEPS} steps, {len(points)} groups of {K}, lr {curve.LR:g}): "
        f"{time.perf_counter() - start:.1f} s, right {[p.right for p in points]}  "
        f"peak so far {peak_gb():.2f} GB  {load()}"
    )
    print(f"peak memory (max RSS): {peak_gb():.2f} GB  target <= 2.5 GB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
