"""In a real browser: a full practice quiz answered right (typed follow-ups graded point by
point) that issues no certificate (tests/e2e/test_certification.py walks through one); a
long paste kept and bounded; a wrong answer that stands after Back and an earlier link;
the interview's clock per question."""

import re
from fractions import Fraction

import numpy as np
import pytest

from practice.bank import load_bank
from practice.drills import make_drill
from practice.progress_link import decode_progress, encode_progress, sign_progress
from practice.session import option_order, start_quiz, stored_quiz
from practice.store import open_store
from tests.e2e.conftest import TEST_SECRET, assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e

SECRET = TEST_SECRET  # the session's app server signs with it (tests/e2e/conftest.py)
BANK = {q.id: q for q in load_bank()}


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
    page.locator(f".st-key-qz-check-{qid}").wait_for()  # its Check button (cards show no ids)
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
        main.get_by_role("textbox", name=f"Your value of {drill.name}").fill(
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


def answer_in_the_store(page, store_url, quiz, but: list[str]) -> None:
    """Answer every question of ``quiz`` but ``but`` right through the app's store, then
    reload the page so the app reads them back (it asks the first unanswered one next)."""
    store = open_store(store_url)
    for qid in quiz.order:
        if qid not in but:
            store.answer_quiz(quiz.quiz_id, qid, Fraction(1))
    page.reload()
    page.wait_for_selector('[data-testid="stMain"] h1')
    settle(page, 300)


def browser_questions(order: list[str], first: int) -> list[str]:
    """Which of a full quiz's questions the browser answers: the first ``first`` and, for
    each kind they miss, the last question of that kind in the order (the quiz asks the
    first unanswered question next, so the store can answer every other one)."""
    chosen = list(order[:first])
    for qid in reversed(order):
        if BANK[qid].kind not in {BANK[c].kind for c in chosen}:
            chosen.append(qid)
    return [qid for qid in order if qid in chosen]


def test_full_practice_quiz_issues_no_certificate(practice_url, store_url, page):
    """A fresh full quiz: the first four questions answered right in the browser (a refresh
    keeps them), then one question of each other kind in the browser, every other one
    answered right through the store (the app reads it back on a reload). The end says
    100 % and issues no certificate. Every question answered right and graded is walked
    server-side in tests/app/test_practice.py (test_full_quiz_score_review_retry_and_no_
    certificate); here a browser operates each kind's widgets."""
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_path(page, practice_url, "/quiz")
    assert_healthy(page)
    quiz = quiz_in_url(page, store_url)
    assert quiz is not None and quiz.full and not quiz.answers
    first = 4
    typed = browser_questions(list(quiz.order), first)
    assert {BANK[qid].kind for qid in typed} == {BANK[qid].kind for qid in quiz.order}
    shots = set()
    for n, qid in enumerate(typed):
        wait_for_question(page, qid)
        answer_right(page, quiz, qid)
        assert_healthy(page)
        kind = BANK[qid].kind
        if kind not in shots:  # one screenshot of each kind's feedback
            shots.add(kind)
            assert page.locator(".katex-error").count() == 0
            shot(page, f"quiz_feedback_{kind}")
        if n == first - 1:  # a refresh keeps the progress; the store's answers come in
            page.reload()
            page.wait_for_selector('[data-testid="stMain"] h1')
            settle(page, 300)
            assert len(quiz_in_url(page, store_url).answers) == first
            answer_in_the_store(page, store_url, quiz, but=typed)
            continue
        page.get_by_role("button", name=re.compile("Next question|See my score")).click()
    page.get_by_text(f"{len(quiz.order)} of {len(quiz.order)} points (100.0%)").wait_for()
    settle(page)
    assert_healthy(page)

    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Practice issues no certificate").wait_for()
    assert main.get_by_label("Name on the certificate").count() == 0
    assert page.locator('[data-testid="stCaptionContainer"]', has_text="id `").count() == 0
    shot(page, "quiz_practice_end")
    assert dialogs == []


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
    missed = len(quiz.order[::10])  # 7 of 69 since issue 22: 62 of 69 passes
    missed_cards = main.locator('[data-testid="stCaptionContainer"]', has_text="Missed")
    assert missed_cards.count() == missed
    assert main.get_by_label("Name on the certificate").count() == 0  # practice: none
    shot(page, "quiz_review")
    main.get_by_role("button", name=f"Retry what I missed ({missed})").click()
    page.get_by_text(f"Question 1 of {missed}").wait_for()
    settle(page)
    retry = quiz_in_url(page, store_url)
    assert retry.order != quiz.order and len(retry.order) == missed


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
