"""Class mode in a real browser: one lecturer (the projector) and three students, one on a
390 px phone. Join by link, vote, reveal, vote again, a "be the group" reveal with the
right advantages, and the CSV download. Screenshots: artifacts/screenshots/class_*.png."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import parse_qs, urlparse

import pytest

from grpo_core import group_advantages
from grpo_core.format import signed
from tests.e2e.conftest import (
    SHOTS,
    assert_healthy,
    settle,
    shot,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def class_url(app_url):
    """The session's app server (a store and a certificate secret of the test's own)."""
    return app_url


def open_class(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    settle(page, 600)


def vote(page, letter: str, *, expect: str) -> None:
    """Wait for the round to reach this phone by itself, pick ``letter``, send it."""
    try:
        page.get_by_text(expect).first.wait_for(timeout=15_000)
        settle(page, 300)
        option = page.locator('[data-testid="stRadioOption"]')
        option.filter(has_text=re.compile(f"^{letter}$")).click(timeout=10_000)
    except Exception:
        shot(page, "class_vote_failed")
        raise
    page.get_by_role("button", name="Send answer").click()
    page.get_by_text("Your answer is in").wait_for(timeout=15_000)


def metric_values(page) -> list[str]:
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def test_a_class_votes_revotes_and_becomes_the_group(browser, class_url):
    projector = browser.new_context(viewport={"width": 1400, "height": 1100})
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True),
        browser.new_context(viewport={"width": 1000, "height": 900}),
        browser.new_context(viewport={"width": 1000, "height": 900}),
    ]
    try:
        lect = projector.new_page()
        lect.set_default_timeout(30_000)
        open_class(lect, class_url + "/class?present=1")  # the projector presents
        lect.get_by_role("button", name="Start a class session").click()
        lect.get_by_text("Join code:").wait_for()
        settle(lect)
        assert_healthy(lect)
        query = parse_qs(urlparse(lect.url).query)
        code = query["class"][0]
        assert query["lecturer"][0] and query["present"] == ["1"]
        assert not lect.locator('[data-testid="stSidebar"]').is_visible()
        join_link = lect.locator('[data-testid="stCode"]').first.inner_text().strip()
        assert join_link.endswith(f"/class?class={code}") and "lecturer" not in join_link
        assert lect.locator('[data-testid="stImage"] img').first.bounding_box()["width"] >= 300
        shot(lect, "class_lecturer_join")

        students = []
        for i, context in enumerate(phones):
            page = context.new_page()
            page.set_default_timeout(30_000)
            open_class(page, join_link)
            page.get_by_label("Nickname (optional: shown on the projector)").fill(
                ["<b>Ann</b>", "Bo", ""][i]
            )
            page.get_by_role("button", name="Join").click()
            page.get_by_text("first question appears here").wait_for()
            assert "student=" in page.url
            assert page.get_by_role("button", name="Open this round").count() == 0
            students.append(page)

        # Round 1: a choice question; the distribution stays hidden while the room votes.
        lect.locator('[data-testid="stSelectbox"]').first.click()
        lect.keyboard.type("choice-which-rewards")
        lect.keyboard.press("Enter")
        lect.get_by_role("button", name="Open this round").click()
        for page, letter in zip(students, "ABB", strict=True):
            vote(page, letter, expect="Question 1")
        try:
            lect.get_by_text("3 of 3").wait_for(timeout=15_000)  # live, without a reload
        except Exception:
            shot(lect, "class_count_failed")
            raise
        assert lect.locator(".js-plotly-plot").count() == 0, "no distribution before the reveal"
        shot(students[0], "class_phone_vote")
        lect.get_by_role("button", name="Close & show the distribution").click()
        lect.locator(".js-plotly-plot").first.wait_for()

        # Convince your neighbour: vote again; both votes side by side.
        lect.get_by_role("button", name="Convince your neighbour: vote again").click()
        for page, letter in zip(students, "AAB", strict=True):
            vote(page, letter, expect="Vote again")
        lect.get_by_text("3 of 3").wait_for(timeout=15_000)
        lect.get_by_role("button", name="Close & show the distribution").click()
        lect.get_by_role("button", name="Reveal the answer").click()
        lect.get_by_text("Why each option").wait_for()
        settle(lect)
        assert lect.locator(".js-plotly-plot").count() == 2, "first and second vote side by side"
        shot(lect, "class_lecturer_revote")
        students[0].get_by_text("Right.").wait_for(timeout=10_000)
        students[2].get_by_text("Not this time.").wait_for(timeout=10_000)

        # "Be the group": the room's rewards are one GRPO group.
        lect.get_by_text("Ask the next question").click()
        lect.get_by_text("Be the group: the room's rewards become one GRPO group").click()
        lect.get_by_role("button", name="Open this round").click()
        for page, letter in zip(students, "ABA", strict=True):
            vote(page, letter, expect="Question 3")
        lect.get_by_text("3 of 3").wait_for(timeout=15_000)
        lect.get_by_role("button", name="Close & reveal the answer").click()
        lect.get_by_text("K (students who answered)").wait_for()
        settle(lect, 800)
        expected = group_advantages([1.0, 0.0, 1.0], convention="trl")
        values = metric_values(lect)
        assert values[-3:] == ["3", "0.6667", "0.5774"], values
        bars = lect.locator(".js-plotly-plot").last.inner_text()
        assert "&lt;b&gt;Ann&lt;/b&gt;" in lect.content() or "<b>Ann</b>" in bars
        shot(lect, "class_lecturer_group")
        chart = lect.locator('[data-testid="stPlotlyChart"]').last
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(SHOTS / "class_lecturer_advantages.png"))
        for page, advantage in zip(students, expected, strict=True):
            page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=10_000)
            settle(page)
            assert signed(advantage) in metric_values(page)
        shot(students[0], "class_phone_group")

        with lect.expect_download() as download:
            lect.get_by_role("button", name="Download the results (CSV)").click()
        with open(download.value.path(), encoding="utf-8") as f:
            rows = list(csv.reader(io.StringIO(f.read())))
        assert rows[0][:4] == ["question", "round", "student", "answer"]
        assert len(rows) == 1 + 3 * 3
        assert {r[2] for r in rows[1:]} == {"<b>Ann</b>", "Bo", "Student 3"}
        group_rows = [r for r in rows[1:] if r[1] == "3"]
        assert [float(r[6]) for r in group_rows] == pytest.approx(expected, abs=1e-4)
        for page in (lect, *students):
            assert_healthy(page)
    finally:
        projector.close()
        for context in phones:
            context.close()
