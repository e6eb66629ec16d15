"""Group-relative advantages: A_i = (R_i - mean(R)) / (std(R) + eps), per prompt.

``group_advantages`` is the fast path every page and the simulator call;
``advantage_trace`` returns every intermediate step for the step-by-step views.
Both compute through ``_steps`` so they can never disagree.

Defined behaviour at the edges, for every convention:
- An all-equal group (zero spread) gets advantages of exactly 0, also with
  eps = 0 (0/0 is defined as 0: the prompt carries no learning signal).
  Equality is exact, so rounding in the mean never turns equal rewards into noise.
- A group of one reward follows the convention's ``singleton`` rule.
- NeMo-RL's leave-one-out scaling divides answer i by the std of the other K-1
  rewards + eps, and leaves it undivided where that std is 0: decided by exact
  equality of the others (K = 2, or the others all equal), never by a rounding
  residue of E[x²] - E[x]².
- Rewards must be finite and within ±1e100; anything else is a ValueError
  naming the reward's position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.conventions import Convention, get_convention
from grpo_core.groups import GroupedRewards, check_finite, group_rewards

_ZERO_SPREAD_ROUNDING = 8 * np.finfo(np.float64).eps
"""A spread this small relative to the mean may be rounding of all-equal rewards."""
_UNDERFLOW = 1e-200
"""Below this, a sum of squares may have lost digits to underflow."""
_LOST_DIGITS = 1e-6
"""A leave-one-out sum of squares below this share of the group's was a difference of nearly
equal sums: its relative error is up to eps / 1e-6, 2e-10, so it is redone directly (at
1e-8, [0, 0, 53, 0.0078125] under nemo-rl was off by 3.7e-9, found by hypothesis)."""
_TINY = 1e-300
"""Below this, a denominator's reciprocal may overflow."""
_LARGEST = np.finfo(np.float64).max
"""Where a leave-one-out ratio overflows (a huge reward over others a hair apart), it
saturates here instead of becoming inf."""


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
        "verl", "openrlhf", "rloo", "nemo-rl", "zscore").
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
    """(G,) what the centred rewards are divided by: std + eps, batch std + eps, or 1;
    NaN for leave-one-out scaling, where each answer has its own (see ``divisor``)."""
    divisor: np.ndarray
    """Per reward: what its centred value was divided by (the group's denominator, or
    the std of the other K-1 rewards + eps, 1 where that std is 0)."""
    advantages: np.ndarray
    zero_spread: np.ndarray
    """(G,) all rewards of the group are equal: advantages exactly 0, no signal."""
    singleton: np.ndarray
    """(G,) the group has one reward."""
    damped: np.ndarray
    """(G,) the std divided by is below eps, so eps shrinks the advantages by over half."""
    clamped: np.ndarray
    """Per reward: the advantage was cut to ±clip."""

    def to_frame(self, answers=None) -> pd.DataFrame:
        """One row per reward: prompt, answer, reward and every step. answers: per reward,
        its answer's number (a grid's row); None numbers each group's answers 1..K."""
        g = self.group_index.ravel()
        count = pd.Series(g).groupby(g).cumcount().to_numpy() + 1
        answer = count if answers is None else np.array(_checks.answer_numbers(answers, g.size))
        return pd.DataFrame(
            {
                "prompt": [self.labels[i] for i in g],
                "answer": answer,
                "reward": self.rewards.ravel(),
                "mean": self.mean[g],
                "baseline": self.baseline.ravel(),
                "centred": self.centred.ravel(),
                "std": self.std[g],
                "denominator": self.divisor.ravel(),
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
        divisor=restore(s.divisor),
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
    divisor: np.ndarray | None = None
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
        # R_i - (sum - R_i)/(K-1) = K/(K-1) (R_i - mean); a group of one (kept only by
        # NeMo-RL's "zero" rule) has centred value 0 and keeps it.
        factor = n / np.maximum(n - 1, 1.0)
        centred *= grouped.per_reward(factor) if grouped.codes is not None else factor

    batch_std = None
    divisor = None
    clamped = None
    if conv.scale == "leave-one-out":
        # NeMo-RL: answer i over the std of the other K-1 rewards + eps; undivided where
        # that std is 0. Each answer has its own divisor, so no per-group denominator.
        scale_std = None
        loo_std = _leave_one_out_std(grouped, mean, conv.ddof)
        divisor = np.where(loo_std > 0, loo_std + conv.eps, 1.0)
        denominator = np.full_like(std, np.nan)
        with np.errstate(over="ignore"):  # a ratio beyond float64 saturates, stays finite
            advantages = np.clip(centred / divisor, -_LARGEST, _LARGEST)
    else:
        if conv.scale == "group":
            scale_std = std
            denominator = std.copy() if keep else std  # the fast path reuses the buffer
            denominator += conv.eps
        elif conv.scale == "batch":
            batch_std = _batch_std(x, conv.ddof)
            scale_std = np.full_like(std, batch_std)
            denominator = scale_std + conv.eps
        elif conv.scale == "whiten":
            # OpenRLHF's REINFORCE++-baseline: clip the centred rewards (its reward clip),
            # then whiten them over the batch: (c - mean c) / max(std c, eps).
            numerator = centred
            if conv.clip is not None:
                clamped = np.abs(centred) > conv.clip if keep else None
                numerator = np.clip(centred, -conv.clip, conv.clip)
                # A clip can move the batch mean off 0; without one it is 0 exactly
                # (every group's centred values sum to 0), so a tie keeps exact zeros.
                if (np.abs(numerator) == conv.clip).any():
                    numerator -= numerator.mean()
            batch_std = _batch_std(numerator, conv.ddof)
            scale_std = np.full_like(std, batch_std)
            denominator = np.maximum(scale_std, conv.eps)
        else:
            scale_std = None
            denominator = np.ones_like(std)
        if conv.scale != "whiten":
            numerator = centred
        if keep:
            divisor = np.ascontiguousarray(
                np.broadcast_to(grouped.per_reward(denominator), centred.shape)
            )
        advantages = _divided(grouped, numerator.copy() if keep else numerator, denominator, keep)
    if conv.clip is not None and conv.scale != "whiten":
        if keep:
            clamped = np.abs(advantages) > conv.clip
        np.clip(advantages, -conv.clip, conv.clip, out=advantages)
    if keep and clamped is None:
        clamped = np.zeros(advantages.shape, dtype=bool)

    damped = None
    if keep:
        if conv.scale == "leave-one-out":
            damped = grouped.group_sum(((loo_std > 0) & (loo_std < conv.eps)) * 1.0) > 0
        elif scale_std is None:
            damped = np.zeros_like(zero_spread)
        else:
            damped = ~zero_spread & ~singleton & (scale_std < conv.eps)
    if not keep:
        return _Steps(advantages=advantages)
    return _Steps(
        mean=mean,
        centred=centred,
        std=std,
        batch_std=batch_std,
        denominator=denominator,
        divisor=divisor,
        advantages=advantages,
        zero_spread=zero_spread,
        singleton=singleton,
        damped=damped,
        clamped=clamped,
    )


def _divided(
    grouped: GroupedRewards, advantages: np.ndarray, denominator: np.ndarray, keep: bool
) -> np.ndarray:
    """``advantages`` (centred values, overwritten) over their group's ``denominator`` (G,).

    Multiplies by the reciprocal (the fast path, within an ulp of dividing), except where
    the denominator is 0 or so small its reciprocal would overflow.
    """
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
    return advantages


def _leave_one_out_std(grouped: GroupedRewards, mean: np.ndarray, ddof: int) -> np.ndarray:
    """Per reward (layout of ``values``): the std of the other K-1 rewards of its group.

    sqrt(SS_-i / (K-1-ddof)) with SS_-i = SS - K/(K-1) (R_i - mean)², the sum of squared
    deviations of the others (NeMo-RL: ddof 1, Bessel over the K-1 others). Exactly 0
    where the others are all equal (decided by comparing rewards, not by the rounding
    residue of a difference) and where K-1-ddof <= 0 (one other reward, as NeMo-RL's
    nan_to_num gives); answers whose SS_-i lost most of its digits (a difference of nearly
    equal sums, or squares so small they underflow toward float64's subnormals) are
    redone directly.
    """
    x = grouped.values
    n = float(x.shape[1]) if grouped.codes is None else grouped.sizes[grouped.codes] * 1.0
    centred = x - grouped.per_reward(mean)
    sum_squares = grouped.per_reward(grouped.group_sum_squares(centred))
    with np.errstate(divide="ignore", invalid="ignore"):
        others = sum_squares - centred * centred * (n / np.maximum(n - 1, 1.0))
        dof = n - 1 - ddof
        std = np.sqrt(np.maximum(others, 0.0) / np.maximum(dof, 1.0))
    spread = (dof > 0) & ~_others_equal(grouped)
    std = np.where(spread, std, 0.0)
    lost = (others <= _LOST_DIGITS * sum_squares) | (sum_squares < _UNDERFLOW)
    fragile = np.flatnonzero((spread & lost).ravel())
    flat = std.reshape(-1)
    for i in fragile:
        row, j = _group_of(grouped, int(i))
        flat[i] = _robust_std(np.delete(row, j), ddof)
    return std


def _others_equal(grouped: GroupedRewards) -> np.ndarray:
    """Per reward: the other rewards of its group are all exactly equal (or there are none).

    True when the group is all equal, or holds two values and this reward is the only
    one of its value.
    """
    x = grouped.values
    if grouped.codes is None:
        low, high = x.min(axis=1), x.max(axis=1)
        size = np.full(grouped.num_groups, x.shape[1])
    else:
        low = np.full(grouped.num_groups, np.inf)
        high = np.full(grouped.num_groups, -np.inf)
        np.minimum.at(low, grouped.codes, x)
        np.maximum.at(high, grouped.codes, x)
        size = grouped.sizes
    is_low, is_high = x == grouped.per_reward(low), x == grouped.per_reward(high)
    n_low, n_high = grouped.group_sum(is_low * 1.0), grouped.group_sum(is_high * 1.0)
    all_equal = grouped.per_reward(low == high)
    two_valued = grouped.per_reward(n_low + n_high == size)
    lone_low = is_low & grouped.per_reward(n_low == 1)
    lone_high = is_high & grouped.per_reward(n_high == 1)
    return all_equal | (two_valued & (lone_low | lone_high))


def _group_of(grouped: GroupedRewards, flat_index: int) -> tuple[np.ndarray, int]:
    """The rewards of the group holding reward ``flat_index`` and its position in them."""
    if grouped.codes is None:
        k = grouped.values.shape[1]
        return grouped.values[flat_index // k], flat_index % k
    members = np.flatnonzero(grouped.codes == grouped.codes[flat_index])
    return grouped.values[members], int(np.searchsorted(members, flat_index))


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
