"""Class-mode seats on the page (AppTest, a real SQLite store): the lecturer's class size
and freeing seats with their votes, and joins from one address held to a pace no room
keeps, across reloads (each a new session)."""

from __future__ import annotations

from practice import limits
from practice.store.class_rules import DEFAULT_CLASS_SIZE
from tests.app.conftest import open_page
from tests.app.test_budgets import one_window
from tests.app.test_class_mode import PAGE, all_text, lecturer, store  # noqa: F401


def join(code: str, nickname: str = ""):
    at = open_page(PAGE, query={"class": code})  # a new browser session: a reload, or a script
    at.text_input(key="cls.nickname").input(nickname)
    at.button(key="cls.join").click().run()
    assert not at.exception
    return at


def test_the_lecturer_sets_the_class_size_and_frees_a_seat_with_its_votes(store):  # noqa: F811
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    assert f"Seats: 0 of {DEFAULT_CLASS_SIZE} taken" in [e.label for e in lect.expander]
    lect.number_input(key="cls.size").set_value(2).run()
    assert not lect.exception and store.class_size(session.code) == 2
    ann, bot = (store.join(session.code, name) for name in ("Ann", "Bot"))
    full = join(session.code, "Cy")
    assert "This class is full: all 2 seats are taken" in full.error[0].value
    assert "student" not in full.query_params
    lect.run()
    assert "1 join refused: the class was full" in lect.warning[0].value, "the lecturer sees it"
    n = store.open_round(session.code, "q").number
    store.submit(session.code, n, ann.token, "A", "a")
    store.submit(session.code, n, bot.token, "D", "b")
    lect.run()
    assert "Seats: 2 of 2 taken" in [e.label for e in lect.expander]
    assert lect.multiselect(key="cls.free").options == ["Ann", "Bot"]
    lect.multiselect(key="cls.free").set_value(["Bot"]).run()
    lect.button(key="cls.free_go").click().run()
    assert not lect.exception and "Freed 1 seat." in all_text(lect)
    assert store.tally(session.code, n) == {"A": 1}
    assert "Seats: 1 of 2 taken" in [e.label for e in lect.expander]
    assert "student" in join(session.code, "Cy").query_params, "the freed seat is taken"


def test_joins_from_one_address_are_held_to_a_pace_no_room_keeps(store, monkeypatch):  # noqa: F811
    monkeypatch.setattr("ui.client.address", lambda: "198.51.100.7")
    monkeypatch.setattr("practice.store.sqlite_budgets.window", one_window)
    session = store.create_session()
    for _ in range(limits.JOIN.per_address):
        store.spend(f"join:{session.code}:198.51.100.7", limits.JOIN.seconds)
    late = join(session.code, "Ann")
    assert "Your network has made 40 joins of this class in 10 seconds" in late.error[0].value
    assert late.text_input(key="cls.nickname").value == "Ann", "the nickname is kept"
    assert "student" not in late.query_params and not store.students(session.code)
    assert limits.refused_joins(store, session.code) == 1
    monkeypatch.setattr("ui.client.address", lambda: "203.0.113.20")
    assert "student" in join(session.code, "Ann").query_params, "another network joins"
