"""One real GRPO step on a group: token log-probs, the loss, one SGD step, and what moved.

The step is on-policy (old log-probs = current ones, so the ratio is 1, as on TRL's first
update of a generation) and uses ``realmodel.torch_loss`` (``grpo_core.loss`` in torch).

Memory (one server, 2.5 GB at most): the loss is a sum over answers, so each answer is
run forward and backward on its own and the gradients add up in place (the activations of
one answer at a time, not K). Plain SGD: no optimizer state. The single step (``grpo_step``)
writes its new weights beside the model's, each replacing its gradient as it is made, and
scores the answers again through them (``torch.func.functional_call``): the model's own
weights are never written, so no demonstration can leak into the next one. A run of steps
(``realmodel.curve``) steps the model's own weights in place (``in_place=True``: the model,
its gradients and nothing else) and puts the shipped ones back when it ends.

Weights are passed as ``params``, a dict name -> tensor as ``model.named_parameters()``
gives it (tied weights once); None means the model's own.
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


def shipped(loaded: Loaded) -> dict:
    """The model's own weights, name -> parameter (not copies)."""
    return dict(loaded.model.named_parameters())


def forward(loaded: Loaded, params: dict | None, **inputs):
    """The model's output on ``inputs`` with the weights ``params`` (None: its own)."""
    if params is None:
        return loaded.model(**inputs)
    from torch.func import functional_call

    return functional_call(loaded.model, params, (), inputs)


def answer_logprobs(loaded: Loaded, prompt, answer: list[int], temperature: float, params=None):
    """(1, T) torch log p of each of the answer's T tokens given the prompt (logits /
    temperature, as TRL computes them); T >= 1. ``prompt``: a str or its (1, P) ids."""
    import torch

    ids = prompt_ids(loaded, prompt) if isinstance(prompt, str) else prompt
    row = torch.cat([ids[0], torch.tensor(answer, dtype=ids.dtype)])[None, :]
    logits = forward(loaded, params, input_ids=row, logits_to_keep=len(answer) + 1).logits
    logits = logits[:, :-1, :].float() / float(temperature)  # (1, T, vocab)
    # log softmax at the chosen token only: no second (1, T, vocab) tensor
    chosen = logits.gather(2, row[:, ids.shape[1] :, None])[..., 0]
    return chosen - torch.logsumexp(logits, dim=-1)


def sequence_logprobs(loaded: Loaded, prompt: str, answers, temperature: float, params=None):
    """(K,) each answer's log p (sum over its tokens; 0 for an empty answer), no gradient."""
    import torch

    ids = prompt_ids(loaded, prompt)
    with torch.no_grad():
        return np.array(
            [
                float(answer_logprobs(loaded, ids, a, temperature, params).double().sum())
                if a
                else 0.0
                for a in answers
            ]
        )


def mask_of(answers) -> np.ndarray:
    """(K, T) 1 on each answer's tokens, 0 on padding; T = the longest answer (>= 1)."""
    width = max(1, max(len(a) for a in answers))
    return np.array([[1.0] * len(a) + [0.0] * (width - len(a)) for a in answers])


def accumulate_gradient(
    loaded: Loaded,
    prompt: str,
    answers,
    advantages,
    *,
    temperature: float,
    params: dict,
    loss_type: str = "dapo",
):
    """Backward of the group's loss into ``params``' ``.grad``, one answer at a time.

    The batch's token weights are fixed first (they depend on the mask only); answer i's
    share of the loss is then its own row of the sum, so adding each answer's gradient
    gives the batched gradient. Returns (loss, (K,) sequence log-probs before the step)."""
    mask = mask_of(answers)
    adv = np.asarray(advantages, dtype=np.float64)
    weight = torch_loss.token_weights(adv, mask, loss_type=loss_type)
    ids = prompt_ids(loaded, prompt)
    loss, before = 0.0, np.zeros(len(answers))
    for i, a in enumerate(answers):
        if not a:  # an empty answer has no tokens: it weighs nothing
            continue
        logp = answer_logprobs(loaded, ids, a, temperature, params)  # (1, T_i)
        row = slice(i, i + 1), slice(0, len(a))
        part = torch_loss.surrogate_torch(
            logp, logp.detach(), adv[i : i + 1], mask[row], weight[row]
        )
        part.backward()
        loss += part.item()
        before[i] = float(logp.detach().double().sum())
    return loss, before


def sgd_update(params: dict, lr: float, *, in_place: bool = False) -> dict:
    """Weights after one plain SGD step, p - lr * p.grad; every ``.grad`` is freed.

    ``in_place``: the tensors of ``params`` themselves are written (and returned); else each
    gets a new tensor, made as its gradient is freed, and ``params`` are left as they were."""
    import torch

    updated = {}
    with torch.no_grad():
        for name, p in params.items():
            grad, p.grad = p.grad, None
            if grad is None:
                updated[name] = p
            elif in_place:
                updated[name] = p.sub_(grad, alpha=lr)
            else:
                updated[name] = p.detach().sub(grad, alpha=lr).requires_grad_(True)
            del grad
    return updated


def step_from(
    loaded: Loaded,
    prompt: str,
    answers: list[list[int]],
    advantages,
    *,
    temperature: float,
    lr: float,
    params: dict,
    loss_type: str = "dapo",
    in_place: bool = False,
) -> tuple[StepResult, dict]:
    """One SGD step of ``loss_type`` on the group from ``params``, and the weights after it
    (``params`` themselves when ``in_place``, see ``sgd_update``)."""
    start = time.perf_counter()
    try:
        loss, before = accumulate_gradient(
            loaded,
            prompt,
            answers,
            advantages,
            temperature=temperature,
            params=params,
            loss_type=loss_type,
        )
    except BaseException:
        for p in params.values():
            p.grad = None
        raise
    updated = sgd_update(params, lr, in_place=in_place)
    after = sequence_logprobs(loaded, prompt, answers, temperature, updated)
    lengths = mask_of(answers).sum(axis=1)
    return StepResult(before, after, loss, lengths, time.perf_counter() - start), updated


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
    """One SGD step from the shipped weights; the new weights are dropped afterwards and
    the model itself is left as shipped."""
    result, _ = step_from(
        loaded,
        prompt,
        answers,
        advantages,
        temperature=temperature,
        lr=lr,
        params=shipped(loaded),
        loss_type=loss_type,
    )
    return result


def moved_with_advantage(delta: np.ndarray, advantages: np.ndarray, threshold: float = 0.0):
    """(moved, counted): answers with |A| > threshold whose Δ log p has A's sign."""
    a = np.asarray(advantages, dtype=np.float64)
    counted = np.abs(a) > threshold
    moved = counted & (np.sign(delta) == np.sign(a))
    return int(moved.sum()), int(counted.sum())
