"""In a real browser: a full quiz answered right (typed follow-ups graded point by point), a
certificate for a hostile name (shown as text, no dialog), its download with its QR code,
the ID checked on the verify page and offline with the downloaded public key alone; a long
paste kept and bounded; a wrong answer that stands after Back and an earlier link; the
interview's clock per question."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from practice.bank import load_bank
from practice.certificates import OFFLINE_CHECK
from practice.drills import make_drill
from practice.progress_link import decode_progress, encode_progress, sign_progress
from practice.session import option_order, start_quiz, stored_quiz
from practice.store import open_store
from tests.e2e.conftest import NEXT_FRAME, TEST_SECRET, assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e

SECRET = TEST_SECRET  # the session's app server signs with it (tests/e2e/conftest.py)
BANK = {q.id: q for q in load_bank()}
NAME = "<script>alert(1)</script>"


@pytest.fixture
def store_url(app_server):
    """The store the app keeps its quizzes in (the test reads it too)."""
    return app_server.store_url


@pytest.fixture
def practice_url(app_server):
    """The session's app server: its certificate secret is SECRET, so the test can check an
    ID on its own too, and its store is ``store_url``."""
    return app_server.url


def quiz_in_url(page, store_url):
    """The quiz the page's URL points to (its progress parameter, signature dropped), with
    its answers as the store holds them."""
    progress = re.search(r"[?&]p=([^&]+)", page.url)[1].split(".")[0]
    place = decode_progress(progress, BANK)
    stored = open_store(store_url).quiz(place.quiz_id)
    return stored_quiz(BANK, place.quiz_id, place.seed, stored.question_ids, stored.answers)


def stored_link(store_url, seed: int, only=None, right=lambda n, qid: None) -> tuple:
    """A quiz kept in the app's store, answered as ``right(n, id)`` says (None: not yet);
    the quiz and its signed link."""
    store = open_store(store_url)
    order = start_quiz(BANK, seed, only=only).order
    quiz_id = store.create_quiz(seed, order)
    for n, qid in enumerate(order):
        if (verdict := right(n, qid)) is not None:
            store.answer_quiz(quiz_id, qid, verdict)
    stored = store.quiz(quiz_id)
    quiz = stored_quiz(BANK, quiz_id, seed, stored.question_ids, stored.answers)
    return quiz, sign_progress(encode_progress(quiz), secret=SECRET)


def wait_for_question(page, qid: str) -> None:
    page.locator('[data-testid="stCaptionContainer"]', has_text=f"id {qid}").wait_for()
    settle(page, 100)


def checked(page) -> None:
    """Wait for the feedback that follows Check."""
    page.locator('[data-testid="stAlert"]').first.wait_for()
    settle(page, 100)


def answer_right(page, quiz, qid: str) -> None:
    q = BANK[qid]
    main = page.locator('[data-testid="stMain"]')
    if q.kind in ("choice", "redflag"):
        shown_at = option_order(q, quiz.seed).index(q.answer)  # the options are shuffled
        main.locator('[data-testid="stRadio"] [role="radiogroup"] label').nth(shown_at).click()
        main.get_by_role("button", name="Check").click()
        checked(page)
    elif q.kind == "blanks":
        for blank in q.blanks:
            label = blank.label[:1].upper() + blank.label[1:]
            main.get_by_label(label, exact=True).fill(blank.answer)
        main.get_by_role("button", name="Check").click()
        checked(page)
    elif q.kind == "numeric":
        rng = np.random.default_rng([quiz.seed, quiz.order.index(qid)])
        drill = make_drill(q.drill, rng)
        main.get_by_role("textbox", name=f"Your value of A_{drill.ask}").fill(
            f"{drill.expected:.5f}"
        )
        main.get_by_role("button", name="Check").click()
        checked(page)
    else:  # typed, as an interviewee would say it: the model answer
        main.get_by_role(
            "textbox", name="Your answer, as you would say it to the interviewer"
        ).fill(q.model_answer)
        main.get_by_role("button", name="Check").click()
        main.get_by_text(re.compile(r"(\d) of \1 key points made")).wait_for()
        settle(page, 100)
    main.get_by_role("button", name=re.compile("Next question|See my score")).wait_for()
    settle(page, 100)


def test_full_quiz_certificate_and_verify(practice_url, store_url, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_path(page, practice_url, "/quiz")
    assert_healthy(page)
    quiz = quiz_in_url(page, store_url)
    assert quiz is not None and quiz.full and not quiz.answers
    shots = set()
    for n, qid in enumerate(quiz.order):
        wait_for_question(page, qid)
        answer_right(page, quiz, qid)
        assert_healthy(page)
        kind = BANK[qid].kind
        if kind not in shots:  # one screenshot of each kind's feedback
            shots.add(kind)
            assert page.locator(".katex-error").count() == 0
            shot(page, f"quiz_feedback_{kind}")
        if n == 3:  # a refresh keeps the progress
            page.reload()
            page.wait_for_selector('[data-testid="stMain"] h1')
            settle(page, 300)
            assert len(quiz_in_url(page, store_url).answers) == 4
            continue
        page.get_by_role("button", name=re.compile("Next question|See my score")).click()
    page.get_by_text(f"{len(quiz.order)} of {len(quiz.order)} points (100.0%)").wait_for()
    settle(page)
    assert_healthy(page)

    main = page.locator('[data-testid="stMain"]')
    main.get_by_label("Name on the certificate").fill(NAME)
    main.get_by_role("button", name="Get my certificate").click()
    main.locator('[data-testid="stCode"]').wait_for()
    settle(page)
    cert_id = main.locator('[data-testid="stCode"] code').inner_text().strip()
    issued = main.locator('[data-testid="stAlert"]', has_text="Certificate issued to")
    assert NAME in issued.inner_text()  # shown as typed, not run
    shot(page, "quiz_certificate")

    with page.expect_download() as download:
        main.get_by_role("button", name="Download the certificate (HTML)").click()
    certificate = Path(download.value.path()).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in certificate and cert_id in certificate
    assert "<script>" not in certificate
    assert f"{practice_url}/verify?id={cert_id}" in certificate
    assert "<svg" in certificate and "Topics covered:" in certificate  # QR code, topics
    assert "How the score was made:</strong> Machine-graded" in certificate
    shot_certificate(page, certificate)

    main.get_by_role("link", name="Check it on the verify page").click()
    page.get_by_text("Valid certificate").wait_for()
    settle(page)
    assert "/verify?id=" in page.url
    details = main.inner_text()
    total = len(quiz.order)
    assert NAME in details and f"{total} of {total} points" in details
    assert_healthy(page)
    shot(page, "verify_valid")

    # offline: the public keys downloaded from the verify page, and its own code, alone
    main.get_by_text("Check a certificate offline, with the public key").click()
    with page.expect_download() as download:
        main.get_by_role("button", name="Download the public keys (JSON)").click()
    keyring = Path(download.value.path()).read_text(encoding="utf-8")
    shot(page, "verify_offline")
    claims = check_offline(keyring, cert_id)
    assert claims["name"] == NAME and claims["correct"] == claims["total"] == total
    assert claims["scoring"].startswith("Machine-graded") and len(claims["topics"]) == 13
    forged = cert_id.replace(".", ".A", 1)[:-1]
    with pytest.raises(subprocess.CalledProcessError):
        check_offline(keyring, forged)

    tampered = cert_id[:-3] + ("A" if cert_id[-3] != "A" else "B") + cert_id[-2:]
    open_path(page, practice_url, f"/verify?id={tampered}")
    page.get_by_text("Not a valid certificate").wait_for()
    shot(page, "verify_invalid")
    assert dialogs == [], "a name must never run as a script"


def check_offline(keyring: str, cert_id: str) -> dict:
    """Run the verify page's offline check in a fresh Python, with only the keyring file
    beside it (no app import): the claims it prints, or CalledProcessError if forged."""
    work = Path(__import__("tempfile").mkdtemp())
    (work / "grpo-certificate-keys.json").write_text(keyring, encoding="utf-8")
    code = OFFLINE_CHECK.replace('"GRPO2-..."', repr(cert_id)).replace(
        "print(claims)", "print(json.dumps(claims))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=work, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": ":".join(p for p in sys.path if "site-packages" in p or "deps" in p)},
    )  # fmt: skip
    return json.loads(out.stdout)


def shot_certificate(page, certificate: str) -> None:
    """A screenshot of the downloaded certificate as a browser prints it."""
    other = page.context.new_page()
    other.set_content(certificate)
    other.emulate_media(media="print")
    other.evaluate(NEXT_FRAME)
    shot(other, "certificate_html")
    other.close()


def test_a_long_paste_is_kept_and_bounded_not_emptied(practice_url, store_url, page):
    qid = "followup-float32"
    quiz, link = stored_link(store_url, 5, only=[qid, "blanks-grpo"])
    open_path(page, practice_url, f"/quiz?p={link}")
    main = page.locator('[data-testid="stMain"]')
    for current in quiz.order:
        wait_for_question(page, current)
        if current == qid:
            paste = (BANK[qid].model_answer + " ") * 6  # about 3,400 characters
            field = main.get_by_role(
                "textbox", name="Your answer, as you would say it to the interviewer"
            )
            field.fill(paste)
            assert field.get_attribute("maxlength") is None
            assert len(field.input_value()) == len(paste)  # the browser kept it all
            main.get_by_role("button", name="Check").click()
            main.get_by_text("4 of 4 key points made").wait_for()
            settle(page)
            shot(page, "quiz_followup_long_paste")
        else:
            field = main.get_by_label("First blank (subtracted)", exact=True)
            field.fill("x" * 3000)
            main.get_by_label("Second blank (divided by)", exact=True).fill("std")
            main.get_by_role("button", name="Check").click()
            main.get_by_text(re.compile("is too long: 3,000 characters")).wait_for()
            settle(page)
            assert len(field.input_value()) == 200  # what fits is kept
            shot(page, "quiz_blank_too_long")
            field.fill("mean")
            main.get_by_role("button", name="Check").click()
            main.get_by_text("Right: every blank.").wait_for()
            settle(page)
            shot(page, "quiz_feedback_blanks_template")
        main.get_by_role("button", name=re.compile("Next question|See my score")).click()


def test_a_wrong_answer_stands_after_back_and_the_earlier_link(practice_url, store_url, page):
    """Answer wrong; press Back, then open the link taken before the answer in a fresh
    page: the quiz moves on to the next question and the score keeps the wrong answer."""
    ids = ["choice-which-rewards", "choice-token-advantage"]
    quiz, link = stored_link(store_url, 21, only=ids)
    first, second = quiz.order
    open_path(page, practice_url, f"/quiz?p={link}")
    main = page.locator('[data-testid="stMain"]')
    wait_for_question(page, first)
    q = BANK[first]
    wrong_at = option_order(q, quiz.seed).index((q.answer + 1) % len(q.options))
    main.locator('[data-testid="stRadio"] [role="radiogroup"] label').nth(wrong_at).click()
    main.get_by_role("button", name="Check").click()
    checked(page)
    page.go_back()
    open_path(page, practice_url, f"/quiz?p={link}")
    wait_for_question(page, second)  # the first question is not asked again
    assert quiz_in_url(page, store_url).answers == {first: 0}
    answer_right(page, quiz, second)
    main.get_by_role("button", name="See my score").click()
    page.get_by_text("1 of 2 points (50.0%)").wait_for()
    settle(page)
    shot(page, "quiz_first_answer_stands")


def test_review_of_missed_items_and_retry(practice_url, store_url, page):
    # 6 wrong: one of each kind, roughly
    quiz, link = stored_link(store_url, 99, right=lambda n, qid: n % 10 != 0)
    open_path(page, practice_url, f"/quiz?p={link}")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Review: what you missed").wait_for()
    settle(page)
    assert_healthy(page)
    assert page.locator(".katex-error").count() == 0
    for qid in quiz.order[::10]:
        assert main.locator('[data-testid="stCaptionContainer"]', has_text=f"id {qid}").count()
    main.get_by_label("Name on the certificate").wait_for()  # 51 of 57 passes
    shot(page, "quiz_review")
    main.get_by_role("button", name="Retry what I missed (6)").click()
    page.get_by_text("Question 1 of 6").wait_for()
    settle(page)
    retry = quiz_in_url(page, store_url)
    assert retry.order != quiz.order and len(retry.order) == 6


TICKED = """(first) => [...document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"]')]
    .some((e) => /\\d+:\\d\\d on this question/.test(e.innerText) && e.innerText !== first)"""
"""Whether a question clock shows another time than ``first``."""


def test_interview_clock_ticks_and_round_runs(practice_url, page):
    open_path(page, practice_url, "/interview")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_role("button", name="Start a mock round").click()
    clock = main.locator(
        '[data-testid="stMarkdownContainer"]', has_text=re.compile(r"\d+:\d\d on this question")
    ).first
    clock.wait_for()
    first = clock.inner_text()
    assert "(aim: 2:00)" in first
    page.wait_for_function(TICKED, arg=first, timeout=5_000)
    assert clock.inner_text() != first, "the clock should tick"
    main.get_by_role("textbox", name="Your answer, as you would say it to the interviewer").fill(
        "<img src=x onerror=alert(1)> and some words"
    )
    main.get_by_role("button", name="Check").click()
    main.get_by_text("Key points", exact=True).wait_for()
    settle(page)
    assert_healthy(page)
    assert main.get_by_text(re.compile("0 of \\d key points made")).count()
    shot(page, "interview_graded")


def test_cheatsheet_prints(practice_url, page):
    open_path(page, practice_url, "/cheatsheet")
    assert page.locator(".katex-error").count() == 0
    assert page.locator("table").count() >= 2
    page.emulate_media(media="print")
    settle(page)
    shot(page, "cheatsheet_print")
