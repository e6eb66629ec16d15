"""From advantage to update: GRPO's policy loss and its gradient on every token's log-prob.

``policy_loss`` computes what TRL 1.16's ``GRPOTrainer._compute_loss`` computes from the
per-token log-probabilities (``huggingface/trl`` ``trl/trainer/grpo_trainer.py``, v1.16.0),
with the options named as TRL names them, and the gradient autograd would give, in closed
form (numpy, float64, no torch). With r the importance ratio and A the advantage:

    clip family (grpo, bnpo, dr_grpo, dapo, luspo):
            l = -min(min(r, delta) A, clip(r, 1 - eps_low, 1 + eps_high) A)
    cispo:  l = -sg[min(r, eps_high)] A log p        sapo:  l = -(4/tau) sigmoid(tau (r - 1)) A
    vespo:  l = -sg[phi(w)] A log p                  sg[.]: no gradient flows through it

plus ``beta * k3`` when beta > 0 (times r with ``use_bias_correction_kl``), then summed
over tokens with a weight per token that ``loss_type`` sets (``AGGREGATION``).

The loss types, as TRL 1.16 offers them (``GRPOConfig.loss_type``):
- ``grpo``: each completion's token losses averaged over its length, then over completions
  (DeepSeekMath, arXiv 2402.03300). Biased by length: short right answers and long wrong ones
  weigh more per token.
- ``bnpo``: one average over every token of the (local) batch.
- ``dr_grpo``: sum over tokens divided by B x ``max_completion_length``, a constant (Dr. GRPO,
  arXiv 2503.20783).
- ``dapo`` (TRL's default): sum over tokens divided by the batch's token count (DAPO,
  arXiv 2503.14476). Here, one process and no accumulation: that count is ``mask.sum()``.
- ``cispo``: clips the importance *weight*, not the update: the weight min(r, eps_high) is
  held constant and multiplies A log p, so clipped tokens still get a gradient (MiniMax-M1,
  arXiv 2506.13585; ``epsilon_high`` is then the cap itself, 5.0 recommended by ScaleRL).
- ``sapo``: a smooth gate (4/tau) sigmoid(tau (r - 1)) in place of the clip, tau =
  ``sapo_temperature_pos`` for A > 0 and ``sapo_temperature_neg`` otherwise (SAPO,
  arXiv 2511.20347); averaged as ``grpo``.
- ``luspo``: the clip surrogate summed over each completion's tokens, then averaged over
  completions: a sequence-level loss scaled by length (LUSPO, arXiv 2602.05261; meant for
  ``importance_sampling_level="sequence"``).
- ``vespo``: a Gamma weight phi(w) = exp(lambda) w^k exp(-lambda w) of the sequence ratio w,
  held constant, times A log p (VESPO, arXiv 2602.10693); averaged as ``dapo``.

``importance_sampling_level="sequence"`` is GSPO (arXiv 2507.18071): one ratio per completion,
exp(mean over its tokens of log p - log p_old), shared by every token. With ``bnpo``,
``dr_grpo``, ``dapo`` or ``cispo`` TRL only warns, and each completion then weighs by its
length; so does this function. ``delta`` caps r at delta whatever A's sign (INTELLECT-2,
arXiv 2505.07291). A row whose mask is all zeros contributes nothing (its tokens weigh 0).

Shapes: B completions, T token positions. ``logp``, ``old_logp``, ``ref_logp``, ``mask``
are (B, T), the mask 1 on a completion's tokens and 0 on padding; ``advantages`` is (B,).
Bad input (shapes, NaN, an unknown option, beta > 0 without ``ref_logp``) raises ValueError.
Not modelled: gradient accumulation, several processes, vLLM's importance correction,
the entropy mask and bonus, off-policy sequence masking.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from grpo_core import _checks

LOSS_TYPES = ("grpo", "bnpo", "dr_grpo", "dapo", "cispo", "sapo", "luspo", "vespo")
"""TRL 1.16's ``loss_type`` values, in its documentation's order (grpo first)."""
CLIP_LOSS_TYPES = ("grpo", "bnpo", "dr_grpo", "dapo", "luspo")
"""The loss types built on PPO's clipped surrogate (epsilon_low/high and delta apply)."""
IS_LEVELS = ("token", "sequence")
AGGREGATION = {
    "grpo": "mean over each completion's tokens, then over completions",
    "sapo": "mean over each completion's tokens, then over completions",
    "bnpo": "mean over every token of the batch",
    "dapo": "sum over tokens / the batch's token count",
    "cispo": "sum over tokens / the batch's token count",
    "vespo": "sum over tokens / the batch's token count",
    "dr_grpo": "sum over tokens / (B x max_completion_length)",
    "luspo": "sum over each completion's tokens, mean over completions",
}
"""How each loss type turns per-token losses into one number (TRL 1.16's _compute_loss)."""
FREE, LOW, HIGH, DELTA = 0, 1, 2, 3
"""Clip codes per token (``PolicyLoss.clip``): free, clipped low (A < 0, r < 1 - eps_low),
clipped high (A > 0, r > 1 + eps_high; cispo: weight capped at eps_high), capped by delta."""
SAPO_TEMPERATURES = (1.0, 1.05)
"""TRL 1.16's defaults: sapo_temperature_pos, sapo_temperature_neg."""
VESPO_SHAPE = (2.0, 3.0, 3.0, 2.0)
"""TRL 1.16's defaults: vespo_k_pos, vespo_lambda_pos, vespo_k_neg, vespo_lambda_neg."""
VESPO_LOG_W = (math.log(1e-8), 20.0)
"""TRL's clamp of the log sequence weight (and of each token's log-ratio, at +-20)."""


