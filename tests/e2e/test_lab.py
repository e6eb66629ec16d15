"""In a real browser: the four lab pages draw their charts, react to their widgets and links,
and explain bad input. Screenshots: artifacts/screenshots/lab_*.png."""

import pytest

from grpo_core.compare import scaling_comparison
from grpo_core.format import cell
from tests.e2e.conftest import (
    assert_healthy,
    chart_marks,
    follow_path,
    open_path,
    settle,
    share_link_of,
    shot,
)

pytestmark = pytest.mark.e2e


def alerts(page) -> str:
    return " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def healthy_with_charts(page, charts: int) -> None:
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == charts
    assert chart_marks(page) > 0, "a chart rendered empty"
    assert page.locator(".katex-error").count() == 0, "a formula failed to render"


def type_into(page, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Enter")
    settle(page, 800)


def assert_epsilon_lab_marks_regimes_and_library_eps(page) -> None:
    healthy_with_charts(page, 1)
    chart = page.locator(".js-plotly-plot").first
    for label in ("TRL 1e-4", "verl 1e-6", "OpenRLHF 1e-9", "your eps", "z-score", "damped"):
        assert chart.get_by_text(label).count() >= 1, label
    assert page.locator(".js-plotly-plot .shapelayer path").count() >= 6  # bands and lines
    shot(page, "lab_epsilon")

    page.get_by_text("eps = 0", exact=True).click()
    settle(page, 800)
    assert "eps = 0 is not what any trainer uses" in alerts(page)
    assert "With eps = 0 this is 0/0" in alerts(page)
    healthy_with_charts(page, 1)
    shot(page, "lab_epsilon_zero")


def assert_conventions_side_by_side(page) -> None:
    healthy_with_charts(page, 2)
    assert page.get_by_text("times verl's").count() >= 1
    shot(page, "lab_conventions")


def assert_conventions_notebook_cell_and_scaling(page) -> None:
    page.get_by_role("tab", name="openrlhf").click()
    code = page.locator('[data-testid="stCode"]').filter(has_text="np.clip").first
    assert "R = np.array([" in code.inner_text()
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Batch vs group scaling").scroll_into_view_if_needed()
    type_into(page, "Prompt 2 (graded 0 to 100)", "0, 10, 5, 10")
    assert_healthy(page)
    batch_std = scaling_comparison([0, 1, 0, 1, 0, 10, 5, 10], group_size=4).batch_std
    assert page.get_by_text(f"batch std {cell(batch_std)}").count() >= 1
    shot(page, "lab_conventions_scaling")


def assert_conventions_groups_of_one(page) -> None:
    page.get_by_text("Type rewards", exact=True).click()
    settle(page, 800)
    type_into(page, "Rewards", "3; 5")
    assert page.get_by_text("verl passes each lone reward through").count() == 1
    healthy_with_charts(page, 2)
    shot(page, "lab_conventions_groups_of_one")


def assert_dynamic_sampling_page(page) -> None:
    healthy_with_charts(page, 4)
    assert page.locator(".katex").count() >= 1
    shot(page, "lab_dynamic_sampling")


def test_a_reader_walks_the_labs(app_url, page):
    """One reader, one load, the app's navigation between the labs: the epsilon lab marks
    its regimes and the libraries' eps, and eps = 0 is explained; the conventions page
    compares them side by side, shows each library's notebook cell, batch against group
    scaling, and groups of one; the dynamic-sampling page draws its charts. (Four tests
    with four loads until session 11.)"""
    open_path(page, app_url, "/epsilon")
    assert_epsilon_lab_marks_regimes_and_library_eps(page)
    follow_path(page, app_url, "/conventions")
    assert_conventions_side_by_side(page)
    assert_conventions_notebook_cell_and_scaling(page)
    assert_conventions_groups_of_one(page)
    follow_path(page, app_url, "/dynamic-sampling")
    assert_dynamic_sampling_page(page)


def test_epsilon_lab_link_and_bad_rewards(app_url, page):
    open_path(page, app_url, "/epsilon?eps.value=1e-9&eps.group=0.5,0.5000001,0.5")
    healthy_with_charts(page, 1)
    assert page.locator(".js-plotly-plot").first.get_by_text("1e-9").count() >= 2
    type_into(page, "Rewards of one group", "1, abc, 1.0000001, <b>x</b>")
    text = alerts(page)
    assert "reward 2: 'abc' is not a number" in text and "'<b>x</b>' is not a number" in text
    assert page.locator("b", has_text="x").count() == 0  # shown as text, not HTML
    healthy_with_charts(page, 1)
    shot(page, "lab_epsilon_bad_input")
    assert "eps.group=" in page.url  # the link follows what was typed
    share = share_link_of(page)
    assert "eps.value=1e-9" in share and "eps.group=1%2C+abc" in share


def test_difficulty_bias_page(app_url, page):
    open_path(page, app_url, "/difficulty?dif.k=16")
    healthy_with_charts(page, 2)
    assert page.get_by_text("+3.75", exact=True).count() == 1  # one success in 16, ddof=1
    shot(page, "lab_difficulty")
    page.get_by_text("K (ddof=0)", exact=True).click()
    settle(page, 800)
    assert page.get_by_text("+3.873", exact=True).count() == 1  # the textbook sqrt(15)
    healthy_with_charts(page, 2)


def test_a_dynamic_sampling_link_opens_its_pool(app_url, page):
    open_path(
        page, app_url, "/dynamic-sampling?dyn.pool=Mostly+easy+%28late+in+training%29&dyn.k=4"
    )
    healthy_with_charts(page, 4)
    assert page.get_by_text("The model solves most prompts").count() == 1
    shot(page, "lab_dynamic_sampling_easy")
