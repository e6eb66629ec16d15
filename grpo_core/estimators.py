"""The simulator's advantage estimators: one record each, with every name a page shows.

``simulate`` turns K sampled rewards per prompt into advantages in one of these ways;
``ESTIMATORS`` lists them in the order pages show them, and ``Estimator.style`` is that
position, so each estimator keeps one colour, dash and marker on every chart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Estimator:
    """How one estimator is named and explained."""

    name: str
    """Identifier in configs and links, e.g. "dr-grpo"."""
    label: str
    """Short label for legends and switches, e.g. "Dr. GRPO"."""
    reading: str
    """How a sentence names it, e.g. "REINFORCE (no baseline)"."""
    description: str
    """One line for a learner: what its advantage is."""
    grouped: bool
    """Whether its baseline compares samples of the same prompt (it needs K >= 2)."""
    style: int
    """Its position in the app's palette, dashes and markers."""


ESTIMATORS: dict[str, Estimator] = {
    e.name: e
    for e in (
        Estimator(
            "grpo", "GRPO", "GRPO",
            "GRPO: group mean and std of the K rewards (the chosen convention, TRL by default).",
            grouped=True, style=0,
        ),
        Estimator(
            "dr-grpo", "Dr. GRPO", "Dr. GRPO",
            "Dr. GRPO: subtract the group mean, no division by the std.",
            grouped=True, style=1,
        ),
        Estimator(
            "rloo", "RLOO", "RLOO",
            "RLOO: subtract the mean of the other K-1 rewards (leave-one-out).",
            grouped=True, style=2,
        ),
        Estimator(
            "reinforce", "REINFORCE", "REINFORCE (no baseline)",
            "REINFORCE without a baseline: the raw reward is the advantage.",
            grouped=False, style=3,
        ),
        Estimator(
            "reinforce-batch-mean", "REINFORCE − batch mean",
            "REINFORCE with a batch-mean baseline",
            "REINFORCE minus the mean reward of the whole batch (all prompts).",
            grouped=False, style=4,
        ),
        Estimator(
            "ppo-critic", "PPO critic", "the PPO-style critic",
            "PPO-style critic: a learned value per prompt, fitted by regression.",
            grouped=False, style=5,
        ),
    )
}  # fmt: skip
"""Estimator name -> its record, in the order pages show them."""

GROUP_ESTIMATORS = tuple(name for name, e in ESTIMATORS.items() if e.grouped)
"""Estimators whose baseline compares samples of the same prompt: they need K >= 2."""
