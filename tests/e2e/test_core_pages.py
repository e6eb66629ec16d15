"""In a real browser: the playground edits and samples, the walkthrough steps, and a shared
link reproduces the view in a fresh browser. That every page renders (no traceback, no empty
chart, no broken formula) is part of the one-load page sweep (tests/e2e/test_sweep.py)."""

import pytest

from tests.e2e.conftest import (
    assert_healthy,
    chart_marks,
    edit_cell,
    open_path,
    settle,
    shot,
)

pytestmark = pytest.mark.e2e


def test_playground_edit_a_cell_then_sample(app_url, page):
    open_path(page, app_url, "/playground")
    edit_cell(page, column=0, row=1, text="abc")
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    assert any("Prompt 1, answer 2: 'abc' is not a number" in a for a in alerts)
    assert_healthy(page)
    assert chart_marks(page) > 0
    shot(page, "playground_bad_cell")

    edit_cell(page, column=0, row=1, text="0.25")
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    assert not any("not a number" in a for a in alerts)
    assert "r=1_0.25_1_1_0_0_1_0" in page.url

    page.get_by_role("button", name="Sample").click()
    settle(page)
    assert_healthy(page)
    assert "r=1_0.25_1" not in page.url
    shot(page, "playground_sampled")


def test_walkthrough_steps_render_formulas(app_url, page):
    open_path(page, app_url, "/walkthrough")
    for step in range(2, 7):
        page.get_by_role("button", name="Next →").click()
        page.get_by_text(f"Step {step} of 6").wait_for()
        settle(page)
        assert page.locator(".katex").count() >= 1
        assert page.locator(".katex-error").count() == 0
        assert chart_marks(page) > 0
    shot(page, "walkthrough_step6")
    page.get_by_role("button", name="← Previous").click()
    page.get_by_text("Step 5 of 6").wait_for()
    settle(page)
    assert "0.9352" in page.locator(".katex").first.inner_text()
    shot(page, "walkthrough_step5")


def test_shared_link_reproduces_the_view_in_a_fresh_browser(app_url, clean_page, page):
    open_path(page, app_url, "/playground")
    page.get_by_role("button", name="Sample").click()
    settle(page)
    link = page.url
    table_before = page.locator('[data-testid="stDataFrame"]').last.inner_text()

    other = clean_page()  # a fresh browser: no cookie, no storage, no session
    open_path(other, "", link)
    assert_healthy(other)
    assert other.locator('[data-testid="stDataFrame"]').last.inner_text() == table_before
    shot(other, "shared_link_fresh_context")


def test_garbage_link_gets_a_message_and_defaults(app_url, page):
    open_path(page, app_url, "/playground?r=%3Cscript%3Ealert(1)%3C/script%3E&c=nope")
    assert_healthy(page)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "could not be used" in alerts
    assert chart_marks(page) > 0
    shot(page, "playground_garbage_link")


def test_walkthrough_real_problem_regrade(app_url, page):
    open_path(page, app_url, "/walkthrough")
    page.get_by_role("radio", name="A real math problem").click()
    page.get_by_text("The library problem").first.wait_for()
    settle(page)
    assert_healthy(page)
    a4 = page.locator("[data-testid='stVerticalBlock']", has_text="Answer a4").last
    assert "A = −0.7244" in a4.inner_text()
    shot(page, "walkthrough_real_problem")
    a4.get_by_text("correct", exact=True).click()
    page.get_by_text("A = +0.9352, pushed up").first.wait_for()
    settle(page)
    assert (
        "A = +0.9352"
        in page.locator("[data-testid='stVerticalBlock']", has_text="Answer a4").last.inner_text()
    )
    shot(page, "walkthrough_real_problem_regraded")
