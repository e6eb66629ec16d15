"""A toy critic against GRPO on one prompt's responses, for the "PPO critic vs GRPO" page.

The critic's values are the task's true values (``expected_returns``) plus a bias
and noise; ``critic_comparison`` runs GAE with a perfect critic and with the toy
one, and GRPO's shared advantage, and measures how far the toy critic is off.
Shapes as in ``grpo_core.gae``: B responses padded to T tokens.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from grpo_core import _checks
from grpo_core.format import fmt
from grpo_core.gae import expected_returns, gae, grpo_token_advantages, token_mask, token_rewards


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
    mask = _checks.token_mask(mask, true_values.shape)
    bias = _checks.finite(bias, "bias")
    noise = _checks.non_negative(noise, "noise")
    values = true_values + bias
    if noise > 0:
        if rng is None:
            raise ValueError(
                "noise > 0 needs a random generator: pass rng=np.random.default_rng()."
            )
        values = values + noise * rng.standard_normal(values.shape)
    return np.where(mask, values, 0.0)


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
    mean = _checks.non_negative(mean, "mean")
    return np.where(mask, rng.exponential(mean, mask.shape) if mean > 0 else 0.0, 0.0)


def blank_padding(x, mask) -> np.ndarray:
    """``x`` as floats with NaN on padding (mask False), so a heatmap leaves those cells blank."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(_checks.token_mask(mask, x.shape), x, np.nan)


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
    mask = _checks.token_mask(mask, a.shape)
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
class CriticComparison:
    """One prompt's B responses (padded to T tokens) through PPO with a perfect critic,
    PPO with a toy critic, and GRPO; what ``critic_comparison`` returns."""

    lengths: np.ndarray
    """(B,) real tokens per response."""
    outcome: np.ndarray
    """(B,) outcome reward of each response."""
    labels: tuple[str, ...]
    """(B,) "#1 R=1 L=12": number, reward and length of each response."""
    mask: np.ndarray
    """(B, T) bool, True on real tokens."""
    kl_coef: float
    """The KL penalty's beta (0 without the penalty)."""
    perfect: np.ndarray
    """(B, T) GAE advantages with the true values V* (a perfect critic), 0 on padding."""
    yours: np.ndarray
    """(B, T) GAE advantages with the toy critic's values, 0 on padding."""
    grpo: np.ndarray
    """(B, T) GRPO's advantage of each response on each of its tokens, 0 on padding."""
    error: AdvantageError
    """``yours`` against ``perfect`` over the real tokens."""


def critic_comparison(
    lengths,
    outcome,
    *,
    bias: float,
    noise: float,
    gamma: float,
    lam: float,
    convention: str,
    rng: np.random.Generator,
    kl_coef: float | None = None,
    kl_mean: float = 0.05,
) -> CriticComparison:
    """Per-token advantages of one group three ways, and the toy critic's error.

    lengths, outcome: (B,) as ``response_group`` returns them. bias, noise: the toy
    critic's error (``toy_values``). gamma, lam: GAE's. convention: GRPO's
    (``group_advantages``). kl_coef: None for no KL penalty, else beta on a toy KL
    (``toy_kl`` with mean ``kl_mean``). rng draws the toy KL, then the critic's noise.
    """
    mask = token_mask(lengths)
    kl = None if kl_coef is None else toy_kl(lengths, mean=kl_mean, rng=rng)
    beta = 0.0 if kl_coef is None else kl_coef
    rewards = token_rewards(lengths, outcome, kl=kl, kl_coef=beta)
    true_values = expected_returns(outcome, lengths, kl=kl, kl_coef=beta, gamma=gamma)
    your_values = toy_values(true_values, mask, bias=bias, noise=noise, rng=rng)
    perfect = gae(rewards, true_values, gamma=gamma, lam=lam, mask=mask)
    yours = gae(rewards, your_values, gamma=gamma, lam=lam, mask=mask)
    return CriticComparison(
        lengths=np.asarray(lengths),
        outcome=np.asarray(outcome, dtype=np.float64),
        labels=tuple(
            f"#{i} R={fmt(r)} L={n}"
            for i, (r, n) in enumerate(zip(outcome, lengths, strict=True), start=1)
        ),
        mask=mask,
        kl_coef=beta,
        perfect=perfect,
        yours=yours,
        grpo=grpo_token_advantages(outcome, lengths, convention=convention),
        error=advantage_error(yours, perfect, mask),
    )


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


def _as_lists(lengths, outcome) -> tuple[list, list]:
    """Both as lists; ValueError (not TypeError) for a single number or other non-lists."""
    try:
        return list(lengths), list(outcome)
    except TypeError:
        raise ValueError("lengths and rewards must be lists, one entry per response.") from None
