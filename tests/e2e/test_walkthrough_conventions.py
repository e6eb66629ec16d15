"""In a real browser: the walkthrough's steps in NeMo-RL's and REINFORCE++-baseline's own
words, at a desktop width (1440 px) and on a phone (390 px). The shots are looked at."""

import pytest

from tests.e2e.conftest import assert_healthy, open_path, whole_page_shot

pytestmark = pytest.mark.e2e

VIEWS = [
    # (convention, rewards, step, answer, words the step must show)
    ("nemo-rl", "1_0_0_1", 4, 0, "The formula below writes it out for answer 1"),
    ("nemo-rl", "1_0_0_0", 5, 0, "others have no spread, so it is not divided"),
    ("nemo-rl", "1_0_0_0", 6, 0, "here they sum to -0.732"),
    ("reinforce-pp", "0_1~0_100", 4, 1, "σ_batch = 7.08"),
]


@pytest.mark.parametrize("width", [1440, 390])
@pytest.mark.parametrize(("convention", "rewards", "step", "answer", "says"), VIEWS)
def test_convention_steps_in_their_own_words(
    app_url, page, width, convention, rewards, step, answer, says
):
    page.set_viewport_size({"width": width, "height": 1000})
    query = f"c={convention}&r={rewards}&wt.step={step}&wt.prompt={1 if '~' in rewards else 0}"
    open_path(page, app_url, f"/walkthrough?{query}&wt.answer={answer}")
    assert_healthy(page)
    page.get_by_text(f"Step {step} of 6").wait_for()
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert says in main
    assert page.locator(".katex-error").count() == 0
    whole_page_shot(page, f"walkthrough_{convention}_step{step}_{width}")
