"""The oracle for grpo_core.loss: TRL 1.16's loss lines, transcribed to a torch function.

Transcribed from huggingface/trl v1.16.0, ``trl/trainer/grpo_trainer.py``,
``GRPOTrainer._compute_loss`` (the lines from ``log_ratio = per_token_logps -
old_per_token_logps`` to the ``loss_type`` aggregation) and ``get_gamma_weights`` (VESPO),
read from the installed wheel. Left out, because policy_loss does not model them: the
model forward, the entropy mask and bonus, off-policy masking, vLLM's importance
correction, gradient accumulation (one step, one process: TRL's ``num_items_in_batch``
is the batch's token count and every normalizer is 1). ``trl_method_loss`` runs TRL's
real method on a stand-in ``self`` to check this transcription.
"""

from __future__ import annotations

import math
import types
from collections import defaultdict

import numpy as np
import torch

ARGS = {  # GRPOConfig defaults in TRL 1.16
    "sapo_temperature_pos": 1.0,
    "sapo_temperature_neg": 1.05,
    "vespo_k_pos": 2.0,
    "vespo_lambda_pos": 3.0,
    "vespo_k_neg": 3.0,
    "vespo_lambda_neg": 2.0,
}


def _gamma_weights(advantages, log_ratio_per_token, mask, k_pos, lambda_pos, k_neg, lambda_neg):
    """GRPOTrainer.get_gamma_weights (no vLLM importance ratio), under no_grad."""
    with torch.no_grad():
        lower_clamp = math.log(1e-8)
        log_ratio_clamped = torch.clamp(log_ratio_per_token, -20.0, 20.0)
        seq_log_ratio = torch.sum(log_ratio_clamped * mask, dim=-1, keepdim=True)
        log_w_seq = torch.clamp(seq_log_ratio, lower_clamp, 20.0)
        w_seq = torch.exp(log_w_seq)
        is_nonneg_adv = advantages >= 0
        k_seq = torch.where(is_nonneg_adv, k_pos, k_neg)
        lambda_seq = torch.where(is_nonneg_adv, lambda_pos, lambda_neg).clamp(min=1e-4)
        log_phi = lambda_seq + k_seq * log_w_seq - lambda_seq * w_seq
        return torch.exp(log_phi).nan_to_num(nan=0.0, posinf=0.0, neginf=0.0)


def trl_loss(
    logp,
    old_logp,
    advantages,
    mask,
    *,
    loss_type="dapo",
    importance_sampling_level="token",
    epsilon_low=0.2,
    epsilon_high=0.2,
    delta=None,
    beta=0.0,
    ref_logp=None,
    use_bias_correction_kl=True,
    max_completion_length=None,
):
    """(loss, d loss / d logp) by torch autograd in float64, as TRL 1.16 computes them."""
    per_token_logps = torch.tensor(np.asarray(logp, dtype=np.float64), requires_grad=True)
    old_per_token_logps = torch.tensor(np.asarray(old_logp, dtype=np.float64))
    mask = torch.tensor(np.asarray(mask, dtype=np.float64))
    advantages = torch.tensor(np.asarray(advantages, dtype=np.float64)).unsqueeze(1)
    args = types.SimpleNamespace(**ARGS)

    log_ratio = per_token_logps - old_per_token_logps
    if importance_sampling_level == "token":
        log_importance_weights = log_ratio
    elif importance_sampling_level == "sequence":
        log_importance_weights = (log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)
        log_importance_weights = log_importance_weights.unsqueeze(-1)
    coef_1 = torch.exp(log_importance_weights)

    if beta != 0.0:
        ref_per_token_logps = torch.tensor(np.asarray(ref_logp, dtype=np.float64))
        per_token_kl = (
            torch.exp(ref_per_token_logps - per_token_logps)
            - (ref_per_token_logps - per_token_logps)
            - 1
        )
        if use_bias_correction_kl:
            per_token_kl = per_token_kl * coef_1

    if loss_type == "cispo":
        clamped_ratios = torch.clamp(coef_1, max=epsilon_high).detach()
        per_token_loss = -clamped_ratios * advantages * per_token_logps
    elif loss_type in ["grpo", "bnpo", "dr_grpo", "dapo", "luspo"]:
        coef_2 = torch.clamp(coef_1, 1 - epsilon_low, 1 + epsilon_high)
        if delta is not None:
            coef_1 = torch.clamp(coef_1, max=delta)
        per_token_loss1 = coef_1 * advantages
        per_token_loss2 = coef_2 * advantages
        per_token_loss = -torch.min(per_token_loss1, per_token_loss2)
    elif loss_type == "sapo":
        temperatures = torch.where(
            advantages > 0, args.sapo_temperature_pos, args.sapo_temperature_neg
        )
        soft_coef_1 = torch.sigmoid(temperatures * (coef_1 - 1)) * 4 / temperatures
        per_token_loss = -soft_coef_1 * advantages
    elif loss_type == "vespo":
        phi_seq = _gamma_weights(
            advantages,
            log_ratio,
            mask,
            args.vespo_k_pos,
            args.vespo_lambda_pos,
            args.vespo_k_neg,
            args.vespo_lambda_neg,
        )
        per_token_loss = -phi_seq * advantages * per_token_logps

    if beta != 0.0:
        per_token_loss = per_token_loss + beta * per_token_kl

    if loss_type in ["grpo", "sapo"]:
        loss = ((per_token_loss * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)).mean()
    elif loss_type == "bnpo":
        loss = (per_token_loss * mask).sum() / mask.sum().clamp(min=1.0)
    elif loss_type == "dr_grpo":
        loss = (per_token_loss * mask).sum() / (per_token_loss.size(0) * max_completion_length)
    elif loss_type in ["cispo", "dapo", "vespo"]:
        normalizer = mask.sum().clamp(min=1.0)  # num_items_in_batch, one process, one step
        loss = (per_token_loss * mask).sum() / normalizer
    elif loss_type == "luspo":
        loss = (per_token_loss * mask).sum(-1).mean()

    loss.backward()
    return loss.item(), per_token_logps.grad.numpy()


