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