@dataclass(frozen=True)
class ClipFraction:
    """TRL's clip metrics: the share of tokens (sequence level: of completions) clipped.

    Clip-family loss types: ``clip_ratio/low_mean``, ``high_mean``, ``region_mean``. cispo:
    ``high`` and ``region`` are ``cispo_clip_ratio`` (weight capped at eps_high). sapo and
    vespo clip nothing: all 0."""

    low: float
    high: float
    region: float


@dataclass(frozen=True)
class PolicyLoss:
    """The result of ``policy_loss``; (B, T) arrays are 0 on padding."""

    loss: float
    """The scalar TRL backpropagates (beta * KL included)."""
    grad: np.ndarray
    """(B, T) d loss / d logp."""
    per_token: np.ndarray
    """(B, T) each token's loss before aggregation (sequence level: the completion's)."""
    weight: np.ndarray
    """(B, T) the weight of each token's loss in ``loss`` (``AGGREGATION``)."""
    ratio: np.ndarray
    """(B, T) importance ratio r = p / p_old (sequence level: the completion's, on each token)."""
    kl: np.ndarray
    """(B, T) k3 estimate of KL(pi || pi_ref), times r when bias-corrected; 0 without ref_logp."""
    clip: np.ndarray
    """(B, T) int8 clip code: FREE, LOW, HIGH or DELTA."""
    clip_fraction: ClipFraction


