"""Float32, the precision trainers compute in: what it does to a group's advantages.

``float32_advantages`` replays (R - mean) / (std + eps) step by step in float32,
as torch does by default (the one place grpo_core computes advantages outside
``group_advantages``, on purpose); ``precision_report`` sets it beside float64.
Every trainer in ``grpo_core.conventions`` computes in float32 (torch tensors).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import group_advantages


def float32_advantages(rewards, *, eps: float, ddof: int = 1) -> np.ndarray:
    """What a trainer computing in float32 (torch's default) gets, as float64.

    rewards: (K,) one group or (G, K) one group per row. Emulates torch's
    order of operations, every step in float32: cast the rewards, mean,
    centre (R - mean), std = sqrt(sum(centred²) / (K - ddof)), add eps,
    divide. No special case for ties: eps = 0 on an exact tie gives NaN (0/0).
    torch may add in a different order, so the last digit can differ; the
    digits lost to the float32 cast and to cancellation are the same.
    Returns an array of the shape of ``rewards``.
    """
    x = _checks.float_rewards(rewards)
    eps = _checks.non_negative(eps, "eps")
    ddof = _checks.ddof(ddof)
    group_size = x.shape[-1]
    if group_size - ddof < 1:
        raise ValueError(
            f"a group of {group_size} reward(s) has no sample std (ddof=1 divides by K-1 = 0); "
            "give at least 2 rewards or use ddof=0."
        )
    if np.abs(x).max() > np.finfo(np.float32).max:
        raise ValueError("a reward is beyond float32's range (about ±3.4e38).")
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True, dtype=np.float32)
    centred = x32 - mean
    sum_squares = (centred * centred).sum(axis=-1, keepdims=True, dtype=np.float32)
    std = np.sqrt(sum_squares / np.float32(group_size - ddof))
    with np.errstate(divide="ignore", invalid="ignore"):
        advantages = centred / (std + np.float32(eps))
    return advantages.astype(np.float64)


@dataclass(frozen=True, eq=False)
class PrecisionReport:
    """One group computed in float64 and in float32 (see ``precision_report``).

    Arrays have shape (K,).
    """

    rewards: np.ndarray
    rewards_float32: np.ndarray
    """The rewards as float32 stores them (shown as float64)."""
    advantages_float64: np.ndarray
    advantages_float32: np.ndarray
    eps: float
    ddof: int
    float32_spacing: float
    """Gap between neighbouring float32 numbers at the largest |reward| (0.0625 near 1e6)."""
    distinct_float64: int
    distinct_float32: int
    """How many different values the rewards still have after the float32 cast."""
    max_abs_error: float
    """max |A_float32 - A_float64| (NaN if float32 gave NaN)."""
    relative_error: float
    """max_abs_error / max |A_float64|: 0 if both are all 0, inf if only float64 is."""

    def to_frame(self, answers=None) -> pd.DataFrame:
        """One row per answer: its number (from ``answers``, one per reward; 1..K if None),
        reward, its float32 value, both advantages and the error."""
        return pd.DataFrame(
            {
                "answer": _checks.answer_numbers(answers, self.rewards.size),
                "reward": self.rewards,
                "reward_float32": self.rewards_float32,
                "advantage_float64": self.advantages_float64,
                "advantage_float32": self.advantages_float32,
                "error": self.advantages_float32 - self.advantages_float64,
            }
        )


def precision_report(rewards, *, eps: float, ddof: int = 1) -> PrecisionReport:
    """One group's advantages in float64 (``group_advantages``) and float32, compared.

    rewards: (K,). Both use (R - mean) / (std + eps) with ``ddof`` and no clamp.
    Rewards around 1e6 with a spread of 1e-3 lose every digit of the spread in
    float32 (its spacing there is 0.0625); modest rewards agree to about 1e-6.
    """
    r = _checks.one_group(rewards)
    _checks.eps_values([_checks.non_negative(eps, "eps")])
    a32 = float32_advantages(r, eps=eps, ddof=ddof)
    a64 = group_advantages(r, convention="zscore", eps=eps, ddof=ddof)
    r32 = r.astype(np.float32)
    error = float(np.abs(a32 - a64).max())
    scale = float(np.abs(a64).max())
    if math.isnan(error):
        relative = math.nan
    elif scale == 0:
        relative = 0.0 if error == 0 else math.inf
    else:
        relative = error / scale
    return PrecisionReport(
        rewards=r,
        rewards_float32=r32.astype(np.float64),
        advantages_float64=a64,
        advantages_float32=a32,
        eps=float(eps),
        ddof=int(ddof),
        float32_spacing=float(np.spacing(np.abs(r32).max())),
        distinct_float64=int(np.unique(r).size),
        distinct_float32=int(np.unique(r32).size),
        max_abs_error=error,
        relative_error=relative,
    )
