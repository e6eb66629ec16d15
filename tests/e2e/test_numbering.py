"""In a real browser: a reward cell left out keeps every other answer's number. 'abc' typed
into prompt 1, answer 2 of the playground's default rewards once made the page renumber the
other seven 1..7 ("Answers 1, 2, 3 and 6 ... pushed up", bars #1..#7), so the text named the
answer left out as pushed up. One load: the playground, then the walkthrough by the app's
own navigation (the same session, no reload)."""

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

ROWS = ["#1", "#3", "#4", "#5", "#6", "#7", "#8"]
"""The grid's rows of prompt 1 with answer 2 left out."""


def bar_labels(page) -> list[list[str]]:
    """The x-axis labels of each Plotly chart on the page, as drawn (SVG text)."""
    charts = page.locator(".js-plotly-plot")
    return [
        charts.nth(i).locator(".xtick text").evaluate_all("ts => ts.map((t) => t.textContent)")
        for i in range(charts.count())
    ]


def test_a_cell_left_out_keeps_the_numbers_in_the_playground_and_the_walkthrough(page, app_url):
    open_path(page, app_url, "/playground")
    edit_cell(page, column=0, row=1, text="abc")
    assert_healthy(page)
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    assert any("Prompt 1, answer 2: 'abc' is not a number" in a for a in alerts)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Answers 1, 3, 4 and 7 scored 0.802 std above the group's mean" in main
    assert "answers 5, 6 and 8 pushed down most (A = -1.069)" in main
    assert "Values: #1 +0.8016, #3 +0.8016, #4 +0.8016, #5 −1.069" in main
    assert chart_marks(page) > 0
    assert bar_labels(page) == [ROWS, ROWS]
    assert "r=1__1_1_0_0_1_0~" in page.url  # the link keeps the left-out cell's place
    shot(page, "numbering_playground_bad_cell")

    follow_path(page, app_url, "/walkthrough")
    assert_healthy(page)
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    assert any("Prompt 1, answer 2: 'abc' is not a number" in a for a in alerts)
    assert bar_labels(page) == [ROWS]
    follow = '[data-testid="stSelectbox"]'
    page.locator(follow).filter(has_text="Answer to follow in the formulas").first.click()
    options = page.get_by_role("option").all_inner_texts()
    assert options[:3] == ["answer 1 (reward 1)", "answer 3 (reward 1)", "answer 4 (reward 1)"]
    page.get_by_role("option", name="answer 3 (reward 1)").click()
    settle(page)
    page.get_by_role("button", name="Next →").first.click()
    page.get_by_text("Step 2 of 6").wait_for()
    page.get_by_role("button", name="Next →").first.click()
    page.get_by_text("Step 3 of 6").wait_for()
    settle(page)
    formula = page.locator(".katex annotation").first.text_content()
    assert formula == r"R_{3} - \bar R = 1 - 0.5714 = 0.4286", formula
    assert bar_labels(page) == [ROWS]
    shot(page, "numbering_walkthrough_step3")
