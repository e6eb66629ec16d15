"""Group-relative advantages: A_i = (R_i - mean(R)) / (std(R) + eps), per prompt.

``group_advantages`` is the fast path every page and the simulator call;
``advantage_trace`` returns every intermediate step for the step-by-step views.
Both compute through ``_steps`` so they can never disagree.

Defined behaviour at the edges, for every convention:
- An all-equal group (zero spread) gets advantages of exactly 0, also with
  eps = 0 (0/0 is defined as 0: the prompt carries no learning signal).
  Equality is exact, so rounding in the mean never turns equal rewards into noise.
- A group of one reward follows the convention's ``singleton`` rule.
- Rewards must be finite and within ±1e100; anything else is a ValueError
  naming the reward's position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core.conventions import Convention, get_convention
from grpo_core.groups import GroupedRewards, check_finite, group_rewards

_ZERO_SPREAD_ROUNDING = 8 * np.finfo(np.float64).eps
"""A spread this small relative to the mean may be rounding of all-equal rewards."""
_UNDERFLOW = 1e-200
"""Below this, a sum of squares may have lost digits to underflow."""
_TINY = 1e-300
"""Below this, a denominator's reciprocal may overflow."""


def group_advantages(
    rewards,
    *,
    group_size=None,
    group_ids=None,
    convention: str = "trl",
    ddof: int | None = None,
    eps: float | None = None,
    scale: str | None = None,
    clip: float | None = None,
) -> np.ndarray:
    """Advantages of ``rewards`` under a trainer's convention, float64.

    rewards: 1-D (N,) or 2-D (num_prompts, K). 1-D rewards form one group,
        or consecutive groups of ``group_size``, or the groups named by
        ``group_ids`` (one hashable label per reward; uneven sizes allowed).
    convention: a name in ``CONVENTIONS`` ("trl", "trl-batch", "dr-grpo",
        "verl", "openrlhf", "rloo", "zscore").
    ddof, eps, scale, clip: replace the convention's value (None keeps it;
        ``clip=math.inf`` removes a clamp).

    Returns an array of the same shape as ``rewards``.
    """
    conv = get_convention(convention).with_overrides(ddof=ddof, eps=eps, scale=scale, clip=clip)
    grouped = group_rewards(rewards, group_size=group_size, group_ids=group_ids)
    return grouped.restore(_steps(grouped, conv, keep=False).advantages)


@dataclass(frozen=True, eq=False)
class AdvantageTrace:
    """Every step of the computation, for one batch of rewards.

    Per-group arrays have shape (G,), in the order of ``labels``; per-reward
    arrays have the shape of the caller's ``rewards``.
    """

    convention: Convention
    """The convention with any overrides applied."""
    labels: Sequence
    """(G,) group labels: range(G) for prompts in order, or the distinct group ids."""
    sizes: np.ndarray
    """(G,) rewards per group, K."""
    rewards: np.ndarray
    group_index: np.ndarray
    """Per reward: its group's position in ``labels``."""
    mean: np.ndarray
    """(G,) group mean (0 for a verl group of one)."""
    baseline: np.ndarray
    """Per reward: what is subtracted (the group mean, or the leave-one-out mean)."""
    centred: np.ndarray
    """Per reward: R - baseline."""
    std: np.ndarray
    """(G,) group std with the convention's ddof (1 for a verl group of one)."""
    batch_std: float | None
    """The std of every reward when scale == "batch", else None."""
    denominator: np.ndarray
    """(G,) what the centred rewards are divided by: std + eps, batch std + eps, or 1."""
    advantages: np.ndarray
    zero_spread: np.ndarray
    """(G,) all rewards of the group are equal: advantages exactly 0, no signal."""
    singleton: np.ndarray
    """(G,) the group has one reward."""
    damped: np.ndarray
    """(G,) the std divided by is below eps, so eps shrinks the advantages by over half."""
    clamped: np.ndarray
    """Per reward: the advantage was cut to ±clip."""

    def to_frame(self) -> pd.DataFrame:
        """One row per reward: prompt, answer, reward and every step."""
        g = self.group_index.ravel()
        answer = pd.Series(g).groupby(g).cumcount().to_numpy() + 1
        return pd.DataFrame(
            {
                "prompt": [self.labels[i] for i in g],
                "answer": answer,
                "reward": self.rewards.ravel(),
                "mean": self.mean[g],
                "baseline": self.baseline.ravel(),
                "centred": self.centred.ravel(),
                "std": self.std[g],
                "denominator": self.denominator[g],
                "advantage": self.advantages.ravel(),
                "clamped": self.clamped.ravel(),
            }
        )

    def members(self, g: int) -> np.ndarray:
        """Flat indices of the rewards of group ``g`` in the per-reward arrays, raveled."""
        return np.flatnonzero(self.group_index.ravel() == g)

    def group_sums(self, g: int) -> tuple[float, float]:
        """(sum of R - baseline, sum of advantages) over group ``g``: both 0 up to rounding."""
        idx = self.members(g)
        return float(self.centred.ravel()[idx].sum()), float(self.advantages.ravel()[idx].sum())


