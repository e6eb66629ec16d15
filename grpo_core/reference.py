"""The definition, written to be read: GRPO's advantages one group at a time.

``reference_advantages`` is a plain Python loop over groups, computing each
step the way the papers write it:

    A_i = clip((R_i - baseline_i) / (std + eps), -clip, clip)

with the group mean as baseline (DeepSeekMath, arXiv 2402.03300, section 4.1.2)
or the mean of the other K-1 rewards (RLOO, arXiv 2402.14740), the group std or
the std of the whole batch (TRL scale_rewards="batch"), the std of the other K-1
rewards (NeMo-RL's default GRPO estimator, nemo_rl/algorithms/advantage_estimator.py,
undivided where that std is 0), the batch whitening of the centred rewards
(REINFORCE++-baseline, arXiv 2501.03262, as OpenRLHF computes it), or no division at all
(Dr. GRPO, arXiv 2503.20783). ``grpo_core.advantages.group_advantages`` computes
the same numbers vectorized, fast; the tests check one against the other.
"""

from __future__ import annotations

import numpy as np

from grpo_core import _checks
from grpo_core.conventions import get_convention
from grpo_core.groups import MAX_ABS_REWARD

_LARGEST = np.finfo(np.float64).max
"""Where a leave-one-out ratio overflows it saturates, as in grpo_core.advantages."""


def reference_advantages(
    rewards,
    group_ids=None,
    *,
    convention: str = "trl",
    ddof: int | None = None,
    eps: float | None = None,
    scale: str | None = None,
    clip: float | None = None,
) -> np.ndarray:
    """Advantages of ``rewards`` (N,) grouped by ``group_ids`` (N labels; None: one group).

    convention, ddof, eps, scale, clip: as in ``group_advantages``. Returns (N,) float64.
    Edges as the fast path defines them: all-equal rewards get exactly 0; a group of one
    follows the convention's ``singleton`` rule (verl: mean 0, std 1).
    """
    conv = get_convention(convention).with_overrides(ddof=ddof, eps=eps, scale=scale, clip=clip)
    rewards, group_ids = _checked(rewards, group_ids)
    if conv.scale == "whiten":
        return _whitened(rewards, group_ids, conv)
    advantages = np.empty_like(rewards)

    # The std of every reward in the batch, for scale == "batch".
    batch_std = np.std(rewards, ddof=conv.ddof) if len(rewards) > conv.ddof else 0.0

    for label in dict.fromkeys(group_ids):  # each group, in order of first appearance
        members = [i for i, g in enumerate(group_ids) if g == label]
        r = rewards[members]
        group_size = len(r)

        if group_size == 1 and conv.refuses_singleton:
            raise ValueError(f"group {label!r} has one reward; {conv.name!r} refuses it.")
        if group_size == 1 and conv.singleton == "pass-through":
            mean, std = 0.0, 1.0  # verl: a group of one has mean 0 and std 1
        elif group_size == 1:
            mean, std = r[0], 0.0
        else:
            mean, std = r.mean(), r.std(ddof=conv.ddof)

        # NeMo-RL scales each answer by the std of the others (its baseline is theirs too).
        if conv.scale == "leave-one-out":
            a = np.array([_leave_one_out(r, i, conv) for i in range(group_size)])
            if conv.clip is not None:
                a = np.clip(a, -conv.clip, conv.clip)
            advantages[members] = a
            continue
        if conv.baseline == "leave-one-out":
            centred = r - (r.sum() - r) / (group_size - 1)  # R_i - mean of the others
        else:
            centred = r - mean
        if group_size > 1 and np.all(r == r[0]):
            centred = np.zeros(group_size)  # zero spread: exactly 0, no rounding residue

        if conv.scale == "group":
            denominator = std + conv.eps
        elif conv.scale == "batch":
            denominator = batch_std + conv.eps
        else:
            denominator = 1.0
        # 0 / 0 (eps = 0 on a zero-spread group) is defined as 0: no learning signal.
        a = centred / denominator if denominator else np.zeros(group_size)

        if conv.clip is not None:
            a = np.clip(a, -conv.clip, conv.clip)
        advantages[members] = a
    return advantages


def _whitened(rewards: np.ndarray, group_ids: list, conv) -> np.ndarray:
    """REINFORCE++-baseline as OpenRLHF computes it, one token per answer, no KL: centre
    every group on its mean, clip to ±clip (its reward clip), then whiten over the batch,
    (c - mean c) / max(std c, eps)."""
    centred = np.empty_like(rewards)
    for label in dict.fromkeys(group_ids):
        members = [i for i, g in enumerate(group_ids) if g == label]
        r = rewards[members]
        if len(r) == 1:
            raise ValueError(f"group {label!r} has one reward; {conv.name!r} refuses it.")
        centred[members] = 0.0 if np.all(r == r[0]) else r - r.mean()
    if conv.clip is not None:
        centred = np.clip(centred, -conv.clip, conv.clip)
        if np.any(np.abs(centred) == conv.clip):
            centred = centred - centred.mean()  # the clip moved the batch mean off 0
    std = 0.0 if np.all(centred == centred[0]) else centred.std(ddof=conv.ddof)
    denominator = max(std, conv.eps)
    return centred / denominator if denominator else np.zeros_like(centred)


def _leave_one_out(r: np.ndarray, i: int, conv) -> float:
    """NeMo-RL: (R_i - mean of the others) / (std of the others + eps); undivided where that
    std is 0 (the others all equal, or too few of them for ``ddof``); 0 for a lone answer.
    A ratio beyond float64 (others a subnormal hair apart, eps 0) saturates at float64's
    largest number, as ``grpo_core.advantages`` does: finite rewards give finite advantages."""
    others = np.delete(r, i)
    if len(others) == 0 or np.all(r == r[0]):
        return 0.0  # a lone answer (NeMo-RL: baseline = its own reward) or a tie
    centred = r[i] - others.mean()
    if len(others) <= conv.ddof or np.all(others == others[0]):
        return float(centred)
    deviations = others - others.mean()
    largest = np.abs(deviations).max()  # scale first, so tiny spreads do not underflow
    std = largest * np.sqrt(np.sum((deviations / largest) ** 2) / (len(others) - conv.ddof))
    with np.errstate(over="ignore"):
        return float(np.clip(centred / (std + conv.eps), -_LARGEST, _LARGEST))


def _checked(rewards, group_ids) -> tuple[np.ndarray, list]:
    """(N,) finite rewards within ±MAX_ABS_REWARD and N hashable labels; ValueError else."""
    rewards = _checks.float_rewards(rewards)
    if rewards.ndim != 1 or np.abs(rewards).max() > MAX_ABS_REWARD:
        raise ValueError(f"rewards must be a flat list of numbers within ±{MAX_ABS_REWARD:.0e}.")
    if group_ids is None:
        return rewards, [0] * len(rewards)
    try:
        labels = list(group_ids)
        {hash(label) for label in labels}
    except TypeError:
        raise ValueError("group_ids must be a list of labels, one per reward.") from None
    if len(labels) != len(rewards):
        raise ValueError(f"group_ids has {len(labels)} labels for {len(rewards)} rewards.")
    return rewards, labels
