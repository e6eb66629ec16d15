"""A few real steps on one prompt: a point per group, and the model left as shipped."""

import pytest

from grpo_core import real_tasks
from realmodel import curve

pytestmark = pytest.mark.model


def test_a_few_steps_give_a_point_per_group_and_leave_the_model_as_shipped(loaded):
    task = real_tasks.TASKS[1]
    before = {n: p.detach().clone() for n, p in loaded.model.named_parameters()}
    seen = []
    points = curve.few_steps(
        loaded,
        task,
        4,
        steps=2,
        seed=0,
        temperature=1.0,
        lr=1e-3,
        max_new_tokens=10,
        on_point=seen.append,
    )
    assert seen == points
    assert len(points) == 3
    assert [p.k for p in points] == [4, 4, 4]
    assert all(0 <= p.right <= 4 for p in points)
    assert points[-1].counted is None  # the last group is only measured
    taken = [p.steps_taken for p in points]
    assert taken == sorted(taken) and taken[0] == 0
    for p in points[:-1]:  # a step on every group with a spread, none on the others
        assert (p.counted is not None) == (0 < p.right < p.k)
    for name, p in loaded.model.named_parameters():
        assert p.grad is None
        assert bool((p == before[name]).all()), name
