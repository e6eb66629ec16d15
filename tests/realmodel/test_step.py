"""The step's savings change nothing: the prompt run once and answers in small batches give
the log-probs and the gradient of one plain batch, weights passed in are the weights used,
and the in-place step of a run of steps is the same step (the real model)."""

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


def plain_logprobs(loaded, prompt, answer, temperature):
    """(T,) log p of one answer's tokens from one forward pass over prompt + answer, with
    nothing shared or cached."""
    import torch

    ids = model.prompt_ids(loaded, prompt)[0].tolist()
    with torch.no_grad():
        logits = loaded.model(input_ids=torch.tensor([ids + answer])).logits[0]
    logits = logits[len(ids) - 1 : -1].float() / temperature
    chosen = logits.gather(1, torch.tensor(answer)[:, None])[:, 0]
    return (chosen - torch.logsumexp(logits, dim=-1)).numpy()


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_the_shared_prompt_and_batches_give_each_answers_own_logprobs(
    loaded, group, batch, monkeypatch
):
    prompt, answers, _ = group
    answers = [*answers, [], answers[0][:1]]  # an empty answer and a one-token answer
    monkeypatch.setattr(step, "BATCH", batch)
    got = step.sequence_logprobs(loaded, prompt, answers, 0.7)
    want = [plain_logprobs(loaded, prompt, a, 0.7).sum() if a else 0.0 for a in answers]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert got[-2] == 0.0


def test_batches_run_every_nonempty_answer_once_shortest_first(monkeypatch):
    monkeypatch.setattr(step, "BATCH", 2)
    answers = [[1, 2, 3], [], [4], [5, 6], [7, 8, 9, 10], [11]]
    assert step.batches(answers) == [[2, 5], [3, 0], [4]]


@pytest.mark.parametrize("batch", [1, 3, 4])
def test_answers_in_batches_give_the_batched_gradient(loaded, group, batch, monkeypatch):
    prompt, answers, adv = group
    monkeypatch.setattr(step, "BATCH", batch)
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
