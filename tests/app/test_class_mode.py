"""Class mode in AppTest: the lecturer's and the student's views on one shared store."""

from __future__ import annotations

import pytest

from grpo_core import group_advantages
from grpo_core.format import signed
from practice.class_link import lecturer_tag
from practice.class_round import RoundSpec, encode_blanks
from practice.store import open_store
from tests.app.conftest import open_page

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


def test_the_start_page_starts_a_session_with_a_signed_lecturer_link(store):
    at = open_page(PAGE)
    assert not at.exception
    at.button(key="cls.start").click().run()
    assert not at.exception
    code = at.query_params["class"]
    session = store.session(code)
    assert at.query_params["lecturer"] == lecturer(session)["lecturer"]
    assert f"Join code: `{code}`" in all_text(at)
    assert at.get("image"), "the QR code is drawn"
    assert {"cls.open", "cls.question", "cls.group", "cls.end"} <= keys(at)
    at.selectbox(key="cls.question").set_value("choice-which-rewards")
    at.button(key="cls.open").click().run()
    assert not at.exception
    assert any(m.value == "0 of 0" for m in at.metric), "the round shows at once, counting"
    assert store.current_round(code).open


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
    assert not at.exception and "cls.open" not in keys(at), "a forged tag gets the student view"


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
    assert not lect.exception and store.session(session.code).ended
    lect.switch_page("pages/playground.py").run()
    shared = [c.value for c in lect.code if "?" in c.value]
    assert shared, "the playground shows its share link"
    assert not any(p in link for link in shared for p in ("lecturer=", "student=", "pending="))
