"""The quiz's end review of a follow-up: its partial credit (points made with the words
that earned them, points missed, the learner's own answer), and "I made this point" flags
that are shown, stored with a learner's progress, listed on Review and exported in the
evaluation's format, but never change the score."""

from __future__ import annotations

import tomllib

import pytest

from practice.bank import load_bank
from practice.progress_link import encode_progress, sign_progress
from practice.session import start_quiz, stored_quiz
from practice.store import open_store
from tests.app.conftest import open_page, texts

QUIZ = "pages/quiz.py"
SECRET = "practice-test-secret-0123456789abcdef"
BANK = load_bank()
IDS = sorted(q.id for q in BANK)
QID = "followup-why-std"
PARTIAL = (
    "Without the division, a prompt's update scales with the spread of its rewards. "
    "Dividing by the std puts every group on one scale, a z-score."
)
"""Makes key points 1 and 2 of followup-why-std, not 3 (low spread) or 4 (eps)."""


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("GRPO_CERT_SECRET", SECRET)
    url = f"sqlite://{tmp_path}/grpo.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    return open_store(url)


def at_the_end_with_a_partial_followup(store, state=None):
    """A full quiz, every question answered right but QID (asked last), answered PARTIAL
    (``state``: session state to start with, such as a learner key)."""
    order = start_quiz(IDS, 7).order
    quiz_id = store.create_quiz(7, order)
    for q in order:
        if q != QID:
            store.answer_quiz(quiz_id, q, 1)
    s = store.quiz(quiz_id)
    quiz = stored_quiz(IDS, quiz_id, 7, s.question_ids, s.answers)
    link = sign_progress(encode_progress(quiz), secret=SECRET)
    at = open_page(QUIZ, query={"p": link}, state=state)
    assert at.session_state["qz.current"] == QID
    at.text_area(key=f"qz.text.{QID}").set_value(PARTIAL)
    at.button(key=f"qz.check.{QID}").click().run()
    at.button(key="qz.next").click().run()
    assert not at.exception, at.exception
    return at


def test_the_end_review_shows_a_followups_partial_credit(store):
    at = at_the_end_with_a_partial_followup(store)
    question = next(q for q in BANK if q.id == QID)
    captions = texts(at, "caption")
    assert any(c.startswith("Partly right") for c in captions)  # cards show no ids
    markdown = "\n".join(texts(at, "markdown"))
    assert "**2 of 4 key points made** (counted 2/4 in your score)." in markdown
    assert markdown.count("Made: ") == 2 and markdown.count("Missed: ") == 2
    assert any(c.startswith("Earned by “") for c in captions), "the words that earned a point"
    shown = texts(at, "text")
    assert PARTIAL in shown, "the learner's own answer"
    assert any(t in PARTIAL for t in shown if t != PARTIAL), "the quoted sentence"
    assert question.model_answer in markdown


def test_a_flag_is_shown_and_exported_but_never_scores(store):
    at = at_the_end_with_a_partial_followup(store)
    score_before = [m for m in texts(at, "markdown") if m.startswith("### ")]
    assert not [b for b in at.get("download_button") if "flags" in b.proto.label]
    at.checkbox(key=f"qz.flag.{QID}.2").check().run()
    assert not at.exception, at.exception
    assert any("Flagged" in c and "does not count" in c for c in texts(at, "caption"))
    assert [m for m in texts(at, "markdown") if m.startswith("### ")] == score_before
    assert at.session_state["qz.state"].answers[QID] == 0.5, "the stored credit is unchanged"
    flags = at.session_state["followup.flags"]
    (flag,) = flags.values()
    assert (flag.question, flag.flagged, flag.credited) == (QID, (3,), (1, 2))
    from practice.flags import export_flags

    (row,) = tomllib.loads(export_flags(flags.values()))["answer"]
    assert row == {
        "question": QID,
        "category": "flagged",
        "points": [1, 2, 3],
        "credited": [1, 2],
        "flagged": [3],
        "text": PARTIAL,
    }
    assert any("for this session" in c for c in texts(at, "caption")), "no learner key"
    assert [b for b in at.get("download_button") if "flags" in b.proto.label]
    at.checkbox(key=f"qz.flag.{QID}.2").uncheck().run()
    assert not at.session_state["followup.flags"]


def test_a_learners_flag_is_stored_listed_on_review_and_never_scores(store):
    key = store.create_learner()
    at = at_the_end_with_a_partial_followup(store, state={"learner.key": key})
    attempts = store.attempts(key)
    at.checkbox(key=f"qz.flag.{QID}.3").check().run()
    assert not at.exception, at.exception
    assert any("with your progress" in c for c in texts(at, "caption"))
    (stored,) = store.flags(key)
    assert (stored.question, stored.flagged, stored.credited) == (QID, (4,), (1, 2))
    assert store.attempts(key) == attempts, "a flag records no attempt and changes no score"
    assert at.session_state["qz.state"].answers[QID] == 0.5

    review = open_page("pages/review.py", query={"learner": key})
    assert not review.exception, review.exception
    assert "3 · Points you flagged" in texts(review, "header")
    assert PARTIAL in texts(review, "text"), "the flagged answer, shown back"
    flagged_point = next(q for q in BANK if q.id == QID).key_points[3].text
    assert any(flagged_point in m for m in texts(review, "markdown"))
    assert len([b for b in review.get("download_button") if "flags" in b.proto.label]) == 1

    at.checkbox(key=f"qz.flag.{QID}.3").uncheck().run()
    assert store.flags(key) == []
    review = open_page("pages/review.py", query={"learner": key})
    assert any(c.startswith("None yet") for c in texts(review, "caption"))
