"""In a real browser, a self-quizzer's Review at 390 and 1440 px: a key pasted with spaces
and tabs opens the progress; kept FSRS parameters are said on the due line and in "Your
data", and "Go back to FSRS's defaults" removes them from the store; a long history of
many topics draws the mean and the weakest three (not a tangle); a card shown before its
learning step ends says so; hostile numbers and a 5 MB answer get plain words; a picture
of the learner link's QR code, uploaded, opens the progress.
Screenshots: artifacts/screenshots/self_quizzer_*."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from practice.bank import load_bank
from practice.class_qr import qr_png
from practice.review import NEW_PER_DAY, record_attempt
from practice.store import open_store
from tests.e2e.conftest import assert_healthy, open_path, settle, shot
from tests.e2e.test_review_views import overlap
from tests.practice.store.test_parameter_store import OWN
from tests.practice.test_review_fit import history

pytestmark = pytest.mark.e2e

BANK = load_bank()
VIEWS = [{"width": 390, "height": 844}, {"width": 1440, "height": 1000}]


def new_page(clean_page, viewport):
    """A new browser's page (a clean page, tests/e2e/conftest.py) that fails on a dialog."""
    page = clean_page(viewport)
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    return page


def due_line(main) -> str:
    return main.locator('[data-testid="stCaptionContainer"]', has_text="due today").inner_text()


@pytest.fixture
def fitted_learner(app_server):
    """A learner with 40 days of history (16 topics) ending an hour ago, and kept FSRS
    parameters."""
    store = open_store(app_server.store_url)
    key = store.create_learner()
    attempts = history(40)
    shift = datetime.now(UTC).timestamp() - max(a.at for a in attempts) - 3600
    store.replace_progress(key, [replace(a, at=a.at + shift) for a in attempts], {}, OWN)
    return store, key


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: str(v["width"]))
def test_a_fitted_learners_review_reads_and_goes_back_to_the_defaults(
    app_url, clean_page, fitted_learner, view
):
    store, key = fitted_learner
    width = view["width"]
    page = new_page(clean_page, view)
    open_path(page, app_url, "/review")
    main = page.locator('[data-testid="stMain"]')
    box = main.get_by_label("Your learner link or key")
    box.fill(f"  {key[:11]} \t {key[11:]}  ")
    main.get_by_role("button", name="Open my progress").click()
    page.wait_for_url(re.compile(f"learner={key}"))
    settle(page)
    assert_healthy(page)
    assert "Scheduled with your own FSRS parameters" in due_line(main)
    assert not [q.id for q in BANK if q.id in main.inner_text()], "no internal id on the page"

    chart = main.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    settle(page)
    assert chart.locator(".scatterlayer .trace").count() == 4, "the mean and the weakest three"
    legend = chart.locator(".legend").first.bounding_box()
    assert not overlap(legend, chart.locator(".nsewdrag").first.bounding_box())
    assert len(chart.locator(".xtick text").all()) <= 8, "dates do not crowd the axis"
    main.get_by_text("tap a topic in the legend").wait_for()
    shot(page, f"self_quizzer_mastery_{width}")

    heading = main.get_by_text("Your own FSRS parameters", exact=True)
    heading.evaluate("element => element.scrollIntoView()")
    main.get_by_text("fitted on 600 reviews on 15 Jan 2027").wait_for()
    settle(page, 200)
    shot(page, f"self_quizzer_parameters_{width}")
    main.get_by_role("button", name="Go back to FSRS's defaults").click()
    main.get_by_text("Back to FSRS's default parameters").wait_for()
    settle(page)
    assert store.parameters(key) is None, "removed from the store"
    assert "Scheduled with your own" not in due_line(main)
    assert main.get_by_role("button", name="Go back to FSRS's defaults").count() == 0


def test_a_card_shown_before_its_learning_step_says_when_it_is_due(app_server, clean_page):
    store = open_store(app_server.store_url)
    key = store.create_learner()
    now = datetime.now(UTC)
    for q in BANK[:NEW_PER_DAY]:  # today's new cards used up, every one just missed
        record_attempt(store, key, q.id, correct=False, seconds=5, kind=q.kind, when=now)
    page = new_page(clean_page, VIEWS[0])
    open_path(page, app_server.url, f"/review?learner={key}")
    main = page.locator('[data-testid="stMain"]')
    assert "0 new" in due_line(main) and "learning step" in due_line(main)
    early = main.get_by_text(re.compile(r"This card is due again in [12] min"))
    early.wait_for()
    early.scroll_into_view_if_needed()
    settle(page, 200)
    shot(page, "self_quizzer_early_card_390")


