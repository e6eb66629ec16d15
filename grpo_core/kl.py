"""The per-token KL estimators trainers use, from the log-ratio of one sampled token.

For a token sampled from the policy pi, with log r = log pi_ref(token) - log pi(token):

    k1 = -log r                  unbiased for KL(pi || pi_ref), can be negative
    k2 = (log r)^2 / 2           never negative, biased (close to k1's KL for small ratios)
    k3 = (r - 1) - log r         never negative and unbiased (Schulman's estimator)

GRPO (DeepSeekMath, arXiv 2402.03300) and TRL's GRPOTrainer put k3 in the loss
(``per_token_loss + beta * per_token_kl``); TRL's RLOOTrainer and OpenRLHF's default
(``--algo.kl.estimator k1``) subtract beta times a KL estimate from the reward instead.
Names follow John Schulman's note "Approximating KL Divergence", which OpenRLHF's
``compute_approx_kl`` cites.
"""

from __future__ import annotations

import numpy as np

from grpo_core import _checks

ESTIMATORS: tuple[str, ...] = ("k1", "k2", "k3")


def kl_estimate(log_ratio, estimator: str = "k3") -> np.ndarray:
    """Per-token KL(pi || pi_ref) estimates, same shape as ``log_ratio``.

    log_ratio: log pi(token) - log pi_ref(token) for tokens sampled from pi (any shape,
    finite). estimator: "k1", "k2" or "k3" (see the module docstring).
    """
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {', '.join(ESTIMATORS)}; got {estimator!r}.")
    if isinstance(log_ratio, (str, bytes)):
        raise ValueError("log ratios must be numbers, not text.")
    try:
        x = _checks.finite_array(log_ratio, "log ratios", shape=None)
    except (TypeError, ValueError):
        raise ValueError("log ratios must be finite numbers.") from None
    if np.abs(x).max(initial=0.0) > 700:
        raise ValueError("log ratios must be within ±700 (exp overflows beyond).")
    if estimator == "k1":
        return x.copy()
    if estimator == "k2":
        return x * x / 2
    return np.expm1(-x) + x  # r - 1 - log r with log r = -x, accurate for small x
