"""Speed of grpo_core.group_advantages on 2**24 rewards in groups of 16.

Prints the median of several runs for: a plain copy of the array (the floor),
the straightforward numpy version (mean, std with ddof=1, broadcast), and
group_advantages(convention="trl"); then the ratios the core-engine issue
targets (<= 0.6 of straightforward, <= 5x copy). Uneven group_ids are timed too.

Then grpo_core.loss.policy_loss (TRL's default loss_type="dapo", loss and gradient) on
B = 1,024 answers x T = 1,024 tokens, against one elementwise pass over the same arrays:
the per-token clipped surrogate as TRL writes it, -min(r A, clip(r) A) mask with
r = exp(logp - old_logp), forward only (the loss-lab issue's target: <= 3x). The bare
(logp - old_logp) * mask, a memory-bound floor, is printed for scale.

    .venv/bin/python bench/bench_core.py
"""

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from grpo_core import group_advantages
from grpo_core.loss import policy_loss

N, K, REPEATS = 2**24, 16, 9
B, T = 1024, 1024


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
    bench_policy_loss(rng)


def surrogate_pass(logp, old_logp, advantages, mask, eps=0.2):
    """One elementwise pass: the per-token clipped surrogate as TRL writes it, forward only."""
    ratio = np.exp(logp - old_logp)
    a = advantages[:, None]
    return -np.minimum(ratio * a, np.clip(ratio, 1 - eps, 1 + eps) * a) * mask


def bench_policy_loss(rng) -> None:
    old = -rng.uniform(0.01, 5.0, (B, T))
    logp = np.minimum(old + rng.normal(0, 0.2, (B, T)), 0.0)
    mask = (np.arange(T)[None, :] < rng.integers(1, T + 1, B)[:, None]).astype(np.float64)
    adv = rng.standard_normal(B)
    got = policy_loss(logp, old, adv, mask)
    expected = surrogate_pass(logp, old, adv, mask).sum() / mask.sum()
    assert abs(got.loss - expected) < 1e-9

    floor = median_ms(lambda: (logp - old) * mask)
    one_pass = median_ms(lambda: surrogate_pass(logp, old, adv, mask))
    ours = median_ms(lambda: policy_loss(logp, old, adv, mask))
    print(f"policy loss: B = {B:,} x T = {T:,} float64, loss_type='dapo'; median of {REPEATS} runs")
    print(f"  (logp - old_logp) * mask   {floor:8.1f} ms")
    print(f"  surrogate, one pass        {one_pass:8.1f} ms")
    print(f"  policy_loss (loss + grad)  {ours:8.1f} ms")
    print(f"  ratio to one pass          {ours / one_pass:8.2f}   (target <= 3.00)")
    print(f"  ratio to the bare floor    {ours / floor:8.2f}")


if __name__ == "__main__":
    main()
