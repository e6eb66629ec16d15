"""In a real browser: the policy-loss page draws its heatmaps, answers from live numbers,
follows its link's settings, and stays readable on a phone and on a 1280x720 projector."""

import pytest

from tests.e2e.conftest import assert_healthy, chart_marks, open_path, settle, shot

pytestmark = pytest.mark.e2e
CHARTS = 6  # ratio, clip region, push, per-token loss, KL term; the k1/k2/k3 bars


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


def test_policy_loss_page_at_1440(app_url, browser):
    context = browser.new_context(viewport={"width": 1440, "height": 5000})  # the whole page
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_path(page, app_url, "/policy-loss")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert chart_marks(page) > 0  # the k1/k2/k3 bars
    assert page.locator(".js-plotly-plot .hm, .js-plotly-plot .heatmaplayer image").count() >= 4
    assert metric(page, "Tokens clipped") != "0%"  # one step later, some tokens are clipped
    assert "Yet the gradient is not zero" in main_text(page)
    assert "These are TRL's defaults" in main_text(page)
    page.get_by_text("Enter the probabilities by hand").click()
    settle(page)
    assert page.locator('[data-testid="stDataFrame"]').count() >= 1  # the editor is drawn
    shot(page, "policy_loss_1440")

    # the first, on-policy step under grpo: ratio 1, loss 0, nothing clipped, still a push
    open_path(page, app_url, "/policy-loss?pl.step=0&pl.loss_type=grpo")
    assert_healthy(page)
    assert metric(page, "Loss on the first step") == "0"
    assert metric(page, "Tokens clipped") == "0%"
    assert "A loss of 0 says the pushes up and down balance" in main_text(page)
    shot(page, "policy_loss_on_policy_grpo")

    # GSPO on the long answer, from the link; the page answers at sequence level
    open_path(page, app_url, "/policy-loss?pl.preset=long-answer&pl.level=sequence&pl.beta=0.1")
    assert_healthy(page)
    assert "Answer 1 is the longest (20 tokens" in main_text(page)
    page.get_by_text("Every token as a table").click()
    settle(page)
    assert_healthy(page)
    assert "pl.level=sequence" in page.url and "pl.preset=long-answer" in page.url

    # a link with values the page cannot take: said so, defaults shown, page up
    open_path(page, app_url, "/policy-loss?pl.step=lots&pl.loss_type=ppo")
    assert_healthy(page)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "cannot use" in alerts
    assert page.locator(".js-plotly-plot").count() == CHARTS
    context.close()


def test_policy_loss_page_on_a_phone(app_url, browser):
    # A phone's width; tall, so the screenshot holds the whole page (Streamlit scrolls inside).
    context = browser.new_context(viewport={"width": 390, "height": 9000}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_path(page, app_url, "/policy-loss")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert no_sideways_scroll(page)
    shot(page, "policy_loss_390")
    context.close()


def test_policy_loss_page_presenting_at_1280x720(app_url, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_path(page, app_url, "/policy-loss?present=1")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert no_sideways_scroll(page)
    shot(page, "policy_loss_presenting_1280x720")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    settle(page)
    shot(page, "policy_loss_presenting_1280x720_heatmaps")
    context.close()
