"""One real GRPO step on a group: token log-probs, the loss, one SGD step, and what moved.

The step is on-policy (old log-probs = current ones, so the ratio is 1, as on TRL's first
update of a generation) and uses ``realmodel.torch_loss`` (``grpo_core.loss`` in torch).
Afterwards every answer's sequence log-probability is computed again, and the model is put
back to its shipped weights, so no demonstration leaks into the next one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from realmodel import torch_loss
from realmodel.model import Loaded, prompt_ids


@dataclass(frozen=True)
class StepResult:
    """Before/after of one step; arrays are (K,) unless said."""

    logp_before: np.ndarray
    """Each answer's sequence log-probability (sum over its tokens) before the step."""
    logp_after: np.ndarray
    loss: float
    lengths: np.ndarray
    seconds: float

    @property
    def delta(self) -> np.ndarray:
        """Δ log p(answer) = after - before."""
        return self.logp_after - self.logp_before


def token_logprobs(loaded: Loaded, prompt: str, answers: list[list[int]], temperature: float):
    """(K, T) torch log p of each answer token given the prompt (logits / temperature, as
    TRL computes them), and the (K, T) numpy 0/1 mask; T = the longest answer."""
    import torch

    ids = prompt_ids(loaded, prompt)[0]
    p = ids.shape[0]
    width = max(1, max(len(a) for a in answers))
    pad = loaded.tokenizer.eos_token_id
    rows = [ids.tolist() + a + [pad] * (width - len(a)) for a in answers]
    mask = np.array([[1.0] * len(a) + [0.0] * (width - len(a)) for a in answers])
    batch = torch.tensor(rows)
    attention = torch.cat([torch.ones(len(answers), p), torch.tensor(mask)], dim=1).long()
    logits = loaded.model(input_ids=batch, attention_mask=attention, logits_to_keep=width + 1)
    logits = logits.logits[:, :-1, :].float() / float(temperature)  # (K, T, vocab)
    # log softmax at the chosen token only: no second (K, T, vocab) tensor
    chosen = logits.gather(2, batch[:, p:, None])[..., 0]
    return chosen - torch.logsumexp(logits, dim=-1), mask


def grpo_step(
    loaded: Loaded,
    prompt: str,
    answers: list[list[int]],
    advantages,
    *,
    temperature: float,
    lr: float = 1e-4,
    loss_type: str = "dapo",
) -> StepResult:
    """One SGD step of ``loss_type`` on the group, then the weights are restored."""
    import torch

    start = time.perf_counter()
    model = loaded.model
    params = [p for p in model.parameters() if p.requires_grad]
    saved = [p.detach().clone() for p in params]
    try:
        logp, mask = token_logprobs(loaded, prompt, answers, temperature)
        loss = torch_loss.policy_loss_torch(
            logp, logp.detach(), advantages, mask, loss_type=loss_type
        )
        model.zero_grad(set_to_none=True)
        loss.backward()
        with torch.no_grad():
            for p in params:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-lr)
                    p.grad = None  # freed before the second forward pass
            after, _ = token_logprobs(loaded, prompt, answers, temperature)
        m = torch.as_tensor(mask, dtype=logp.dtype)
        before = (logp.detach() * m).sum(dim=1).double().numpy()
        after = (after * m).sum(dim=1).double().numpy()
    finally:
        with torch.no_grad():
            for p, s in zip(params, saved, strict=True):
                p.copy_(s)
        model.zero_grad(set_to_none=True)
    return StepResult(before, after, loss.item(), mask.sum(axis=1), time.perf_counter() - start)


def moved_with_advantage(delta: np.ndarray, advantages: np.ndarray, threshold: float = 0.0):
    """(moved, counted): answers with |A| > threshold whose Δ log p has A's sign."""
    a = np.asarray(advantages, dtype=np.float64)
    counted = np.abs(a) > threshold
    moved = counted & (np.sign(delta) == np.sign(a))
    return int(moved.sum()), int(counted.sum())
