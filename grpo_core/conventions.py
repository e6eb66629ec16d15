"""The advantage conventions of real trainers, as data.

Each entry of ``CONVENTIONS`` is read from the library's source, named in its
``source`` field (huggingface/trl trl/trainer/grpo_trainer.py and
trl/trainer/rloo_trainer.py; volcengine/verl verl/trainer/ppo/core_algos.py;
OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py; NVIDIA-NeMo/RL
nemo_rl/algorithms/advantage_estimator.py and utils.py; DeepSeekMath, arXiv 2402.03300,
section 4.1.2): which baseline it subtracts, what it divides by, the std's degrees of
freedom, eps, a clamp, and what a group of one gets.

The numbers are float64 and leave every KL term out: a trainer computes in float32 (see
``grpo_core.precision``), and TRL's RLOO trainer and OpenRLHF subtract a KL penalty from
the reward before the baseline. "The trainer's numbers" means: up to float32 rounding, with
the KL coefficient beta = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from grpo_core import _checks

Baseline = Literal["mean", "leave-one-out"]
Scale = Literal["group", "batch", "none", "leave-one-out", "whiten"]
Singleton = Literal["refuse", "pass-through", "zero"]

SCALES: tuple[str, ...] = ("group", "batch", "none")
"""The scalings a user may set by hand; "leave-one-out" (nemo-rl) and "whiten" (reinforce-pp)
belong to one convention each."""


@dataclass(frozen=True)
class Convention:
    """How one trainer turns a group's rewards into advantages.

    A_i = clip((R_i - baseline_i) / denominator, -clip, clip), where
    denominator is ``std + eps`` (std over the group or the whole batch,
    with ``ddof``), 1 when ``scale == "none"``, or, with ``scale == "leave-one-out"``,
    the std of the other K-1 rewards + eps, and 1 where that std is 0 (NeMo-RL).
    """

    name: str
    baseline: Baseline
    """"mean": the group mean. "leave-one-out": the mean of the other K-1 rewards."""
    scale: Scale
    """"group": divide by the group std + eps. "batch": by the std of every
    reward in the batch + eps. "none": do not divide. "leave-one-out": divide answer i by
    the std of the other K-1 rewards (with ``ddof``) + eps, and not at all where that std
    is 0 (all the others equal, or K = 2), as NeMo-RL does. "whiten": clip the centred
    rewards to ±clip, subtract their batch mean and divide by their batch std (with ``ddof``)
    floored at eps, as OpenRLHF's REINFORCE++-baseline (eps is a floor here, not added)."""
    ddof: int
    """0: population std (divide by K). 1: sample std (divide by K-1), as torch.std and
    TRL's own Bessel-corrected nanstd."""
    eps: float
    """Added to the std outside the square root."""
    clip: float | None
    """The normalised value is clipped to [-clip, clip] (OpenRLHF: a clip of the reward,
    before its per-token KL penalty is added); with ``scale == "whiten"`` the centred value
    is clipped before whitening, as OpenRLHF clips the centred reward; None for no clip."""
    singleton: Singleton
    """A group of one reward: "refuse" (ValueError), "pass-through" (verl: mean 0,
    std 1, so A = R / (1 + eps)), or "zero" (no spread, A = 0; NeMo-RL sets the baseline
    of a lone answer to its own reward)."""
    library: str
    """The trainer and setting this reproduces."""
    source: str
    """Repository and file the convention was read from."""
    description: str
    """One line for a learner."""
    code: str
    """The equivalent numpy computation for rewards R of shape (prompts, K)."""

    @property
    def refuses_singleton(self) -> bool:
        """A group of one reward is a ValueError: the ``singleton`` rule says "refuse", or
        the leave-one-out baseline has no other answers to average and no rule says
        otherwise (NeMo-RL's "zero")."""
        return self.singleton == "refuse" or (
            self.baseline == "leave-one-out" and self.singleton != "zero"
        )

    def with_overrides(
        self,
        *,
        ddof: int | None = None,
        eps: float | None = None,
        scale: str | None = None,
        clip: float | None = None,
    ) -> Convention:
        """This convention with the given parameters replaced (None keeps the value).

        ``clip=math.inf`` removes a clamp.
        """
        if ddof is not None:
            self = replace(self, ddof=_checks.ddof(ddof))
        if eps is not None:
            self = replace(self, eps=_checks.non_negative(eps, "eps"))
        if scale is not None:
            if scale not in SCALES:
                raise ValueError(
                    f"scale must be one of {', '.join(map(repr, SCALES))}, got {scale!r}."
                )
            self = replace(self, scale=scale)
        if clip is not None:
            if not _checks.is_real(clip) or math.isnan(clip) or clip <= 0:
                raise ValueError(
                    f"clip must be a positive number (math.inf for no clamp), got {clip!r}."
                )
            self = replace(self, clip=None if math.isinf(clip) else float(clip))
        return self


