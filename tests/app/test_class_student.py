"""A student's phone in class mode (ui/class_student.py), as a real room used it: what the
nickname field promises, a typo in a number, a round the student missed, the verdict on
a number, and a session that ends before its first question."""

from __future__ import annotations

from practice.class_round import RoundSpec, drill_of
from tests.app.conftest import latex, open_page
from tests.app.test_class_mode import PAGE, all_text
from tests.app.test_class_mode import store as store  # the fixture
from ui import quiz_widgets as qw
from ui.class_projector import state_of


def phone(session, token):
    return open_page(PAGE, query={"class": session.code, "student": token})


def reveal(store, code: str, number: int = 1) -> None:
    store.close_round(code, number)
    store.set_reveal(code, number, "answer")


def test_the_nickname_field_says_the_projector_shows_no_names(store):
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code})
    label = at.text_input(key="cls.nickname").label
    assert "lecturer" in label and "no names" in label, label  # the room's screen is anonymous


def test_a_typed_answer_that_is_no_number_is_not_sent_and_says_why(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("drill-k2", True, 7).encode())
    at = phone(session, student.token)
    for typed, said in (("0,5", "Use a dot as the decimal point"), ("abc", "Not a number")):
        at.text_input(key="cls.answer.1").input(typed)
        at.button(key="cls.send.1").click().run()
        assert not at.exception
        assert said in at.warning[0].value and "Not sent" in at.warning[0].value
        assert store.tally(session.code, 1) == {}, "a typo is not a vote"
        assert at.text_input(key="cls.answer.1").value == typed, "the typed text stays"
    at.text_input(key="cls.answer.1").input("-0.7071")
    at.button(key="cls.send.1").click().run()
    assert "Your answer is in" in at.success[0].value
    assert store.tally(session.code, 1) == {"-0.7071": 1}


def test_a_right_number_is_called_right_once(store):
    session = store.create_session()
    student = store.join(session.code)
    spec = RoundSpec("drill-k2", False, 7)
    store.open_round(session.code, spec.encode())
    drill = drill_of(qw.by_id()["drill-k2"], spec.seed)
    store.submit(session.code, 1, student.token, f"{drill.expected:.4f}", "id")
    reveal(store, session.code)
    verdict = phone(session, student.token).success[0].value
    assert verdict == f"**Right.** The exact value is {drill.expected:.4f}.", verdict


def test_a_student_who_missed_the_round_still_sees_the_answer_at_the_reveal(store):
    session = store.create_session()
    voter, late = store.join(session.code), store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    store.submit(session.code, 1, voter.token, "1", "id")
    store.close_round(session.code, 1)
    at = phone(session, late.token)
    assert "you did not answer it" in all_text(at) and "Why each option" not in all_text(at)
    store.set_reveal(session.code, 1, "answer")
    at.run()
    assert not at.exception
    assert "you did not answer it" in all_text(at)
    assert "Why each option" in all_text(at), "the room learns the answer: so does this phone"
    assert any("Explanation" in i.value for i in at.info)


def test_a_closed_round_reminds_the_student_of_their_vote(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    at = phone(session, student.token)
    at.radio(key="cls.answer.1").set_value(1)
    at.radio(key="cls.sure.1").set_value("certain")
    at.button(key="cls.send.1").click().run()
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "distribution")
    at.run()
    assert "Answers are closed: yours is **B** (certain). Wait for the reveal." in all_text(at)


def test_an_ended_session_reaches_a_waiting_phone_and_promises_nothing_more(store):
    session = store.create_session()
    student = store.join(session.code)
    at = phone(session, student.token)
    assert "Live: the next question appears here" in all_text(at)
    before = state_of(store.current_round(session.code), store.session(session.code))
    store.end_session(session.code)
    after = state_of(store.current_round(session.code), store.session(session.code))
    assert before != after, "the phone's poll sees the end, before any round too"
    at.run()
    assert "ended this session" in all_text(at)
    assert "Live:" not in all_text(at), "no question will appear any more"


def test_a_blanks_formula_is_shown_full_size_with_boxes_on_the_phone_and_projector(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("blanks-grpo", False, 1).encode())
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    for at in (phone(session, student.token), room):
        assert not at.exception
        assert any(r"\boxed" in f and r"\dfrac" in f for f in latex(at)), latex(at)
        assert "$$" not in all_text(at), "no inline fraction of the blanks"


def test_the_start_page_points_to_the_projector_button_by_name_not_by_side(store):
    """On a phone the columns stack: the join form is above the lecturer's part, not left."""
    at = open_page(PAGE)
    said = "\n".join(c.value for c in at.caption)
    assert "(left)" not in said and "*Show this session on the projector*" in said, said


def test_the_reveal_letters_each_option_as_the_room_voted_it(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    store.submit(session.code, 1, student.token, "0", "id")
    reveal(store, session.code)
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    for at in (phone(session, student.token), room):
        shown = [m.value for m in at.markdown if m.value.startswith((":green", ":gray"))]
        assert [s.split("** ")[0].split()[-1] for s in shown] == ["**A.", "**B.", "**C.", "**D."]


def test_a_be_the_group_round_says_so_on_the_phone_until_the_reveal(store):
    """The projector titled the round "Be the group", the phone only "Question 1"."""
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", True, 1).encode())
    at = phone(session, student.token)
    assert "**Be the group**" in all_text(at)
    store.submit(session.code, 1, student.token, "0", "id")
    reveal(store, session.code)
    at.run()
    assert "**Be the group**" not in all_text(at) and at.metric, "the advantage says it now"
