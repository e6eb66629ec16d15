"""What PPO's critic costs against GRPO's K samples: bytes held and FLOPs per step.

The memory calculator counts bytes of weights, gradients and optimizer
state; what it leaves out is listed in ``ASSUMPTIONS``. The compute counts
2 N FLOPs per generated token and 6 N per trained token (N parameters).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks

GB = 1e9
"""Bytes in a gigabyte as printed here (decimal: 112 GB = 112e9 bytes = 104.3 GiB)."""

PRECISIONS: dict[str, dict[str, int]] = {
    "bf16-mixed": {"weights": 2, "gradients": 2, "master weights": 4, "state": 4},
    "bf16": {"weights": 2, "gradients": 2, "master weights": 0, "state": 2},
    "fp32": {"weights": 4, "gradients": 4, "master weights": 0, "state": 4},
}
"""Bytes per parameter of a trained model's weights, gradients, fp32 master
copy, and of each optimizer state value, per training precision. Frozen
models are held in the weights' dtype."""

OPTIMIZERS: dict[str, tuple[int, int | None]] = {
    "adamw": (2, None),
    "adamw-8bit": (2, 1),
    "sgd-momentum": (1, None),
    "sgd": (0, None),
}
"""Optimizer -> (state values per parameter, bytes per value or None for the
precision's). AdamW keeps m and v; 8-bit AdamW (bitsandbytes) stores them in
one byte each; SGD with momentum keeps one buffer; plain SGD none."""

ASSUMPTIONS: tuple[str, ...] = (
    "Bytes are for weights, gradients and optimizer state only: activations, the KV cache "
    "used while generating, temporary buffers and memory fragmentation are not counted.",
    "bf16-mixed: bf16 weights (2 B) and gradients (2 B), an fp32 master copy (4 B) and fp32 "
    "optimizer states; with AdamW (m and v, 8 B) that is 16 bytes per trained parameter.",
    "bf16: everything in bf16, no master copy (AdamW: 2 + 2 + 4 = 8 B per parameter). "
    "fp32: weights, gradients and states in fp32 (AdamW: 4 + 4 + 8 = 16 B).",
    "8-bit AdamW stores m and v in 1 byte each (2 B); its small quantisation constants are "
    "ignored.",
    "The reference and reward models are frozen: weights only, in the weights' dtype "
    "(2 B per parameter in bf16, 4 B in fp32), no gradients or optimizer state.",
    "The value model (critic) is trained like the policy and taken to be as large as the "
    "policy unless another size is given: DeepSeekMath (arXiv 2402.03300, section 4.1.1) says "
    "it is typically policy-sized; InstructGPT used a 6B critic, initialised from its 6B "
    "reward model, for a 175B policy; verl starts it from the policy/SFT checkpoint.",
    "With verifiable rewards (a checker for maths answers or code tests) there is no reward "
    "model; switch it off.",
    "Totals are for the whole job: sharding (ZeRO, FSDP) splits them over GPUs but does not "
    "shrink them. LoRA and offloading are not modelled.",
    "GB means 10^9 bytes.",
    "Compute: generating a token costs about 2 x parameters FLOPs (a forward pass), a "
    "training step about 6 x parameters FLOPs per token (forward and backward); attention "
    "and KV-cache reads are ignored.",
)
"""What the memory and sample-cost figures assume, one sentence each, for the page."""


