"""A real model's group in live mode, with the model's work replaced by counting stand-ins
(the real model in a browser: tests/e2e/test_real_model.py): what the page caches."""

import numpy as np
import pytest

from realmodel import groups, service, step
from tests.app.conftest import open_page, texts

PAGE = "pages/real-model.py"
LIVE = {"rm.mode": "Sample live"}


@pytest.fixture
def steps_taken(monkeypatch):
    """The page's model service with a stand-in model; the list of steps actually taken."""
    import realmodel.model
    import ui.real_model_page

    svc = service.ModelService(loader=lambda: "a stand-in for the model")
    taken = []

    def grpo_step(loaded, prompt, answers, advantages, *, temperature, lr):
        taken.append(prompt)
        before = -np.arange(1.0, len(answers) + 1)
        after = before + 0.1 * np.sign(advantages)
        return step.StepResult(before, after, 1.0, np.ones(len(answers)), 0.0)

    monkeypatch.setenv("GRPO_REAL_MODEL", "on")
    monkeypatch.setattr(realmodel.model, "available", lambda: True)
    monkeypatch.setattr(ui.real_model_page, "model_service", lambda: svc)
    monkeypatch.setattr(step, "grpo_step", grpo_step)
    return taken


def mixed_group() -> groups.RealGroup:
    return next(g for g in groups.load_committed()[1] if 0 < g.rewards.sum() < len(g.answers))


def press_step(group: groups.RealGroup):
    at = open_page(PAGE, query=LIVE, state={"rm.group": group})
    at.button(key="rm.step").click().run()
    assert not at.exception
    return at


def test_a_step_on_a_group_already_stepped_comes_from_the_cache_for_any_session(steps_taken):
    group = mixed_group()
    first = press_step(group)
    sentence = [t for t in texts(first, "markdown") if "moved in the direction" in t]
    assert sentence and steps_taken == [group.task.prompt]
    second = press_step(group)  # another session: the same step, not taken again
    assert [t for t in texts(second, "markdown") if "moved in the direction" in t] == sentence
    assert steps_taken == [group.task.prompt]
    assert "rm.rate" not in second.session_state  # nothing charged to its rate limit