def trl_method_loss(logp, old_logp, advantages, mask, *, ref_logp=None, **options):
    """(loss, d loss / d logp, TRL's logged metrics) from TRL's own ``_compute_loss``.

    No model and no hub: ``self`` is a SimpleNamespace with the attributes the method
    reads, and its ``_get_per_token_logps_and_entropies`` returns ``logp`` as a leaf
    tensor, so autograd gives d loss / d logp. One process, one accumulation step.
    """
    from trl.trainer.grpo_trainer import GRPOTrainer

    logp_t = torch.tensor(np.asarray(logp, dtype=np.float64), requires_grad=True)
    mask_t = torch.tensor(np.asarray(mask, dtype=np.float64))
    B, T = logp_t.shape
    args = types.SimpleNamespace(
        **ARGS,
        delta=options.get("delta"),
        use_bias_correction_kl=options.get("use_bias_correction_kl", True),
        steps_per_generation=1,
    )
    accelerator = types.SimpleNamespace(
        num_processes=1,
        gather=lambda x: x,
        gather_for_metrics=lambda x: x,
        reduce=lambda x, reduction="sum": x,
    )
    self = types.SimpleNamespace(
        _get_per_token_logps_and_entropies=lambda *a, **k: (logp_t, torch.zeros(B, T), None),
        top_entropy_quantile=1.0,
        off_policy_mask_threshold=None,
        importance_sampling_level=options.get("importance_sampling_level", "token"),
        beta=options.get("beta", 0.0),
        loss_type=options.get("loss_type", "dapo"),
        epsilon_low=options.get("epsilon_low", 0.2),
        epsilon_high=options.get("epsilon_high", 0.2),
        max_completion_length=options.get("max_completion_length"),
        use_vllm=False,
        args=args,
        model=types.SimpleNamespace(training=True),
        current_gradient_accumulation_steps=1,
        accelerator=accelerator,
        _entropy_bonus_enabled=False,
        aux_loss_enabled=False,
        _metrics={"train": defaultdict(list)},
        get_gamma_weights=GRPOTrainer.get_gamma_weights,
    )
    inputs = {
        "prompt_ids": torch.zeros(B, 1, dtype=torch.long),
        "prompt_mask": torch.ones(B, 1, dtype=torch.long),
        "completion_ids": torch.zeros(B, T, dtype=torch.long),
        "completion_mask": mask_t,
        "advantages": torch.tensor(np.asarray(advantages, dtype=np.float64)),
        "old_per_token_logps": torch.tensor(np.asarray(old_logp, dtype=np.float64)),
        "num_items_in_batch": mask_t.sum(),
    }
    if ref_logp is not None:
        inputs["ref_per_token_logps"] = torch.tensor(np.asarray(ref_logp, dtype=np.float64))
    loss = GRPOTrainer._compute_loss(self, None, inputs)
    loss.backward()
    metrics = {k: v[-1] for k, v in self._metrics["train"].items()}
    return loss.item(), logp_t.grad.numpy(), metrics