def memory_breakdown(
    params_billion: float,
    *,
    precision: str = "bf16-mixed",
    optimizer: str = "adamw",
    with_critic: bool = True,
    with_reference: bool = True,
    with_reward_model: bool = True,
    critic_params_billion: float | None = None,
    reward_params_billion: float | None = None,
) -> pd.DataFrame:
    """Bytes held for RLHF training, one row per component.

    Columns: ``model`` (policy, reference model, reward model, value model),
    ``component`` (weights, gradients, master weights, optimizer state),
    ``trained`` (bool), ``params`` (count), ``bytes_per_param``, ``bytes``
    and ``gb`` (bytes / 1e9). Rows of a trained model: weights, gradients,
    master weights, optimizer state (0 bytes where the precision or optimizer
    has none). See ``ASSUMPTIONS``.

    A 7B policy in bf16-mixed AdamW: 16 B x 7e9 = 112e9 bytes; its critic as
    much again (``with_critic=True``), which is what GRPO saves.
    """
    policy = _as_billions(params_billion, "params_billion")
    if precision not in PRECISIONS:
        raise ValueError(
            f"unknown precision {precision!r}; choose one of: {', '.join(PRECISIONS)}."
        )
    if optimizer not in OPTIMIZERS:
        raise ValueError(
            f"unknown optimizer {optimizer!r}; choose one of: {', '.join(OPTIMIZERS)}."
        )
    critic = policy if critic_params_billion is None else critic_params_billion
    reward = policy if reward_params_billion is None else reward_params_billion
    critic = _as_billions(critic, "critic_params_billion")
    reward = _as_billions(reward, "reward_params_billion")

    sizes = PRECISIONS[precision]
    num_states, state_bytes = OPTIMIZERS[optimizer]
    trained = {
        "weights": sizes["weights"],
        "gradients": sizes["gradients"],
        "master weights": sizes["master weights"],
        "optimizer state": num_states * (sizes["state"] if state_bytes is None else state_bytes),
    }
    rows = [("policy", c, True, policy, n) for c, n in trained.items()]
    if with_reference:
        rows.append(("reference model", "weights", False, policy, sizes["weights"]))
    if with_reward_model:
        rows.append(("reward model", "weights", False, reward, sizes["weights"]))
    if with_critic:
        rows += [("value model", c, True, critic, n) for c, n in trained.items()]
    frame = pd.DataFrame(
        rows, columns=["model", "component", "trained", "params", "bytes_per_param"]
    )
    frame["params"] = frame["params"] * 1e9
    frame["bytes"] = frame["params"] * frame["bytes_per_param"]
    frame["gb"] = frame["bytes"] / GB
    return frame


def sample_cost(
    params_billion: float,
    *,
    num_prompts: int,
    group_sizes: int | Iterable[int],
    mean_length: float,
) -> pd.DataFrame:
    """What sampling K responses per prompt costs per training step, one row per K.

    Columns: ``group_size`` K, ``responses`` = prompts x K, ``generated_tokens``
    = prompts x K x mean_length, ``generation_tflop`` = 2 N tokens / 1e12 (N
    parameters, forward passes only) and ``update_tflop`` = 6 N tokens / 1e12
    (the policy's forward and backward over those tokens). PPO typically
    samples K = 1 and pays for the critic instead. See ``ASSUMPTIONS``.
    """
    n = _as_billions(params_billion, "params_billion") * 1e9
    prompts = _checks.whole(num_prompts, "num_prompts", minimum=1)
    if isinstance(group_sizes, numbers.Integral):
        group_sizes = [group_sizes]
    ks = [_checks.whole(k, "group_size", minimum=1) for k in group_sizes]
    length = _checks.finite(mean_length, "mean_length")
    if length <= 0:
        raise ValueError(f"mean_length must be > 0 tokens, got {mean_length!r}.")
    frame = pd.DataFrame({"group_size": ks})
    frame["responses"] = prompts * frame["group_size"]
    frame["generated_tokens"] = frame["responses"] * length
    frame["generation_tflop"] = 2 * n * frame["generated_tokens"] / 1e12
    frame["update_tflop"] = 6 * n * frame["generated_tokens"] / 1e12
    return frame


MAX_PARAMS_BILLION = 100_000.0
"""The largest model the calculator takes: 100 trillion parameters."""


def _as_billions(x, name: str) -> float:
    x = _checks.finite(x, name)
    if not 0 < x <= MAX_PARAMS_BILLION:
        raise ValueError(
            f"{name} must be a positive number of billions of parameters, at most "
            f"{MAX_PARAMS_BILLION:,.0f}; got {x!r}."
        )
    return x


