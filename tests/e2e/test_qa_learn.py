"""What a reader saw on the learning and lab pages that the other tests did not catch
(session 10's QA pass): each test opens one page once and checks what it shows."""

from tests.e2e.conftest import assert_healthy, open_path, settle, shot


def test_epsilon_rewards_box_emptied_or_infinite_is_a_message(page, app_url):
    """Emptying the near-tie box (or typing inf in it) put "eps.group=" in the URL, and the
    next run's link check tried to delete that widget-bound parameter: a traceback."""
    open_path(page, app_url, "/epsilon")
    box = page.get_by_label("Rewards of one group", exact=True)
    for typed, message in [("", "Type at least two rewards"), ("inf, 1", "infinite")]:
        box.fill(typed)
        box.press("Enter")
        settle(page)
        assert_healthy(page)
        alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
        assert any(message in a for a in alerts), alerts
    shot(page, "qa-epsilon-infinite-reward")


PROJECTOR = {"width": 1280, "height": 720}


CLIPPED = """(key) => {
  const box = document.querySelector(`.st-key-${key}`);
  const column = box.closest('[data-testid="stColumn"]').getBoundingClientRect();
  return [...box.querySelectorAll('button')]
    .filter((b) => b.offsetParent !== null)
    .filter((b) => b.getBoundingClientRect().right > column.right + 0.5)
    .map((b) => b.innerText);
}"""
"""The buttons of a widget that reach past the right edge of their column (cut off there)."""


def test_difficulty_ddof_choice_fits_its_column_on_the_projector(clean_page, app_url):
    """At 1280x720 in presentation mode "K (ddof=0)" was cut at the column's edge."""
    page = clean_page(PROJECTOR)
    open_path(page, app_url, "/difficulty?present=1")
    assert page.evaluate(CLIPPED, "dif-ddof") == []
    assert_healthy(page)
    shot(page, "qa-difficulty-projector-controls")


TRUNCATED = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stWidgetLabel"] *, [data-testid="stMetricLabel"] *')]
  .filter((e) => e.offsetParent !== null && (e.innerText || '').trim())
  .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
  .map((e) => e.innerText)"""
"""Widget and metric labels cut with an ellipsis (Streamlit sets them on one line)."""


def test_policy_loss_kl_toggle_label_is_whole_on_a_laptop(clean_page, app_url):
    """ "KL × ratio (use_bias_correctio…": the toggle had a quarter of the row."""
    page = clean_page({"width": 1440, "height": 900})
    open_path(page, app_url, "/policy-loss")
    assert page.evaluate(TRUNCATED) == []
    assert_healthy(page)


def test_critic_metric_labels_are_whole_on_the_projector(clean_page, app_url):
    """ "RMS error of PPO's advantages" was cut at 1280x720 in presentation mode."""
    page = clean_page(PROJECTOR)
    open_path(page, app_url, "/critic?present=1")
    assert page.evaluate(TRUNCATED) == []
    assert_healthy(page)


def test_walkthrough_choices_show_the_new_rewards_after_switching_source(page, app_url):
    """From the playground's rewards to the whiteboard example, the answer picker kept
    showing "answer 1 (reward 1)" (the whiteboard's answer 1 scored 2) and the prompt
    picker "Prompt 1" (the whiteboard has one group, "Whiteboard group")."""
    open_path(page, app_url, "/walkthrough")
    page.get_by_text("Whiteboard example", exact=True).click()
    settle(page)
    shown = {
        key: page.locator(f".st-key-{key} input").first.input_value()
        for key in ("wt-prompt", "wt-answer")
    }
    assert shown == {"wt-prompt": "Whiteboard group", "wt-answer": "answer 1 (reward 2)"}
    assert_healthy(page)
