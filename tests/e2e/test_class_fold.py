"""The projector at 1280x720, presenting: the question, the count and, once closed, the
distribution sit above the 720 px fold, in type a back row reads; the join code stays
large for late arrivals. Element boxes are measured, not guessed.
Screenshots: artifacts/screenshots/class_fold_*.png."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot
from tests.e2e.test_class_screens import (
    PHONE,
    PROJECTOR,
    ask,
    right_letter,
    shown_options,
    start_session,
)

pytestmark = pytest.mark.e2e
FOLD = PROJECTOR["height"]
MIN_TEXT_PX = 20
"""Smallest type on the projector: the body size of presentation mode (21 px)."""


def box(page, selector: str) -> dict:
    element = page.locator(selector).first
    element.wait_for()
    return element.bounding_box()


def above_the_fold(page, selector: str) -> dict:
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= FOLD, (selector, b)
    return b


def smallest_text_px(page, selector: str) -> float:
    """The smallest computed font size of any visible text inside ``selector``'s elements
    (math left out: KaTeX sets sub- and superscripts smaller, by design)."""
    return page.evaluate(
        """sel => Math.min(...[...document.querySelectorAll(sel)].flatMap(root =>
            [...root.querySelectorAll('*')].filter(e => !e.closest('.katex')
                && e.getBoundingClientRect().width > 0
                && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
              .map(e => parseFloat(getComputedStyle(e).fontSize))))""",
        selector,
    )


def check_fold(room, stage: str, *, chart: bool) -> None:
    settle(room, 800)
    assert room.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0
    above_the_fold(room, '[data-testid="stMain"] h1')
    above_the_fold(room, ".cls-count")
    code = above_the_fold(room, ".cls-code")
    assert code["height"] >= 40, "the join code stays large"
    above_the_fold(room, '[data-testid="stImage"] img')
    if chart:
        room.locator(".js-plotly-plot").first.wait_for()
        above_the_fold(room, ".js-plotly-plot")
        assert smallest_text_px(room, ".js-plotly-plot .xtick, .js-plotly-plot .ytick") >= 18
    assert smallest_text_px(room, ".st-key-cls-room") >= MIN_TEXT_PX
    shot(room, f"class_fold_{stage}")
    assert_healthy(room)


def test_the_projector_fits_1280x720(clean_page, app_url):
    lect = start_session(clean_page, app_url)
    # the room and two students: each a clean page of its own (no cookie another has)
    room, phone = clean_page(PROJECTOR), clean_page(**PHONE)
    other = clean_page({"width": 1000, "height": 800})
    href = lect.get_by_role("link", name="Open the projector screen").get_attribute("href")
    open_path(room, "", href)
    code = re.search(r"class=(\w+)", href).group(1)
    open_path(phone, app_url, f"/class?class={code}")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("first question appears here").wait_for()
    open_path(other, app_url, f"/class?class={code}")
    other.get_by_role("button", name="Join").click()
    other.get_by_text("first question appears here").wait_for()

    ask(lect, "choice-which-rewards")
    phone.get_by_text("Question 1").wait_for()
    room.get_by_text("Question 1").wait_for()
    settle(phone)
    settle(room)
    assert shown_options(phone) == shown_options(room), "one order for the whole room"
    right = right_letter(room, "choice-which-rewards")
    option = phone.locator('[data-testid="stRadioOption"]')
    option.filter(has_text=re.compile(f"^{right}$")).click()
    phone.get_by_role("button", name="Send answer").click()
    room.get_by_text("1 of 2").wait_for()
    check_fold(room, "open", chart=False)

    lect.get_by_role("button", name="Close & show the distribution").click()
    check_fold(room, "distribution", chart=True)
    bar_labels = room.locator(".js-plotly-plot .xtick").all_text_contents()
    assert bar_labels[: len(shown_options(room))] == sorted(shown_options(room))
    lect.get_by_role("button", name="Convince your neighbour: vote again").click()
    phone.get_by_text("Vote again").wait_for()
    phone.locator('[data-testid="stRadioOption"]').first.click()
    phone.get_by_role("button", name="Send answer").click()
    phone.get_by_text("Your answer is in").wait_for()
    room.get_by_text("1 of 2").wait_for()
    lect.get_by_role("button", name="Close & reveal the answer").click()
    room.get_by_text("Why each option").wait_for()
    assert room.locator(".js-plotly-plot").count() == 2
    check_fold(room, "revote", chart=True)
    b1, b2 = (room.locator(".js-plotly-plot").nth(i).bounding_box() for i in range(2))
    assert b2["y"] + b2["height"] <= FOLD and b1["y"] + b1["height"] <= FOLD

    lect.get_by_text("Ask the next question").click()
    lect.get_by_text("Be the group: the room's rewards become one GRPO group").click()
    lect.get_by_role("button", name="Open this round").click()
    phone.get_by_text("Question 3").wait_for()
    settle(phone)
    right = right_letter(phone, "choice-which-rewards")
    wrong = next(x for x in "ABCD" if x != right)
    for student, letter in ((phone, right), (other, wrong)):  # one right, one wrong
        student.get_by_text("Question 3").wait_for()
        option = student.locator('[data-testid="stRadioOption"]')
        option.filter(has_text=re.compile(f"^{letter}$")).click()
        student.get_by_role("button", name="Send answer").click()
        student.get_by_text("Your answer is in").wait_for()
    room.get_by_text("2 of 2").wait_for()
    lect.get_by_role("button", name="Close & reveal the answer").click()
    room.locator(".cls-count").filter(has_text="K = 2").wait_for()
    check_fold(room, "group", chart=True)
    shot(phone, "class_fold_phone_group")