_TRL_SOURCE = "huggingface/trl trl/trainer/grpo_trainer.py"

CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention(
            name="trl",
            baseline="mean",
            scale="group",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer, scale_rewards="group" (default)',
            source=_TRL_SOURCE,
            description="Group mean and sample std (torch's Tensor.std; TRL's own Bessel-corrected "
            "nanstd in v1.x), eps 1e-4 added to the std.",
            code="A = (R - R.mean(1, keepdims=True)) / (R.std(1, ddof=1, keepdims=True) + 1e-4)",
        ),
        Convention(
            name="trl-batch",
            baseline="mean",
            scale="batch",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer, scale_rewards="batch"',
            source=_TRL_SOURCE,
            description="Group mean, divided by the std of every raw reward in the batch "
            "(TRL >= 0.22.2; Lite PPO). Not REINFORCE++, which whitens the group-centred "
            "advantages.",
            code="A = (R - R.mean(1, keepdims=True)) / (R.std(ddof=1) + 1e-4)",
        ),
        Convention(
            name="dr-grpo",
            baseline="mean",
            scale="none",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer, scale_rewards="none" (Dr. GRPO, arXiv 2503.20783)',
            source=_TRL_SOURCE,
            description="Centre on the group mean only; no division by the std.",
            code="A = R - R.mean(1, keepdims=True)",
        ),
        Convention(
            name="verl",
            baseline="mean",
            scale="group",
            ddof=1,
            eps=1e-6,
            clip=None,
            singleton="pass-through",
            library="verl compute_grpo_outcome_advantage (norm_adv_by_std_in_grpo=True)",
            source="volcengine/verl verl/trainer/ppo/core_algos.py",
            description="Groups by a uid per sample; sample std, eps 1e-6; "
            "a group of one gets mean 0 and std 1.",
            code="A = (R - R.mean(1, keepdims=True)) / (R.std(1, ddof=1, keepdims=True) + 1e-6)",
        ),
        Convention(
            name="openrlhf",
            baseline="mean",
            scale="group",
            ddof=1,
            eps=1e-9,
            clip=10.0,
            singleton="refuse",
            library='OpenRLHF advantage_estimator="group_norm"',
            source="OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py; "
            "openrlhf/models/utils.py compute_reward",
            description="Sample std (torch.std), eps 1e-9; OpenRLHF then clips this normalised "
            "reward to reward_clip_range ±10 and adds a per-token KL penalty (modelled here "
            "without the KL term).",
            code="A = np.clip((R - R.mean(1, keepdims=True))"
            " / (R.std(1, ddof=1, keepdims=True) + 1e-9), -10, 10)",
        ),
        Convention(
            name="rloo",
            baseline="leave-one-out",
            scale="none",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library="TRL RLOOTrainer with beta = 0 (RLOO, arXiv 2402.14740)",
            source="huggingface/trl trl/trainer/rloo_trainer.py",
            description="Baseline is the mean of the other K-1 rewards: "
            "Aᵢ = K/(K-1) (Rᵢ - mean); no std. TRL's RLOOTrainer first subtracts "
            "beta times the KL from the reward (beta 0.05 by default); this is beta = 0.",
            code="K = R.shape[1]; A = R - (R.sum(1, keepdims=True) - R) / (K - 1)",
        ),
        Convention(
            name="nemo-rl",
            baseline="leave-one-out",
            scale="leave-one-out",
            ddof=1,
            eps=1e-6,
            clip=None,
            singleton="zero",
            library="NeMo-RL GRPO estimator (default: use_leave_one_out_baseline, "
            "normalize_rewards)",
            source="NVIDIA-NeMo/RL nemo_rl/algorithms/advantage_estimator.py "
            "GRPOAdvantageEstimator; nemo_rl/algorithms/utils.py "
            "calculate_baseline_and_std_per_prompt",
            description="Leave-one-out mean as baseline, divided by the sample std of the "
            "other K-1 rewards + 1e-6; where that std is 0 (the others all agree, or K = 2) "
            "the answer keeps Rᵢ - baseline undivided.",
            code="K = R.shape[1]; O = R[:, None, :].repeat(K, 1)[:, ~np.eye(K, dtype=bool)]"
            ".reshape(-1, K, K - 1); b = O.mean(2); "
            "A = np.where(np.ptp(O, 2) > 0, (R - b) / (O.std(2, ddof=1) + 1e-6), R - b)",
        ),
        Convention(
            name="reinforce-pp",
            baseline="mean",
            scale="whiten",
            ddof=0,
            eps=1e-4,
            clip=10.0,
            singleton="refuse",
            library='OpenRLHF advantage_estimator="reinforce_baseline" (REINFORCE++-baseline, '
            "arXiv 2501.03262), one token per answer, KL left out",
            source="OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py "
            "compute_advantages_and_returns; openrlhf/models/utils.py compute_reward",
            description="Group mean subtracted, the result clipped to the reward clip ±10, "
            "then whitened over the whole batch: minus its batch mean, over its batch std "
            "(population, divide by the count) floored at 1e-4 (var.clamp(min=1e-8)). "
            "OpenRLHF weights every token; this is one token per answer, without the KL.",
            code="C = np.clip(R - R.mean(1, keepdims=True), -10, 10); "
            "A = (C - C.mean()) / max(C.std(), 1e-4)",
        ),
        Convention(
            name="zscore",
            baseline="mean",
            scale="group",
            ddof=0,
            eps=0.0,
            clip=None,
            singleton="zero",
            library="Textbook z-score (population std, no eps)",
            source="DeepSeekMath, arXiv 2402.03300, section 4.1.2: (r_i - mean(r)) / std(r); the "
            "paper names no ddof and no eps (population std and eps = 0 are this textbook "
            "convention's choice)",
            description="Population std (divide by K), no eps; an all-equal group gives 0.",
            code="A = np.nan_to_num((R - R.mean(1, keepdims=True)) / R.std(1, keepdims=True))",
        ),
    )
}


