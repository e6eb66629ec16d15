"""Class mode in AppTest: the lecturer's and the student's views on one shared store."""

from __future__ import annotations

import pytest

from grpo_core import group_advantages
from grpo_core.format import signed
from practice.class_link import lecturer_tag
from practice.class_round import RoundSpec, encode_blanks
from practice.store import open_store
from tests.app.conftest import latex, open_page

PAGE = "pages/class.py"
SECRET = "class-mode-test-secret-0123456789"


@pytest.fixture
def store(tmp_path, monkeypatch):
    url = f"sqlite://{tmp_path}/class.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    monkeypatch.setenv("GRPO_CERT_SECRET", SECRET)
    return open_store(url)


def lecturer(session) -> dict:
    return {"class": session.code, "lecturer": lecturer_tag(session.code, session.created,
                                                            secret=SECRET)}  # fmt: skip


def keys(at) -> set[str]:
    return {w.key for kind in ("button", "selectbox", "toggle", "radio", "text_input")
            for w in getattr(at, kind)}  # fmt: skip


def all_text(at) -> str:
    parts = [e.value for kind in ("markdown", "success", "error", "info", "warning", "caption",
                                  "subheader", "metric") for e in getattr(at, kind)]  # fmt: skip
    return "\n".join(str(p) for p in parts)


CONTROLS = {"cls.open", "cls.end", "cls.end_confirm", "cls.reveal", "cls.show_distribution",
            "cls.revote", "cls.csv", "cls.question"}  # fmt: skip


def everything(at) -> str:
    """Every text, link, image and value the page holds, for a search for the secret."""
    parts = [all_text(at), str(at.query_params)]
    parts += [str(e.proto) for e in at.main.children.values()]
    parts += [str(node.proto) for node in _walk(at.main)]
    return "\n".join(parts)


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def test_starting_a_session_opens_the_lecturer_screen_with_no_secret_in_the_url(store):
    at = open_page(PAGE)
    assert not at.exception
    at.button(key="cls.start").click().run()
    assert not at.exception
    code = at.query_params["class"]
    session = store.session(code)
    assert at.query_params["screen"] == "lecturer" and "lecturer" not in at.query_params
    assert {"cls.open", "cls.question", "cls.group", "cls.end"} <= keys(at)
    assert "cls.end_confirm" not in keys(at), "ending asks first"
    at.selectbox(key="cls.question").set_value("choice-which-rewards")
    at.button(key="cls.open").click().run()
    assert not at.exception
    assert any(m.value == "0 of 0" for m in at.metric), "the round shows at once, counting"
    assert store.current_round(code).open
    tag = lecturer(session)["lecturer"]
    assert tag not in str(at.query_params)


def test_the_lecturer_link_leaves_the_url_once_opened_and_keeps_control(store):
    session = store.create_session()
    at = open_page(PAGE, query=lecturer(session))
    assert not at.exception
    assert "lecturer" not in at.query_params and at.query_params["screen"] == "lecturer"
    assert {"cls.open", "cls.end"} <= keys(at)
    scripts = [e.proto.body for e in at.get("html") if "document.cookie" in e.proto.body]
    assert len(scripts) == 1 and "grpo_lecturer_" + session.code in scripts[0]
    assert "SameSite=Strict" in scripts[0]
    at.run()  # the right stays with this browser tab, without the tag in the URL
    assert {"cls.open", "cls.end"} <= keys(at)


@pytest.mark.parametrize("forged", ["A" * 22, "é€✓", "\u202e" * 10, "x" * 500, ""])
def test_a_forged_or_non_ascii_lecturer_value_gets_no_control_and_no_traceback(store, forged):
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code, "lecturer": forged})
    assert not at.exception
    assert not CONTROLS & keys(at)
    assert "lecturer" not in at.query_params, "a wrong tag leaves the URL too"
    at = open_page(PAGE, query={"class": session.code, "screen": "lecturer"})
    assert not at.exception and not CONTROLS & keys(at)
    assert "open your lecturer link" in at.warning[0].value