def policy_loss(
    logp,
    old_logp,
    advantages,
    mask,
    *,
    loss_type: str = "dapo",
    importance_sampling_level: str = "token",
    epsilon_low: float = 0.2,
    epsilon_high: float = 0.2,
    delta: float | None = None,
    beta: float = 0.0,
    ref_logp=None,
    use_bias_correction_kl: bool = True,
    max_completion_length: int | None = None,
    sapo_temperatures: tuple[float, float] = SAPO_TEMPERATURES,
    vespo_shape: tuple[float, float, float, float] = VESPO_SHAPE,
) -> PolicyLoss:
    """TRL 1.16's GRPO loss of one batch and its gradient on ``logp`` (see the module doc).

    logp, old_logp, ref_logp, mask: (B, T); advantages: (B,). epsilon_low/high: the clip
    range [1 - eps_low, 1 + eps_high] (cispo: eps_high is the weight cap). delta: two-sided
    cap on r, None = off. beta: KL coefficient (k3; needs ref_logp when > 0).
    max_completion_length: dr_grpo's constant. sapo_temperatures: (pos, neg); vespo_shape:
    (k_pos, lambda_pos, k_neg, lambda_neg).
    """
    logp, old_logp, adv, m, real = _checked_arrays(logp, old_logp, advantages, mask)
    loss_type, level = _checked_choices(loss_type, importance_sampling_level)
    eps_low = _checks.non_negative(epsilon_low, "epsilon_low")
    eps_high = _checks.non_negative(epsilon_high, "epsilon_high")
    cap = math.inf if delta is None else _above_one(delta, "delta")
    beta = _checks.non_negative(beta, "beta")
    ref = _checked_ref(ref_logp, logp.shape, beta)
    lengths = np.count_nonzero(real, axis=1).astype(np.float64)  # (B,)
    row_weight = _row_weight(loss_type, lengths, max_completion_length)  # (B,)
    a = adv[:, None]

    log_ratio = logp - old_logp
    if level == "token":  # (B, T); vespo reads the log-ratios again, the others need only r
        ratio = np.exp(log_ratio, out=None if loss_type == "vespo" else log_ratio)
    else:  # GSPO: exp of each completion's mean log-ratio, (B, 1)
        ratio = np.exp((log_ratio * m).sum(axis=1, keepdims=True) / np.maximum(lengths, 1)[:, None])

    # Each token's policy term is f(r) + g logp with g held constant; d_dr = df/dr.
    g = 0.0
    if loss_type in CLIP_LOSS_TYPES:
        lo, hi = clip_bounds(adv, eps_low, eps_high, cap)
        clipped = np.minimum(np.maximum(ratio, lo), hi)  # np.clip, faster on (B, 1) bounds
        free = clipped == ratio  # the gradient flows (torch: r inside the clamp, or a tie)
        policy = np.multiply(clipped, -a, out=clipped)
        d_dr = np.where(free, -a, 0.0) if ref is not None or level == "sequence" else None
        code = _clip_codes(free, ratio, adv, eps_high, cap)
    elif loss_type == "cispo":
        g = -np.minimum(ratio, eps_high) * a
        policy, d_dr = g * logp, 0.0
        code = np.where((ratio > eps_high) & (a > 0), HIGH, FREE).astype(np.int8)
    elif loss_type == "sapo":
        policy, d_dr = _sapo(ratio, a, *_positive_pair(sapo_temperatures, "sapo_temperatures"))
        code = np.zeros((1, 1), dtype=np.int8)
    else:  # vespo
        g = -vespo_weight(log_ratio, m, adv, vespo_shape)[:, None] * a
        policy, d_dr = g * logp, 0.0
        code = np.zeros((1, 1), dtype=np.int8)

    kl = None if ref is None else k3(logp, ref)
    if ref is not None:
        d_kl = 1.0 - np.exp(ref - logp)  # d k3 / d logp
        if use_bias_correction_kl:
            d_kl, d_dr, kl = d_kl * ratio, d_dr + beta * kl, kl * ratio  # (k3 r)' = k3' r + k3 r'
        g = g + beta * d_kl
        policy = policy + beta * kl
    per_token = np.multiply(policy, m, out=policy if policy.shape == m.shape else None)
    weight = m * row_weight[:, None]

    # d loss / d logp = weight (g + d_dr r), d_dr summed over a completion at sequence level.
    if d_dr is None:  # the clip family, token level, no KL: -A r where free, else 0
        grad = ratio * m
        grad *= free
        grad *= -a * row_weight[:, None]
    else:
        dr = weight * d_dr
        if level == "sequence":
            dr = dr.sum(axis=1, keepdims=True) * m / np.maximum(lengths, 1)[:, None]
        grad = weight * g + dr * ratio
        grad *= m
    fraction = _clip_fraction(code, real, loss_type)
    return PolicyLoss(
        loss=exact_sum(per_token.sum(axis=1) * row_weight, per_token.size),
        grad=grad,
        per_token=per_token,
        weight=weight,
        ratio=np.multiply(ratio, m, out=ratio if ratio.shape == m.shape else None),
        kl=np.zeros(logp.shape) if kl is None else kl * m,
        clip=np.broadcast_to(code, logp.shape) * real,
        clip_fraction=fraction,
    )


def exact_sum(terms, n: int | None = None) -> float:
    """The sum of ``terms`` (any shape), exactly rounded, and 0 when it is within float64
    rounding of 0: |sum| <= n * 2^-52 * sum |terms|, n the number of values summed into the
    terms (their count when None). A batch's advantages cancel, so on the first update
    after sampling GRPO's loss is 0 in exact arithmetic; left alone it reads 0 on one
    machine and 3e-18 on another, as the order of BLAS's and numpy's sums differs by CPU.
    Terms that are not finite, or whose sum overflows, give numpy's sum (inf or nan)."""
    terms = np.ravel(terms)
    n = terms.size if n is None else n
    try:
        total, scale = math.fsum(terms), math.fsum(np.abs(terms))
    except (OverflowError, ValueError):  # past float64's range, or inf - inf
        scale = math.inf
    if not math.isfinite(scale):
        with np.errstate(over="ignore", invalid="ignore"):
            return float(np.sum(terms))
    return 0.0 if abs(total) <= n * np.finfo(float).eps * scale else total


