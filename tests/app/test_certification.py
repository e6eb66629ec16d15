"""The quiz page's certification mode in AppTest: start, no feedback before submitting,
results with every answer, one certificate per passed attempt (name chosen once), the
retake wait, and a second browser with the progress link that cannot issue; practice
never issues; the verify page reads wrapped IDs and short forms."""

from __future__ import annotations

import html

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from practice.certificates import short_id, verify
from practice.grading import grade_choice
from practice.store import open_store
from tests.app.conftest import open_page, texts

QUIZ, VERIFY = "pages/quiz.py", "pages/verify.py"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))  # CERT_KEY of tests/app/conftest
PUBLIC = KEY.public_key()
HOSTILE = 'Zoë "Ada" <b>O\'Brien</b> & Co'


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    url = f"sqlite://{tmp_path}/grpo.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    monkeypatch.setenv("GRPO_CERT_SECRET", "certification-test-secret-0123456789")
    return open_store(url)


def everything(at) -> str:
    kinds = ("markdown", "success", "error", "warning", "info", "caption", "code")
    return "\n".join(str(v) for kind in kinds for v in texts(at, kind))


def certification(at):
    at.button_group(key="qz.mode").set_value("Certification").run()
    assert not at.exception, at.exception
    return at


def current_variant(at):
    from practice import certification as engine
    from ui.certification import families
    from ui.class_store import class_store

    store = class_store()
    attempt = store.attempt(at.session_state["ct.attempt"])
    quiz = engine.state(store, families(), attempt)
    from practice.session import next_question

    item = next_question(quiz)
    return (engine.items(store, families(), attempt)[item] if item else None), quiz


def answer_current(at, right: bool):
    variant, _ = current_variant(at)
    q = variant.question
    if variant.drill is not None:
        value = variant.drill.expected if right else variant.drill.expected + 1
        at.text_input(key=f"ct.num.{q.id}").set_value(f"{value:.6f}")
    else:
        pick = q.answer if right else (q.answer + 1) % len(q.options)
        assert grade_choice(q, pick).correct == right
        at.radio(key=f"ct.choice.{q.id}").set_value(pick)
    at.button(key=f"ct.check.{q.id}").click().run()
    assert not at.exception, at.exception
    return q


def take(at, wrong: int = 0):
    """Start, answer every item (the first ``wrong`` wrongly), submit."""
    at.button(key="ct.start").click().run()
    assert at.session_state["ct.token"] and "ct.token" not in str(at.query_params)
    n = 0
    while current_variant(at)[0] is not None:
        q = answer_current(at, right=n >= wrong)
        shown = everything(at)
        assert "Right:" not in shown and "Missed" not in shown  # no feedback yet
        assert q.explanation not in shown
        n += 1
    at.button(key="ct.submit").click().run()
    assert not at.exception
    return n


def test_practice_never_issues_a_certificate_and_cards_show_no_ids_or_seeds(store):
    """Not even for full marks: every answer right (all but the last in the store already,
    as a learner's earlier session left them; the last through its widgets after reopening
    the progress link). Every question's widgets are walked through by
    tests/app/test_practice.py::test_full_quiz_score_review_retry_and_no_certificate."""
    from tests.app.test_practice import answer

    at = open_page(QUIZ)
    assert not at.exception
    captions = texts(at, "caption")
    assert not any("id `" in c for c in captions)
    assert not any("seed" in e.proto.label for e in at.expander)
    quiz = at.session_state["qz.state"]
    for qid in quiz.order[:-1]:
        store.answer_quiz(quiz.quiz_id, qid, True)
    at = open_page(QUIZ, query={"p": at.query_params["p"]})
    assert at.session_state["qz.current"] == quiz.order[-1]
    answer(at, right=True)
    n = len(quiz.order)
    assert f"### {n} of {n} points (100.0%)" in texts(at, "markdown")
    assert "qz.name" not in [t.key for t in at.text_input] and not at.get("download_button")
    assert any("Practice issues no certificate" in c for c in texts(at, "caption"))


