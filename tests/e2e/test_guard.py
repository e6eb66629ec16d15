"""The guards against stuffing and reloads, in a real Chromium against the session's app
server: the lecturer sees the seats, sets the class size and frees a seat (its vote leaves
the count); a reader from another network, past the budget of new learner keys, gets a
calm note on a 390 px phone, and the page goes on. The browser sends ``X-Real-IP`` as nginx would
(the app believes it from a loopback peer only, ``ui.client``)."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

from practice import limits
from practice.class_round import RoundSpec
from practice.store import open_store
from tests.e2e.conftest import assert_healthy, open_path, settle, shot, whole_page_shot

PHONE = {"width": 390, "height": 844}
READER = "203.0.113.44"


def test_the_lecturer_sees_the_seats_sets_the_class_size_and_frees_a_seat(app_server, page):
    store = open_store(app_server.store_url)
    open_path(page, app_server.url, "/class")
    page.get_by_role("button", name="Start a class session").click()
    page.get_by_role("button", name="Control from your phone").wait_for()
    settle(page)
    code = parse_qs(urlsplit(page.url).query)["class"][0]
    ann, bot = store.join(code, "Ann"), store.join(code, "Bot")
    number = store.open_round(code, RoundSpec("choice-which-rewards", False, 1).encode()).number
    store.submit(code, number, ann.token, "A", "a")
    store.submit(code, number, bot.token, "D", "b")
    page.get_by_text("Seats: 0 of 200 taken").click()  # drawn before the joins
    size = page.get_by_label("Class size: joins stop when every seat is taken")
    size.fill("2")
    size.press("Enter")
    page.get_by_text("Seats: 2 of 2 taken").wait_for()
    settle(page)
    assert store.class_size(code) == 2
    page.get_by_label("Seats to free (in the order they joined)").click()
    page.get_by_role("option", name="Bot").click()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Free the chosen seats").click()
    page.get_by_text("Freed 1 seat.").wait_for()
    settle(page)
    assert store.tally(code, number) == {"A": 1}
    assert page.get_by_text("Seats: 1 of 2 taken").is_visible()
    page.get_by_text("1 of 1", exact=True).wait_for()  # the live count: Bot's vote left it
    assert_healthy(page)
    shot(page, "guard_lecturer_seats")


def _use_up(store, budget: limits.Budget, address: str) -> None:
    """Spend ``budget``'s share of ``address`` in a window that lasts the test out."""
    spent = store.spend(f"{budget.name}::{address}", budget.seconds, budget.per_address)
    if spent.resets_in < 120:  # the window would end mid-test: use up the next one
        time.sleep(spent.resets_in)
        store.spend(f"{budget.name}::{address}", budget.seconds, budget.per_address)


def test_a_reader_past_the_key_budget_gets_a_calm_note_on_a_phone(app_server, clean_page):
    store = open_store(app_server.store_url)
    _use_up(store, limits.LEARNER, READER)
    page = clean_page(viewport=PHONE, is_mobile=True, extra_http_headers={"X-Real-IP": READER})
    open_path(page, app_server.url, "/review")
    page.get_by_role("button", name="Start with a new learner key").click()
    note = page.get_by_text("Your network has made 300 new learner keys in an hour")
    note.wait_for()
    settle(page)
    assert note.is_visible() and "learner=" not in page.url, "no key was made"
    assert page.get_by_role("button", name="Open my progress").is_visible(), "the page goes on"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_healthy(page)
    whole_page_shot(page, "guard_learner_budget_phone")
