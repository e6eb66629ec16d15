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


def test_first_use_offers_the_learner_link_before_making_a_key(store):
    at = open_page(PAGE)
    assert not at.exception, at.exception
    assert "I have a learner link" in [h.value for h in at.subheader]
    assert LEARNER_PARAM not in at.query_params, "no key is made before the learner asks"
    at.button(key="review.new_key").click().run()
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
    assert "I have a learner link" in [h.value for h in at.subheader]
    assert not store.learner_exists(guess)


@pytest.mark.parametrize("spacing", ["{link}", "  {link}\n", "{half}\n{rest}", "{key}"])
def test_a_pasted_learner_link_or_key_brings_the_progress_back(store, spacing):
    key = with_a_mistake(store)
    link = f"http://example.org/review?{LEARNER_PARAM}={key}"
    pasted = spacing.format(link=link, half=link[:30], rest=link[30:], key=key)
    at = open_page(PAGE)
    at.text_input(key="review.pasted").set_value(pasted)
    _submit(at)
    assert not at.exception, at.exception
    assert at.query_params[LEARNER_PARAM] in (key, [key])
    assert "1 answered wrong last time (first)" in captions(at)


@pytest.mark.parametrize(
    ("pasted", "says"),
    [
        ("hello", "not a learner link"),
        ("<b>x</b>" * 300, "not a learner link"),
        ("", "not a learner link"),
        (f"http://example.org/review?{LEARNER_PARAM}={'B' * 32}", "Nothing is stored"),
    ],
)
def test_a_wrong_paste_says_why_and_makes_no_key(store, pasted, says):
    at = open_page(PAGE)
    at.text_input(key="review.pasted").set_value(pasted)
    _submit(at)
    assert not at.exception, at.exception
    assert says in "\n".join(w.value for w in at.warning)
    assert LEARNER_PARAM not in at.query_params


def _submit(at) -> None:
    """Press the recovery form's submit button (AppTest lists it among the buttons)."""
    next(b for b in at.button if b.label == "Open my progress").click().run()


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


HOSTILE = {
    "markup": "<b>bold</b> **x** $\\frac{1}{0}$ [a](javascript:alert(1)) " * 200,
    "html": "<script>alert('x')</script><img src=x onerror=alert(1)>",
    "empty": "",
    "5 MB": "A" * 5_000_000,
}
TYPED = {"blanks": "review.blank.{}.0", "numeric": "review.num.{}", "followup": "review.text.{}"}


@pytest.mark.parametrize("kind", sorted(TYPED))
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_on_every_typed_card_keeps_the_page_up(store, kind, name):
    question = next(q for q in BANK if q.kind == kind)
    key = store.create_learner()
    when = datetime.now(UTC) - timedelta(hours=1)
    record_attempt(store, key, question.id, correct=False, seconds=5, kind=kind, when=when)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    box = at.text_area if kind == "followup" else at.text_input
    box(key=TYPED[kind].format(question.id)).set_value(HOSTILE[name])
    at.button(key=f"review.check.{question.id}").click().run()
    assert not at.exception, at.exception
    said = [
        e.value for kind_ in ("warning", "error", "success", "info") for e in getattr(at, kind_)
    ]
    assert said, "a plain-words message"
    assert "<script>" not in "".join(m.value for m in at.markdown)
    assert at.get("plotly_chart") or at.info, "the rest of the page is still there"


@pytest.mark.parametrize("kind", ["choice", "redflag"])
def test_an_unanswered_choice_card_says_so(store, kind):
    question = next(q for q in BANK if q.kind == kind)
    key = store.create_learner()
    when = datetime.now(UTC) - timedelta(hours=1)
    record_attempt(store, key, question.id, correct=False, seconds=5, kind=kind, when=when)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    at.button(key=f"review.check.{question.id}").click().run()
    assert not at.exception, at.exception
    assert at.warning or at.error


def test_without_pytorch_the_page_says_why_no_fsrs_parameters_are_fitted(store, monkeypatch):
    from practice import review_fit

    monkeypatch.setattr(review_fit, "optimizer_available", lambda: False)
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert not at.exception, at.exception
    assert "needs PyTorch" in captions(at) and "Deck options → FSRS → Optimize" in captions(at)
    assert not [b for b in at.button if b.key == "review.fit"]


def test_few_reviews_say_how_many_more_the_optimizer_needs(store):
    at = open_page(PAGE, query={LEARNER_PARAM: with_a_mistake(store)})
    assert "0 of the 512 reviews FSRS's optimizer needs" in captions(at)


@pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None, reason="needs PyTorch (model extra)"
)
def test_a_learners_fit_schedules_their_answers_until_they_go_back_to_the_defaults(store):
    """A real fit by fsrs's optimizer, kept with the learner; the page says so, and the way
    back to the defaults removes it."""
    from tests.practice.test_review_fit import history

    key = store.create_learner()
    store.replace_progress(key, history(80), {})
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert "reviews to learn from: enough for fsrs's optimizer" in captions(at)
    assert "uses FSRS's default parameters until you fit your own" in captions(at)
    at.button(key="review.fit").click().run(timeout=240)
    assert not at.exception, at.exception
    assert [s.value for s in at.success if "From now on your schedule uses them" in s.value]
    own = store.parameters(key)
    assert own is not None and own.reviews >= 512, "kept with the learner"
    assert "Your schedule uses your own FSRS parameters, fitted on" in captions(at)
    assert "Scheduled with your own FSRS parameters" in captions(at), "the due line says so"
    (code,) = [c.value for c in at.code if c.value.count(",") == 20]
    assert [float(p) for p in code.split(",")] == pytest.approx(own.parameters, abs=1e-4)
    assert at.button(key="review.fit").label.startswith("Fit again on my")

    at.button(key="review.defaults").click().run()
    assert not at.exception, at.exception
    assert store.parameters(key) is None
    assert [s.value for s in at.success if "Back to FSRS's default parameters" in s.value]
    assert "Scheduled with your own" not in captions(at)
    assert not [b for b in at.button if b.key == "review.defaults"]


def test_kept_parameters_show_without_pytorch_with_the_way_back(store, monkeypatch):
    from practice import review_fit
    from tests.practice.store.test_parameter_store import OWN

    monkeypatch.setattr(review_fit, "optimizer_available", lambda: False)
    key = with_a_mistake(store)
    store.set_parameters(key, OWN)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert not at.exception, at.exception
    assert "fitted on 600 reviews on 15 Jan 2027" in captions(at)
    assert not [b for b in at.button if b.key == "review.fit"]
    at.button(key="review.defaults").click().run()
    assert store.parameters(key) is None
    assert "needs PyTorch" in captions(at)


def test_a_card_just_missed_shown_early_says_when_it_is_due(store):
    """The due line says a missed card waits its learning step; when nothing else is due
    the page shows it anyway (learn-ahead), and says so instead of contradicting itself."""
    key = store.create_learner()
    now = datetime.now(UTC)
    for q in BANK[:NEW_PER_DAY]:  # today's new cards used up, every one missed just now
        record_attempt(store, key, q.id, correct=False, seconds=5, kind=q.kind, when=now)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert not at.exception, at.exception
    assert "0 new" in captions(at)
    assert "This card is due again in 1 min (its learning step): shown now" in captions(at)


def _chart(at) -> dict:
    import json as json_

    (chart,) = at.get("plotly_chart")
    return json_.loads(chart.proto.spec)


def test_a_long_history_of_many_topics_draws_the_weakest_and_the_mean(store):
    """Many topics over many days were a tangle of lines: the chart draws the mean over all
    topics and the weakest three; the others wait in the legend."""
    from tests.practice.test_review_fit import history

    key = store.create_learner()
    store.replace_progress(key, history(40), {})
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert not at.exception, at.exception
    data = _chart(at)["data"]
    drawn = [t["name"] for t in data if t.get("visible", True) is True]
    assert drawn[0] == "All topics (mean)" and len(drawn) == 4, drawn
    assert all(t.get("visible") == "legendonly" for t in data if t["name"] not in drawn)
    weakest = [link.label.split(":")[0] for link in at.get("page_link")][-3:]
    assert sorted(drawn[1:]) == sorted(weakest), "the weakest topics listed under the chart"
    assert "tap a topic in the legend to draw its line too" in captions(at)


def test_a_few_topics_are_all_drawn(store):
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    data = _chart(at)["data"]
    assert [t.get("visible", True) for t in data] == [True], "one topic, one line, no mean"


def test_presenting_keeps_the_learner_link_and_its_qr_code_off_the_shared_screen(store):
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key, "present": "1"})
    assert not at.exception, at.exception
    shown = [str(node.proto) for node in _walk(at.main)]
    assert not [s for s in shown if key in s], "the private key reached the projector"
    assert not (at.get("imgs") or at.get("image")), "no QR code of the learner link"
    assert any("learner link and its QR code are hidden" in i.value for i in at.info)
    assert "1 · Due today" in [h.value for h in at.header], "the review itself goes on"


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def _url_key(at):
    value = at.query_params.get(LEARNER_PARAM)
    return value[0] if isinstance(value, list) else value


def test_a_learner_link_opened_presenting_leaves_the_projected_address_bar(store):
    """Red team: ``?learner=KEY&present=1`` kept the private key in the URL of a projected
    page (its address bar and every in-page anchor link). The key is kept in the session."""
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key, "present": "1"})
    assert not at.exception, at.exception
    assert _url_key(at) is None, "the learner key stays off a projected URL"
    assert "1 answered wrong last time (first)" in captions(at), "the progress is still there"
    other = open_page("pages/playground.py", query={LEARNER_PARAM: key, "present": "1"})
    assert _url_key(other) is None, "on every page, not only Review"
    assert not [w for w in other.warning if "cannot use" in w.value], "not a bad link value"


def test_turning_presentation_on_takes_the_key_out_of_the_url_and_off_puts_it_back(store):
    key = with_a_mistake(store)
    at = open_page(PAGE, query={LEARNER_PARAM: key})
    assert _url_key(at) == key
    at.session_state["present"] = True  # the sidebar's "Presentation mode" (app.py's button)
    at.run()
    assert not at.exception, at.exception
    assert _url_key(at) is None
    assert "1 answered wrong last time (first)" in captions(at)
    at.session_state["present"] = False
    at.run()
    assert _url_key(at) == key, "back on the learner's own screen, the link is the URL again"