def test_a_passed_attempt_gives_one_certificate_under_the_first_name(store):
    at = certification(open_page(QUIZ))
    assert "ct.seed" not in [t.key for t in at.text_input]  # no seed can be typed
    n = take(at)
    assert f"### {n} of {n} points (100.0%)" in texts(at, "markdown")
    assert sum("Right" in c for c in texts(at, "caption")) == n  # every item, with its answer
    at.text_input(key="ct.name").set_value(HOSTILE)
    at.button(key="ct.cert").click().run()
    cert_id = at.code[0].value
    info = verify(cert_id, public_key=PUBLIC)
    assert info["name"] == HOSTILE and info["total"] == n
    success = at.success[0].value
    assert "&quot;" not in success and "&amp;quot;" not in success  # escaped once
    assert sum(cert_id in c for c in texts(at, "code")) == 1  # printed once
    assert short_id(cert_id) in everything(at)
    # a second visit, in a new session with the learner link: the certificate already issued
    again = certification(open_page(QUIZ, query={"learner": at.query_params["learner"]}))
    assert again.code[0].value == cert_id and "ct.name" not in [t.key for t in again.text_input]
    # ten more names: still the first certificate
    for name in (f"Name {i}" for i in range(10)):
        at.session_state["ct.name"] = name
        from ui.certification import _issue

        _issue(store.attempt(at.session_state["ct.attempt"]), at.session_state["ct.token"], KEY)
    assert store.attempt(at.session_state["ct.attempt"]).cert_id == cert_id


def test_a_second_browser_with_the_progress_link_cannot_issue(store):
    at = certification(open_page(QUIZ))
    take(at)
    link = at.query_params["p"]
    other = open_page(QUIZ, query={"p": link})
    assert not other.exception
    assert other.session_state["qz.mode"] == "Certification"
    assert "ct.name" not in [t.key for t in other.text_input]
    assert any("Only the browser that took this attempt" in i for i in texts(other, "info"))
    assert "Every item, with its answer" not in everything(other)


def test_a_retake_waits_and_the_wait_is_shown(store):
    at = certification(open_page(QUIZ))
    take(at, wrong=12)
    assert any("needs at least 80%" in c for c in texts(at, "caption"))
    assert any("A retake opens at" in c for c in texts(at, "caption"))
    assert "ct.retake" not in [b.key for b in at.button]
    from practice import certification as engine

    with pytest.raises(engine.RetakeWait):
        from ui.certification import families

        engine.start_or_resume(store, at.query_params["learner"], families(), now=0 +
                               store.attempt(at.session_state["ct.attempt"]).started + 60,
                               wait=engine.retake_wait())  # fmt: skip


def test_a_retake_is_offered_when_the_wait_is_zero(store, monkeypatch):
    monkeypatch.setenv("GRPO_CERT_RETAKE_HOURS", "0")
    at = certification(open_page(QUIZ))
    take(at, wrong=12)
    first = at.session_state["ct.attempt"]
    at.button(key="ct.retake").click().run()
    assert at.session_state["ct.attempt"] != first and current_variant(at)[0] is not None


def test_verify_reads_a_wrapped_id_and_a_short_form(store):
    at = certification(open_page(QUIZ))
    take(at)
    at.text_input(key="ct.name").set_value("Ada Lovelace")
    at.button(key="ct.cert").click().run()
    cert_id = at.code[0].value
    wrapped = "\n".join(cert_id[i : i + 60] for i in range(0, len(cert_id), 60))
    page = open_page(VERIFY)
    page.text_area(key="vf.id").set_value(f"  {wrapped}\n").run()
    assert "Valid certificate" in page.success[0].value
    page.text_area(key="vf.id").set_value(short_id(cert_id)).run()
    assert "Valid certificate" in page.success[0].value
    assert cert_id in [c.value for c in page.code]
    page.text_area(key="vf.id").set_value("GRPO2-AAAAAAAAAAAAAAAA").run()
    assert page.error and not page.exception