def clip_bounds(advantages: np.ndarray, eps_low: float, eps_high: float, delta: float):
    """(B, 1) bounds lo, hi with -min(min(r, delta) A, clip(r) A) = -A clip(r, lo, hi).

    A > 0: min(min(r, delta), clip(r)) = min(r, delta, 1 + eps_high), no lower bound.
    A < 0: max(min(r, delta), clip(r)) = clip(r, 1 - eps_low, max(delta, 1 + eps_high)).
    Inside [lo, hi] torch's min ties or picks r, so d l / d r = -A; outside it is 0.
    """
    pos = (advantages > 0)[:, None]
    lo = np.where(pos, -np.inf, 1.0 - eps_low)
    hi = np.where(pos, min(delta, 1.0 + eps_high), max(delta, 1.0 + eps_high))
    return lo, hi


def k3(logp: np.ndarray, ref_logp: np.ndarray) -> np.ndarray:
    """Schulman's k3 estimate of KL(pi || pi_ref) per token: exp(d) - d - 1, d = ref - logp."""
    d = ref_logp - logp
    return np.exp(d) - d - 1.0


def vespo_weight(log_ratio: np.ndarray, mask: np.ndarray, advantages: np.ndarray, shape):
    """(B,) VESPO's phi(w) = exp(lambda + k log w - lambda w), w the sequence ratio.

    log w = sum of each token's log-ratio (clamped to +-20), clamped to [log 1e-8, 20];
    (k, lambda) = (k_pos, lambda_pos) for A >= 0, else (k_neg, lambda_neg). As TRL's
    get_gamma_weights, a non-finite phi becomes 0."""
    k_pos, lam_pos, k_neg, lam_neg = (_checks.finite(x, "vespo_shape") for x in shape)
    log_w = (np.clip(log_ratio, -20.0, 20.0) * mask).sum(axis=1)
    log_w = np.clip(log_w, *VESPO_LOG_W)
    nonneg = advantages >= 0
    k = np.where(nonneg, k_pos, k_neg)
    lam = np.maximum(np.where(nonneg, lam_pos, lam_neg), 1e-4)
    with np.errstate(over="ignore", invalid="ignore"):
        phi = np.exp(lam + k * log_w - lam * np.exp(log_w))
    return np.nan_to_num(phi, nan=0.0, posinf=0.0, neginf=0.0)


def _sapo(ratio, a, tau_pos: float, tau_neg: float):
    """SAPO's soft gate: l = -(4/tau) sigmoid(tau (r - 1)) A and dl/dr = -4 s (1 - s) A."""
    tau = np.where(a > 0, tau_pos, tau_neg)
    s = 1.0 / (1.0 + np.exp(-tau * (ratio - 1.0)))
    return -s * 4.0 / tau * a, -4.0 * s * (1.0 - s) * a


def _clip_codes(free, ratio, adv, eps_high: float, delta: float) -> np.ndarray:
    """(B, T) or (B, 1) int8: FREE where the gradient flows; else LOW, HIGH (TRL's
    is_low/high_clipped, on r after the delta cap) or DELTA (the cap, not the clip, stops it).

    A > 0 stops at min(delta, 1 + eps_high): HIGH, or DELTA when delta is the lower bound.
    A < 0 stops below 1 - eps_low (LOW) or above max(delta, 1 + eps_high) (DELTA; delta > 1)."""
    row = np.where(adv > 0, HIGH if delta > 1 + eps_high else DELTA, np.where(adv < 0, LOW, FREE))
    code = np.logical_not(free).view(np.int8) * row.astype(np.int8)[:, None]
    if math.isfinite(delta) and (adv < 0).any():
        code[(code == LOW) & (ratio > 1)] = DELTA
    return code


def _clip_fraction(code, real, loss_type: str) -> ClipFraction:
    """TRL's global_masked_mean of its clip flags: over real tokens, or, with one code per
    completion (sequence level), over completions, empty ones included."""
    if loss_type not in CLIP_LOSS_TYPES and loss_type != "cispo":
        return ClipFraction(0.0, 0.0, 0.0)
    if code.shape[1] == 1:
        low, high, count = code == LOW, code == HIGH, code.shape[0]
    else:
        low, high, count = (code == LOW) & real, (code == HIGH) & real, np.count_nonzero(real)
    low, high = np.count_nonzero(low) / max(count, 1), np.count_nonzero(high) / max(count, 1)
    return ClipFraction(low, high, low + high)


