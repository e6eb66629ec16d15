"""Advantage bugs real trainers shipped, as reproducible presets.

Each ``TrainerBug`` holds the rewards that trigger a documented failure, the public
issue or pull request, what the trainer computed (``printed``) and what it should have
(``expected``), both computed here. The explanations are prose in
content/training_log.toml under ``[bug.<id>]``.

Two behaviours ``group_advantages`` does not have are emulated here, named after the
code they reproduce:

- ``leave_one_out_normalised``: NVIDIA NeMo-RL's default GRPO estimator
  (``use_leave_one_out_baseline`` and ``normalize_rewards``, both on by default) as it was
  before its fixes: each answer's baseline is the mean of the other K-1 rewards and it is
  divided by their sample std + 1e-6, also where that std is 0; the std is
  sqrt(E[x²] - E[x]²) (Bessel-corrected), optionally in float32 (numpy's float32 here,
  which leaves the residue the pull request reports from GPU reductions; torch on CPU
  happens to give exactly 0 for its rewards). The fixed estimator is the ``nemo-rl``
  convention of ``grpo_core.conventions``.
- ``floored_std_advantages``: verl's vectorised GRPO before its fix, whose std was
  sqrt(max(var, 1e-6)): never below 1e-3.

Candidates searched for and left out (no public record of a trainer computing a wrong
advantage): groups of one answer (TRL refuses K < 2; verl passes a lone reward through,
as documented); zero-spread groups still feeling the KL term when beta > 0 (TRL issue
5588, closed by its maintainers as the objective as specified, not a bug).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import group_advantages
from grpo_core.conventions import HISTORICAL_CONVENTIONS

NEMO_EPS = 1e-6
"""NeMo-RL's eps in normalize_advantages_with_epsilon."""
NEMO_STD_FLOOR = 1e-3
"""The floor NeMo-RL pull request 4161 put under the std: smaller stds are not divided by."""
VERL_VARIANCE_FLOOR = 1e-6
"""verl's group_mean_std default eps, a floor on the variance: std >= 1e-3."""


def _groups(rewards, *, minimum: int) -> np.ndarray:
    """(P, K) finite float64 rewards, |R| <= 1e30, K >= minimum; ValueError otherwise."""
    r = _checks.float_rewards(rewards)
    if r.ndim != 2 or r.shape[1] < minimum:
        raise ValueError(f"rewards must have shape (prompts, K), K >= {minimum}; got {r.shape}.")
    if np.abs(r).max() > 1e30:
        raise ValueError("rewards must be within ±1e30.")
    return r


def leave_one_out_normalised(
    rewards, *, eps: float = NEMO_EPS, std_floor: float | None = None, float32: bool = False
) -> np.ndarray:
    """(P, K) A_i = (R_i - mean_{j≠i} R_j) / (std_{j≠i} R_j + eps), NeMo-RL's combination.

    rewards: (P, K), K >= 3 (the std of the others needs two of them). The others' std is
    sqrt((E[x²] - E[x]²) · n/(n-1)) with n = K-1, in float32 when ``float32``, where a
    set of equal rewards that float32 cannot represent leaves a residue (~1.6e-4 for 0.35).
    std_floor: None divides every answer (the bug); a number leaves answers whose std is
    at most the floor undivided, R_i - baseline (0: the fix of issue 1518; 1e-3: of PR 4161).
    """
    r = _groups(rewards, minimum=3)
    dtype = np.float32 if float32 else np.float64
    x = r.astype(dtype)
    k = x.shape[1]
    others = np.stack([np.delete(x, i, axis=1) for i in range(k)], axis=1)  # (P, K, K-1)
    n = dtype(k - 1)
    mean = others.sum(axis=2, dtype=dtype) / n
    mean_square = (others * others).sum(axis=2, dtype=dtype) / n
    variance = (mean_square - mean * mean) * (n / (n - dtype(1)))
    std = np.sqrt(np.maximum(variance, dtype(0)))
    centred = x - mean
    divided = centred / (std + dtype(eps))
    if std_floor is not None:
        divided = np.where(std > std_floor, divided, centred)
    return divided.astype(np.float64)


def floored_std_advantages(rewards, *, eps: float = 1e-6) -> np.ndarray:
    """(P, K) (R - mean) / (sqrt(max(var, 1e-6)) + eps): verl's vectorised GRPO before the fix.

    var is the group's sample variance. Any group whose std is below 1e-3 is divided by
    about 1e-3 instead, so its advantages shrink by std / 1e-3.
    """
    r = _groups(rewards, minimum=2)
    centred = r - r.mean(axis=1, keepdims=True)
    variance = (centred**2).sum(axis=1, keepdims=True) / (r.shape[1] - 1)
    return centred / (np.sqrt(np.maximum(variance, VERL_VARIANCE_FLOOR)) + eps)


