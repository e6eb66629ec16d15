"""PPO's learned critic vs GRPO's group baseline: per-token advantages and their cost.

Layout of a batch of B responses to one prompt, padded to T tokens:

- ``lengths`` (B,): real tokens per response, each >= 1.
- ``mask`` (B, T) bool: ``mask[b, t]`` is True for the real tokens of response b.
- per-token arrays (B, T): ``rewards``, ``values``, ``advantages``; 0 on padding.

Token t of a response is the action taken in state s_t (the prompt and the
tokens before t); ``values[b, t]`` is the critic's V(s_t). The response ends
after its last real token: the state after it is terminal.

PPO (Schulman et al. 2017, arXiv 1707.06347) in RLHF (InstructGPT, arXiv
2203.02155) puts the outcome reward on the last token, subtracts a per-token
KL penalty, and turns the critic's values into advantages with GAE (arXiv
1506.02438). GRPO (DeepSeekMath, arXiv 2402.03300) gives every token of a
response the same group-normalised advantage and needs no critic.

The memory calculator counts bytes of weights, gradients and optimizer
state; what it leaves out is listed in ``ASSUMPTIONS``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core.advantages import group_advantages

# --- per-token rewards, values and advantages ----------------------------------------------


def token_mask(lengths, num_tokens: int | None = None) -> np.ndarray:
    """(B, T) bool: True on the first ``lengths[b]`` tokens of row b.

    lengths: (B,) whole numbers >= 1. T is ``num_tokens`` or max(lengths).
    """
    lengths = _as_lengths(lengths)
    t = int(lengths.max()) if num_tokens is None else _as_count(num_tokens, "num_tokens")
    if t < lengths.max():
        raise ValueError(
            f"num_tokens={t} is shorter than the longest response ({lengths.max()} tokens)."
        )
    return np.arange(t) < lengths[:, None]


def token_rewards(lengths, outcome, kl=None, kl_coef: float = 0.0) -> np.ndarray:
    """Per-token rewards (B, T): r_t = -kl_coef * kl_t, plus the outcome on the last real token.

    lengths: (B,) real tokens per response. outcome: (B,) the verifier's or
    reward model's score of each whole response. kl: optional (B, T) per-token
    KL estimate log pi(o_t) - log pi_ref(o_t) (T >= max(lengths); without it
    T = max(lengths)). kl_coef: the KL penalty coefficient beta, >= 0.

    Padding gets 0. This is the InstructGPT/PPO reward; GRPO instead adds the
    KL term to the loss, not the reward (DeepSeekMath, section 4.1).
    """
    lengths = _as_lengths(lengths)
    outcome = _as_finite(outcome, "outcome", shape=lengths.shape)
    kl_coef = _as_nonnegative(kl_coef, "kl_coef")
    if kl is None:
        mask = token_mask(lengths)
        rewards = np.zeros(mask.shape)
    else:
        kl = np.asarray(kl, dtype=np.float64)
        if kl.ndim != 2 or kl.shape[0] != lengths.size:
            raise ValueError(
                f"kl must have shape (responses, tokens) = ({lengths.size}, T), got {kl.shape}."
            )
        mask = token_mask(lengths, kl.shape[1])
        _check_finite_where(kl, mask, "kl")
        rewards = np.where(mask, -kl_coef * kl, 0.0)
    rewards[np.arange(lengths.size), lengths - 1] += outcome
    return rewards


def expected_returns(
    outcome,
    lengths,
    *,
    prior=None,
    kl=None,
    kl_coef: float = 0.0,
    gamma: float = 1.0,
) -> np.ndarray:
    """(B, T) the true value V*(s_t) of the toy task: what a perfect critic would predict.

    The toy: before any token the response succeeds with probability
    ``prior`` p (default: the mean outcome of the batch, i.e. the group
    mean, GRPO's baseline); as tokens are written its outcome R becomes
    evident linearly, so the expected outcome after t of L tokens is
    b_t = p + (R - p) t / L. With the KL rewards of ``token_rewards``,

        V*(s_t) = gamma^(L-1-t) b_t - kl_coef sum_{u=t}^{L-1} gamma^(u-t) kl_u.

    Padding gets 0. Feed it to ``toy_values`` to add a critic's errors.
    """
    lengths = _as_lengths(lengths)
    outcome = _as_finite(outcome, "outcome", shape=lengths.shape)
    gamma = _as_unit(gamma, "gamma")
    p = outcome.mean() if prior is None else _as_finite(prior, "prior", shape=None)
    p = np.broadcast_to(p, lengths.shape)
    kl_rewards = token_rewards(lengths, np.zeros(lengths.size), kl=kl, kl_coef=kl_coef)
    mask = token_mask(lengths, kl_rewards.shape[1])
    t = np.arange(mask.shape[1])
    belief = p[:, None] + (outcome - p)[:, None] * t / lengths[:, None]
    steps_to_end = np.maximum(lengths[:, None] - 1 - t, 0)
    values = gamma**steps_to_end * belief
    # discounted KL penalties to go; a reverse loop over T (T is small)
    to_go = np.zeros(lengths.size)
    for i in reversed(range(mask.shape[1])):
        to_go = np.where(mask[:, i], kl_rewards[:, i] + gamma * to_go, 0.0)
        values[:, i] += to_go
    return np.where(mask, values, 0.0)


def toy_values(
    true_values,
    mask,
    *,
    bias: float = 0.0,
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """A toy critic (B, T): V(s_t) = V*(s_t) + bias + noise * N(0, 1) on real tokens, 0 on padding.

    true_values: (B, T), e.g. from ``expected_returns``. bias: a constant
    error in reward units (a critic that is too optimistic is > 0). noise:
    std of independent Gaussian errors per token, >= 0; needs ``rng``.
    """
    true_values = np.asarray(true_values, dtype=np.float64)
    mask = _as_mask(mask, true_values.shape)
    bias = _as_finite_scalar(bias, "bias")
    noise = _as_nonnegative(noise, "noise")
    values = true_values + bias
    if noise > 0:
        if rng is None:
            raise ValueError(
                "noise > 0 needs a random generator: pass rng=np.random.default_rng()."
            )
        values = values + noise * rng.standard_normal(values.shape)
    return np.where(mask, values, 0.0)


def gae(rewards, values, *, gamma: float, lam: float, mask=None) -> np.ndarray:
    """Generalised advantage estimates (B, T) (Schulman et al. 2016, arXiv 1506.02438).

        delta_t = r_t + gamma V(s_{t+1}) - V(s_t),   A_t = sum_l (gamma lam)^l delta_{t+l}

    computed backwards as A_t = delta_t + gamma lam A_{t+1}, over the real
    tokens of each response only (the tokens where ``mask`` is True; masked
    tokens are skipped wherever they are, as in verl's
    ``compute_gae_advantage_return``, and get advantage 0).

    rewards: (B, T) per-token rewards, or (T,) for one response.
    values: (B, T) V(s_t); the state after the last real token is terminal,
        V = 0. Or (B, T+1): column T is the bootstrap value of the state after
        the last real token (for responses cut off before they ended).
    gamma, lam: in [0, 1]. mask: (B, T) bool, default all True.

    The returns (value targets) are ``advantages + values[:, :T]``. Trainers
    then usually whiten the advantages over the batch; that is not done here.
    """
    rewards = np.asarray(rewards, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    one_response = rewards.ndim == 1
    if one_response:
        rewards, values = rewards[None], values[None]
        mask = None if mask is None else np.asarray(mask)[None]
    if rewards.ndim != 2:
        raise ValueError(f"rewards must be (responses, tokens), got {rewards.ndim} dimensions.")
    b, t = rewards.shape
    if values.shape == (b, t):
        bootstrap = np.zeros(b)
    elif values.shape == (b, t + 1):
        bootstrap = values[:, t]
    else:
        raise ValueError(
            f"values must have shape {(b, t)} (terminal value 0 after the last token) or "
            f"{(b, t + 1)} (last column is the bootstrap value), got {values.shape}."
        )
    gamma = _as_unit(gamma, "gamma")
    lam = _as_unit(lam, "lam")
    mask = np.ones((b, t), dtype=bool) if mask is None else _as_mask(mask, (b, t))
    _check_finite_where(rewards, mask, "rewards")
    _check_finite_where(values[:, :t], mask, "values")
    if not np.all(np.isfinite(bootstrap)):
        raise ValueError("the bootstrap values (last column of values) must be finite.")

    advantages = np.zeros((b, t))
    next_value = bootstrap  # V(s_{t+1}) of the next real token, per response
    lastgaelam = np.zeros(b)  # A_{t+1}
    with np.errstate(invalid="ignore", over="ignore"):  # padding may hold anything
        for i in reversed(range(t)):
            real = mask[:, i]
            delta = rewards[:, i] + gamma * next_value - values[:, i]
            a = delta + gamma * lam * lastgaelam
            advantages[:, i] = np.where(real, a, 0.0)
            lastgaelam = np.where(real, a, lastgaelam)
            next_value = np.where(real, values[:, i], next_value)
    return advantages[0] if one_response else advantages


def grpo_token_advantages(outcome_rewards, lengths, *, convention: str = "trl") -> np.ndarray:
    """GRPO's per-token advantages: A_i of ``group_advantages`` on every real token of response i.

    outcome_rewards: (K,) one prompt's group, or (P, K) P prompts.
    lengths: same shape, real tokens per response.
    Returns shape ``outcome_rewards.shape + (T,)``, T = max(lengths), 0 on
    padding. Every token of a response shares one advantage: no per-token
    credit assignment. (GRPO's loss then averages each response's tokens by
    1/|o_i|; Dr. GRPO drops that. That changes weights, not advantages.)
    """
    advantages = group_advantages(outcome_rewards, convention=convention)
    lengths = np.asarray(lengths)
    if lengths.shape != advantages.shape:
        raise ValueError(
            f"lengths must have the shape of outcome_rewards {advantages.shape}, "
            f"got {lengths.shape}."
        )
    mask = token_mask(lengths.ravel()).reshape(*lengths.shape, -1)
    return np.where(mask, advantages[..., None], 0.0)


# --- memory and compute -----------------------------------------------------------------

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
    "The value model (critic) is trained like the policy and, as in InstructGPT, is as large "
    "as the policy unless another size is given (it is often initialised from the reward "
    "model).",
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
    prompts = _as_count(num_prompts, "num_prompts")
    if isinstance(group_sizes, numbers.Integral):
        group_sizes = [group_sizes]
    ks = [_as_count(k, "group_size") for k in group_sizes]
    length = _as_finite_scalar(mean_length, "mean_length")
    if length <= 0:
        raise ValueError(f"mean_length must be > 0 tokens, got {mean_length!r}.")
    frame = pd.DataFrame({"group_size": ks})
    frame["responses"] = prompts * frame["group_size"]
    frame["generated_tokens"] = frame["responses"] * length
    frame["generation_tflop"] = 2 * n * frame["generated_tokens"] / 1e12
    frame["update_tflop"] = 6 * n * frame["generated_tokens"] / 1e12
    return frame


# --- validation ----------------------------------------------------------------------


def _as_count(x, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {x!r}.")
    return int(x)


def _as_lengths(lengths) -> np.ndarray:
    arr = np.asarray(lengths)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("lengths must be a non-empty list with one token count per response.")
    if arr.dtype.kind not in "iu" and not (
        arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))
    ):
        raise ValueError(f"lengths must be whole numbers of tokens, got {lengths!r}.")
    arr = arr.astype(np.intp)
    if arr.min() < 1:
        i = int(np.argmin(arr))
        raise ValueError(f"response {i + 1} has {arr[i]} tokens; every response needs >= 1.")
    return arr


def _as_finite(x, name: str, *, shape) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if shape is not None and arr.shape != shape:
        raise ValueError(
            f"{name} must have one value per response, shape {shape}; got {arr.shape}."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite numbers.")
    return arr


def _as_finite_scalar(x, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}.")
    return float(x)


def _as_nonnegative(x, name: str) -> float:
    x = _as_finite_scalar(x, name)
    if x < 0:
        raise ValueError(f"{name} must be >= 0, got {x!r}.")
    return x


def _as_unit(x, name: str) -> float:
    x = _as_finite_scalar(x, name)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}.")
    return x


MAX_PARAMS_BILLION = 100_000.0
"""The largest model the calculator takes: 100 trillion parameters."""


def _as_lists(lengths, outcome) -> tuple[list, list]:
    """Both as lists; ValueError (not TypeError) for a single number or other non-lists."""
    try:
        return list(lengths), list(outcome)
    except TypeError:
        raise ValueError("lengths and rewards must be lists, one entry per response.") from None


def _as_billions(x, name: str) -> float:
    x = _as_finite_scalar(x, name)
    if not 0 < x <= MAX_PARAMS_BILLION:
        raise ValueError(
            f"{name} must be a positive number of billions of parameters, at most "
            f"{MAX_PARAMS_BILLION:,.0f}; got {x!r}."
        )
    return x


def _as_mask(mask, shape) -> np.ndarray:
    arr = np.asarray(mask)
    if arr.shape != tuple(shape):
        raise ValueError(f"mask must have shape {tuple(shape)}, got {arr.shape}.")
    if arr.dtype != bool:
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("mask must be True/False (or 1/0) per token.")
        arr = arr.astype(bool)
    return arr


def _check_finite_where(x: np.ndarray, mask: np.ndarray, name: str) -> None:
    bad = mask & ~np.isfinite(x)
    if bad.any():
        b, t = np.argwhere(bad)[0]
        raise ValueError(f"{name} of response {b + 1}, token {t + 1} is {x[b, t]}; must be finite.")


# --- for the "PPO critic vs GRPO" page ------------------------------------------------------

MAX_TOKENS = 64
"""Longest response the critic page accepts (tokens)."""


def response_group(lengths, outcome, *, max_tokens: int = MAX_TOKENS, max_responses: int = 16):
    """Validate one prompt's responses as a learner typed them: (lengths (K,) int, outcome (K,)).

    lengths: whole numbers in 1..max_tokens; outcome: finite rewards; both the
    same length 2 <= K <= max_responses (a group needs someone to compare with). Raises
    ValueError naming the first bad response in plain words.
    """
    lengths, outcome = _as_lists(lengths, outcome)
    if len(lengths) != len(outcome):
        raise ValueError(
            f"every response needs a length and a reward: got {len(lengths)} lengths "
            f"and {len(outcome)} rewards."
        )
    if len(lengths) < 2:
        raise ValueError("a group needs at least 2 responses to compare.")
    if len(lengths) > max_responses:
        raise ValueError(
            f"a group of {len(lengths)} responses is too many here; at most {max_responses}."
        )
    for i, (n, r) in enumerate(zip(lengths, outcome, strict=True), start=1):
        if n is None or (isinstance(n, float) and math.isnan(n)):
            raise ValueError(f"response {i} has no length; give it 1 to {max_tokens} tokens.")
        if (
            isinstance(n, bool)
            or not isinstance(n, numbers.Real)
            or not math.isfinite(n)
            or n != round(n)
            or not 1 <= n <= max_tokens
        ):
            raise ValueError(
                f"response {i} has length {n!r}; lengths must be whole numbers "
                f"from 1 to {max_tokens} tokens."
            )
        if r is None or (isinstance(r, float) and math.isnan(r)):
            raise ValueError(f"response {i} has no reward; type a number such as 0 or 1.")
        if isinstance(r, bool) or not isinstance(r, numbers.Real) or not math.isfinite(r):
            raise ValueError(f"response {i} has reward {r!r}; rewards must be finite numbers.")
    return np.asarray(lengths, dtype=np.intp), np.asarray(outcome, dtype=np.float64)


def toy_kl(lengths, *, mean: float = 0.05, rng: np.random.Generator) -> np.ndarray:
    """(B, T) toy per-token KL estimates log pi - log pi_ref: exponential with this mean
    on real tokens (>= 0, as the k1 estimate is on average), 0 on padding. T = max(lengths)."""
    mask = token_mask(lengths)
    mean = _as_nonnegative(mean, "mean")
    return np.where(mask, rng.exponential(mean, mask.shape) if mean > 0 else 0.0, 0.0)


def blank_padding(x, mask) -> np.ndarray:
    """``x`` as floats with NaN on padding (mask False), so a heatmap leaves those cells blank."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(_as_mask(mask, x.shape), x, np.nan)


@dataclass(frozen=True)
class AdvantageError:
    """How far per-token advantages ``a`` are from a reference ``ref`` on real tokens."""

    error: np.ndarray
    """(B, T) a - ref, NaN on padding."""
    rms: float
    """Root mean square of a - ref over real tokens."""
    mean: float
    """Mean of a - ref over real tokens (a systematic shift)."""
    max_abs: float
    """Largest |a - ref| on a real token."""
    sign_flips: int
    """Real tokens pushed the other way: sign(a) != sign(ref)."""
    tokens: int
    """Real tokens."""
    per_position: np.ndarray
    """(T,) RMS of a - ref at each token position over the responses that reach it."""


def advantage_error(a, ref, mask) -> AdvantageError:
    """Compare per-token advantages ``a`` (say, PPO with a wrong critic) with ``ref`` (a
    perfect critic's), both (B, T), over the real tokens of ``mask``."""
    a = np.asarray(a, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if a.shape != ref.shape:
        raise ValueError(f"advantages must have the same shape, got {a.shape} and {ref.shape}.")
    mask = _as_mask(mask, a.shape)
    if not mask.any():
        raise ValueError("mask has no real tokens to compare.")
    diff = np.where(mask, a - ref, np.nan)
    real = diff[mask]
    with np.errstate(invalid="ignore"):
        per_position = np.sqrt(np.nanmean(np.where(mask, diff**2, np.nan), axis=0))
    return AdvantageError(
        error=diff,
        rms=float(np.sqrt(np.mean(real**2))),
        mean=float(real.mean()),
        max_abs=float(np.abs(real).max()),
        sign_flips=int(np.sum(np.sign(a[mask]) != np.sign(ref[mask]))),
        tokens=int(mask.sum()),
        per_position=per_position,
    )


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
    setups) and the reward model's are left out.
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
    policy["vs_ppo"] = policy["total_tflop"] / policy["total_tflop"].iloc[0]
    return policy


def encode_group(lengths, outcome) -> str:
    """One prompt's responses for a URL: ``12:1_20:0_8:0.5`` (length:reward per response).

    The group is validated as ``response_group`` does (ValueError in plain words).
    """
    lengths, outcome = response_group(lengths, outcome)
    return "_".join(f"{int(n)}:{float(r):.6g}" for n, r in zip(lengths, outcome, strict=True))


def decode_group(text: str, *, max_responses: int = 16):
    """Inverse of ``encode_group``, validated by ``response_group``; ValueError in plain words."""
    if not isinstance(text, str) or len(text) > 40 * max_responses:
        raise ValueError("the responses in the link are too long.")
    cells = text.split("_")
    if len(cells) > max_responses:
        raise ValueError(f"the link has {len(cells)} responses; at most {max_responses} fit.")
    lengths, outcome = [], []
    for i, cell in enumerate(cells, start=1):
        parts = cell.split(":")
        try:
            if len(parts) != 2:
                raise ValueError
            lengths.append(float(parts[0]))
            outcome.append(float(parts[1]))
        except ValueError:
            raise ValueError(
                f"response {i} in the link should read length:reward (like 12:1), "
                f"got {cell[:20]!r}."
            ) from None
    return response_group(lengths, outcome)