def test_the_projector_screen_shows_the_room_and_no_control_or_secret(store):
    session = store.create_session()
    tag = lecturer(session)["lecturer"]
    for name in ("Ann", "Bo"):
        store.join(session.code, name)
    at = open_page(PAGE, query={"class": session.code, "screen": "projector", "present": "1"})
    assert not at.exception
    assert not CONTROLS & keys(at)
    assert any(m.value == "2" for m in at.metric), "joined: N before the first round"
    assert session.code in everything(at) and at.get("image"), "the join bar: code and QR"
    store.open_round(session.code, RoundSpec("choice-which-rewards", True, 1).encode())
    for s, answer in zip(store.students(session.code), "01", strict=True):
        store.submit(session.code, 1, s.token, answer, "id")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "answer")
    at.run()
    assert not at.exception and not CONTROLS & keys(at)
    assert tag not in everything(at)
    chart = at.get("plotly_chart")[-1].proto.spec
    assert "Ann" not in chart and "Bo" not in chart, "the room is anonymous on the projector"


def test_an_ended_session_leaves_the_projector_with_no_invitation_to_join(store):
    """Once the session ends, the projector thanks the room and shows no join bar: no
    code, no join link, no QR code (it kept inviting people in)."""
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code, "screen": "projector", "present": "1"})
    assert session.code in everything(at) and at.get("image"), "the join bar while it runs"
    store.end_session(session.code)
    at.run()
    assert not at.exception
    assert at.title[-1].value == "This session has ended. Thank you!"
    shown = "\n".join(str(node.proto) for node in _walk(at.main))  # not the URL: the code
    assert session.code not in shown and not at.get("image")  # stays in the address bar
    assert "Join at" not in shown and "Scan to join" not in shown


def test_ending_the_session_asks_first(store):
    session = store.create_session()
    at = open_page(PAGE, query=lecturer(session))
    at.button(key="cls.end").click().run()
    assert not at.exception and not store.session(session.code).ended
    at.button(key="cls.end_cancel").click().run()
    assert "cls.end_confirm" not in keys(at) and not store.session(session.code).ended
    at.button(key="cls.end").click().run()
    at.button(key="cls.end_confirm").click().run()
    assert not at.exception and store.session(session.code).ended


def test_a_student_joins_and_never_sees_the_lecturer_controls(store):
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code})
    assert not at.exception
    at.text_input(key="cls.nickname").input("<b>Ann</b>")
    at.button(key="cls.join").click().run()
    assert not at.exception
    token = at.query_params["student"]
    assert store.student(session.code, token).label == "<b>Ann</b>"
    assert "first question appears here" in all_text(at)
    assert not {"cls.open", "cls.end", "cls.reveal", "cls.csv"} & keys(at)
    forged = {"class": session.code, "lecturer": "A" * 22, "student": token}
    at = open_page(PAGE, query=forged)
    assert not at.exception and "cls.open" not in keys(at), "a forged tag gets no control"


def test_an_unknown_code_gets_a_clear_message(store):
    at = open_page(PAGE, query={"class": "<script>"})
    assert not at.exception
    assert "No class session has the code" in at.error[0].value