def advantage_trace(
    rewards,
    *,
    group_size=None,
    group_ids=None,
    convention: str = "trl",
    ddof: int | None = None,
    eps: float | None = None,
    scale: str | None = None,
    clip: float | None = None,
) -> AdvantageTrace:
    """Like ``group_advantages``, with every intermediate step (see AdvantageTrace)."""
    conv = get_convention(convention).with_overrides(ddof=ddof, eps=eps, scale=scale, clip=clip)
    grouped = group_rewards(rewards, group_size=group_size, group_ids=group_ids)
    s = _steps(grouped, conv, keep=True)
    restore = grouped.restore
    if grouped.codes is None:
        index = np.broadcast_to(np.arange(grouped.num_groups)[:, None], grouped.values.shape)
    else:
        index = grouped.codes
    return AdvantageTrace(
        convention=conv,
        labels=grouped.labels,
        sizes=grouped.sizes,
        rewards=restore(grouped.values),
        group_index=restore(np.ascontiguousarray(index)),
        mean=s.mean,
        baseline=restore(grouped.values - s.centred),
        centred=restore(s.centred),
        std=s.std,
        batch_std=s.batch_std,
        denominator=s.denominator,
        advantages=restore(s.advantages),
        zero_spread=s.zero_spread,
        singleton=s.singleton,
        damped=s.damped,
        clamped=restore(s.clamped),
    )


@dataclass(frozen=True, eq=False)
class _Steps:
    """What ``_steps`` computed; only ``advantages`` on the fast path."""

    advantages: np.ndarray
    mean: np.ndarray | None = None
    centred: np.ndarray | None = None
    std: np.ndarray | None = None
    batch_std: float | None = None
    denominator: np.ndarray | None = None
    zero_spread: np.ndarray | None = None
    singleton: np.ndarray | None = None
    damped: np.ndarray | None = None
    clamped: np.ndarray | None = None


def _steps(grouped: GroupedRewards, conv: Convention, *, keep: bool) -> _Steps:
    """The computation, vectorized over groups in either layout.

    With ``keep=False`` (the fast path) every buffer is reused in place and
    only ``advantages`` is returned; with ``keep=True`` every step is. Checks
    that are almost never needed (zero spread, underflow, singletons, 0/0) are
    guarded by one scalar test each, so the common case costs a few passes.
    """
    x = grouped.values
    # K as a scalar when every group has K rewards; (G,) sizes otherwise.
    n = float(x.shape[1]) if grouped.codes is None else grouped.sizes.astype(np.float64)
    any_singleton = bool(n == 1) if grouped.codes is None else bool(grouped.sizes.min() == 1)
    singleton = grouped.sizes == 1 if any_singleton or keep else None
    with np.errstate(invalid="ignore", over="ignore"):  # bad rewards are named below
        mean = grouped.group_sum(x)
        mean /= n
        if any_singleton and conv.singleton == "pass-through":
            mean[singleton] = 0.0  # verl: a group of one has mean 0 and std 1
        centred = x - grouped.per_reward(mean)
        sum_squares = grouped.group_sum_squares(centred)
    largest_mean = check_finite(grouped, mean, sum_squares)
    if any_singleton:
        _check_singletons(grouped, conv, singleton)

    zero_spread = _zero_spread(grouped, mean, sum_squares, largest_mean)
    if zero_spread.any():
        _zero_groups(grouped, centred, zero_spread)
        sum_squares[zero_spread] = 0.0
    std = _std(grouped, sum_squares, n, conv.ddof, zero_spread)  # overwrites sum_squares
    if any_singleton:
        std[singleton] = 1.0 if conv.singleton == "pass-through" else 0.0

    if conv.baseline == "leave-one-out":
        # R_i - (sum - R_i)/(K-1) = K/(K-1) (R_i - mean); singletons were refused.
        centred *= grouped.per_reward(n / (n - 1)) if grouped.codes is not None else n / (n - 1)

    batch_std = None
    if conv.scale == "group":
        scale_std = std
        denominator = std.copy() if keep else std  # the fast path reuses the buffer
        denominator += conv.eps
    elif conv.scale == "batch":
        batch_std = _batch_std(x, conv.ddof)
        scale_std = np.full_like(std, batch_std)
        denominator = scale_std + conv.eps
    else:
        scale_std = None
        denominator = np.ones_like(std)
    advantages = centred.copy() if keep else centred
    # Multiply by the reciprocal (the fast path, within an ulp of dividing), except
    # where the denominator is 0 or so small its reciprocal would overflow.
    tiny = denominator < _TINY if denominator.min() < _TINY else None
    if tiny is None:  # the fast path reuses the buffer; the trace keeps the denominator
        inverse = np.divide(1.0, denominator, out=None if keep else denominator)
    else:
        inverse = np.divide(1.0, np.where(tiny, 1.0, denominator))
    advantages *= grouped.per_reward(inverse)
    if tiny is not None:
        # A zero denominator only occurs with eps = 0 over a zero-spread group,
        # whose centred values are exactly 0: define 0/0 = 0.
        safe = np.where(denominator == 0.0, 1.0, denominator)
        if grouped.codes is None:
            advantages[tiny] /= safe[tiny][:, None]
        else:
            rows = tiny[grouped.codes]
            advantages[rows] /= safe[grouped.codes[rows]]
    clamped = None
    if conv.clip is not None:
        if keep:
            clamped = np.abs(advantages) > conv.clip
        np.clip(advantages, -conv.clip, conv.clip, out=advantages)
    if keep and clamped is None:
        clamped = np.zeros(advantages.shape, dtype=bool)

    damped = None
    if keep:
        damped = (
            np.zeros_like(zero_spread)
            if scale_std is None
            else ~zero_spread & ~singleton & (scale_std < conv.eps)
        )
    if not keep:
        return _Steps(advantages=advantages)
    return _Steps(
        mean=mean,
        centred=centred,
        std=std,
        batch_std=batch_std,
        denominator=denominator,
        advantages=advantages,
        zero_spread=zero_spread,
        singleton=singleton,
        damped=damped,
        clamped=clamped,
    )


