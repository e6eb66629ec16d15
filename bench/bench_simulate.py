"""Speed of grpo_core.simulate on the default run (every estimator, 5 seeds, 200 steps).

Prints the median wall time of several runs against the issue's target
(at most 1 s), and what a cached rerun (same config) costs.

    .venv/bin/python bench/bench_simulate.py
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from grpo_core.simulate import SimConfig, simulate, simulate_cached

REPEATS = 7
TARGET_S = 1.0


def main() -> None:
    config = SimConfig()
    simulate(config)  # warm up
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        simulate(config)
        times.append(time.perf_counter() - t)
    median = statistics.median(times)

    simulate_cached(config)
    t = time.perf_counter()
    simulate_cached(config)
    cached = time.perf_counter() - t

    print(
        f"default run: {len(config.estimators)} estimators x {config.num_seeds} seeds x "
        f"{config.steps} steps, {config.num_prompts} prompts, K={config.group_size}, "
        f"M={config.num_candidates}; median of {REPEATS} runs"
    )
    print(
        f"  simulate(SimConfig())      {median * 1e3:8.1f} ms   (target <= {TARGET_S * 1e3:.0f} ms)"
    )
    print(f"  fastest / slowest          {min(times) * 1e3:8.1f} / {max(times) * 1e3:.1f} ms")
    print(f"  cached rerun               {cached * 1e6:8.1f} µs")
    print(f"  within target              {'yes' if median <= TARGET_S else 'NO'}")


if __name__ == "__main__":
    main()