def test_a_vote_reaches_the_store_and_the_reveal_reaches_the_student(store):
    session = store.create_session()
    student = store.join(session.code, "Bob")
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    at = open_page(PAGE, query={"class": session.code, "student": student.token})
    assert not at.exception
    at.radio(key="cls.answer.1").set_value(1)
    at.button(key="cls.send.1").click().run()
    assert not at.exception
    assert "Your answer is in" in at.success[0].value
    assert store.tally(session.code, 1) == {"1": 1}
    assert "pending" not in at.query_params, "an acknowledged vote leaves the URL"
    at.radio(key="cls.answer.1").set_value(0)  # a change of mind replaces the vote
    at.button(key="cls.send.1").click().run()
    assert store.tally(session.code, 1) == {"0": 1}

    lect = open_page(PAGE, query=lecturer(session))
    assert not lect.exception
    assert any(m.value == "1 of 1" for m in lect.metric)
    lect.button(key="cls.show_distribution").click().run()
    assert not lect.exception and lect.get("plotly_chart")
    lect.button(key="cls.reveal").click().run()
    assert not lect.exception
    assert store.current_round(session.code).reveal == "answer"

    at.run()
    assert not at.exception
    assert at.success[0].value.startswith("**Right.**")
    assert any("Explanation" in i.value for i in at.info)


def test_a_pending_vote_in_the_url_is_sent_once(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    query = {"class": session.code, "student": student.token, "pending": "1~sid-1~2"}
    for _ in range(2):  # reconnecting twice with the same pending vote
        at = open_page(PAGE, query=query)
        assert not at.exception
    assert store.tally(session.code, 1) == {"2": 1}
    assert len(store.answers(session.code, 1)) == 1


def test_be_the_group_shows_the_rooms_advantages(store):
    session = store.create_session()
    students = [store.join(session.code, name) for name in ("<a href=x>Ann</a>", "Bo", "Cy")]
    spec = RoundSpec("blanks-grpo", True, 3, "trl")
    store.open_round(session.code, spec.encode())
    for s, answers in zip(students, (["mean", "std"], ["mean", "batch std"], ["x", "y"]),
                          strict=True):  # fmt: skip
        store.submit(session.code, 1, s.token, encode_blanks(answers), "id")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "answer")
    lect = open_page(PAGE, query=lecturer(session))
    assert not lect.exception
    assert [m.value for m in lect.metric][1:4] == ["3", "0.5", "0.5"]
    chart = lect.get("plotly_chart")[-1].proto.spec
    assert "&lt;a href=x&gt;Ann" in chart and "<a href" not in chart
    lect.button_group[0].set_value("rloo").run()  # switching the convention updates it
    assert not lect.exception
    assert lect.dataframe, "the walkthrough's steps on the room's numbers"
    rloo = group_advantages([1.0, 0.5, 0.0], convention="rloo")
    spec_text = lect.get("plotly_chart")[-1].proto.spec
    assert "under rloo" in spec_text and f'"{signed(rloo[0])}"' in spec_text

    mine = open_page(PAGE, query={"class": session.code, "student": students[0].token})
    assert not mine.exception
    trl = group_advantages([1.0, 0.5, 0.0], convention="trl")
    assert [m.value for m in mine.metric] == [signed(trl[0])]
    assert "beat the room's mean 0.5" in all_text(mine)


def test_one_student_in_a_group_round_hears_what_it_means(store):
    session = store.create_session()
    alone = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", True, 1).encode())
    store.submit(session.code, 1, alone.token, "0", "id")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "answer")
    lect = open_page(PAGE, query=lecturer(session))
    assert not lect.exception
    assert any("Only one student answered" in i.value for i in lect.info)


def test_the_results_download_and_leaving_the_page_drops_private_parameters(store):
    session = store.create_session()
    student = store.join(session.code, "=cmd")
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    store.submit(session.code, 1, student.token, "0", "id")
    lect = open_page(PAGE, query=lecturer(session))
    csv_text = lect.get("download_button")[0].proto.url
    assert csv_text  # the data is served by the media file manager
    lect.button(key="cls.end").click().run()
    lect.button(key="cls.end_confirm").click().run()
    assert not lect.exception and store.session(session.code).ended
    lect.switch_page("pages/playground.py").run()
    shared = [c.value for c in lect.code if "?" in c.value]
    assert shared, "the playground shows its share link"
    assert not any(p in link for link in shared for p in ("lecturer=", "student=", "pending="))


