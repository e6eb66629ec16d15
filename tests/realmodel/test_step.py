"""The step's memory savings change nothing: answer-by-answer gradients equal the batched
one, weights passed in are the weights used, and the in-place step of a run of steps is the
same step (the real model)."""

import numpy as np
import pytest

from grpo_core import real_tasks
from realmodel import model, step, torch_loss

pytestmark = pytest.mark.model


def batched_logprobs(loaded, prompt, answers, temperature):
    """(K, T) log-probs of the right-padded batch in one forward pass, and the mask."""
    import torch

    ids = model.prompt_ids(loaded, prompt)[0].tolist()
    mask = step.mask_of(answers)
    width, pad = mask.shape[1], loaded.tokenizer.eos_token_id
    rows = torch.tensor([ids + a + [pad] * (width - len(a)) for a in answers])
    attention = torch.cat([torch.ones(len(answers), len(ids)), torch.tensor(mask)], 1).long()
    logits = loaded.model(input_ids=rows, attention_mask=attention, logits_to_keep=width + 1)
    logits = logits.logits[:, :-1, :] / temperature
    chosen = logits.gather(2, rows[:, len(ids) :, None])[..., 0]
    return chosen - torch.logsumexp(logits, dim=-1), mask


def torch_mask(mask):
    import torch

    return torch.tensor(mask, dtype=torch.float32)


@pytest.fixture(scope="module")
def group(loaded):
    task = real_tasks.TASKS[1]
    answers = model.sample_answers(
        loaded, task.prompt, 4, seed=2, temperature=1.0, max_new_tokens=10
    )
    return task.prompt, answers, np.array([1.2, -0.4, 0.7, -1.5])


def test_one_answer_at_a_time_gives_the_batched_gradient(loaded, group):
    prompt, answers, adv = group
    params = step.shipped(loaded)
    logp, mask = batched_logprobs(loaded, prompt, answers, 1.0)
    loss = torch_loss.policy_loss_torch(logp, logp.detach(), adv, mask)
    loss.backward()
    batched = {name: p.grad.clone() for name, p in params.items()}
    loaded.model.zero_grad(set_to_none=True)
    total, before = step.accumulate_gradient(
        loaded, prompt, answers, adv, temperature=1.0, params=params
    )
    try:
        assert total == pytest.approx(loss.item(), rel=1e-4, abs=1e-7)
        np.testing.assert_allclose(
            before, (logp.detach() * torch_mask(mask)).sum(1).numpy(), rtol=1e-4
        )
        for name, p in params.items():
            scale = float(batched[name].abs().max()) + 1e-12
            assert float((p.grad - batched[name]).abs().max()) <= 1e-3 * scale, name
    finally:
        loaded.model.zero_grad(set_to_none=True)


def test_the_step_beside_the_model_never_writes_it_and_the_in_place_step_agrees(loaded, group):
    """grpo_step's new weights sit beside the model's; the curve's step writes the model's own
    (then restore_shipped puts them back): the same step either way."""
    prompt, answers, adv = group
    before = {n: p.detach().clone() for n, p in loaded.model.named_parameters()}
    result, updated = step.step_from(
        loaded, prompt, answers, adv, temperature=1.0, lr=1e-4, params=step.shipped(loaded)
    )
    for name, p in loaded.model.named_parameters():
        assert p.grad is None
        assert bool((p == before[name]).all()), name
        assert updated[name] is not p
    again = step.sequence_logprobs(loaded, prompt, answers, 1.0)
    np.testing.assert_allclose(again, result.logp_before, rtol=1e-5)
    np.testing.assert_allclose(
        step.sequence_logprobs(loaded, prompt, answers, 1.0, updated), result.logp_after
    )
    del updated
    try:
        own, written = step.step_from(
            loaded,
            prompt,
            answers,
            adv,
            temperature=1.0,
            lr=1e-4,
            params=step.shipped(loaded),
            in_place=True,
        )
        for name, p in loaded.model.named_parameters():
            assert written[name] is p and p.grad is None, name
        np.testing.assert_allclose(own.logp_after, result.logp_after, rtol=1e-6)
    finally:
        model.restore_shipped(loaded)
    for name, p in loaded.model.named_parameters():
        assert bool((p == before[name]).all()), name
