"""SmolLM2-135M-Instruct for real: hash check, seeded sampling, and one GRPO step."""

import numpy as np
import pytest

from grpo_core import real_tasks
from grpo_core.advantages import group_advantages
from realmodel import model, step

pytestmark = pytest.mark.model


def test_a_file_with_another_hash_is_refused_before_loading(tmp_path):
    fake = tmp_path / model.MODEL_FILE
    fake.write_bytes(b"not a model")
    with pytest.raises(model.ModelFileError, match="not the file this project was built with"):
        model.load(fake)
    with pytest.raises(model.ModelFileError, match="not found"):
        model.check_file(tmp_path / "missing.gguf")


def test_the_shipped_file_has_the_pinned_hash(loaded):
    assert loaded.sha256 == model.MODEL_SHA256


def test_same_seed_same_answers_and_each_arrives_once(loaded):
    prompt = real_tasks.TASKS[0].prompt
    arrived = []
    first = model.sample_answers(
        loaded,
        prompt,
        3,
        seed=5,
        temperature=0.8,
        max_new_tokens=12,
        on_answer=lambda i, ids: arrived.append((i, ids)),
    )
    again = model.sample_answers(loaded, prompt, 3, seed=5, temperature=0.8, max_new_tokens=12)
    other = model.sample_answers(loaded, prompt, 3, seed=6, temperature=0.8, max_new_tokens=12)
    assert first == again
    assert other != again
    assert sorted(arrived) == list(enumerate(first))
    assert all(len(a) <= 12 for a in first)


def test_one_step_moves_answers_with_their_advantage_and_restores_weights(loaded):
    task = real_tasks.TASKS[0]
    moved = counted = 0
    for seed in (0, 1, 2):
        answers = model.sample_answers(
            loaded, task.prompt, 6, seed=seed, temperature=1.0, max_new_tokens=16
        )
        rewards = np.array(
            [real_tasks.grade(task, model.decode(loaded, a)).reward for a in answers]
        )
        if rewards.std() == 0:  # no spread: give the group one, the step is what is tested
            rewards = np.array([1.0, 0.0] * 3)
        adv = group_advantages(rewards, convention="trl")
        before = [p.detach().clone() for p in loaded.model.parameters()]
        result = step.grpo_step(loaded, task.prompt, answers, adv, temperature=1.0, lr=1e-4)
        after = list(loaded.model.parameters())
        assert all(bool((b == a).all()) for b, a in zip(before, after, strict=True))
        m, c = step.moved_with_advantage(result.delta, adv, threshold=0.5)
        moved, counted = moved + m, counted + c
    assert counted >= 6, f"only {counted} answers with |A| > 0.5 over three seeds"
    assert moved >= 0.9 * counted, f"{moved} of {counted} moved with their advantage"
