"""Class mode in a real browser: a lecturer's screen, the projector (1280x720, presenting)
and three students, one on a 390 px phone. Join by the projector's link, vote, reveal,
vote again, a "be the group" reveal with the right advantages, and the CSV download; on
the way, the projector's fold (tests/e2e/test_class_fold.py's checks) and that nothing it
shows gives control (tests/e2e/test_class_screens.py's). Screenshots:
artifacts/screenshots/class_*.png."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from grpo_core import group_advantages
from grpo_core.format import signed
from tests.e2e.conftest import SHOTS, assert_healthy, download_of, settle, shot
from tests.e2e.test_class_fold import FOLD, check_fold
from tests.e2e.test_class_screens import (
    PROJECTOR,
    ask,
    controls,
    open_each_without_control,
    right_letter,
    shown_options,
    shown_urls,
    tag_of,
)

pytestmark = pytest.mark.e2e


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


def wait_for_chart(page, n: int = 1) -> None:
    """Wait until ``n`` charts are drawn: a chart below the fold is only drawn once it is
    scrolled to, so scroll down while waiting."""
    charts = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot')
    for _ in range(60):  # about 30 s: scroll, then wait up to 0.5 s for the n-th chart
        if charts.count() >= n:
            return
        page.mouse.move(300, 400)
        page.mouse.wheel(0, 800)
        with contextlib.suppress(PlaywrightTimeout):
            charts.nth(n - 1).wait_for(state="attached", timeout=500)
    if charts.count() >= n:
        return
    raise AssertionError(f"{charts.count()} charts drawn, not {n}")


def metric_values(page) -> list[str]:
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def test_a_class_votes_revotes_and_becomes_the_group(clean_page, app_url):
    """One class walk (start, join by the projector's link, a vote, the distribution, a vote
    again, the reveal, a "be the group" round, the CSV), with each screen's checks made at
    their moment. It replaces three walks of the same flow:

    - this test's own: the lecturer's URL holds no tag; the projector presents without a
      sidebar, with the join code and a QR code 180 px wide or more; five users, one seat
      each; the count live on projector and lecturer without a reload, no distribution
      before the close; the revote's two charts; "Right." and "Not this time." on the
      phones; the group's K, mean and std on both screens, names on the lecturer's chart
      only, each phone's own advantage; the CSV's rows, names and advantages.
    - test_class_fold.py::test_the_projector_fits_1280x720: one option order on phone and
      projector; ``check_fold`` on the projector (1280x720, presenting) with the round
      open, the distribution, after the revote's reveal (both charts above the fold) and
      the group; the distribution's bars labelled in letter order.
    - test_class_screens.py::test_the_projector_shows_nothing_private_and_no_control: the
      lecturer's tag is in a cookie, not its URL nor the projector link; control kept
      across a reload; every URL the projector shows (address, links, QR codes) before
      the round, with it open and after the reveal leads a clean browser to no control and
      no tag; the join link among them (the phones join by it); no control or tag on the
      projector itself.
    """
    # five users, each a clean page of its own (no cookie another has: one seat each)
    lect = clean_page({"width": 1280, "height": 800})
    room = clean_page(PROJECTOR)
    phones = [
        ({"width": 390, "height": 844}, {"is_mobile": True}),
        ({"width": 1000, "height": 900}, {}),
        ({"width": 1000, "height": 900}, {}),
    ]
    open_class(lect, app_url + "/class")
    lect.get_by_role("button", name="Start a class session").click()
    lect.get_by_role("heading", name=re.compile("^Lecturer screen")).wait_for()
    settle(lect)
    assert_healthy(lect)
    query = parse_qs(urlparse(lect.url).query)
    code = query["class"][0]
    assert query["screen"] == ["lecturer"] and "lecturer" not in query
    tag = tag_of(lect.context, code)
    assert tag and tag not in lect.url
    shot(lect, "class_screens_lecturer")
    lect.reload()  # the cookie keeps control across a reload
    lect.get_by_role("button", name="Open this round").wait_for()
    settle(lect)
    href = lect.get_by_role("link", name="Open the projector screen").get_attribute("href")
    assert tag not in href
    open_class(room, href)  # the room: another browser, no lecturer cookie
    assert parse_qs(urlparse(room.url).query)["present"] == ["1"]
    assert not room.locator('[data-testid="stSidebar"]').is_visible()
    assert room.get_by_text(code, exact=True).is_visible()
    assert room.locator('[data-testid="stImage"] img').first.bounding_box()["width"] >= 180
    shot(room, "class_projector_join")
    room.get_by_text("Scan to join").wait_for()
    assert_healthy(room)
    stages = {"before": shown_urls(room, "class_screens_projector_before")}
    join = [u for u in stages["before"] if u.endswith(f"/class?class={code}")]
    assert join, f"the QR code and link lead to the join page: {stages['before']}"

    students = []
    for i, (viewport, options) in enumerate(phones):
        page = clean_page(viewport, **options)
        open_class(page, join[0])
        page.get_by_label(re.compile("^Nickname")).fill(["<b>Ann</b>", "Bo", ""][i])
        page.get_by_role("button", name="Join").click()
        page.get_by_text("first question appears here").wait_for()
        assert "student=" in page.url
        assert page.get_by_role("button", name="Open this round").count() == 0
        students.append(page)

    # Round 1: a choice question; the distribution stays hidden while the room votes.
    ask(lect, "choice-which-rewards")
    students[0].get_by_text("Question 1").wait_for(timeout=15_000)
    room.get_by_text("Question 1").wait_for(timeout=15_000)
    settle(students[0])
    settle(room)
    assert shown_options(students[0]) == shown_options(room), "one order for the whole room"
    right = right_letter(students[0], "choice-which-rewards")
    wrong = next(x for x in "ABCD" if x != right)
    for page, letter in zip(students, (right, wrong, wrong), strict=True):
        vote(page, letter, expect="Question 1")
    try:
        room.get_by_text("3 of 3").wait_for(timeout=15_000)  # live, without a reload
        lect.get_by_text("3 of 3", exact=True).wait_for(timeout=15_000)
    except Exception:
        shot(room, "class_count_failed")
        raise
    assert room.locator('[data-testid="stPlotlyChart"]').count() == 0, (
        "no distribution before the reveal"
    )
    check_fold(room, "open", chart=False)
    stages["open"] = shown_urls(room, "class_screens_projector_open")
    shot(students[0], "class_phone_vote")
    shot(room, "class_projector_vote")
    lect.get_by_role("button", name="Close & show the distribution").click()
    lect.get_by_role("button", name="Convince your neighbour: vote again").wait_for()
    room.locator(".js-plotly-plot").first.wait_for(timeout=15_000)
    check_fold(room, "distribution", chart=True)
    bar_labels = room.locator(".js-plotly-plot .xtick").all_text_contents()
    assert bar_labels[: len(shown_options(room))] == sorted(shown_options(room))
    wait_for_chart(room)

    # Convince your neighbour: vote again; both votes side by side.
    lect.get_by_role("button", name="Convince your neighbour: vote again").click()
    for page, letter in zip(students, (right, right, wrong), strict=True):
        vote(page, letter, expect="Vote again")
    lect.get_by_text("3 of 3", exact=True).wait_for(timeout=15_000)
    lect.get_by_role("button", name="Close & show the distribution").click()
    lect.get_by_role("button", name="Reveal the answer").click()
    room.get_by_text("Why each option").wait_for(timeout=15_000)
    room.locator(".js-plotly-plot").nth(1).wait_for(timeout=15_000)
    settle(room)
    assert room.locator(".js-plotly-plot").count() == 2
    check_fold(room, "revote", chart=True)
    b1, b2 = (room.locator(".js-plotly-plot").nth(i).bounding_box() for i in range(2))
    assert b2["y"] + b2["height"] <= FOLD and b1["y"] + b1["height"] <= FOLD
    wait_for_chart(room, 2)  # the first and the second vote side by side
    stages["revealed"] = shown_urls(room, "class_screens_projector_revealed")
    shot(room, "class_projector_revote")
    shot(lect, "class_lecturer_revote")
    students[0].get_by_text("Right.").wait_for(timeout=10_000)
    students[2].get_by_text("Not this time.").wait_for(timeout=10_000)
    assert tag not in room.content() and tag not in room.url
    assert not controls(room), controls(room)
    for stage, urls in stages.items():
        for url in urls:
            assert tag not in url and "lecturer=" not in url, (stage, url)
    # Every URL shown at any stage, opened once (the same URL opened again at this moment
    # would show the same page) in a clean browser of its own.
    open_each_without_control(clean_page(PROJECTOR), set().union(*stages.values()), tag)

    # "Be the group": the room's rewards are one GRPO group.
    lect.get_by_text("Ask the next question").click()
    lect.get_by_text("Be the group: the room's rewards become one GRPO group").click()
    lect.get_by_role("button", name="Open this round").click()
    students[0].get_by_text("Question 3").wait_for(timeout=15_000)
    settle(students[0])
    right = right_letter(students[0], "choice-which-rewards")
    wrong = next(x for x in "ABCD" if x != right)
    for page, letter in zip(students, (right, wrong, right), strict=True):
        vote(page, letter, expect="Question 3")
    lect.get_by_text("3 of 3", exact=True).wait_for(timeout=15_000)
    lect.get_by_role("button", name="Close & reveal the answer").click()
    # Closing runs the reveal and the "be the group" numbers on the lecturer's screen
    # (one script run): under CI's load (7-10) it took more than the default 30 s once.
    lect.get_by_text("K (students who answered)").wait_for(timeout=60_000)
    room.locator(".cls-count").filter(has_text="K = 3").wait_for(timeout=15_000)
    settle(lect, 800)
    check_fold(room, "group", chart=True)
    expected = group_advantages([1.0, 0.0, 1.0], convention="trl")
    assert metric_values(lect)[-3:] == ["3", "0.6667", "0.5774"]
    line = room.locator(".cls-count").filter(has_text="K =").inner_text()
    assert "K = 3 · mean reward 0.6667 · std 0.5774" in " ".join(line.split())
    for screen in (lect, room):
        wait_for_chart(screen, screen.locator('[data-testid="stPlotlyChart"]').count())
    bars = lect.locator(".js-plotly-plot").last.inner_text()
    assert "&lt;b&gt;Ann&lt;/b&gt;" in lect.content() or "<b>Ann</b>" in bars
    assert "Ann" not in room.locator(".js-plotly-plot").last.inner_text(), "anonymous"
    shot(lect, "class_lecturer_group")
    shot(room, "class_projector_group")
    chart = lect.locator('[data-testid="stPlotlyChart"]').last
    chart.scroll_into_view_if_needed()
    chart.screenshot(path=str(SHOTS / "class_lecturer_advantages.png"))
    for page, advantage in zip(students, expected, strict=True):
        page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=10_000)
        settle(page)
        assert signed(advantage) in metric_values(page)
    shot(students[0], "class_phone_group")
    shot(students[0], "class_fold_phone_group")

    results = download_of(lect, lect.get_by_role("button", name="Download the results (CSV)"))
    with open(results, encoding="utf-8") as f:
        rows = list(csv.reader(io.StringIO(f.read())))
    assert rows[0][:4] == ["question", "round", "student", "answer"]
    assert len(rows) == 1 + 3 * 3
    assert {r[2] for r in rows[1:]} == {"<b>Ann</b>", "Bo", "Student 3"}
    group_rows = [r for r in rows[1:] if r[1] == "3"]
    assert [float(r[7]) for r in group_rows] == pytest.approx(expected, abs=1e-4)
    for page in (lect, room, *students):
        assert_healthy(page)
