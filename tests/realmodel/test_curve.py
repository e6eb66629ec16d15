"""A few real steps on one prompt: a point per group, and the model left as shipped however
the run ends (its steps are taken in place on the model's own weights)."""

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


def test_a_run_cut_short_after_a_step_still_leaves_the_model_as_shipped(loaded):
    """The page's progress callback can raise (the reader left, Streamlit stops the run)."""
    before = {n: p.detach().clone() for n, p in loaded.model.named_parameters()}

    class Left(Exception):
        pass

    def leave_after_a_step(point):
        if point.counted is not None:
            raise Left

    with pytest.raises(Left):  # seed 0 at temperature 1: the first group has 2 right of 4
        curve.few_steps(
            loaded,
            real_tasks.TASKS[1],
            4,
            steps=2,
            seed=0,
            temperature=1.0,
            lr=1e-2,
            max_new_tokens=8,
            on_point=leave_after_a_step,
        )
    for name, p in loaded.model.named_parameters():
        assert p.grad is None
        assert bool((p == before[name]).all()), name