def test_the_phone_and_the_projector_letter_the_shuffled_options_alike(store):
    from ui.quiz_widgets import by_id

    q = by_id()["choice-which-rewards"]
    session = store.create_session()
    student = store.join(session.code)
    order = (2, 0, 3, 1)
    store.open_round(session.code, RoundSpec(q.id, False, 1, "trl", order).encode())
    phone = open_page(PAGE, query={"class": session.code, "student": student.token})
    radio = phone.radio(key="cls.answer.1")
    assert radio.options == ["A", "B", "C", "D"]
    radio.set_value(0)  # the right option, shown as B
    phone.button(key="cls.send.1").click().run()
    assert store.tally(session.code, 1) == {"0": 1}
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    shown = [m.value for m in room.markdown if m.value.startswith("**")]
    assert shown[:2] == [f"**A.** {q.options[2].text}", f"**B.** {q.options[0].text}"]
    phone.run()
    phone_shown = [m.value for m in phone.markdown if m.value.startswith("**")]
    assert phone_shown[:2] == shown[:2], "the phone's letters match the projector's"


def test_the_phone_says_what_it_voted(store):
    session = store.create_session()
    student = store.join(session.code)
    store.open_round(session.code, RoundSpec("choice-which-rewards", False, 1).encode())
    at = open_page(PAGE, query={"class": session.code, "student": student.token})
    at.radio(key="cls.answer.1").set_value(1)
    at.button(key="cls.send.1").click().run()
    assert "You voted **B**; you can change it until the round closes." in at.success[0].value
    at.run()  # and still after the page runs again
    assert "You voted **B**" in at.success[0].value


def test_one_browser_keeps_one_seat_across_pages_and_joins(store):
    session = store.create_session()
    at = open_page(PAGE, query={"class": session.code})
    at.text_input(key="cls.nickname").input("Ann")
    at.button(key="cls.join").click().run()
    token = at.query_params["student"]
    at.switch_page("pages/playground.py").run()
    assert not at.exception
    at.query_params.clear()  # the navigation's link carries no code and no token
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    at.button(key=f"cls.back.{session.code}").click().run()
    assert not at.exception and at.query_params["student"] == token
    assert "first question appears here" in all_text(at)
    at.query_params.clear()
    at.query_params["class"] = session.code  # the join link again, in the same tab
    at.run()
    assert at.query_params["student"] == token and "cls.join" not in keys(at)
    assert [s.label for s in store.students(session.code)] == ["Ann"], "no phantom seat"


@pytest.mark.parametrize("nickname", ["ann", "Student 2", "student1"])
def test_a_taken_or_default_nickname_is_refused_on_the_page(store, nickname):
    session = store.create_session()
    store.join(session.code, "Ann")
    at = open_page(PAGE, query={"class": session.code})
    at.text_input(key="cls.nickname").input(nickname)
    at.button(key="cls.join").click().run()
    assert not at.exception and "pick another" in at.error[0].value
    assert "student" not in at.query_params and len(store.students(session.code)) == 1


def test_the_picker_previews_text_and_the_formula_typesets_eps(store):
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    labels = lect.selectbox(key="cls.question").options
    line = next(x for x in labels if x.endswith("(choice-which-rewards)"))
    assert "over which rewards are the mean" in line and "$" not in line and "\\" not in line
    students = [store.join(session.code, name) for name in ("Ann", "Bo")]
    store.open_round(session.code, RoundSpec("choice-which-rewards", True, 1).encode())
    for s, answer in zip(students, "01", strict=True):
        store.submit(session.code, 1, s.token, answer, "id")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "answer")
    lect.run()
    (formula,) = latex(lect)
    assert r"10^{-4}" in formula and "e-" not in formula and "e −" not in formula


