"""Classroom use in a real browser: presentation mode and stepping with the keyboard."""

import pytest

from tests.e2e.conftest import (
    assert_healthy,
    chart_marks,
    free_port,
    open_path,
    settle,
    shot,
    start_streamlit,
)

pytestmark = pytest.mark.e2e


def root_font_px(page) -> float:
    return float(page.evaluate("getComputedStyle(document.documentElement).fontSize")[:-2])


def test_presentation_mode_from_a_link_and_arrow_keys(app_url, page):
    open_path(page, app_url, "/walkthrough?present=1")
    assert_healthy(page)
    assert root_font_px(page) >= 20
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    page.keyboard.press("ArrowRight")
    page.get_by_text("Step 2 of 6").wait_for()
    page.keyboard.press("ArrowRight")
    page.get_by_text("Step 3 of 6").wait_for()
    page.keyboard.press("ArrowLeft")
    page.get_by_text("Step 2 of 6").wait_for()
    settle(page)
    assert chart_marks(page) > 0
    shot(page, "present_walkthrough")

    page.get_by_role("button", name="Exit presentation mode").click()
    page.locator('[data-testid="stSidebar"]').wait_for(state="visible")
    settle(page)
    assert root_font_px(page) < 20
    assert "present=1" not in page.url


def test_presentation_mode_from_the_sidebar(app_url, page):
    open_path(page, app_url, "/playground")
    page.locator('[data-testid="stSidebar"]').get_by_role(
        "button", name="Presentation mode"
    ).click()
    page.get_by_role("button", name="Exit presentation mode").wait_for()
    settle(page)
    assert "present=1" in page.url
    assert chart_marks(page) > 0
    shot(page, "present_playground")


def test_presentation_mode_survives_the_top_bar_and_a_reload(app_url, page):
    open_path(page, app_url, "/walkthrough?present=1")
    page.locator('[data-testid="stTopNavSection"]').filter(has_text="Explore").click()
    page.locator('[data-testid="stTopNavDropdownLink"]').filter(has_text="Epsilon lab").click()
    page.wait_for_url("**/epsilon*")
    settle(page)
    page.wait_for_function("location.search.includes('present=1')", timeout=10_000)
    page.reload()
    page.get_by_role("button", name="Exit presentation mode").wait_for()
    settle(page)
    assert root_font_px(page) >= 20
    assert_healthy(page)


@pytest.mark.parametrize("path", ["/training-log", "/length-normalisation"])
def test_a_hyphenated_page_opens_without_a_page_not_found_dialog(clean_page, path):
    """The first visit after the server starts runs Streamlit's older pages/ mode, which
    finds a page by its file name: pages are named as their URL paths, so it finds them."""
    port = free_port()
    server = start_streamlit(port)
    page = clean_page({"width": 1280, "height": 720})
    try:
        open_path(page, f"http://127.0.0.1:{port}", path)
        assert page.get_by_text("Page not found").count() == 0
        assert_healthy(page)
    finally:
        page.goto("about:blank")  # its websocket closed before the server stops
        server.terminate()
        server.wait(timeout=20)
