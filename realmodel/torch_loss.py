"""``grpo_core.loss.policy_loss`` transcribed to torch, so autograd can carry it into a model.

Only the clip family (grpo, bnpo, dr_grpo, dapo, luspo), token or sequence level, without
KL (beta = 0): the options the real-model step uses. Everything that does not depend on the
log-probabilities (each token's weight, the clip bounds) is taken from ``grpo_core.loss``
itself (``token_weights``); the rest is the same lines in torch (``surrogate_torch``):

    r = exp(logp - old_logp)  (sequence level: exp of each completion's mean log-ratio)
    loss = sum over tokens of weight * (-A * clamp(r, lo, hi))

tests/realmodel/test_torch_loss.py checks the loss and autograd's gradient against
``policy_loss``'s ``loss`` and ``grad``. Shapes: logp, old_logp, mask (B, T); advantages (B,).
"""

from __future__ import annotations

import numpy as np

from grpo_core import loss as np_loss


def token_weights(
    advantages,
    mask,
    *,
    loss_type: str = "dapo",
    importance_sampling_level: str = "token",
    max_completion_length: int | None = None,
) -> np.ndarray:
    """(B, T) each token's weight in the loss, read from ``grpo_core.loss`` itself.

    It depends on the mask (and loss_type) only, never on the log-probabilities: a batch
    can be weighed once and then summed one completion at a time (``surrogate_torch``)."""
    if loss_type not in np_loss.CLIP_LOSS_TYPES:
        raise ValueError(
            f"The torch step supports {', '.join(np_loss.CLIP_LOSS_TYPES)}, not {loss_type!r}."
        )
    m = np.asarray(mask, dtype=np.float64)
    zeros = np.zeros(m.shape)
    return np_loss.policy_loss(
        zeros,
        zeros,
        np.asarray(advantages, dtype=np.float64),
        m,
        loss_type=loss_type,
        importance_sampling_level=importance_sampling_level,
        max_completion_length=max_completion_length,
    ).weight


def surrogate_torch(
    logp,
    old_logp,
    advantages,
    mask,
    weight,
    *,
    importance_sampling_level: str = "token",
    epsilon_low: float = 0.2,
    epsilon_high: float = 0.2,
):
    """sum over tokens of weight * (-A * clamp(r, lo, hi)), a torch scalar with a graph to
    ``logp``. Rows are independent: the sum over a batch equals the sum of each row's call
    with its own row of ``weight``. logp, old_logp (torch or numpy), mask, weight: (B, T)."""
    import torch

    adv_np = np.asarray(advantages, dtype=np.float64)
    lo, hi = np_loss.clip_bounds(adv_np, epsilon_low, epsilon_high, np.inf)

    def t(x):
        return torch.as_tensor(np.asarray(x, dtype=np.float64), dtype=logp.dtype)

    m, a = t(mask), t(adv_np)[:, None]
    old = old_logp.to(logp.dtype) if torch.is_tensor(old_logp) else t(old_logp)
    log_ratio = (logp - old) * m
    if importance_sampling_level == "sequence":
        lengths = m.sum(dim=1, keepdim=True).clamp(min=1.0)
        ratio = torch.exp(log_ratio.sum(dim=1, keepdim=True) / lengths)
    else:
        ratio = torch.exp(log_ratio)
    clipped = torch.clamp(ratio, min=t(lo), max=t(hi))
    return (-a * clipped * t(weight)).sum()


def policy_loss_torch(
    logp,
    old_logp,
    advantages,
    mask,
    *,
    loss_type: str = "dapo",
    importance_sampling_level: str = "token",
    epsilon_low: float = 0.2,
    epsilon_high: float = 0.2,
    max_completion_length: int | None = None,
):
    """The scalar loss as a torch tensor with a graph to ``logp`` (torch (B, T), any float)."""
    weight = token_weights(
        advantages,
        mask,
        loss_type=loss_type,
        importance_sampling_level=importance_sampling_level,
        max_completion_length=max_completion_length,
    )
    return surrogate_torch(
        logp,
        old_logp,
        advantages,
        mask,
        weight,
        importance_sampling_level=importance_sampling_level,
        epsilon_low=epsilon_low,
        epsilon_high=epsilon_high,
    )
