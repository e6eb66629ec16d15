"""Rewards to sample: the verifiers and reward models GRPO is trained with.

Every sampler takes a ``numpy.random.Generator`` and returns float64 rewards
of shape (num_prompts, group_size): row p holds the K graded answers to
prompt p. ``SCENARIOS`` names the groups a teacher reaches for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from grpo_core import _checks

MAX_REWARDS = 100_000
"""Largest batch a sampler makes (prompts x answers)."""


def binary_verifier(rng: np.random.Generator, num_prompts: int, group_size: int, pass_rate=0.5):
    """Math-answer checking: 1 if the answer is right, else 0.

    pass_rate: the chance an answer is right, a scalar or one per prompt (num_prompts,).
    """
    _check_shape(num_prompts, group_size)
    p = _pass_rates(pass_rate, num_prompts, "pass_rate")
    return (rng.random((num_prompts, group_size)) < p[:, None]).astype(np.float64)


def unit_test_credit(
    rng: np.random.Generator,
    num_prompts: int,
    group_size: int,
    num_tests: int = 5,
    pass_prob=0.6,
):
    """Code with unit tests: the fraction k/n of ``num_tests`` tests an answer passes.

    Each answer's tests pass independently with ``pass_prob`` (scalar or per prompt).
    """
    _check_shape(num_prompts, group_size)
    _checks.whole(num_tests, "num_tests", minimum=1)
    p = _pass_rates(pass_prob, num_prompts, "pass_prob")
    passed = rng.binomial(num_tests, np.broadcast_to(p[:, None], (num_prompts, group_size)))
    return passed / num_tests


def reward_model_scores(
    rng: np.random.Generator,
    num_prompts: int,
    group_size: int,
    difficulty_spread: float = 1.0,
    noise: float = 0.5,
):
    """A learned reward model: Gaussian scores around a per-prompt level.

    Each prompt's level is N(0, difficulty_spread²); each answer adds N(0, noise²).
    """
    _check_shape(num_prompts, group_size)
    _checks.non_negative(difficulty_spread, "difficulty_spread")
    _checks.non_negative(noise, "noise")
    level = rng.normal(0.0, difficulty_spread, size=(num_prompts, 1))
    return level + rng.normal(0.0, noise, size=(num_prompts, group_size))


@dataclass(frozen=True)
class Scenario:
    """A named situation: what it shows and how to make its rewards."""

    title: str
    lesson: str
    make: Callable[[np.random.Generator, int, int], np.ndarray]
    """(rng, num_prompts, group_size) -> rewards (num_prompts, group_size)."""


def _all_equal(value: float):
    def make(rng, num_prompts, group_size):
        _check_shape(num_prompts, group_size)
        return np.full((num_prompts, group_size), value)

    return make


def _one_success(rng, num_prompts, group_size):
    _check_shape(num_prompts, group_size)
    rewards = np.zeros((num_prompts, group_size))
    rewards[np.arange(num_prompts), rng.integers(0, group_size, size=num_prompts)] = 1.0
    return rewards


def _near_tie(rng, num_prompts, group_size):
    _check_shape(num_prompts, group_size)
    return 1.0 + rng.normal(0.0, 1e-6, size=(num_prompts, group_size))


def _two_scales(rng, num_prompts, group_size):
    """Alternate prompts graded on [0, 1] and on [0, 100]."""
    _check_shape(num_prompts, group_size)
    scale = np.where(np.arange(num_prompts) % 2 == 0, 1.0, 100.0)[:, None]
    return np.round(rng.random((num_prompts, group_size)) * scale, 2)


SCENARIOS: dict[str, Scenario] = {
    "binary": Scenario(
        "Verifier, pass rate 0.5",
        "Right or wrong answers, like checking a math result.",
        lambda rng, num_prompts, group_size: binary_verifier(rng, num_prompts, group_size, 0.5),
    ),
    "unit-tests": Scenario(
        "Unit tests (partial credit)",
        "Each answer passes k of 5 tests and scores k/5.",
        lambda rng, num_prompts, group_size: unit_test_credit(rng, num_prompts, group_size),
    ),
    "reward-model": Scenario(
        "Reward model scores",
        "Continuous scores around a per-prompt level, as a learned reward model gives.",
        lambda rng, num_prompts, group_size: reward_model_scores(rng, num_prompts, group_size),
    ),
    "one-success": Scenario(
        "One success in K",
        "A single right answer gets a large push up; the rest a small push down.",
        _one_success,
    ),
    "all-correct": Scenario(
        "All correct",
        "Every answer scored 1: no answer is better than its group, so every advantage is 0.",
        _all_equal(1.0),
    ),
    "all-wrong": Scenario(
        "All wrong",
        "Every answer scored 0: the prompt is too hard for now and teaches nothing this step.",
        _all_equal(0.0),
    ),
    "near-tie": Scenario(
        "Near tie",
        "Rewards differ by about 1e-6: eps decides whether that noise becomes a full signal.",
        _near_tie,
    ),
    "two-scales": Scenario(
        "Two reward scales",
        "Prompts graded on [0, 1] and on [0, 100]: group scaling puts them on one scale.",
        _two_scales,
    ),
}


def _check_shape(num_prompts, group_size) -> None:
    _checks.whole(num_prompts, "num_prompts", minimum=1)
    _checks.whole(group_size, "group_size", minimum=1)
    if num_prompts * group_size > MAX_REWARDS:
        raise ValueError(
            f"{num_prompts} x {group_size} rewards is more than the {MAX_REWARDS:,} "
            "a sampler makes at once."
        )


def _pass_rates(value, num_prompts: int, name: str) -> np.ndarray:
    """(num_prompts,) probabilities from a scalar or one per prompt."""
    p = np.asarray(value, dtype=np.float64) if _is_numeric(value) else None
    if p is None or p.ndim > 1 or (p.ndim == 1 and p.size != num_prompts):
        raise ValueError(f"{name} must be a probability or one per prompt, got {value!r}.")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"{name} must lie between 0 and 1, got {value!r}.")
    return np.broadcast_to(p, (num_prompts,))


def _is_numeric(value) -> bool:
    try:
        return np.asarray(value).dtype.kind in "iuf"
    except (ValueError, TypeError):
        return False
