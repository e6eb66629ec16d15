"""What the polish pass fixed, seen in a real Chromium: a table's toolbar and a chart's
axes on a 390 px phone, a quiz question and the Listen control on a 1280x720 projector.
Each test checks several things on one load."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}

TOOLBAR_AND_AXES = """() => {
  const frame = document.querySelector('[data-testid="stDataFrame"]');
  const cell = frame.closest('[data-testid="stElementContainer"]');
  let before = cell.previousElementSibling;
  while (before && before.getBoundingClientRect().height === 0)
    before = before.previousElementSibling;
  const buttons = [...frame.querySelectorAll('[data-testid="stElementToolbar"] button')]
    .map(b => b.getBoundingClientRect()).filter(r => r.height > 0);
  const tick = document.querySelector('[data-testid="stPlotlyChart"] .ytick text');
  const chart = tick.closest('[data-testid="stPlotlyChart"]');
  return {
    before: before.getBoundingClientRect().bottom,
    buttons: buttons.map(r => [r.top, r.bottom]),
    tick: getComputedStyle(tick).fill,
    text: getComputedStyle(chart).color,
  };
}"""


def test_a_phone_sees_a_tables_toolbar_beside_the_text_and_chart_axes_in_the_text_colour(
    clean_page, app_url
):
    """The playground on a phone: a tap on the rewards table shows its toolbar (columns,
    search, full screen), which stood over the last line of the caption above the table;
    the charts' ticks were Streamlit's faded grey (#808495, 3.7:1 on white)."""
    page = clean_page(viewport=PHONE, is_mobile=True, has_touch=True)
    open_path(page, app_url, "/playground")
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 60)  # a cell, not the header
    settle(page)
    seen = page.evaluate(TOOLBAR_AND_AXES)
    shot(page, "polish_phone_table_toolbar")
    assert seen["buttons"], "the tap shows the toolbar"
    assert all(top >= seen["before"] for top, _ in seen["buttons"]), seen
    assert seen["tick"] == seen["text"], seen
    assert_healthy(page)


SCROLL_TO_TOP = """() => {
  for (const e of [document.scrollingElement, ...document.querySelectorAll('[data-testid]')])
    if (e && e.scrollTop) e.scrollTop = 0;
}"""
LONGEST_CHOICE_SEED = 268
"""A practice quiz whose first question is the bank's longest four-option choice question
(choice-batch-scale: its prompt and options, 392 characters)."""


def test_a_projected_quiz_question_shows_its_options_and_check_above_the_fold(clean_page, app_url):
    """Presenting at 1280x720, the folded "How practice works" and the new-quiz settings
    stood above the question: a four-option question's Check button was at 780 px. They
    now come under the question, and the settings still start a quiz there."""
    page = clean_page(viewport=PROJECTOR)
    open_path(page, app_url, "/quiz?present=1")
    page.get_by_text("New practice quiz").click()
    page.get_by_label("Seed (blank = random)").fill(str(LONGEST_CHOICE_SEED))
    page.get_by_role("button", name="Start a new quiz").click()
    settle(page)
    page.evaluate(SCROLL_TO_TOP)
    main = page.locator('[data-testid="stMain"]')
    assert "Two prompts in a batch" in main.inner_text(), "the seed's first question"
    options = page.locator('[data-testid="stRadio"] label:has(input[type=radio])')
    assert options.count() == 4
    bottoms = [options.nth(i).bounding_box()["y"] + 20 for i in range(4)]
    check = page.get_by_role("button", name="Check").bounding_box()
    shot(page, "polish_projected_quiz")
    assert max(bottoms) <= PROJECTOR["height"] and check["y"] + check["height"] <= 720, (
        bottoms,
        check,
    )
    settings = page.get_by_text("How practice works").bounding_box()
    assert page.locator("h1").bounding_box()["y"] > 0, "seen from the top of the page"
    assert settings["y"] > check["y"], "the settings come after the question"
    assert_healthy(page)


def test_a_laptop_reads_listen_above_the_fold_and_a_long_chart_title_on_one_line(
    clean_page, app_url
):
    """At 1280x720 the Listen control is under the page's intro, above the fold; a chart
    title of 56 characters is one line where the chart has room (it was cut into lines
    of 40 at every width), and the phone's HTML copy of it is not shown."""
    page = clean_page(viewport=PROJECTOR)
    open_path(page, app_url, "/difficulty")
    listen = page.locator('iframe[title^="Listen"]').bounding_box()
    assert listen["y"] + listen["height"] <= PROJECTOR["height"], listen
    title = page.locator(".gtitle", has_text="A right and a wrong answer's advantage")
    assert title.count() == 1 and title.locator("tspan.line").count() <= 1
    assert title.bounding_box()["height"] < 30
    assert not page.locator(".chart-title-phone").first.is_visible()
    assert_healthy(page)
