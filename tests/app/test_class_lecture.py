"""Class mode's lecture tools in AppTest: a confidence with each vote, a countdown the
store ends, and the lecturer's own questions (typed, imported, exported), on one store."""

from __future__ import annotations

import time

import pytest

from practice.class_questions import parse_set
from practice.class_round import RoundSpec
from tests.app.conftest import open_page
from tests.app.test_class_mode import PAGE, all_text, keys, lecturer
from tests.app.test_class_mode import store as store  # the fixture

SET = """[[question]]
id = "own-ratio"
kind = "choice"
prompt = "Which ratio does PPO clip?"
explanation = "The new over the old policy's probability."

[[question.options]]
text = "pi_new / pi_old"
correct = true

[[question.options]]
text = "pi_old / pi_new"
why = "Upside down."

[[question]]
id = "own-k"
kind = "number"
prompt = "How many completions per prompt in our example?"
answer = 8
tol = 0.5
"""


def phone(session, token) -> object:
    return open_page(PAGE, query={"class": session.code, "student": token})


def projector(session):
    return open_page(PAGE, query={"class": session.code, "screen": "projector", "present": "1"})


def until(condition, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` holds (a condition, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_vote_carries_its_confidence_to_the_store_and_the_lecturer(store):
    session = store.create_session()
    ann, bo = store.join(session.code, "Ann"), store.join(session.code, "Bo")
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    at = phone(session, ann.token)
    sure = at.radio(key="cls.sure.1")
    assert sure.options == ["guessing", "fairly sure", "certain"] and sure.value is None
    at.radio(key="cls.answer.1").set_value(1)  # wrong (option 0 is right), and certain
    sure.set_value("certain")
    at.button(key="cls.send.1").click().run()
    assert not at.exception
    assert "You voted **B** (certain); you can change it" in at.success[0].value
    assert [(a.answer, a.confidence) for a in store.answers(session.code, 1)] == [("1", "certain")]
    at.run()
    assert at.radio(key="cls.sure.1").value == "certain", "the phone shows what it sent"
    other = phone(session, bo.token)
    other.radio(key="cls.answer.1").set_value(0)  # right, no confidence given
    other.button(key="cls.send.1").click().run()
    assert "You voted **A**; you can" in other.success[0].value
    assert store.answers(session.code, 1)[1].confidence == ""

    lect = open_page(PAGE, query=lecturer(session))
    assert "how sure" not in all_text(lect), "hidden while the round is open"
    lect.button(key="cls.show_distribution").click().run()
    assert not lect.exception
    table = next(m.value for m in lect.markdown if "how sure" in m.value)
    assert "| certain | 0 | 1 |" in table and "| not said | 1 | 0 |" in table
    assert "how sure" not in all_text(projector(session)), "the split is the lecturer's"


def test_a_countdown_shows_everywhere_and_the_store_closes_the_round(store):
    session = store.create_session()
    student = store.join(session.code)
    lect = open_page(PAGE, query=lecturer(session))
    lect.selectbox(key="cls.seconds").set_value(300)
    lect.selectbox(key="cls.question").set_value("choice-which-rewards")
    lect.button(key="cls.open").click().run()
    assert not lect.exception
    r = store.current_round(session.code)
    assert r.open and r.closes == pytest.approx(r.opened + 300)
    assert any(m.label == "Time left" and m.value in ("5:00", "4:59") for m in lect.metric)
    room = projector(session)
    assert any("Time left: <b>5:00</b>" in m.value or "4:59" in m.value for m in room.markdown)
    mine = phone(session, student.token)
    clocks = [h.proto.body for h in mine.get("html") if "cls-clock" in h.proto.body]
    assert clocks and "left to answer" in clocks[0]

    spec = RoundSpec("choice-which-rewards", False, 2).encode()
    short = store.open_round(session.code, spec, seconds=0.4)  # a short deadline
    mine.run()
    mine.radio(key="cls.answer.2").set_value(0)
    until(lambda: time.time() >= short.closes)
    mine.button(key="cls.send.2").click().run()
    assert not mine.exception
    assert any("has closed (time is up" in i.value for i in mine.info), "a calm message"
    assert not mine.error and store.tally(session.code, 2) == {}
    assert "pending" not in mine.query_params
    mine.run()
    assert any("Time is up. This round is closed" in i.value for i in mine.info)
    lect.run()
    assert "Time is up: reveal the answer" in [b.label for b in lect.button]
    lect.button(key="cls.reveal").click().run()
    assert store.current_round(session.code).reveal == "answer"


def test_the_lecturer_types_a_choice_question_and_the_room_answers_it(store):
    session = store.create_session()
    student = store.join(session.code)
    lect = open_page(PAGE, query=lecturer(session))
    lect.text_area(key="cls.own_prompt").input("Is <script>alert(1)</script> a question?")
    lect.text_input(key="cls.own_opt.0").input("yes")
    lect.text_input(key="cls.own_opt.1").input("no")
    lect.radio(key="cls.own_right").set_value("B")
    lect.button(key="cls.own_add").click().run()
    assert not lect.exception
    assert "Not added" in lect.error[0].value and "HTML is not allowed" in lect.error[0].value
    assert store.question_set(session.code) == ""
    assert lect.text_area(key="cls.own_prompt").value.startswith("Is <script>"), "work kept"
    lect.text_area(key="cls.own_prompt").input("Does the std of a tie group vanish?")
    lect.button(key="cls.own_add").click().run()
    assert not lect.exception and "Added" in lect.success[0].value
    (question,) = parse_set(store.question_set(session.code))
    assert question.id == "own-1" and question.answer == 1
    picker = lect.selectbox(key="cls.question")
    assert picker.value == "own-1" and picker.options[0].startswith("Yours · Multiple choice")
    assert lect.text_area(key="cls.own_prompt").value == "", "cleared once added"
    lect.button(key="cls.open").click().run()
    assert not lect.exception
    at = phone(session, student.token)
    assert "Does the std of a tie group vanish?" in all_text(at)
    at.radio(key="cls.answer.1").set_value(question.answer)  # "no", whatever its letter
    at.button(key="cls.send.1").click().run()
    lect.run()
    lect.button(key="cls.reveal").click().run()
    at.run()
    assert not at.exception and at.success[0].value.startswith("**Right.**")


def test_a_number_question_with_a_tolerance(store):
    session = store.create_session()
    students = [store.join(session.code) for _ in range(2)]
    lect = open_page(PAGE, query=lecturer(session))
    lect.button_group(key="cls.own_kind").set_value("Number").run()
    lect.text_area(key="cls.own_prompt").input("sqrt(1/2) to two decimals?")
    lect.text_input(key="cls.own_value").input("0.71")
    lect.text_input(key="cls.own_tol").input("zero")
    lect.button(key="cls.own_add").click().run()
    assert "as numbers" in lect.error[0].value and store.question_set(session.code) == ""
    lect.text_input(key="cls.own_tol").input("0.005")
    lect.button(key="cls.own_add").click().run()
    assert not lect.exception and "Added" in lect.success[0].value
    lect.button(key="cls.open").click().run()
    for s, typed in zip(students, ("0.707", "0.5"), strict=True):
        at = phone(session, s.token)
        assert at.text_input(key="cls.answer.1").label == "Your value"
        at.text_input(key="cls.answer.1").input(typed)
        at.button(key="cls.send.1").click().run()
        assert not at.exception
    lect.run()
    lect.button(key="cls.reveal").click().run()
    assert not lect.exception
    room = projector(session)
    assert "**Answer:** 0.71 (accepted within ± 0.005)" in all_text(room)
    assert store.tally(session.code, 1) == {"0.707": 1, "0.5": 1}


def test_importing_a_set_adds_its_questions_and_a_bad_file_changes_nothing(store):
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    assert lect.get("download_button")[0].proto.disabled, "nothing to export yet"
    lect.text_area(key="cls.own_paste").input(SET)
    lect.button(key="cls.own_import").click().run()
    assert not lect.exception and "Imported: 2 new questions" in lect.success[0].value
    kept = store.question_set(session.code)
    assert [q.id for q in parse_set(kept)] == ["own-ratio", "own-k"]
    labels = lect.selectbox(key="cls.question").options
    assert labels[0].endswith("(own-ratio)") and labels[1].startswith("Yours · Number · How many")
    bad = SET.replace("tol = 0.5", "tol = 0") + '\n[[question]]\nid = "x"\nkind = "choice"\n'
    lect.text_area(key="cls.own_paste").input(bad)
    lect.button(key="cls.own_import").click().run()
    assert not lect.exception
    message = lect.error[0].value
    assert message.startswith("Nothing was imported. Line 15 \\(question 2\\)"), message
    assert store.question_set(session.code) == kept, "a bad file changes nothing"
    hostile = SET.replace("own-", "new-").replace("Upside down.", "<img src=x onerror=alert(1)>")
    lect.text_area(key="cls.own_paste").input(hostile)
    lect.button(key="cls.own_import").click().run()
    message = lect.error[0].value
    assert "Line 11 \\(question 1\\)" in message and "HTML is not allowed" in message, message
    assert "<img" not in message and store.question_set(session.code) == kept
    export = lect.get("download_button")[0]
    assert not export.proto.disabled and "2 questions" in export.proto.label


def test_the_lecturers_questions_are_no_control_for_the_room(store):
    session = store.create_session()
    store.set_question_set(session.code, SET)
    room = projector(session)
    assert not {"cls.own_add", "cls.own_import", "cls.own_export"} & keys(room)
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("own-k", False, 1).encode())
    at = phone(session, student.token)
    assert not at.exception and "How many completions per prompt" in all_text(at)
    assert not {"cls.own_add", "cls.own_import"} & keys(at)


def test_each_message_of_the_own_questions_panel_stands_under_its_button(store):
    """At the panel's top, the message sat above the fold of a 1280x720 lecturer screen:
    pressing Add or Import seemed to do nothing. It stands in the button's tab, after it."""
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    lect.button(key="cls.own_add").click().run()  # nothing typed
    typing, files = lect.tabs
    assert [e.value for e in typing.error] and "Not added" in typing.error[0].value
    lect.text_area(key="cls.own_paste").input(SET)
    lect.button(key="cls.own_import").click().run()
    typing, files = lect.tabs
    assert "Imported: 2 new questions" in files.success[0].value
    assert not typing.error and not typing.success, "a message is said once, where it belongs"
    tree = [n.proto for n in _walk(files)]
    button = next(i for i, p in enumerate(tree) if "cls.own_import" in str(p))
    said = next(i for i, p in enumerate(tree) if "Imported: 2 new questions" in str(p))
    assert said > button


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def test_an_ended_session_offers_the_next_one_at_one_press(store):
    """Ending a session left the lecturer at a dead end: no control but the CSV."""
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    lect.button(key="cls.end").click().run()
    lect.button(key="cls.end_confirm").click().run()
    assert not lect.exception and store.session(session.code).ended
    assert "cls.open" not in keys(lect) and lect.get("download_button"), "only the CSV"
    lect.button(key="cls.restart").click().run()
    assert not lect.exception
    code = lect.query_params["class"]
    assert code != session.code and not store.session(code).ended
    assert lect.query_params["screen"] == "lecturer" and "cls.open" in keys(lect)