def historical_advantages(name: str, rewards) -> np.ndarray:
    """(P, K) advantages under a record of ``HISTORICAL_CONVENTIONS`` (a buggy release)."""
    if name not in HISTORICAL_CONVENTIONS:
        raise ValueError(
            f"unknown historical convention {name!r}; choose one of: "
            f"{', '.join(HISTORICAL_CONVENTIONS)}."
        )
    conv = HISTORICAL_CONVENTIONS[name]
    return group_advantages(
        rewards,
        convention="trl",
        ddof=conv.ddof,
        eps=conv.eps,
        scale=conv.scale,
        clip=np.inf if conv.clip is None else conv.clip,
    )


@dataclass(frozen=True)
class TrainerBug:
    """One shipped failure: where it is documented, its rewards, and both answers."""

    id: str
    trainer: str
    url: str
    """The public issue or pull request that documents it."""
    fix_url: str
    """The pull request or release that fixed it."""
    rewards: tuple[tuple[float, ...], ...]
    """(P, K) the rewards that trigger it."""
    printed: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    """What the trainer computed from the rewards."""
    expected: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    """What it should have computed (what the fix computes)."""
    playground: dict[str, str]
    """Playground URL parameters besides the rewards (convention and settings)."""
    reproduces: bool
    """The playground's own settings reproduce the buggy numbers (else only the rewards)."""

    def printed_advantages(self) -> np.ndarray:
        return self.printed(np.asarray(self.rewards, dtype=np.float64))

    def expected_advantages(self) -> np.ndarray:
        return self.expected(np.asarray(self.rewards, dtype=np.float64))

    def frame(self) -> pd.DataFrame:
        """One row per answer: prompt, answer, reward, what was printed, what should have been."""
        rewards = np.asarray(self.rewards, dtype=np.float64)
        prompts, k = rewards.shape
        return pd.DataFrame(
            {
                "prompt": np.repeat(np.arange(1, prompts + 1), k),
                "answer": np.tile(np.arange(1, k + 1), prompts),
                "reward": rewards.ravel(),
                "printed": self.printed_advantages().ravel(),
                "should have printed": self.expected_advantages().ravel(),
            }
        )


_NEMO = "https://github.com/NVIDIA-NeMo/RL"

BUGS: dict[str, TrainerBug] = {
    b.id: b
    for b in (
        TrainerBug(
            id="nemo-loo-std",
            trainer="NVIDIA NeMo-RL",
            url=f"{_NEMO}/issues/1518",
            fix_url=f"{_NEMO}/pull/1519",
            rewards=((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 1.0, 1.0)),
            printed=lambda r: leave_one_out_normalised(r),
            expected=lambda r: group_advantages(r, convention="nemo-rl"),
            playground={"c": "nemo-rl"},
            reproduces=False,
        ),
        TrainerBug(
            id="nemo-fp32-residue",
            trainer="NVIDIA NeMo-RL",
            url=f"{_NEMO}/pull/4161",
            fix_url=f"{_NEMO}/pull/4158",
            rewards=((0.95, 0.35, 0.35, 0.35, 0.35, 0.35, 0.35, 0.35),),
            printed=lambda r: leave_one_out_normalised(r, float32=True),
            expected=lambda r: leave_one_out_normalised(r, float32=True, std_floor=NEMO_STD_FLOOR),
            playground={"c": "nemo-rl"},
            reproduces=False,
        ),
        TrainerBug(
            id="verl-vectorised-floor",
            trainer="verl",
            url="https://github.com/verl-project/verl/pull/6348",
            fix_url="https://github.com/verl-project/verl/pull/6348",
            rewards=((1.0, 1.00001), (2.0, 2.00001)),
            printed=floored_std_advantages,
            expected=lambda r: group_advantages(r, convention="verl"),
            playground={"c": "verl", "ddof": "1", "eps": "0.001", "scale": "group"},
            reproduces=False,
        ),
        TrainerBug(
            id="trl-scale-swap",
            trainer="TRL",
            url="https://github.com/huggingface/trl/issues/3991",
            fix_url="https://github.com/huggingface/trl/releases/tag/v0.22.2",
            rewards=((1.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 0.0)),
            printed=lambda r: historical_advantages("trl-0.22.1-group", r),
            expected=lambda r: group_advantages(r, convention="trl"),
            playground={"c": "trl", "ddof": "1", "eps": "0.0001", "scale": "none"},
            reproduces=True,
        ),
        TrainerBug(
            id="trl-scale-none",
            trainer="TRL",
            url="https://github.com/huggingface/trl/issues/3991",
            fix_url="https://github.com/huggingface/trl/releases/tag/v0.22.2",
            rewards=((1.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 0.0)),
            printed=lambda r: historical_advantages("trl-0.22.1-none", r),
            expected=lambda r: group_advantages(r, convention="dr-grpo"),
            playground={"c": "trl"},
            reproduces=True,
        ),
    )
}