@dataclass(frozen=True)
class MemoryComparison:
    """GB held with and without the critic, for a stacked bar chart."""

    by_model: pd.DataFrame
    """Columns ``setup`` ("with critic (PPO)", "without critic (GRPO)"), ``model``, ``gb``;
    one row per model present in that setup, in the order policy, reference, reward, value."""
    with_critic_gb: float
    without_critic_gb: float
    saved_gb: float
    """with - without: the value model's bytes."""
    saved_fraction: float
    """saved_gb / with_critic_gb."""


SETUPS = ("with critic (PPO)", "without critic (GRPO)")


def memory_comparison(params_billion: float, **kwargs) -> MemoryComparison:
    """``memory_breakdown`` with and without the value model, summed per model.

    kwargs: as ``memory_breakdown`` except ``with_critic`` (both are computed).
    """
    if "with_critic" in kwargs:
        raise ValueError("memory_comparison computes both with and without the critic.")
    frames = []
    totals = []
    for setup, critic in zip(SETUPS, (True, False), strict=True):
        frame = memory_breakdown(params_billion, with_critic=critic, **kwargs)
        per_model = frame.groupby("model", sort=False, as_index=False)["gb"].sum()
        per_model.insert(0, "setup", setup)
        frames.append(per_model)
        totals.append(float(frame["gb"].sum()))
    with_gb, without_gb = totals
    return MemoryComparison(
        by_model=pd.concat(frames, ignore_index=True),
        with_critic_gb=with_gb,
        without_critic_gb=without_gb,
        saved_gb=with_gb - without_gb,
        saved_fraction=(with_gb - without_gb) / with_gb,
    )


def rollout_compute(
    params_billion: float,
    *,
    num_prompts: int,
    mean_length: float,
    group_sizes=(4, 8, 16, 64),
    critic_params_billion: float | None = None,
) -> pd.DataFrame:
    """Compute per training step: PPO sampling 1 response a prompt and running a critic,
    against GRPO sampling K responses a prompt and no critic. One row per setup.

    Columns: ``setup``, ``group_size``, ``responses``, ``generated_tokens``,
    ``generation_tflop`` and ``update_tflop`` (the policy, as ``sample_cost``),
    ``critic_tflop`` = 8 N_critic tokens / 1e12 for PPO (a forward pass for the values,
    2 N, and a training step, 6 N, per token; 0 for GRPO), ``total_tflop`` and
    ``vs_ppo`` = total / PPO's total. The reference model's forward pass (both
    setups) and the reward model's are left out. ValueError when PPO's total underflows to
    0 or a total overflows (a ratio of 0/0 or inf/inf).
    """
    policy = sample_cost(
        params_billion,
        num_prompts=num_prompts,
        group_sizes=[1, *group_sizes],
        mean_length=mean_length,
    )
    critic = params_billion if critic_params_billion is None else critic_params_billion
    critic = _as_billions(critic, "critic_params_billion") * 1e9
    is_ppo = np.arange(len(policy)) == 0
    policy.insert(
        0,
        "setup",
        ["PPO: 1 sample + critic"] + [f"GRPO: K = {k}" for k in policy["group_size"][1:]],
    )
    policy["critic_tflop"] = np.where(is_ppo, 8 * critic * policy["generated_tokens"] / 1e12, 0.0)
    policy["total_tflop"] = (
        policy["generation_tflop"] + policy["update_tflop"] + policy["critic_tflop"]
    )
    ppo_total = policy["total_tflop"].iloc[0]
    if not ppo_total > 0:
        raise ValueError(
            f"PPO's compute per step rounds to 0 TFLOP for a model of {params_billion:g} B "
            f"parameters and answers of {mean_length:g} tokens, so no setup can be compared "
            "with it; use a larger model or longer answers."
        )
    if not np.isfinite(policy["total_tflop"]).all():
        raise ValueError(
            f"The compute per step overflows for answers of {mean_length:g} tokens from "
            f"{num_prompts:,} prompts: use shorter answers or fewer prompts."
        )
    policy["vs_ppo"] = policy["total_tflop"] / ppo_total
    return policy
