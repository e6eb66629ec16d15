"""The quiz's end review of a follow-up: its partial credit (points made with the words
that earned them, points missed, the learner's own answer), and "I made this point" flags
that are shown and exported but never change the score."""

from __future__ import annotations

import json

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


def at_the_end_with_a_partial_followup(store):
    """A full quiz, every question answered right but QID (asked last), answered PARTIAL."""
    order = start_quiz(IDS, 7).order
    quiz_id = store.create_quiz(7, order)
    for q in order:
        if q != QID:
            store.answer_quiz(quiz_id, q, 1)
    s = store.quiz(quiz_id)
    quiz = stored_quiz(IDS, quiz_id, 7, s.question_ids, s.answers)
    at = open_page(QUIZ, query={"p": sign_progress(encode_progress(quiz), secret=SECRET)})
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

    row = json.loads(export_flags(flags.values()))
    assert row == {
        "question": QID,
        "text": PARTIAL,
        "points_flagged": [3],
        "points_credited": [1, 2],
    }
    assert [b for b in at.get("download_button") if "flags" in b.proto.label]
    at.checkbox(key=f"qz.flag.{QID}.2").uncheck().run()
    assert not at.session_state["followup.flags"]
