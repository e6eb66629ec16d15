"""A student's phone in class mode (ui/class_student.py), as a real room used it: what the
nickname field promises, a typo in a number, a round the student missed, the verdict on
a number, and a session that ends before its first question."""

from __future__ import annotations

from tests.app.conftest import open_page
from tests.app.test_class_mode import PAGE
from tests.app.test_class_mode import store as store  # the fixture


def test_the_nickname_field_says_the_projector_shows_no_names(store):
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code})
    label = at.text_input(key="cls.nickname").label
    assert "lecturer" in label and "no names" in label, label  # the room's screen is anonymous
