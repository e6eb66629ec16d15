"""What a QA pass of the teaching pages found in a real browser, kept: the lecturer at
1280x720 presenting presses *Add to this session* with the form half filled, far down
the screen, and sees the refusal without scrolling (it used to stand at the panel's top,
above the fold, so the button seemed to do nothing), inside its box (the lecturer
screen's tighter paragraphs pushed an alert's text onto its bottom edge). One lecturer
page, one load.
Screenshot: artifacts/screenshots/qa_teach_own_refused.png."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot
from tests.e2e.test_class_screens import PHONE, PROJECTOR, start_session

pytestmark = pytest.mark.e2e


def test_a_refused_own_question_says_why_where_the_lecturer_looks(clean_page, app_url):
    lect = start_session(clean_page, app_url)
    lect.get_by_text("Your own questions: type one, import or export").click()
    settle(lect)  # opening the panel reruns the page: press nothing before it is drawn
    lect.get_by_label(re.compile(r"^Question \(Markdown")).fill(
        "Which $\\varepsilon$ does TRL use?"
    )
    settle(lect)
    add = lect.get_by_role("button", name="Add to this session")
    add.scroll_into_view_if_needed()
    add.click()  # no options typed: refused
    said = lect.get_by_text(re.compile("^Not added:"))
    said.wait_for()
    settle(lect)
    shot(lect, "qa_teach_own_refused")
    b, pressed = said.bounding_box(), add.bounding_box()
    assert b["y"] >= 0 and b["y"] + b["height"] <= PROJECTOR["height"], b
    assert b["y"] > pressed["y"], "under the button pressed"
    alert = lect.locator('[data-testid="stAlertContainer"]').filter(has_text="Not added").first
    frame = alert.bounding_box()  # the text inside its box, with the box's padding below it
    assert b["y"] + b["height"] + 8 <= frame["y"] + frame["height"], (b, frame)
    assert_healthy(lect)


def test_the_cheat_sheet_tables_fit_a_phone(clean_page, app_url):
    """Its two tables ran 200 px past a 390 px phone's edge (each scrolled sideways in its
    own box): the eps and clip columns of the trainers' table were out of sight."""
    phone = clean_page(**PHONE)
    open_path(phone, app_url, "/cheatsheet")
    rights = phone.evaluate(  # a table scrolls inside its own box: measure its cells
        "[...document.querySelectorAll('[data-testid=stMain] table')].map(t =>"
        " Math.max(...[...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right)))"
    )
    shot(phone, "qa_teach_cheatsheet_phone")
    assert len(rights) == 2 and max(rights) <= PHONE["viewport"]["width"], rights
    assert_healthy(phone)
