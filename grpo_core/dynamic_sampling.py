"""DAPO's dynamic sampling: drop the groups without signal and sample more.

A pool of prompts is a spread of pass rates (``DIFFICULTY_POOLS``,
``difficulty_pool``); ``simulate_dynamic_sampling`` draws a batch of right/wrong
groups, filters out the all-equal ones (zero spread: no learning signal) and
refills the batch. Source: DAPO (Yu et al. 2025, arXiv 2503.14476), dynamic sampling.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.binary import zero_spread_probability
from grpo_core.rewards import binary_verifier


@dataclass(frozen=True)
class DifficultyPool:
    """A shape for the pass rates of a pool of prompts: Beta(a, b)."""

    title: str
    lesson: str
    a: float
    b: float


DIFFICULTY_POOLS: dict[str, DifficultyPool] = {
    "spread": DifficultyPool(
        "Evenly spread", "Pass rates spread evenly between 0 and 1 (Beta(1, 1)).", 1.0, 1.0
    ),
    "polarised": DifficultyPool(
        "Mostly solved or unsolved",
        "Most prompts are solved almost always or almost never (Beta(0.3, 0.3)), "
        "as on many math sets.",
        0.3,
        0.3,
    ),
    "easy": DifficultyPool(
        "Mostly easy (late in training)",
        "The model solves most prompts most of the time (Beta(4, 1)).",
        4.0,
        1.0,
    ),
    "hard": DifficultyPool(
        "Mostly hard (early in training)",
        "The model rarely solves most prompts (Beta(1, 4)).",
        1.0,
        4.0,
    ),
}


def difficulty_pool(kind: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """Pass rates of ``size`` prompts drawn from DIFFICULTY_POOLS[kind]: shape (size,)."""
    if kind not in DIFFICULTY_POOLS:
        raise ValueError(f"kind must be one of {', '.join(DIFFICULTY_POOLS)}, got {kind!r}.")
    n = _checks.whole(size, "size", minimum=1)
    pool = DIFFICULTY_POOLS[kind]
    return rng.beta(pool.a, pool.b, size=n)


@dataclass(frozen=True, eq=False)
class DynamicSampling:
    """One batch before and after DAPO's dynamic sampling (``simulate_dynamic_sampling``)."""

    group_size: int
    batch_size: int
    batch_pass_rates: np.ndarray
    """(batch_size,) pass rates of the first batch's prompts."""
    batch_signal: np.ndarray
    """(batch_size,) bool: the group's rewards are not all equal."""
    final_pass_rates: np.ndarray
    """(after_resample,) pass rates of the prompts in the refilled batch."""
    resample_rounds: int
    """Extra batches of batch_size prompts generated to refill."""
    expected_signal_fraction: float
    """1 - mean over the pool of p^K + (1-p)^K: the chance a drawn group carries signal."""

    @property
    def signal_before(self) -> int:
        """Groups with signal in the first batch, before filtering (out of batch_size)."""
        return int(self.batch_signal.sum())

    @property
    def signal_fraction(self) -> float:
        """signal_before / batch_size: the first batch's share of groups with signal."""
        return self.signal_before / self.batch_size

    @property
    def after_filter(self) -> int:
        """Groups left after dropping the all-equal ones: the batch shrinks to this."""
        return self.signal_before

    @property
    def after_resample(self) -> int:
        """Groups in the refilled batch, all with signal; batch_size unless rounds ran out."""
        return int(self.final_pass_rates.size)

    @property
    def extra_samples(self) -> int:
        """Answers generated beyond the first batch: resample_rounds x batch_size x K."""
        return self.resample_rounds * self.batch_size * self.group_size

    def summary(self) -> pd.DataFrame:
        """One row per stage: groups in the batch, groups with signal, groups without
        (all-equal rewards) and answers generated so far."""
        first = self.batch_size * self.group_size
        return pd.DataFrame(
            {
                "stage": ["before filtering", "after filtering", "after resampling"],
                "groups": [self.batch_size, self.after_filter, self.after_resample],
                "with_signal": [self.signal_before, self.after_filter, self.after_resample],
                "without_signal": [self.batch_size - self.signal_before, 0, 0],
                "answers_generated": [first, first, first + self.extra_samples],
            }
        )


def simulate_dynamic_sampling(
    pass_rates,
    group_size: int,
    batch_size: int,
    rng: np.random.Generator,
    *,
    max_resample_rounds: int = 10,
) -> DynamicSampling:
    """DAPO's dynamic sampling (arXiv 2503.14476) on simulated right/wrong rewards.

    pass_rates: (P,) the pool of prompts' pass rates (a spread of difficulties).
    A batch is ``batch_size`` prompts drawn from the pool with replacement, K
    answers each. Filtering drops the groups whose K rewards are all equal;
    resampling generates further batches, keeping only groups with signal,
    until ``batch_size`` are collected (extras are cut off, as in the DAPO
    recipe) or ``max_resample_rounds`` extra batches were spent.
    """
    pool = np.atleast_1d(_checks.probabilities(pass_rates)).ravel()
    if pool.size == 0:
        raise ValueError("pass_rates is empty: give at least one prompt's pass rate.")
    group_size = _checks.whole(group_size, "group_size", minimum=2)
    b = _checks.whole(batch_size, "batch_size", minimum=1)
    rounds_allowed = _checks.whole(max_resample_rounds, "max_resample_rounds", minimum=0)

    def generate():
        p = rng.choice(pool, size=b)
        rewards = binary_verifier(rng, b, group_size, p)
        return p, rewards.min(axis=1) != rewards.max(axis=1)

    first_p, first_signal = generate()
    kept = [first_p[first_signal]]
    collected = int(first_signal.sum())
    rounds = 0
    while collected < b and rounds < rounds_allowed:
        p, signal = generate()
        kept.append(p[signal])
        collected += int(signal.sum())
        rounds += 1
    return DynamicSampling(
        group_size=group_size,
        batch_size=b,
        batch_pass_rates=first_p,
        batch_signal=first_signal,
        final_pass_rates=np.concatenate(kept)[:b],
        resample_rounds=rounds,
        expected_signal_fraction=float(1 - np.mean(zero_spread_probability(pool, group_size))),
    )
