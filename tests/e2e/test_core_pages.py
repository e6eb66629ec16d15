"""In a real browser: the playground edits and samples, the walkthrough steps, and a shared
link reproduces the view in a fresh browser. That every page renders (no traceback, no empty
chart, no broken formula) is part of the one-load page sweep (tests/e2e/test_sweep.py)."""

import pytest

from tests.e2e.conftest import (
    assert_healthy,
    chart_marks,
    edit_cell,
    follow_path,
    open_path,
    settle,
    shot,
)

pytestmark = pytest.mark.e2e


def assert_playground_edits_a_cell_then_samples(page) -> None:
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


def assert_walkthrough_steps_render_formulas(page) -> None:
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


def assert_shared_link_reproduces_the_view_in_a_fresh_browser(page, clean_page) -> None:
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


def assert_walkthrough_real_problem_regrades(page) -> None:
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


def test_a_reader_steps_the_walkthrough_then_edits_and_shares_the_playground(
    app_url, clean_page, page
):
    """One reader, one load, the app's navigation: the walkthrough's steps render their
    formulas and charts, its real problem regrades an answer; the playground explains a bad
    cell, takes a good one into its link and samples; its link, opened in a fresh browser,
    shows the same table. (Four tests with five loads until session 11.)"""
    open_path(page, app_url, "/walkthrough")
    assert_walkthrough_steps_render_formulas(page)
    for step in range(4, 0, -1):  # back to the first step, where the problem is stated
        page.get_by_role("button", name="← Previous").click()
        page.get_by_text(f"Step {step} of 6").wait_for()
    settle(page)
    assert_walkthrough_real_problem_regrades(page)
    follow_path(page, app_url, "/playground")
    assert_playground_edits_a_cell_then_samples(page)
    assert_shared_link_reproduces_the_view_in_a_fresh_browser(page, clean_page)
