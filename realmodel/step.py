"""One real GRPO step on a group: token log-probs, the loss, one SGD step, and what moved.

The step is on-policy (old log-probs = current ones, so the ratio is 1, as on TRL's first
update of a generation) and uses ``realmodel.torch_loss`` (``grpo_core.loss`` in torch).

Memory (one server, 2.5 GB at most) and time (2 CPU cores): the loss is a sum over
answers, so answers go forward and backward in batches of BATCH, shortest first, and the
gradients add up in place (the activations of one batch at a time, not K); the prompt,
the same for every answer, is run once and each batch continues from its keys and values.
Plain SGD: no optimizer state. The single step (``grpo_step``)
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

BATCH = 4
"""Answers run forward and backward together: a pass costs nearly the same for one answer
as for several, while the activations kept for backward grow with the batch."""


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


def prompt_pass(loaded: Loaded, ids, params=None):
    """The prompt run once: its keys and values, one (keys, values) pair of (1, heads, P,
    head_dim) tensors a layer, and the logits at its last position, (1, 1, vocab), which
    score an answer's first token. Every answer continues from these, so the P prompt
    tokens are run once a pass, not once an answer."""
    out = forward(loaded, params, input_ids=ids, use_cache=True, logits_to_keep=1)
    return [(layer.keys, layer.values) for layer in out.cache.layers], out.logits


def cache_holding(loaded: Loaded, layers):
    """A fresh cache holding ``layers``' keys and values; running an answer on it appends
    the answer's own in new tensors (torch.cat), so ``layers`` serve the next answer."""
    from transformers import DynamicCache

    cache = DynamicCache(config=loaded.model.config)
    for index, (keys, values) in enumerate(layers):
        cache.update(keys, values, index)
    return cache


def answers_logprobs(loaded: Loaded, prefix, answers, temperature: float, params=None):
    """(B, T) torch log p of each answer's tokens after the prompt whose ``prompt_pass`` is
    ``prefix`` (logits / temperature, as TRL computes them), for B answers of 1..T tokens
    run as one right-padded batch. A row's entries past its answer's length are finite and
    mean nothing: mask them. On this CPU a pass costs nearly as much for one answer as for
    eight (each weight matrix is read once a pass), so answers go in batches."""
    import torch

    layers, last = prefix
    count, width = len(answers), max(len(a) for a in answers)
    tokens = torch.tensor([a + a[-1:] * (width - len(a)) for a in answers])  # (B, T)
    logits = last.expand(count, -1, -1)  # (B, 1, vocab): scores token 0
    if width > 1:  # tokens 0..T-2 in, the scores of tokens 1..T-1 out (causal: the
        # padding after an answer is never seen by its own tokens)
        shared = [(k.expand(count, -1, -1, -1), v.expand(count, -1, -1, -1)) for k, v in layers]
        out = forward(
            loaded,
            params,
            input_ids=tokens[:, :-1],
            cache=cache_holding(loaded, shared),
            use_cache=True,
        )
        logits = torch.cat([logits, out.logits], dim=1)
    logits = logits.float() / float(temperature)  # (B, T, vocab)
    # log softmax at the chosen token only: no second (B, T, vocab) tensor
    chosen = logits.gather(2, tokens[:, :, None])[..., 0]
    return chosen - torch.logsumexp(logits, dim=-1)


def sequence_logprobs(loaded: Loaded, prompt: str, answers, temperature: float, params=None):
    """(K,) each answer's log p (sum over its tokens; 0 for an empty answer), no gradient."""
    import torch

    mask = mask_of(answers)
    sums = np.zeros(len(answers))
    with torch.no_grad():
        prefix = prompt_pass(loaded, prompt_ids(loaded, prompt), params)
        for rows in batches(answers):
            logp = answers_logprobs(loaded, prefix, [answers[i] for i in rows], temperature, params)
            sums[rows] = masked_sums(logp, mask[rows])
    return sums


def masked_sums(logp, mask: np.ndarray) -> np.ndarray:
    """(B,) each row's sequence log-prob: torch ``logp`` (B, T) summed over the tokens
    ``mask`` (B, >= T) marks, in float64."""
    return (logp.detach().double().numpy() * mask[:, : logp.shape[1]]).sum(axis=1)


def batches(answers) -> list[list[int]]:
    """The indices of the non-empty answers, shortest first, in runs of BATCH: answers of
    like length share a batch, so little of it is padding."""
    rows = sorted((i for i, a in enumerate(answers) if a), key=lambda i: len(answers[i]))
    return [rows[start : start + BATCH] for start in range(0, len(rows), BATCH)]


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
    """Backward of the group's loss into ``params``' ``.grad``, BATCH answers at a time.

    The batch's token weights are fixed first (they depend on the mask only); answer i's
    share of the loss is then its own row of the sum, so adding each batch's gradient
    gives the whole group's. The prompt is run once, forward and backward. Returns (loss,
    (K,) sequence log-probs before the step)."""
    import torch

    mask = mask_of(answers)
    adv = np.asarray(advantages, dtype=np.float64)
    weight = torch_loss.token_weights(adv, mask, loss_type=loss_type)
    prefix = prompt_pass(loaded, prompt_ids(loaded, prompt), params)
    # The answers continue from detached copies of the prompt's outputs, which gather the
    # gradients every answer sends back; the prompt's pass is then run backward once.
    held = ([(leaf(k), leaf(v)) for k, v in prefix[0]], leaf(prefix[1]))
    loss, before = 0.0, np.zeros(len(answers))
    for batch in batches(answers):  # an empty answer has no tokens: it weighs nothing
        logp = answers_logprobs(loaded, held, [answers[i] for i in batch], temperature, params)
        width = logp.shape[1]  # (b, width): this batch's longest answer
        part = torch_loss.surrogate_torch(
            logp, logp.detach(), adv[batch], mask[batch, :width], weight[batch, :width]
        )
        part.backward()
        loss += part.item()
        before[batch] = masked_sums(logp, mask[batch])
    sent = [
        (o, h.grad) for o, h in zip(flat(prefix), flat(held), strict=True) if h.grad is not None
    ]
    if sent:
        torch.autograd.backward([out for out, _ in sent], [grad for _, grad in sent])
    return loss, before


def leaf(tensor):
    """A detached copy of ``tensor`` that gathers the gradients sent to it."""
    return tensor.detach().requires_grad_(True)


def flat(prefix) -> list:
    """A ``prompt_pass`` result as one list: the last logits, then each layer's keys and
    values."""
    layers, last = prefix
    return [last, *(t for pair in layers for t in pair)]


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
