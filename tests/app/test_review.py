"""The Review page in AppTest: a learner key made on first use, a due card answered and
rated (the suggestion overridden), export and import, and a delete that really deletes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from practice.bank import load_bank
from practice.questions import TOPICS
from practice.review import NEW_PER_DAY, record_attempt
from practice.store import open_store
from practice.store.base import is_learner_key
from practice.store.learner_json import export_json
from tests.app.conftest import open_page
from ui.state import LEARNER_PARAM

PAGE = "pages/review.py"
BANK = load_bank()
CHOICE = next(q for q in BANK if q.kind == "choice")


@pytest.fixture
def store(tmp_path, monkeypatch):
    url = f"sqlite://{tmp_path}/learner.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    return open_store(url)


def captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def with_a_mistake(store) -> str:
    """A learner whose first due card is CHOICE, answered wrong an hour ago."""
    key = store.create_learner()
    now = datetime.now(UTC) - timedelta(hours=1)
    record_attempt(store, key, CHOICE.id, correct=False, seconds=5, kind="choice", when=now)
    return key


def test_first_use_makes_a_private_key_and_puts_it_in_the_url(store):
    at = open_page(PAGE)
    assert not at.exception, at.exception
    key = at.query_params[LEARNER_PARAM]
    key = key[0] if isinstance(key, list) else key
    assert is_learner_key(key) and store.learner_exists(key)
    assert f"{NEW_PER_DAY} due today" in captions(at)
    assert any(f"?{LEARNER_PARAM}={key}" in c.value for c in at.code), "the link to keep"
    assert at.get("imgs") or at.get("image"), "the QR code"


def test_a_guessed_key_in_the_url_is_not_used(store):
    guess = "A" * 32
    at = open_page(PAGE, query={LEARNER_PARAM: guess})
    assert not at.exception
    assert at.query_params[LEARNER_PARAM] != [guess]
    assert not store.learner_exists(guess)


def test_answer_a_due_card_and_override_the_rating(store):
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert not at.exception, at.exception
    assert "1 answered wrong last time (first)" in captions(at)
    card = [c.value for c in at.caption if c.value.startswith("Answered wrong last time")]
    assert card and TOPICS[CHOICE.topic] in card[0] and CHOICE.id not in card[0]  # no ids
    at.radio(key=f"review.choice.{CHOICE.id}").set_value(CHOICE.answer)
    at.button(key=f"review.check.{CHOICE.id}").click().run()
    assert not at.exception, at.exception
    rating = at.segmented_control(key="review.rating")
    assert rating.value == int(Rating.Easy), "right within 10 s: Easy suggested"
    rating.set_value(int(Rating.Hard))
    at.button(key="review.save").click().run()
    assert not at.exception, at.exception
    stored = store.attempts(key)
    assert [(a.question_id, a.score, a.rating) for a in stored][-1] == (CHOICE.id, 1.0, 2)
    assert "0 answered wrong last time" in captions(at)
    assert at.get("plotly_chart"), "the mastery chart"


def test_export_and_import(store, monkeypatch):
    key = with_a_mistake(store)
    exported = export_json(store, key)
    fresh = store.create_learner()
    at = open_page(PAGE, query={LEARNER_PARAM: fresh})
    assert not at.exception
    assert at.get("download_button"), "export and the Anki deck"
    upload = _Upload(exported.encode())  # AppTest cannot fill a file_uploader
    monkeypatch.setattr("ui.review_page.uploaded", lambda: upload)
    at.button(key="review.import_go").click().run()
    assert not at.exception, at.exception
    assert "Imported 1 attempts" in "\n".join(s.value for s in at.success)
    assert store.attempts(fresh) == store.attempts(key)
    upload.data = b"{not json"
    at.button(key="review.import_go").click().run()
    assert "not JSON" in "\n".join(e.value for e in at.error)
    assert json.loads(export_json(store, fresh)) == json.loads(exported)


def test_delete_my_data_asks_then_deletes(store):
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    at.button(key="review.delete").click().run()
    assert store.learner_exists(key), "nothing is deleted before the confirmation"
    at.button(key="review.delete_no").click().run()
    at.button(key="review.delete").click().run()
    at.button(key="review.delete_yes").click().run()
    assert not at.exception, at.exception
    assert not store.learner_exists(key)
    assert LEARNER_PARAM not in at.query_params
    assert "Your data was deleted" in "\n".join(s.value for s in at.success)
    at.button(key="review.fresh").click().run()
    assert not at.exception
    new_key = at.query_params[LEARNER_PARAM]
    assert new_key and new_key != key


class _Upload:
    """What st.file_uploader hands a callback: an object with getvalue()."""

    def __init__(self, data: bytes):
        self.data = data

    def getvalue(self) -> bytes:
        return self.data


def test_the_learner_key_is_never_in_a_share_link(store):
    key = store.create_learner()
    at = open_page("pages/playground.py", query={LEARNER_PARAM: key, "c": "verl"})
    assert not at.exception
    links = [c.value for c in at.code if "?" in c.value]
    assert links and all("c=verl" in link and key not in link for link in links)
