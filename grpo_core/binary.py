"""Binary (right/wrong) rewards: GRPO's advantages and weights at pass rate p.

With a verifier's 0/1 rewards a group is described by its pass rate p. Closed
forms (``binary_advantages``, ``dr_grpo_binary_advantages``, ``std_weight``,
``difficulty_bias_frame``), the p axes (``pass_rate_grid``, ``group_pass_rates``),
sampled groups against the closed form (``sampled_binary_groups``) and the chance
a group has no spread at all (``zero_spread_probability``).

Sources: DeepSeekMath (arXiv 2402.03300) for the estimator; Dr. GRPO
(Liu et al. 2025, arXiv 2503.20783, which names the std division's difficulty
bias); TRL trl/trainer/grpo_trainer.py for scale_rewards="none".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import advantage_trace
from grpo_core.rewards import binary_verifier


def binary_advantages(p, *, ddof: int = 0, group_size=None, eps: float = 0.0):
    """GRPO advantages of a correct (reward 1) and a wrong (0) answer at pass rate p.

    p: the fraction of the group's answers that are correct, any shape.
    With std = sqrt(p(1-p)) (ddof=0) or sqrt(p(1-p) K/(K-1)) (ddof=1, needs
    group_size = K):
        correct = (1-p) / (std + eps)     = sqrt((1-p)/p)   at eps = 0, ddof = 0
        wrong   =   -p  / (std + eps)     = -sqrt(p/(1-p))
    ddof=1 multiplies both by sqrt((K-1)/K) (at eps = 0). At p = 0 or 1 every
    answer is equal and gets 0; the answer that does not exist there (correct
    at p = 0, wrong at p = 1) is NaN. Returns (correct, wrong), each of p's shape.
    """
    p = _checks.probabilities(p)
    std = np.sqrt(p * (1 - p) * _ddof_factor(ddof, group_size))
    eps = _checks.non_negative(eps, "eps")
    with np.errstate(divide="ignore", invalid="ignore"):
        correct = (1 - p) / (std + eps)
        wrong = -p / (std + eps)
    return _binary_edges(p, correct, wrong)


def dr_grpo_binary_advantages(p):
    """Dr. GRPO's advantages at pass rate p: correct 1 - p, wrong -p (R - mean, no std).

    Edges as in ``binary_advantages``. Returns (correct, wrong), each of p's shape.
    Source: Dr. GRPO, arXiv 2503.20783 (TRL scale_rewards="none").
    """
    p = _checks.probabilities(p)
    return _binary_edges(p, 1 - p, -p)


def std_weight(p, *, ddof: int = 0, group_size=None):
    """The weight GRPO's std division gives a binary group at pass rate p: 1 / std.

    1 / sqrt(p(1-p)) for ddof=0, times sqrt((K-1)/K) for ddof=1 (needs group_size = K).
    2 at p = 0.5, growing without bound as p nears 0 or 1 (inf there: the
    group then has no spread and gets no signal at all). Dr. GRPO's weight is 1.
    Returns p's shape.
    """
    p = _checks.probabilities(p)
    with np.errstate(divide="ignore"):
        return _scalar_or_array(1 / np.sqrt(p * (1 - p) * _ddof_factor(ddof, group_size)))


def difficulty_bias_frame(p, *, ddof: int = 0, group_size=None, eps: float = 0.0) -> pd.DataFrame:
    """GRPO vs Dr. GRPO on binary rewards, as a long table for charts.

    p: (P,) pass rates. One row per (p, method, answer) with method "GRPO" or
    "Dr. GRPO", answer "correct" or "wrong", the advantage, and weight (1 / std
    for GRPO, 1 for Dr. GRPO).
    """
    p = np.atleast_1d(_checks.probabilities(p)).ravel()
    grpo = binary_advantages(p, ddof=ddof, group_size=group_size, eps=eps)
    dr = dr_grpo_binary_advantages(p)
    weight = np.atleast_1d(std_weight(p, ddof=ddof, group_size=group_size))
    parts = []
    for method, (correct, wrong), w in (
        ("GRPO", grpo, weight),
        ("Dr. GRPO", dr, np.ones_like(p)),
    ):
        for answer, a in (("correct", correct), ("wrong", wrong)):
            parts.append(
                pd.DataFrame(
                    {"p": p, "method": method, "answer": answer, "advantage": a, "weight": w}
                )
            )
    return pd.concat(parts, ignore_index=True)


def pass_rate_grid(points: int = 99) -> np.ndarray:
    """``points`` evenly spaced pass rates strictly inside (0, 1), for a curve:
    j / (points + 1) for j = 1..points (99 points: 0.01, 0.02, ..., 0.99)."""
    n = _checks.whole(points, "points", minimum=1)
    return np.arange(1, n + 1) / (n + 1)


def group_pass_rates(group_size: int) -> np.ndarray:
    """The pass rates a group of K right/wrong answers can have: j / K for j = 0..K,
    shape (K + 1,). Only j = 1..K-1 have spread (and a learning signal)."""
    group_size = _checks.whole(group_size, "group_size", minimum=1)
    return np.arange(group_size + 1) / group_size


@dataclass(frozen=True, eq=False)
class SampledBinaryGroups:
    """Sampled groups of binary rewards (see ``sampled_binary_groups``)."""

    groups: pd.DataFrame
    """One row per sampled group WITH spread: p (true pass rate), p_hat (the
    group's fraction correct), std (the group's, with ddof) and weight = 1 / std."""
    summary: pd.DataFrame
    """One row per p: p, zero_spread_fraction (sampled), zero_spread_probability
    (p^K + (1-p)^K), mean_weight (over groups with spread, NaN if none) and
    analytic_weight (``std_weight``)."""


def sampled_binary_groups(
    p_values,
    group_size: int,
    rng: np.random.Generator,
    groups_per_p: int,
    *,
    ddof: int = 0,
) -> SampledBinaryGroups:
    """Sample ``groups_per_p`` groups of K right/wrong answers at each pass rate.

    p_values: (P,). Each group's std comes from ``advantage_trace`` (zscore with
    ``ddof``); all-equal groups have no std to divide by and are left out of
    ``groups``, their fraction reported in ``summary``. A group with spread has
    p_hat between 1/K and 1 - 1/K, so its weight is at most 1 / sqrt((1/K)(1 - 1/K))
    (ddof=0): near p = 0 or 1 the sampled weights stay below the analytic curve
    at p, while lying exactly on it at p_hat.
    """
    p = np.atleast_1d(_checks.probabilities(p_values)).ravel()
    group_size = _checks.whole(group_size, "group_size", minimum=2)
    n = _checks.whole(groups_per_p, "groups_per_p", minimum=1)
    pass_rate = np.repeat(p, n)
    rewards = binary_verifier(rng, pass_rate.size, group_size, pass_rate)
    trace = advantage_trace(rewards, convention="zscore", ddof=ddof)
    live = ~trace.zero_spread
    groups = pd.DataFrame(
        {
            "p": pass_rate[live],
            "p_hat": rewards[live].mean(axis=1),
            "std": trace.std[live],
            "weight": 1 / trace.std[live],
        }
    )
    mean_weight = groups.groupby("p")["weight"].mean().reindex(p).to_numpy()
    summary = pd.DataFrame(
        {
            "p": p,
            "zero_spread_fraction": trace.zero_spread.reshape(p.size, n).mean(axis=1),
            "zero_spread_probability": zero_spread_probability(p, group_size),
            "mean_weight": mean_weight,
            "analytic_weight": std_weight(p, ddof=ddof, group_size=group_size),
        }
    )
    return SampledBinaryGroups(groups=groups, summary=summary)


def zero_spread_probability(p, group_size):
    """Chance that K independent right/wrong answers at pass rate p are all equal.

    p^K + (1-p)^K (all right or all wrong). p in [0, 1] and whole group_size K >= 1
    broadcast against each other (K = 1 always gives 1). Such a group has zero
    std and zero advantages: it carries no learning signal.
    """
    p = _checks.probabilities(p)
    sizes = np.asarray(group_size)
    if sizes.dtype.kind not in "iu" or (sizes.size and sizes.min() < 1):
        raise ValueError(
            f"group_size must be a whole number >= 1 (or an array of them), got {group_size!r}."
        )
    try:
        out = np.power(p, sizes) + np.power(1 - p, sizes)
    except ValueError:
        raise ValueError(
            f"p of shape {np.shape(p)} and group_size of shape {sizes.shape} "
            "do not broadcast together."
        ) from None
    return _scalar_or_array(out)


def _ddof_factor(ddof, group_size) -> float:
    """std² / (p(1-p)): 1 for ddof=0, K/(K-1) for ddof=1."""
    if _checks.ddof(ddof) == 0:
        return 1.0
    if group_size is None:
        raise ValueError("ddof=1 needs the group size K (the sample std divides by K-1).")
    group_size = _checks.whole(group_size, "group_size", minimum=2)
    return group_size / (group_size - 1)


def _binary_edges(p: np.ndarray, correct, wrong):
    """At p = 0 or 1 every answer is equal (advantage 0); the missing answer is NaN."""
    correct = np.where(p == 1, 0.0, np.where(p == 0, np.nan, correct))
    wrong = np.where(p == 0, 0.0, np.where(p == 1, np.nan, wrong))
    return _scalar_or_array(correct), _scalar_or_array(wrong)


def _scalar_or_array(x: np.ndarray):
    """A float for 0-d results, else the array."""
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x
