""" "Be the group": the room's rewards as one GRPO group, and what each student's
advantage means.

The K students who answered are the K completions of one prompt; each reward is the
grader's verdict on an answer. Advantages come from ``grpo_core.advantage_trace`` under
the chosen convention, so the projection agrees with every other page of the app. The
edges are answers, not errors: one student, or a convention that refuses a group of one,
or a room where every reward is equal, gives zero advantages and a sentence saying why
(no spread, no signal). Any K the store holds works (the math is vectorized).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from grpo_core import advantage_trace, get_convention
from grpo_core.format import fmt, plural, signed


@dataclass(frozen=True)
class RoomGroup:
    """The room as one group of K rewards."""

    rewards: np.ndarray
    """(K,) each answering student's reward, in the order of the store's answers."""
    advantages: np.ndarray
    """(K,) their advantages under ``convention``; zeros when there is no signal."""
    centred: np.ndarray
    """(K,) R_i minus the baseline (the group mean, or RLOO's leave-one-out mean)."""
    mean: float
    std: float
    """The group std with the convention's ddof (0 for a group of one)."""
    convention: str
    note: str
    """Empty when the group carries a signal; otherwise what the edge case means."""

    @property
    def k(self) -> int:
        return len(self.rewards)


def room_group(rewards: Sequence[float], convention: str) -> RoomGroup:
    """The room's rewards (K,) as one GRPO group under ``convention``."""
    r = np.asarray(rewards, dtype=float).reshape(-1)
    k = len(r)
    if k == 0:
        return RoomGroup(r, r, r, 0.0, 0.0, convention, "Nobody has answered yet.")
    if k == 1:
        note = (
            "Only one student answered: a group of one has no spread to compare with, "
            "so GRPO gets no signal from it"
            + (
                f" ({convention} refuses it)."
                if get_convention(convention).refuses_singleton
                else "."
            )
        )
        return RoomGroup(r, np.zeros(1), np.zeros(1), float(r[0]), 0.0, convention, note)
    trace = advantage_trace(r, convention=convention)
    note = ""
    if bool(trace.zero_spread[0]):
        note = (
            f"Every one of the {k} rewards is {fmt(float(r[0]))}: no spread, no signal. "
            "Every advantage is 0, so this prompt teaches the model nothing."
        )
    return RoomGroup(
        r,
        trace.advantages.reshape(-1),
        trace.centred.reshape(-1),
        float(trace.mean[0]),
        float(trace.std[0]),
        convention,
        note,
    )


def why(group: RoomGroup, i: int) -> str:
    """One sentence for student ``i``: their advantage and the reason for its sign."""
    if group.note:
        return group.note
    reward, advantage = float(group.rewards[i]), float(group.advantages[i])
    if advantage > 0:
        lower = round(100 * float(np.mean(group.rewards < reward)))
        reason = (
            f"your reward {fmt(reward)} beat the room's mean {fmt(group.mean)} "
            f"({lower} % of the room scored lower)"
        )
    elif advantage < 0:
        higher = round(100 * float(np.mean(group.rewards > reward)))
        reason = (
            f"your reward {fmt(reward)} was below the room's mean {fmt(group.mean)} "
            f"({higher} % of the room scored higher)"
        )
    else:
        reason = f"your reward {fmt(reward)} equals the room's mean"
    return (
        f"Your advantage is {signed(advantage)}: {reason}, in a group of "
        f"{plural(group.k, 'student')}."
    )
