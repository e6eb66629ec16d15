"""Class mode on a 390x844 phone: a lecturer's phone taking control from the private QR
code; a student's tap targets of at least 44x44 px, the decimal keypad for numbers, "You
voted B", and one seat per browser across navigation, reloads and a second join.
Screenshots: artifacts/screenshots/class_phone_*.png."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot
from tests.e2e.test_class_screens import (
    PHONE,
    ask,
    start_session,
    take_control_from_the_private_qr,
)

pytestmark = pytest.mark.e2e
TARGET = 44


def token(page) -> str:
    return parse_qs(urlparse(page.url).query)["student"][0]


def test_a_phone_votes_with_large_targets_and_keeps_one_seat(clean_page, app_url):
    """A lecturer's phone takes control, then a student's phone votes and keeps its seat.

    Also replaces test_class_screens.py::test_the_phone_takes_control_from_a_private_qr_and_
    the_tag_leaves_its_url, whose walk started a session of its own for it: the private QR
    code holds the lecturer link with the tag, the phone opened from it gets the lecturer's
    screen and a URL without the tag, keeps control across a reload, has no traceback, and
    its "End the session…" asks first (``take_control_from_the_private_qr``), made here on
    the fresh session before anyone joins, as there.
    """
    lect = start_session(clean_page, app_url)
    take_control_from_the_private_qr(lect, clean_page(**PHONE))  # the lecturer's own phone
    phone = clean_page(**PHONE)  # the student's own browser: no cookie of the lecturer's
    code = parse_qs(urlparse(lect.url).query)["class"][0]
    open_path(phone, app_url, f"/class?class={code}")
    phone.get_by_label(re.compile("^Nickname")).fill("Student 1")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("kept for students without a nickname").wait_for()
    settle(phone)
    phone.get_by_label(re.compile("^Nickname")).fill("Ann")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("first question appears here").wait_for()
    seat = token(phone)

    ask(lect, "choice-which-rewards")
    phone.get_by_text("Question 1").wait_for()
    settle(phone)
    options = phone.locator('[data-testid="stRadioOption"]')
    for i in range(options.count()):
        b = options.nth(i).bounding_box()
        assert b["width"] >= TARGET and b["height"] >= TARGET, b
    send = phone.get_by_role("button", name="Send answer").bounding_box()
    assert send["width"] >= TARGET and send["height"] >= TARGET, send
    options.filter(has_text=re.compile("^B$")).click()
    phone.get_by_role("button", name="Send answer").click()
    phone.get_by_text("You voted B; you can change it until the round closes").wait_for()
    shot(phone, "class_phone_voted")

    # Away, and back through the app's navigation: the same seat, no new participant.
    open_path(phone, app_url, "/playground")
    phone.locator('[data-testid="stExpandSidebarButton"]').click()
    phone.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Class mode").click()
    phone.get_by_role("button", name=f"Back to class {code}").wait_for()
    sidebar = phone.locator('[data-testid="stSidebar"]')
    sidebar.hover()
    sidebar.locator('[data-testid="stSidebarCollapseButton"] button').click()
    phone.wait_for_selector('[data-testid="stSidebar"][data-collapsed="true"]')
    phone.get_by_role("button", name=f"Back to class {code}").click()
    phone.get_by_text("You voted B").wait_for()
    assert token(phone) == seat
    # The join link again, in a new tab of the same browser: the cookie's seat.
    again = phone.context.new_page()
    open_path(again, app_url, f"/class?class={code}")
    again.get_by_text("You voted B").wait_for()
    assert token(again) == seat and again.get_by_role("button", name="Join").count() == 0
    again.close()  # checked: the tab polls no more
    lect.get_by_text("1 of 1", exact=True).wait_for()

    ask(lect, "drill-trl-binary", first=False)
    phone.get_by_text("Question 2").wait_for()
    settle(phone)
    field = phone.get_by_label(re.compile("^Your value of"))
    phone.wait_for_function(
        "() => document.querySelector('input[aria-label^=\"Your value\"]')"
        "?.getAttribute('inputmode') === 'decimal'"
    )
    field.fill("0.5")
    phone.get_by_role("button", name="Send answer").click()
    phone.get_by_text("You answered 0.5").wait_for()
    shot(phone, "class_phone_numeric")
    assert_healthy(phone)
    lect.get_by_text("1 of 1", exact=True).wait_for()