def get_convention(name: str) -> Convention:
    """The registered convention called ``name``; ValueError listing the names otherwise."""
    try:
        return CONVENTIONS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown convention {name!r}; choose one of: {', '.join(CONVENTIONS)}."
        ) from None


_TRL_0221_SOURCE = "huggingface/trl trl/trainer/grpo_trainer.py at v0.22.0 and v0.22.1"

HISTORICAL_CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention(
            name="trl-0.22.1-group",
            baseline="mean",
            scale="none",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer v0.22.0 and v0.22.1, scale_rewards="group" (a bug)',
            source=_TRL_0221_SOURCE,
            description="Historical, buggy: the default computed the batch std and then "
            "divided by nothing (fixed in v0.22.2).",
            code="A = R - R.mean(1, keepdims=True)",
        ),
        Convention(
            name="trl-0.22.1-batch",
            baseline="mean",
            scale="group",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer v0.22.0 and v0.22.1, scale_rewards="batch" (a bug)',
            source=_TRL_0221_SOURCE,
            description="Historical, buggy: asking for batch scaling divided by the group "
            "std instead (fixed in v0.22.2).",
            code="A = (R - R.mean(1, keepdims=True)) / (R.std(1, ddof=1, keepdims=True) + 1e-4)",
        ),
        Convention(
            name="trl-0.22.1-none",
            baseline="mean",
            scale="group",
            ddof=1,
            eps=1e-4,
            clip=None,
            singleton="refuse",
            library='TRL GRPOTrainer v0.22.0 and v0.22.1, scale_rewards="none" (a bug)',
            source=_TRL_0221_SOURCE,
            description="Historical, buggy: asking for no scaling (Dr. GRPO) divided by the "
            "group std anyway, so Dr. GRPO users got GRPO (fixed in v0.22.2).",
            code="A = (R - R.mean(1, keepdims=True)) / (R.std(1, ddof=1, keepdims=True) + 1e-4)",
        ),
    )
}
"""Releases that shipped a wrong advantage, kept to reproduce their logs. Not in
``CONVENTIONS`` (no page offers them as a choice); ``grpo_core.trainer_bugs`` uses them."""