def _row_weight(loss_type: str, lengths: np.ndarray, max_completion_length) -> np.ndarray:
    """(B,) the weight of each real token of each completion (``AGGREGATION``)."""
    B = len(lengths)
    if loss_type in ("grpo", "sapo"):
        return 1.0 / (B * np.maximum(lengths, 1.0))
    if loss_type == "dr_grpo":
        if max_completion_length is None:
            raise ValueError("loss_type 'dr_grpo' needs max_completion_length (its constant).")
        longest = int(lengths.max())
        limit = _checks.whole(max_completion_length, "max_completion_length", minimum=1)
        if limit < longest:
            raise ValueError(
                f"max_completion_length is {limit} but a completion has {longest} tokens."
            )
        return np.full(B, 1.0 / (B * limit))
    if loss_type == "luspo":
        return np.full(B, 1.0 / B)
    return np.full(B, 1.0 / max(lengths.sum(), 1.0))  # bnpo, dapo, cispo, vespo


def _checked_arrays(logp, old_logp, advantages, mask):
    logp = _log_probs(logp, "logp", None)
    old_logp = _log_probs(old_logp, "old_logp", logp.shape)
    adv = np.asarray(advantages, dtype=np.float64)
    if adv.shape != logp.shape[:1]:
        raise ValueError(
            f"advantages must have one value per completion, shape ({logp.shape[0]},); "
            f"got {adv.shape}."
        )
    if not np.all(np.isfinite(adv)):
        raise ValueError("advantages must be finite numbers (no NaN or infinity).")
    real = _mask(mask, logp.shape)
    m = mask if isinstance(mask, np.ndarray) and mask.dtype == np.float64 else real.astype(float)
    return logp, old_logp, adv, m, real


def _mask(mask, shape) -> np.ndarray:
    """(B, T) bool: True on a completion's tokens; ValueError unless 0/1 (or bool) of ``shape``."""
    arr = np.asarray(mask)
    if arr.shape != shape:
        raise ValueError(f"mask must have shape {shape} like logp, got {arr.shape}.")
    if arr.dtype == bool:
        return arr
    real = arr == 1
    if np.count_nonzero(real) + np.count_nonzero(arr == 0) != arr.size:
        raise ValueError("mask must be 1 (a token) or 0 (padding) everywhere.")
    return real


def _log_probs(x, name: str, shape) -> np.ndarray:
    """``x`` as a (B, T) float64 array of finite log-probabilities (<= 0)."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a table of numbers (completions x tokens).") from None
    if shape is None and (arr.ndim != 2 or 0 in arr.shape):
        raise ValueError(f"{name} must be a non-empty 2-D array (completions x tokens).")
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name} must have the shape of logp, {shape}; got {arr.shape}.")
    # A sum is NaN or infinite when an entry is (a fast test; the exact one only then).
    if not math.isfinite(arr.sum()) and not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite numbers (no NaN or infinity).")
    if arr.max() > 0:
        raise ValueError(f"{name} must be log-probabilities, each <= 0; got {arr.max():g}.")
    return arr


def _checked_choices(loss_type, level) -> tuple[str, str]:
    if loss_type not in LOSS_TYPES:
        raise ValueError(f"loss_type must be one of {', '.join(LOSS_TYPES)}; got {loss_type!r}.")
    if level not in IS_LEVELS:
        raise ValueError(f"importance_sampling_level must be 'token' or 'sequence'; got {level!r}.")
    return loss_type, level


def _checked_ref(ref_logp, shape, beta: float):
    if ref_logp is None:
        if beta > 0:
            raise ValueError("beta > 0 puts a KL term in the loss: it needs ref_logp.")
        return None
    return _log_probs(ref_logp, "ref_logp", shape)


def _above_one(x, name: str) -> float:
    x = _checks.finite(x, name)
    if x <= 1:
        raise ValueError(f"{name} caps the ratio from above: it must be a number > 1, got {x!r}.")
    return x


def _positive(x, name: str) -> float:
    x = _checks.finite(x, name)
    if x <= 0:
        raise ValueError(f"{name} must be a number > 0, got {x!r}.")
    return x


def _positive_pair(pair, name: str) -> tuple[float, float]:
    pos, neg = pair
    return _positive(pos, f"{name}[0]"), _positive(neg, f"{name}[1]")