def test_both_votes_share_one_scale_with_whole_number_ticks(store):
    import json

    session = store.create_session()
    students = [store.join(session.code) for _ in range(3)]
    spec = RoundSpec("choice-which-rewards", False, 1)
    store.open_round(session.code, spec.encode())
    for s, answer in zip(students, "011", strict=True):
        store.submit(session.code, 1, s.token, answer, "id1")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "distribution")
    store.open_round(session.code, spec.encode(), revote_of=1)
    for s in students:
        store.submit(session.code, 2, s.token, "0", "id2")
    store.close_round(session.code, 2)
    store.set_reveal(session.code, 2, "answer")
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    axes = [json.loads(c.proto.spec)["layout"]["yaxis"] for c in room.get("plotly_chart")]
    assert len(axes) == 2 and axes[0]["range"] == axes[1]["range"]
    assert all(a["dtick"] == 1 and a["tickformat"] == "d" for a in axes)


def test_the_lecturer_alone_sees_the_next_step_and_the_transitions(store):
    session = store.create_session()
    students = [store.join(session.code) for _ in range(4)]
    spec = RoundSpec("choice-which-rewards", False, 1)  # option 0 is right
    store.open_round(session.code, spec.encode())
    for s, answer in zip(students, "0011", strict=True):
        store.submit(session.code, 1, s.token, answer, "v1")
    store.close_round(session.code, 1)
    store.set_reveal(session.code, 1, "distribution")
    lect = open_page(PAGE, query=lecturer(session))
    assert "50 % right: the middle band" in lect.info[0].value
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    assert "middle band" not in all_text(room), "the rule of thumb is the lecturer's"
    store.open_round(session.code, spec.encode(), revote_of=1)
    for s, answer in zip(students, "0101", strict=True):
        store.submit(session.code, 2, s.token, answer, "v2")
    store.close_round(session.code, 2)
    store.set_reveal(session.code, 2, "distribution")
    lect.run()
    table = next(m.value for m in lect.markdown if "right → right" in m.value)
    for row in ("| right → right | 1 |", "| wrong → right | 1 |", "| right → wrong | 1 |",
                "| wrong → wrong | 1 |"):  # fmt: skip
        assert row in table
    assert "(post − pre) / (1 − pre): 0." in all_text(lect)
    assert "](https://doi.org/10.1119/1.18809" in all_text(lect), "the gain cites Hake 1998"
    room.run()
    assert "right → right" not in all_text(room)


def test_the_lecturer_closes_the_session_to_new_students(store):
    session = store.create_session()
    lect = open_page(PAGE, query=lecturer(session))
    lect.toggle(key="cls.lock").set_value(True).run()
    assert not lect.exception and store.joins_locked(session.code)
    room = open_page(PAGE, query={"class": session.code, "screen": "projector"})
    assert "closed to new students" in all_text(room) and not room.get("image")
    late = open_page(PAGE, query={"class": session.code})
    late.button(key="cls.join").click().run()
    assert not late.exception and "closed this session to new students" in late.error[0].value
    lect.toggle(key="cls.lock").set_value(False).run()
    late.button(key="cls.join").click().run()
    assert "student" in late.query_params


def test_presenting_the_lecturer_screen_keeps_the_phone_control_qr_code_off_it(store):
    """Red team: the lecturer screen is made to be projected (1280x720 presenting), and its
    "Control from your phone" popover drew the QR code of the lecturer link, its tag inside,
    onto the projector once opened: a student's camera took the controls."""
    session = store.create_session()
    own = open_page(PAGE, query=lecturer(session))
    assert own.get("image"), "on the lecturer's own screen, the QR code to scan"
    shown = open_page(PAGE, query={**lecturer(session), "present": "1"})
    assert not shown.exception
    assert {"cls.open", "cls.end"} <= keys(shown), "still the lecturer screen"
    assert not shown.get("image"), "no QR code of the lecturer link while presenting"
    assert "QR code that hands your controls to a phone is hidden" in all_text(shown)
