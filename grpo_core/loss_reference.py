"""The policy loss, written to be read: one completion, one token at a time.

``reference_policy_loss`` follows TRL 1.16's ``GRPOTrainer._compute_loss``
(``trl/trainer/grpo_trainer.py``) line by line, as loops over scalars, with the
derivative of each line written beside it (the chain rule by hand):

    r_t   = exp(log p_t - log p_old_t)                  token level
    r     = exp(mean_t (log p_t - log p_old_t))         sequence level (GSPO, arXiv 2507.18071)
    l_t   = -min(min(r, delta) A, clip(r, 1 - eps_low, 1 + eps_high) A)   PPO (arXiv 1707.06347)
          + beta (exp(ref_t - log p_t) - (ref_t - log p_t) - 1) [x r]       k3 KL
    loss  = sum_t weight_t l_t     (the weight per token that loss_type sets)

and the variants' l_t from the papers named in ``grpo_core.loss``. Where torch's
``min`` of two equal values splits the gradient half and half, so does this.
``grpo_core.loss.policy_loss`` computes the same numbers vectorized, fast; the tests
check one against the other, and both against a transcription of TRL run by torch.
"""

from __future__ import annotations

import math

from grpo_core.loss import CLIP_LOSS_TYPES, SAPO_TEMPERATURES, VESPO_LOG_W, VESPO_SHAPE


def reference_policy_loss(
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
) -> tuple[float, list[list[float]]]:
    """(loss, d loss / d logp as B lists of T floats); arguments as ``policy_loss``
    (lists of lists or arrays, checked there, not here)."""
    B, T = len(logp), len(logp[0])
    lengths = [sum(mask[b][t] for t in range(T)) for b in range(B)]
    total_tokens = sum(lengths)
    loss = 0.0
    grad = [[0.0] * T for _ in range(B)]

    for b in range(B):
        A = float(advantages[b])
        n = lengths[b]
        if n == 0:
            continue  # a completion with no tokens: every weight below is 0

        # The weight of each of this completion's token losses in the batch loss.
        if loss_type in ("grpo", "sapo"):
            w = 1.0 / (B * n)  # mean over the completion's tokens, then over completions
        elif loss_type == "dr_grpo":
            w = 1.0 / (B * max_completion_length)
        elif loss_type == "luspo":
            w = 1.0 / B  # sum over the completion's tokens, mean over completions
        else:
            w = 1.0 / total_tokens  # bnpo, dapo, cispo, vespo: mean over the batch's tokens

        tokens = [t for t in range(T) if mask[b][t]]
        log_ratio = {t: logp[b][t] - old_logp[b][t] for t in tokens}
        seq_ratio = math.exp(sum(log_ratio.values()) / n)
        # dL/d r for the sequence ratio, collected over the tokens, passed on at the end.
        d_seq_ratio = 0.0
        phi = _vespo_phi(log_ratio.values(), A, vespo_shape) if loss_type == "vespo" else 0.0

        for t in tokens:
            r = math.exp(log_ratio[t]) if importance_sampling_level == "token" else seq_ratio

            # The policy term and its derivatives: through r (d_r) and directly (d_logp).
            d_r = d_logp = 0.0
            if loss_type in CLIP_LOSS_TYPES:
                capped = r if delta is None else min(r, delta)
                d_capped = 1.0 if delta is None or r <= delta else 0.0
                clipped = min(max(r, 1 - epsilon_low), 1 + epsilon_high)
                d_clipped = 1.0 if 1 - epsilon_low <= r <= 1 + epsilon_high else 0.0
                unclipped_term, clipped_term = capped * A, clipped * A
                term = -min(unclipped_term, clipped_term)
                if unclipped_term < clipped_term:
                    d_r = -A * d_capped
                elif clipped_term < unclipped_term:
                    d_r = -A * d_clipped
                else:  # a tie: torch gives each side half
                    d_r = -A * (d_capped + d_clipped) / 2
            elif loss_type == "cispo":
                weight = min(r, epsilon_high)  # held constant (detached)
                term = -weight * A * logp[b][t]
                d_logp = -weight * A
            elif loss_type == "sapo":
                tau = sapo_temperatures[0] if A > 0 else sapo_temperatures[1]
                s = 1 / (1 + math.exp(-tau * (r - 1)))
                term = -s * 4 / tau * A
                d_r = -4 * s * (1 - s) * A
            else:  # vespo
                term = -phi * A * logp[b][t]
                d_logp = -phi * A

            if beta:
                d = ref_logp[b][t] - logp[b][t]
                kl, d_kl = math.exp(d) - d - 1, 1 - math.exp(d)
                if use_bias_correction_kl:
                    d_r += beta * kl  # the KL term is kl * r
                    d_logp += beta * d_kl * r
                    kl *= r
                else:
                    d_logp += beta * d_kl
                term += beta * kl

            loss += w * term
            grad[b][t] += w * d_logp
            if importance_sampling_level == "token":
                grad[b][t] += w * d_r * r  # d r / d logp_t = r
            else:
                d_seq_ratio += w * d_r

        # The sequence ratio: d r / d logp_t = r / n for each of the completion's tokens.
        for t in tokens:
            grad[b][t] += d_seq_ratio * seq_ratio / n
    return loss, grad


def _vespo_phi(log_ratios, A: float, shape) -> float:
    """VESPO's Gamma weight of the sequence ratio w: exp(lambda + k log w - lambda w)."""
    k_pos, lam_pos, k_neg, lam_neg = shape
    log_w = sum(min(max(x, -20.0), 20.0) for x in log_ratios)
    log_w = min(max(log_w, VESPO_LOG_W[0]), VESPO_LOG_W[1])
    k, lam = (k_pos, lam_pos) if A >= 0 else (k_neg, lam_neg)
    lam = max(lam, 1e-4)
    try:
        phi = math.exp(lam + k * log_w - lam * math.exp(log_w))
    except OverflowError:
        return 0.0
    return phi if math.isfinite(phi) else 0.0