def _check_singletons(grouped: GroupedRewards, conv: Convention, singleton: np.ndarray) -> None:
    if not conv.refuses_singleton:
        return
    g = int(np.flatnonzero(singleton)[0])
    raise ValueError(
        f"{grouped.group_name(g)} has only one reward (K=1). The {conv.name!r} "
        f"convention ({conv.library}) needs at least 2 answers per prompt: "
        "with one answer there is nothing to compare it with. "
        "The 'verl' convention passes a lone reward through as R/(1+eps)."
    )


def _zero_spread(
    grouped: GroupedRewards, mean: np.ndarray, sum_squares: np.ndarray, largest_mean: float
) -> np.ndarray:
    """(G,) bool: the group has 2 or more rewards, all exactly equal (zero spread).

    The centred values of all-equal rewards are rounding of R - mean(R), a few
    ulps of the mean; only groups that small are compared element by element.
    """
    zero_spread = np.zeros(grouped.num_groups, dtype=bool)
    largest_size = grouped.values.shape[1] if grouped.codes is None else grouped.sizes.max()
    rounding = largest_size * (largest_size * _ZERO_SPREAD_ROUNDING * largest_mean) ** 2
    if sum_squares.min() > rounding:
        return zero_spread  # no group is anywhere near zero spread
    n = grouped.sizes
    bound = n * (n * _ZERO_SPREAD_ROUNDING * np.abs(mean)) ** 2
    candidates = np.flatnonzero((sum_squares <= bound) & (n > 1))
    if grouped.codes is None:
        rows = grouped.values[candidates]
        zero_spread[candidates] = np.all(rows == rows[:, :1], axis=1)
        return zero_spread
    # Uneven groups: zero spread when a group's largest and smallest rewards are equal.
    in_candidate = np.zeros(grouped.num_groups, dtype=bool)
    in_candidate[candidates] = True
    members = in_candidate[grouped.codes]
    codes, values = grouped.codes[members], grouped.values[members]
    high = np.full(grouped.num_groups, -np.inf)
    low = np.full(grouped.num_groups, np.inf)
    np.maximum.at(high, codes, values)
    np.minimum.at(low, codes, values)
    zero_spread[candidates] = high[candidates] == low[candidates]
    return zero_spread


def _zero_groups(grouped: GroupedRewards, centred: np.ndarray, groups: np.ndarray) -> None:
    if grouped.codes is None:
        centred[groups] = 0.0
    else:
        centred[groups[grouped.codes]] = 0.0


def _std(
    grouped: GroupedRewards,
    sum_squares: np.ndarray,
    n,
    ddof: int,
    zero_spread: np.ndarray,
) -> np.ndarray:
    """(G,) sqrt(sum_squares / (n - ddof)), computed in place over ``sum_squares``.

    Groups whose sum of squares may have underflowed are redone scaled.
    """
    fragile = np.empty(0, dtype=np.intp)
    if sum_squares.min() < _UNDERFLOW:
        fragile = np.flatnonzero((sum_squares < _UNDERFLOW) & ~zero_spread & (grouped.sizes > 1))
    std = sum_squares
    std *= 1.0 / np.maximum(n - ddof, 1.0)
    np.sqrt(std, out=std)
    for g, row in zip(fragile, grouped.rows(fragile), strict=True):
        std[g] = _robust_std(row, ddof)
    return std


def _batch_std(values: np.ndarray, ddof: int) -> float:
    """Std of every reward in the batch, with ddof; 0 for a batch too small."""
    flat = values.ravel()
    if flat.size <= ddof:
        return 0.0
    return _robust_std(flat, ddof)


def _robust_std(row: np.ndarray, ddof: int) -> float:
    """Std of a 1-D array, scaled by its largest deviation so nothing under- or overflows."""
    if np.all(row == row[0]):
        return 0.0
    dev = row - row.mean()
    big = np.abs(dev).max()
    return float(big * np.sqrt(np.sum((dev / big) ** 2) / max(row.size - ddof, 1)))
