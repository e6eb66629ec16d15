"""A few GRPO steps on one prompt, with the pass rate sampled again after each step.

Step n samples K answers (seed + n) from the current weights, grades them, and, when the
group has a spread of rewards, takes one SGD step on it (``realmodel.step.step_from``).

The steps are taken in place on the model's own weights: the run then holds the model and
its gradients, not a second set of weights with gradients of their own beside the model
(measured: 2.65 GB peak that way, over the 2.5 GB target). The run is one job of the
server's queue, so nothing else uses the model meanwhile, and when it ends, however it ends,
the shipped weights are put back from the verified copy read at load
(``model.restore_shipped``): the model is as shipped after every run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grpo_core import real_tasks
from grpo_core.advantages import group_advantages
from realmodel import model, step

STEPS = 3
"""How many steps the page's curve takes."""
LR = 1e-3
"""Its learning rate: ten times the single step's, so that a few steps can show at all."""


@dataclass(frozen=True)
class CurvePoint:
    """The group sampled after ``steps_taken`` steps, and what its own step moved."""

    steps_taken: int
    right: int
    k: int
    moved: int | None = None
    """Answers that moved with their advantage in the step taken on this group."""
    counted: int | None = None
    """Answers with a nonzero advantage in it (None: no step was taken on this group)."""

    @property
    def pass_rate(self) -> float:
        return self.right / self.k


def few_steps(
    loaded: model.Loaded,
    task: real_tasks.Task,
    k: int,
    *,
    steps: int,
    seed: int,
    temperature: float,
    lr: float,
    max_new_tokens: int = 48,
    on_point=None,
) -> list[CurvePoint]:
    """``steps + 1`` points: the pass rate before any step and after each one.

    A group whose rewards are all equal has no advantage (all 0): its step would change
    nothing, so none is taken, and the next group is sampled from the same weights.
    ``on_point(point)`` is called as each point is known."""
    points: list[CurvePoint] = []
    taken = 0
    try:
        for n in range(steps + 1):
            answers = model.sample_answers(
                loaded,
                task.prompt,
                k,
                seed=seed + n,
                temperature=temperature,
                max_new_tokens=max_new_tokens,
            )
            texts = [model.decode(loaded, a) for a in answers]
            rewards = np.array([real_tasks.grade(task, text).reward for text in texts])
            point = CurvePoint(taken, int(rewards.sum()), k)
            if n < steps and rewards.std() > 0:
                adv = group_advantages(rewards, convention="trl")
                taken += 1  # from here on, the model's weights may differ from the shipped
                result, _ = step.step_from(
                    loaded,
                    task.prompt,
                    answers,
                    adv,
                    temperature=temperature,
                    lr=lr,
                    params=step.shipped(loaded),
                    in_place=True,
                )
                moved, counted = step.moved_with_advantage(result.delta, adv)
                point = CurvePoint(point.steps_taken, point.right, k, moved, counted)
            points.append(point)
            if on_point is not None:
                on_point(point)
    finally:
        if taken:
            model.restore_shipped(loaded)
    return points
