"""A class session's seats, on every backend: the class size bounds the joins (a script
that joined again and again had no bound), and the lecturer frees a seat with its votes."""

from __future__ import annotations

import threading

import pytest

from practice.store.base import NicknameTaken, UnknownSession
from practice.store.class_rules import DEFAULT_CLASS_SIZE, MAX_CLASS_SIZE, ClassFull


def test_joins_stop_at_the_class_size_and_the_lecturer_can_raise_it(make_store):
    store = make_store()
    code = store.create_session().code
    assert store.class_size(code) == DEFAULT_CLASS_SIZE
    store.set_class_size(code, 3)
    for i in range(3):
        store.join(code, f"s{i}")
    with pytest.raises(ClassFull, match=r"all 3 seats are taken\. Ask your lecturer"):
        store.join(code, "late")
    with pytest.raises(ClassFull):
        store.join(code)  # the refused join took no seat: still full
    store.set_class_size(code, 4)
    assert store.join(code, "late").label == "late", "the refused nickname was not kept"
    store.set_class_size(code, 2)  # below the seats taken: nobody loses a seat
    assert len(store.students(code)) == 4 and store.class_size(code) == 2
    with pytest.raises(ClassFull):
        store.join(code)


def test_the_default_class_size_stops_a_script_that_joins_again_and_again(make_store):
    store = make_store()
    code = store.create_session().code
    for _ in range(DEFAULT_CLASS_SIZE):
        store.join(code)
    with pytest.raises(ClassFull):
        store.join(code)
    assert len(store.students(code)) == DEFAULT_CLASS_SIZE


@pytest.mark.parametrize("seats", [0, -1, MAX_CLASS_SIZE + 1, 2.5, "30", True, None])
def test_a_class_size_out_of_bounds_is_refused_in_plain_words(make_store, seats):
    store = make_store()
    code = store.create_session().code
    with pytest.raises(ValueError, match="class size must be"):
        store.set_class_size(code, seats)
    assert store.class_size(code) == DEFAULT_CLASS_SIZE


def test_concurrent_joins_never_pass_the_class_size(make_store):
    store = make_store()
    code = store.create_session().code
    store.set_class_size(code, 10)
    outcomes: list[str] = []

    def join(i: int) -> None:
        try:
            store.join(code, f"s{i}")
            outcomes.append("seat")
        except ClassFull:
            outcomes.append("full")

    threads = [threading.Thread(target=join, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("seat") == 10 == len(store.students(code))


def test_removing_a_seat_takes_its_votes_out_of_every_round(make_store):
    store = make_store()
    code = store.create_session().code
    store.set_class_size(code, 3)
    ann, bot, cy = (store.join(code, name) for name in ("Ann", "Bot", "Cy"))
    for n in (1, 2):
        assert store.open_round(code, f"q{n}").number == n
        store.submit(code, n, ann.token, "A", f"a{n}")
        store.submit(code, n, bot.token, "D", f"b{n}")
        store.submit(code, n, cy.token, "D", f"c{n}", "certain")
    assert store.remove_student(code, bot.token)
    assert [s.label for s in store.students(code)] == ["Ann", "Cy"]
    assert store.student(code, bot.token) is None
    assert store.tally(code, 1) == {"A": 1, "D": 1} and store.tally(code, 2) == {"A": 1, "D": 1}
    assert [a.label for a in store.answers(code, 2)] == ["Ann", "Cy"]
    with pytest.raises(UnknownSession):
        store.submit(code, 2, bot.token, "D", "again")  # its link votes no more
    assert not store.remove_student(code, bot.token), "a second removal finds nothing"
    assert store.join(code, "Bot").label == "Bot", "the seat and the nickname are free again"
    store.set_class_size(code, 4)
    with pytest.raises(NicknameTaken):
        store.join(code, "ann")
    store.remove_student(code, ann.token)
    assert store.tally(code, 2) == {"D": 1}, "a count that reaches 0 leaves the tally"


def test_removing_a_seat_of_another_session_or_an_unknown_one_changes_nothing(make_store):
    store = make_store()
    one, other = store.create_session().code, store.create_session().code
    ann = store.join(one, "Ann")
    assert not store.remove_student(other, ann.token)
    assert not store.remove_student(one, "no-such-token")
    assert [s.label for s in store.students(one)] == ["Ann"]
