"""In a real browser: a full quiz answered right, a certificate for a hostile name (shown as
text, no dialog), its download, and the ID checked on the verify page; the interview clock."""

import re
from pathlib import Path

import numpy as np
import pytest

from practice.bank import load_bank
from practice.certificates import verify
from practice.drills import make_drill
from practice.progress_link import decode_progress, encode_progress, sign_progress
from practice.session import option_order, record_answer, start_quiz
from tests.e2e.conftest import assert_healthy, free_port, open_path, settle, shot, start_streamlit

pytestmark = pytest.mark.e2e

SECRET = "e2e-practice-secret-0123456789abcdef"
BANK = {q.id: q for q in load_bank()}
NAME = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def practice_url():
    """The app with a known certificate secret, so the test can check an ID on its own too.

    (The shared ``app_url`` server keeps the environment it was started with.)
    """
    port = free_port()
    process = start_streamlit(port, env={"GRPO_CERT_SECRET": SECRET})
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def quiz_in_url(page):
    """The quiz the page's URL holds (its progress parameter, signature dropped)."""
    progress = re.search(r"[?&]p=([^&]+)", page.url)[1].split(".")[0]
    return decode_progress(progress, BANK)


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
    else:
        main.get_by_label("Your answer, as you would say it to the interviewer").fill(
            "Per group: centre on the mean, scale by the std."
        )
        main.get_by_role("button", name="Reveal model answer").click()
        main.get_by_role("button", name="Yes, I covered them").wait_for()
        settle(page, 100)
        main.get_by_role("button", name="Yes, I covered them").click()
    main.get_by_role("button", name=re.compile("Next question|See my score")).wait_for()
    settle(page, 100)


def test_full_quiz_certificate_and_verify(practice_url, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_path(page, practice_url, "/quiz")
    assert_healthy(page)
    quiz = quiz_in_url(page)
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
            assert len(quiz_in_url(page).answers) == 4
            continue
        page.get_by_role("button", name=re.compile("Next question|See my score")).click()
    page.get_by_text(f"{len(quiz.order)} of {len(quiz.order)} right (100.0%)").wait_for()
    settle(page)
    assert_healthy(page)

    main = page.locator('[data-testid="stMain"]')
    main.get_by_label("Name on the certificate").fill(NAME)
    main.get_by_role("button", name="Get my certificate").click()
    main.locator('[data-testid="stCode"]').wait_for()
    settle(page)
    cert_id = main.locator('[data-testid="stCode"] code').inner_text().strip()
    cert = verify(cert_id, secret=SECRET)
    assert cert["name"] == NAME and cert["correct"] == cert["total"] == len(quiz.order)
    issued = main.locator('[data-testid="stAlert"]', has_text="Certificate issued to")
    assert NAME in issued.inner_text()  # shown as typed, not run
    shot(page, "quiz_certificate")

    with page.expect_download() as download:
        main.get_by_role("button", name="Download the certificate (HTML)").click()
    certificate = Path(download.value.path()).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in certificate and cert_id in certificate
    assert "<script>" not in certificate
    assert f"{practice_url}/verify?id={cert_id}" in certificate

    main.get_by_role("link", name="Check it on the verify page").click()
    page.get_by_text("Valid certificate").wait_for()
    settle(page)
    assert "/verify?id=" in page.url
    details = main.inner_text()
    assert NAME in details and f"{cert['total']} of {cert['total']}" in details
    assert_healthy(page)
    shot(page, "verify_valid")

    tampered = cert_id[:-3] + ("A" if cert_id[-3] != "A" else "B") + cert_id[-2:]
    open_path(page, practice_url, f"/verify?id={tampered}")
    page.get_by_text("Not a valid certificate").wait_for()
    shot(page, "verify_invalid")
    assert dialogs == [], "a name must never run as a script"


def test_review_of_missed_items_and_retry(practice_url, page):
    quiz = start_quiz(BANK, 99)
    for n, qid in enumerate(quiz.order):
        quiz = record_answer(quiz, qid, n % 10 != 0)  # 6 wrong: one of each kind, roughly
    link = sign_progress(encode_progress(quiz), secret=SECRET)
    open_path(page, practice_url, f"/quiz?p={link}")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Review: what you missed").wait_for()
    settle(page, 800)
    assert_healthy(page)
    assert page.locator(".katex-error").count() == 0
    for qid in quiz.order[::10]:
        assert main.locator('[data-testid="stCaptionContainer"]', has_text=f"id {qid}").count()
    main.get_by_label("Name on the certificate").wait_for()  # 51 of 57 passes
    shot(page, "quiz_review")
    main.get_by_role("button", name="Retry what I missed (6)").click()
    page.get_by_text("Question 1 of 6").wait_for()
    settle(page)
    assert quiz_in_url(page).order != quiz.order and len(quiz_in_url(page).order) == 6


def test_interview_clock_ticks_and_round_runs(practice_url, page):
    open_path(page, practice_url, "/interview")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_role("button", name="Start a mock round").click()
    clock = main.get_by_text(re.compile(r"\d+:\d\d elapsed"))
    clock.wait_for()
    first = clock.inner_text()
    page.wait_for_timeout(2500)
    assert clock.inner_text() != first, "the clock should tick"
    main.get_by_label("Your answer, as you would say it to the interviewer").fill(
        "<img src=x onerror=alert(1)> and some words"
    )
    main.get_by_role("button", name="Reveal model answer").click()
    main.get_by_text("Key points", exact=True).wait_for()
    settle(page)
    assert_healthy(page)
    shot(page, "interview_revealed")


def test_cheatsheet_prints(practice_url, page):
    open_path(page, practice_url, "/cheatsheet")
    assert page.locator(".katex-error").count() == 0
    assert page.locator("table").count() >= 2
    page.emulate_media(media="print")
    settle(page)
    shot(page, "cheatsheet_print")