def set_value(box, text: str) -> None:
    """Put ``text`` in a focused text box as a paste does (one input event, not key by key:
    Playwright's ``fill`` of 5 MB takes minutes)."""
    box.evaluate(
        """(el, text) => {
            el.focus();
            const set = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value').set;
            set.call(el, text);
            el.dispatchEvent(new Event('input', {bubbles: true}));
        }""",
        text,
    )


def a_learner_due(store, kind: str) -> str:
    question = next(q for q in BANK if q.kind == kind)
    key = store.create_learner()
    when = datetime.now(UTC) - timedelta(hours=1)
    record_attempt(store, key, question.id, correct=False, seconds=5, kind=kind, when=when)
    return key


HOSTILE_NUMBERS = {  # id: (typed, what the message says)
    "nan": ("NaN", "Not a number"),
    "inf": ("inf", "Not a number"),
    "overflow": ("-1e309", "Not a number"),
    "empty": ("", "Not a number"),
    "html": ("<script>alert(1)</script><img src=x onerror=alert(2)>", "too long"),
}


def test_hostile_numbers_on_a_numeric_card_get_plain_words(app_server, clean_page):
    """Each hostile number in turn, on one load of one learner's numeric card: each gets its
    message, and nothing is graded. (A load for each until session 11.)"""
    store = open_store(app_server.store_url)
    page = new_page(clean_page, VIEWS[0])
    open_path(page, app_server.url, f"/review?learner={a_learner_due(store, 'numeric')}")
    main = page.locator('[data-testid="stMain"]')
    for name, (typed, says) in HOSTILE_NUMBERS.items():
        set_value(main.locator('[data-testid="stTextInput"] input').first, typed)
        main.get_by_role("button", name="Check").click()
        settle(page)
        main.locator('[data-testid="stAlert"]', has_text=says).wait_for()
        assert_healthy(page)
        assert main.get_by_text("How well did you recall it?").count() == 0, (name, "graded")
        shot(page, f"self_quizzer_numeric_{name}_390")


def test_a_5_mb_followup_answer_is_cut_with_plain_words(app_server, clean_page):
    store = open_store(app_server.store_url)
    page = new_page(clean_page, VIEWS[0])
    open_path(page, app_server.url, f"/review?learner={a_learner_due(store, 'followup')}")
    main = page.locator('[data-testid="stMain"]')
    set_value(main.locator("textarea").first, ("the std of the group " * 250_000)[:5_000_000])
    main.get_by_role("button", name="Check").click()
    main.locator('[data-testid="stAlert"]', has_text="Your answer is too long").wait_for()
    settle(page)
    assert_healthy(page)
    assert main.locator("textarea").first.evaluate("el => el.value.length") == 4000
    shot(page, "self_quizzer_followup_5mb_390")


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: str(v["width"]))
def test_a_picture_of_the_learner_links_qr_code_opens_the_progress(
    app_server, clean_page, tmp_path, view
):
    """Without a phone's camera (a screenshot on the same phone, a photo on a laptop), the
    learner uploads the picture; a picture without a learner link says why."""
    store = open_store(app_server.store_url)
    key = a_learner_due(store, "choice")
    picture = tmp_path / "my-learner-link.png"
    picture.write_bytes(qr_png(f"{app_server.url}/review?learner={key}", scale=6))
    other = tmp_path / "class-code.png"
    other.write_bytes(qr_png(f"{app_server.url}/class?class=ABCDEF", scale=6))
    page = new_page(clean_page, view)
    open_path(page, app_server.url, "/review")
    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stExpander"] summary', has_text="Only a picture").click()
    uploader = main.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploader.set_input_files(str(other))
    main.get_by_text("That QR code holds no learner link").wait_for()
    settle(page)
    shot(page, f"self_quizzer_qr_refused_{view['width']}")
    uploader.set_input_files(str(picture))
    page.wait_for_url(re.compile(f"learner={key}"))
    settle(page)
    assert_healthy(page)
    assert main.get_by_text("Your learner link: keep it to come back").count() == 1
    assert "1 answered wrong last time" in due_line(main), "the learner's own progress"
    shot(page, f"self_quizzer_qr_opened_{view['width']}")
