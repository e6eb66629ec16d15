"""In a real browser: the self-quizzer's loop. A learner link brought back by pasting it
(with the line break a chat adds) in a fresh browser, its QR code decoding to that link;
hostile input on a Review card; the quiz's end review with a follow-up's partial credit
and an "I made this point" flag, then listed on Review and exported; the walkthrough's
Next after the step on a phone.
Screenshots at 390 and 1440 px: artifacts/screenshots/loop_*."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from practice.bank import load_bank
from tests.e2e.conftest import assert_healthy, download_of, open_path, settle, shot
from tests.e2e.test_practice import answer_in_the_store, quiz_in_url

pytestmark = pytest.mark.e2e

BANK = load_bank()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 1000}
WHY_STD = "followup-why-std"


def new_page(clean_page, viewport):
    """A new browser's page (no cookies, no storage): a clean page, tests/e2e/conftest.py."""
    return clean_page(viewport)


def start_a_key(page, app_url) -> str:
    open_path(page, app_url, "/review")
    assert_healthy(page)
    page.get_by_role("button", name="Start with a new learner key").click()
    page.wait_for_url(re.compile(r"learner="))
    settle(page)
    return re.search(r"[?&]learner=([A-Za-z0-9_-]{32})", page.url)[1]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1440"])
def test_a_pasted_learner_link_brings_the_progress_back(app_url, clean_page, tmp_path, viewport):
    page = new_page(clean_page, viewport)
    open_path(page, app_url, "/review")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("I have a learner link").wait_for()
    shot(page, f"loop_review_no_key_{viewport['width']}")
    key = start_a_key(page, app_url)
    link = main.locator('[data-testid="stCode"]').first.inner_text().strip()
    assert link.endswith(f"/review?learner={key}")
    qr = tmp_path / "qr.png"
    main.get_by_role("img", name="QR code of your learner link").screenshot(path=str(qr))
    if shutil.which("zbarimg"):
        decoded = subprocess.run(
            ["zbarimg", "--raw", "-q", str(qr)], capture_output=True, text=True, check=True
        )
        assert decoded.stdout.strip() == link, "the camera app opens the learner link"
    due = main.locator('[data-testid="stCaptionContainer"]', has_text="due today").inner_text()
    assert "learning step" in due and "new cards a day" in due
    shot(page, f"loop_review_with_key_{viewport['width']}")

    page = new_page(clean_page, viewport)
    open_path(page, app_url, "/review")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_label("Your learner link or key").fill("nonsense")
    main.get_by_role("button", name="Open my progress").click()
    main.get_by_text("That is not a learner link").wait_for()
    main.get_by_label("Your learner link or key").fill(link[:25] + "\n " + link[25:])
    main.get_by_role("button", name="Open my progress").click()
    page.wait_for_url(re.compile(f"learner={key}"))
    settle(page)
    assert_healthy(page)
    assert main.get_by_text("Your learner link: keep it to come back").count() == 1


def test_hostile_input_on_a_review_card_keeps_the_page(app_url, clean_page):
    page = new_page(clean_page, PHONE)
    start_a_key(page, app_url)
    main = page.locator('[data-testid="stMain"]')
    first = next(q for q in BANK if q.kind == "blanks")
    field = main.get_by_label(first.blanks[0].label[:1].upper() + first.blanks[0].label[1:])
    field.fill("<b>x</b> **y** $\\frac{1}{0}$ <script>alert(1)</script> " * 40)
    field.press("Enter")
    settle(page, 600)
    assert_healthy(page)
    assert main.locator('[data-testid="stAlert"]').count() >= 1
    assert page.locator("script", has_text="alert(1)").count() == 0
    shot(page, "loop_review_hostile_390")


PARTIAL = (
    "Without the division a prompt's update scales with the spread of its rewards. "
    "Dividing by the std puts every group on one scale, a z-score."
)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1440"])
def test_the_end_review_shows_partial_credit_and_takes_a_flag(
    app_url, app_server, clean_page, viewport
):
    """With a learner link open, the flag is kept with the progress and listed on Review.
    The quiz of every follow-up is made in the browser; two are typed there (a partial
    answer to why-std and one that makes no point), the others answered through the store
    (read back on a reload): they only lengthened the walk."""
    page = new_page(clean_page, viewport)
    key = start_a_key(page, app_url)
    open_path(page, app_url, f"/quiz?learner={key}")
    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stExpander"] summary', has_text="New practice quiz").first.click()
    kinds = main.locator('[data-testid="stMultiSelect"]').filter(has_text="Kinds")
    kinds.wait_for()
    option = page.get_by_role("option").filter(has_text="Interviewer follow-up").first
    for _ in range(5):  # the dropdown may not open while the expander still animates
        settle(page, 300)
        kinds.locator("input").click()
        try:
            option.wait_for(timeout=3000)
            break
        except Exception:  # Playwright's TimeoutError: try again
            page.keyboard.press("Escape")
    option.click()
    page.keyboard.press("Escape")
    settle(page, 200)
    main.get_by_role("button", name="Start a new quiz").click()
    page.wait_for_url(re.compile(r"[?&]p="))
    settle(page)
    quiz = quiz_in_url(page, app_server.store_url)
    assert sorted(quiz.order) == sorted(q.id for q in BANK if q.kind == "followup")
    typed = [WHY_STD, next(qid for qid in quiz.order if qid != WHY_STD)]
    answer_in_the_store(page, app_server.store_url, quiz, but=typed)
    box = main.get_by_role("textbox", name="Your answer, as you would say it to the interviewer")
    for _ in typed:
        box.wait_for()
        settle(page, 100)
        asked = main.get_by_text("Why divide by the std at all?").count() > 0
        box.fill(PARTIAL if asked else "I would look it up.")
        main.get_by_role("button", name="Check").click()
        nxt = main.get_by_role("button", name=re.compile("Next question|See my score"))
        nxt.wait_for()
        settle(page, 100)
        nxt.click()
        settle(page, 200)
    main.get_by_text("Review: what you missed").wait_for()
    settle(page)
    assert_healthy(page)
    shot(page, f"loop_quiz_end_{viewport['width']}")
    assert main.get_by_text("2 of 4 key points made").count() == 1
    assert main.get_by_text("I would look it up.").count() >= 1, "the learner's own answers"
    flag = main.get_by_text("I made this point").first
    flag.scroll_into_view_if_needed()
    flag.click()
    main.get_by_text(re.compile("Flagged: kept with your progress")).wait_for()
    settle(page)
    main.get_by_text("2 of 4 key points made").scroll_into_view_if_needed()
    shot(page, f"loop_quiz_end_review_{viewport['width']}")
    open_path(page, app_url, f"/review?learner={key}")
    flags = main.get_by_role("heading", name="3 · Points you flagged")
    flags.scroll_into_view_if_needed()
    assert_healthy(page)
    answers = main.get_by_text(re.compile(r"^(I would look it up\.|Without the division)"))
    assert answers.count() >= 1, "the flagged answer, shown back"
    export = main.get_by_role("button", name=re.compile(r"Export my flags \(1 answer,"))
    assert "[[answer]]" in download_of(page, export).read_text(encoding="utf-8")
    flags.scroll_into_view_if_needed()
    shot(page, f"loop_review_flags_{viewport['width']}")
