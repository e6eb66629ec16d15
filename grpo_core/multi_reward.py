"""Several reward functions (accuracy, format, length): two ways to make one advantage.

- sum then normalise (TRL's default, ``multi_objective_aggregation="sum_then_normalize"``):
  S = Σ_f w_f R_f per answer, then the group advantage of S (mean, sample std + 1e-4).
- normalise then sum (GDPO, arXiv 2601.05242; TRL's ``"normalize_then_sum"``, verl's
  ``gdpo`` estimator): each reward function's group advantage (R_f - mean_f) /
  (std_f + 1e-4), weighted and summed, then normalised over the whole batch.

GDPO's argument against the first: summing collapses distinct reward combinations into
identical advantages ((1, 0) and (0, 1) both sum to 1, so a correct-but-unformatted answer
and a formatted-but-wrong one are pushed alike); normalising each function within the
group first keeps them apart, each counting through its own spread. (A reward on a wide
scale also dominates a sum, a second, smaller effect.) ``compare_aggregations`` shows where
they disagree and which answers change sign (pushed up by one, down by the other).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import group_advantages


def _per_function(rewards, weights) -> tuple[np.ndarray, np.ndarray]:
    try:
        r = np.asarray(rewards, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("rewards must be a table of numbers (answers, functions).") from None
    if r.ndim != 2 or r.shape[1] < 1:
        raise ValueError(
            f"rewards must have shape (answers, reward functions), got shape {r.shape}."
        )
    w = np.ones(r.shape[1]) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (r.shape[1],):
        raise ValueError(f"weights must give one number per reward function ({r.shape[1]}).")
    _checks.finite_array(w, "weights", shape=w.shape)
    return r, w


def _ids(group_ids, n: int) -> np.ndarray:
    """(n,) group labels, one per answer; ValueError otherwise."""
    ids = np.asarray(group_ids, dtype=object)
    if ids.shape != (n,):
        raise ValueError(f"group_ids must give one label per answer ({n}).")
    return ids


def sum_then_normalise(rewards, group_ids, *, weights=None, convention: str = "trl") -> np.ndarray:
    """(N,) advantages of the weighted sum of the reward functions, per group.

    rewards: (N, F) one column per reward function; group_ids: (N,) a label per answer;
    weights: (F,), 1 each by default. NaN (a function that did not score an answer)
    counts as 0 in the sum, as torch.nansum does in TRL.
    """
    r, w = _per_function(rewards, weights)
    total = np.nansum(r * w, axis=1)
    return group_advantages(total, group_ids=_ids(group_ids, len(r)), convention=convention)


def normalise_then_sum(
    rewards, group_ids, *, weights=None, eps: float = 1e-4, batch_ids=None
) -> np.ndarray:
    """(N,) GDPO: each function normalised per group, weighted and summed, then over the batch.

    rewards: (N, F); group_ids: (N,). Per function: (R_f - group mean) / (group sample
    std + eps) (a zero-spread group gives 0); the weighted sum is then normalised over
    its batch: (S - mean S) / (sample std of S + eps). batch_ids: (N,) the batch of each
    answer (TRL normalises each generation batch, one logging step, on its own); None:
    all N answers are one batch.
    """
    r, w = _per_function(rewards, weights)
    ids = _ids(group_ids, len(r))
    per = np.column_stack(
        [
            group_advantages(r[:, f], group_ids=ids, convention="trl", eps=eps)
            for f in range(r.shape[1])
        ]
    )
    total = (per * w).sum(axis=1)
    if batch_ids is None:
        return group_advantages(total, convention="trl", eps=eps)
    return group_advantages(total, group_ids=_ids(batch_ids, len(r)), convention="trl", eps=eps)


def compare_aggregations(
    rewards, group_ids, *, names=None, weights=None, batch_ids=None
) -> pd.DataFrame:
    """One row per answer: its group, each reward, both advantages, their difference, and
    ``sign_changed`` (one pushes the answer up, the other down).

    batch_ids: (N,) the batch GDPO's last normalisation runs over (a log's steps), or None
    for one batch (``normalise_then_sum``)."""
    r, w = _per_function(rewards, weights)
    names = [f"reward {f + 1}" for f in range(r.shape[1])] if names is None else list(names)
    if len(names) != r.shape[1]:
        raise ValueError(f"names must give one name per reward function ({r.shape[1]}).")
    ids = _ids(group_ids, len(r))
    summed = sum_then_normalise(r, ids, weights=w)
    split = normalise_then_sum(r, ids, weights=w, batch_ids=batch_ids)
    frame = pd.DataFrame({"group": ids})
    for f, name in enumerate(names):
        frame[name] = r[:, f]
    frame["sum then normalise"] = summed
    frame["normalise then sum"] = split
    frame["difference"] = split - summed
    frame["sign_changed"] = np.sign(summed) * np.sign(split) < 0
    return frame


def collapsed(rewards, group_ids, advantages) -> np.ndarray:
    """(N,) bool: another answer of the same group scored a different reward combination
    but got the same advantage (to 1e-9), GDPO's "collapse".

    rewards: (N, F) one column per reward function; group_ids: (N,); advantages: (N,),
    e.g. from ``sum_then_normalise`` or ``normalise_then_sum``.
    """
    r, _ = _per_function(rewards, None)
    ids = _ids(group_ids, len(r))
    a = _checks.finite_array(advantages, "advantages", shape=(len(r),))
    same_group = ids[:, None] == ids[None, :]
    same_advantage = np.abs(a[:, None] - a[None, :]) <= 1e-9 * (1 + np.abs(a[:, None]))
    different_rewards = np.any(r[:, None, :] != r[None, :, :], axis=2)
    return np.any(same_group & same_advantage & different_rewards, axis=1)
