"""Speed of grpo_core.group_advantages on 2**24 rewards in groups of 16.

Prints the median of several runs for: a plain copy of the array (the floor),
the straightforward numpy version (mean, std with ddof=1, broadcast), and
group_advantages(convention="trl"); then the ratios the core-engine issue
targets (<= 0.6 of straightforward, <= 5x copy). Uneven group_ids are timed too.

    .venv/bin/python bench/bench_core.py
"""

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from grpo_core import group_advantages

N, K, REPEATS = 2**24, 16, 9


def median_ms(fn) -> float:
    fn()  # warm up
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def straightforward(rewards: np.ndarray) -> np.ndarray:
    g = rewards.reshape(-1, K)
    return (g - g.mean(1)[:, None]) / (g.std(1, ddof=1)[:, None] + 1e-4)


def main() -> None:
    rng = np.random.default_rng(0)
    rewards = rng.standard_normal(N)
    got = group_advantages(rewards, group_size=K)
    np.testing.assert_allclose(got, straightforward(rewards).ravel(), rtol=1e-9, atol=1e-12)

    copy = median_ms(rewards.copy)
    naive = median_ms(lambda: straightforward(rewards))
    ours = median_ms(lambda: group_advantages(rewards, group_size=K, convention="trl"))
    print(f"rewards: {N:,} float64 in groups of {K}; median of {REPEATS} runs")
    print(f"  copy of the array          {copy:8.1f} ms")
    print(f"  straightforward numpy      {naive:8.1f} ms")
    print(f"  group_advantages('trl')    {ours:8.1f} ms")
    print(f"  ratio to straightforward   {ours / naive:8.2f}   (target <= 0.60)")
    print(f"  ratio to copy              {ours / copy:8.2f}   (target <= 5.00)")

    m = 2**20
    ids = rng.integers(0, m // 8, size=m)  # uneven, interleaved groups
    small = rewards[:m]
    uneven = median_ms(lambda: group_advantages(small, group_ids=ids, convention="verl"))
    print(f"  uneven group_ids, {m:,} rewards in {m // 8:,} groups: {uneven:.1f} ms")


if __name__ == "__main__":
    main()