def test_name_problems_are_explained_and_the_html_escapes_the_name_once():
    at = certification(open_page(QUIZ))
    take(at)
    for name, problem in (("   ", "the name is empty"), ("Ada\u200bL", "U+200B"),
                          ("\u0410da", "alphabets that look alike")):  # fmt: skip
        at.text_input(key="ct.name").set_value(name)
        at.button(key="ct.cert").click().run()
        assert any(problem in e for e in texts(at, "error")) and not at.code
    at.text_input(key="ct.name").set_value("x" * 5_000_000)  # 5 MB: too long, the start kept
    at.button(key="ct.cert").click().run()
    assert any("The name is too long: 5,000,000 characters" in e for e in texts(at, "error"))
    at.text_input(key="ct.name").set_value(HOSTILE)
    at.button(key="ct.cert").click().run()
    cert_id = at.code[0].value
    from ui.certificate import certificate_html

    page = certificate_html(verify(cert_id, public_key=PUBLIC), cert_id, "verify?id=short")
    assert html.escape(HOSTILE) in page and "<b>O" not in page and "&amp;quot;" not in page
    assert page.count(cert_id) == 1 and short_id(cert_id) in page and "<svg" in page


def test_a_stored_card_fsrs_refuses_gives_a_message_not_a_traceback(store):
    """Issue 24, item 6: a bad card state (stored before imports were validated) broke every
    quiz answer made with that learner key."""
    from practice.review import fsrs_problem
    from tests.app.test_practice import answer

    key = store.create_learner()
    at = open_page(QUIZ, query={"learner": key})
    first = at.session_state["qz.current"]
    bad = {"card_id": 1, "state": 3, "step": None, "stability": 1.0, "difficulty": 5.0,
           "due": "2025-01-01T00:00:00+00:00",
           "last_review": "2024-12-31T00:00:00+00:00"}  # fmt: skip
    store.set_card(key, first, bad)
    answer(at, right=True)  # Check, then Next
    assert not at.exception
    assert at.session_state["qz.state"].answers[first] == 1
    # the refused state reads as a new card (practice.review.card_from_state), so the answer
    # schedules it afresh: what is stored now is a card fsrs accepts
    assert store.card(key, first) != bad and fsrs_problem(store.card(key, first)) is None


def test_a_bad_retake_setting_is_a_message_not_a_traceback(monkeypatch):
    monkeypatch.setenv("GRPO_CERT_RETAKE_HOURS", "a day")
    at = certification(open_page(QUIZ))
    assert any("GRPO_CERT_RETAKE_HOURS must be a number" in e for e in texts(at, "error"))
    assert "ct.start" not in [b.key for b in at.button]


def test_the_progress_link_of_an_attempt_does_not_carry_its_seed(store):
    """Red team: the attempt's ``?p=`` link held the seed the server drew in clear (bytes
    16-20 of its base64); with the open source, ``draw(family, seed, previous)`` gave every
    item's model answer, so a candidate who knew nothing could read the answer key from
    their own address bar and pass."""
    from practice import certification as engine
    from practice.progress_link import decode_progress, unsign_progress
    from practice.variants import draw
    from ui.certification import families

    at = certification(open_page(QUIZ))
    at.button(key="ct.start").click().run()
    attempt = store.attempt(at.session_state["ct.attempt"])
    link = at.query_params["p"]
    link = link[0] if isinstance(link, list) else link
    secret = "certification-test-secret-0123456789"
    place = decode_progress(unsign_progress(link, secret=secret), [f.id for f in families()])
    assert place is not None and place.quiz_id == attempt.attempt_id, "the link still works"
    keyed = {f.id: draw(f, place.seed, previous=attempt.previous_seed) for f in families()}
    real = engine.items(store, families(), attempt)
    assert [keyed[i].question for i in real] != [v.question for v in real.values()]
    reopened = certification(open_page(QUIZ, query={"p": link}))
    assert "being taken in another browser" in everything(reopened), "it still opens"


def test_the_short_forms_full_id_is_shown_with_the_verdict(store):
    """A short form's full ID is in the verdict's box, before the offline check: a reader
    stops at the verdict (it stood under the folded offline section, out of sight)."""
    at = certification(open_page(QUIZ))
    take(at)
    at.text_input(key="ct.name").set_value("Ada Lovelace")
    at.button(key="ct.cert").click().run()
    cert_id = at.code[0].value
    page = open_page(VERIFY)
    page.text_area(key="vf.id").set_value(short_id(cert_id)).run()
    verdict = next(b for b in page.main if any("**Name:**" in m.value for m in b.markdown))
    assert cert_id in [c.value for c in verdict.code]
    assert any("short form you pasted" in m.value for m in verdict.markdown)
