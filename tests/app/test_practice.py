"""Practice pages: the quiz (every kind, feedback, score, review, retry, URL progress, and
no certificate: tests/app/test_certification.py has those), the interview drill, the
cheat sheet and the verify page."""

import logging
import math
import os
import time
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from content.citations import cite
from grpo_core import group_advantages
from grpo_core.links import b64url_encode
from practice.bank import load_bank
from practice.certificates import issue, key_id, public_bytes, verify, verify_legacy
from practice.drills import make_drill
from practice.grader_trust import load_trust, trust_sentence
from practice.progress_link import decode_progress, encode_progress, sign_progress
from practice.session import option_order, score, start_quiz, stored_quiz
from practice.store import open_store
from tests.app.conftest import ROOT, latex, open_page, texts

QUIZ, INTERVIEW, CHEATSHEET, VERIFY = (
    "pages/quiz.py",
    "pages/interview.py",
    "pages/cheatsheet.py",
    "pages/verify.py",
)
SECRET = "practice-test-secret-0123456789abcdef"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))  # CERT_KEY of tests/app/conftest
PUBLIC = KEY.public_key()
LEGACY = "GRPO1-ADIAOQALSZlBZGEgTG92ZWxhY2VaE7QGtx-BkB-2ynaRzQCo"
"""Issued for "Ada Lovelace", 50 of 57, with SECRET by the version-1 (HMAC) code."""
BANK = load_bank()
BY_ID = {q.id: q for q in BANK}
IDS = sorted(BY_ID)
HOSTILE_NAME = "<script>alert(1)</script><b>x</b>"


@pytest.fixture(autouse=True)
def cert_secret(monkeypatch):
    """Sign with a known secret, so no secret file is written during tests."""
    monkeypatch.setenv("GRPO_CERT_SECRET", SECRET)


@pytest.fixture(autouse=True)
def store(tmp_path, monkeypatch):
    """Keep quizzes (and learners) in a store of this test's own."""
    url = f"sqlite://{tmp_path}/grpo.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    return open_store(url)


def stored_link(store, seed: int, answers=(), secret=SECRET):
    """A full quiz kept in ``store`` with ``answers`` ((id, credit), ...), and its signed link."""
    order = start_quiz(IDS, seed).order
    quiz_id = store.create_quiz(seed, order)
    for qid, credit in answers:
        store.answer_quiz(quiz_id, qid, credit)
    s = store.quiz(quiz_id)
    quiz = stored_quiz(IDS, quiz_id, seed, s.question_ids, s.answers)
    return quiz, sign_progress(encode_progress(quiz), secret=secret)


def everything(at) -> str:
    kinds = ("markdown", "success", "error", "warning", "info", "caption", "code")
    return "\n".join(str(v) for kind in kinds for v in texts(at, kind))


def quiz_of(at):
    return at.session_state["qz.state"]


def current(at) -> str:
    return at.session_state["qz.current"]


def drill_of(quiz, qid):
    return make_drill(BY_ID[qid].drill, np.random.default_rng([quiz.seed, quiz.order.index(qid)]))


def wrong_option(question) -> int:
    return (question.answer + 1) % len(question.options)


def answer(at, right: bool = True, prefix: str = "qz", next_key: str = "qz.next") -> str:
    """Answer the current question through its widgets; returns its id."""
    qid = at.session_state[f"{prefix}.current"]
    q = BY_ID[qid]
    if q.kind in ("choice", "redflag"):
        at.radio(key=f"{prefix}.choice.{qid}").set_value(q.answer if right else wrong_option(q))
        at.button(key=f"{prefix}.check.{qid}").click().run()
    elif q.kind == "blanks":
        for j, blank in enumerate(q.blanks):
            at.text_input(key=f"{prefix}.blank.{qid}.{j}").set_value(
                blank.answer if right else "batch mean"
            )
        at.button(key=f"{prefix}.check.{qid}").click().run()
    elif q.kind == "numeric":
        drill = drill_of(quiz_of(at), qid)
        value = drill.expected if right else drill.expected + 1
        at.text_input(key=f"{prefix}.num.{qid}").set_value(f"{value:.6f}")
        at.button(key=f"{prefix}.check.{qid}").click().run()
    else:
        text = q.model_answer if right else "I would have to look that up."
        at.text_area(key=f"{prefix}.text.{qid}").set_value(text)
        at.button(key=f"{prefix}.check.{qid}").click().run()
    assert not at.exception, at.exception
    at.button(key=next_key).click().run()
    return qid


def finish(at, wrong: int = 0) -> list[str]:
    """Answer every remaining question, the first ``wrong`` of them wrongly."""
    done = []
    while at.session_state["qz.current"] is not None:
        done.append(answer(at, right=len(done) >= wrong))
    return done


def open_quiz_at(qid: str, seed: int = 7) -> object:
    """A quiz (via its progress link, kept in the test's store) whose next question is ``qid``."""
    order = start_quiz(IDS, seed).order
    before = order[: order.index(qid)]
    _, link = stored_link(open_store(os.environ["GRPO_STORE"]), seed, [(q, True) for q in before])
    at = open_page(QUIZ, query={"p": link})
    assert current(at) == qid
    return at


# --- the quiz: one question of each kind ---------------------------------------------------


def test_a_fresh_quiz_asks_the_whole_bank_in_a_seeded_order():
    at = open_page(QUIZ)
    assert not at.exception
    quiz = quiz_of(at)
    assert sorted(quiz.order) == IDS and quiz.full
    assert quiz.order == start_quiz(IDS, quiz.seed).order
    assert current(at) == quiz.order[0]
    assert "seed" not in at.expander[0].label  # the card shows no seed; the settings do
    assert any(str(quiz.seed) in c for c in texts(at, "caption"))
    assert at.get("progress")[0].proto.text.startswith(f"Question 1 of {len(IDS)}")
    assert decode_progress(at.query_params["p"].split(".")[0], IDS) == (quiz.quiz_id, quiz.seed)


def test_choice_feedback_comes_only_after_check_and_explains_every_option():
    qid = "choice-which-rewards"
    q = BY_ID[qid]
    at = open_quiz_at(qid)
    assert not at.success and not at.error  # nothing revealed before the attempt
    at.button(key=f"qz.check.{qid}").click().run()
    assert any("Pick an option first" in w for w in texts(at, "warning"))
    assert qid not in quiz_of(at).answers
    at.radio(key=f"qz.choice.{qid}").set_value(wrong_option(q))
    at.button(key=f"qz.check.{qid}").click().run()
    assert not at.exception
    why = q.options[wrong_option(q)].why.removeprefix("Wrong: ")
    assert at.error[0].value == f"**Not this one.** {why[:1].upper()}{why[1:]}"
    shown = everything(at)
    assert all(o.why in shown for o in q.options), "every option's explanation is shown"
    assert cite(q.explanation) in " ".join(texts(at, "info"))  # claim links rendered
    assert quiz_of(at).answers[qid] == 0
    assert f"qz.choice.{qid}" not in [r.key for r in at.radio]  # the first answer stands


def test_a_right_choice_says_why():
    qid = "choice-which-rewards"
    at = open_quiz_at(qid)
    at.radio(key=f"qz.choice.{qid}").set_value(BY_ID[qid].answer)
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.success[0].value.startswith("**Right.** The group is one prompt")
    assert quiz_of(at).answers[qid] == 1


def test_redflag_question_asks_for_the_wrong_one():
    qid = next(q.id for q in BANK if q.kind == "redflag")
    at = open_quiz_at(qid)
    assert at.radio(key=f"qz.choice.{qid}").label == "Pick the wrong one"
    at.radio(key=f"qz.choice.{qid}").set_value(BY_ID[qid].answer)
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.success and "the wrong one, to pick" in everything(at)
    verdict = at.success[0].value
    assert verdict.startswith("**Right: that is the red flag.** ")
    assert "Wrong" not in verdict.split("**")[2][:8]  # one verdict, then the reason


def test_blanks_wrong_answers_say_why_and_show_the_model_answer():
    qid = "blanks-grpo"
    at = open_quiz_at(qid)
    at.text_input(key=f"qz.blank.{qid}.0").set_value("batch mean")
    at.button(key=f"qz.check.{qid}").click().run()
    assert any("Fill in every blank" in w for w in texts(at, "warning"))
    at.text_input(key=f"qz.blank.{qid}.1").set_value("σ²")
    at.button(key=f"qz.check.{qid}").click().run()
    assert not at.exception
    errors = texts(at, "error")
    assert errors[0] == "**Not quite: 0 of 2 blanks right.**"
    assert "whole batch" in errors[1] and "Variance, not standard deviation" in errors[2]
    assert "the group mean, mean(R_1..R_K)" in everything(at)


def test_blanks_accept_notation():
    qid = "blanks-grpo"
    at = open_quiz_at(qid)
    at.text_input(key=f"qz.blank.{qid}.0").set_value(r"\mu_g")
    at.text_input(key=f"qz.blank.{qid}.1").set_value("std(R)")
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.success[0].value == "**Right: every blank.**"
    assert quiz_of(at).answers[qid] == 1


def test_numeric_drill_is_stable_graded_with_tolerance_and_solved_after():
    qid = "drill-trl-binary"
    at = open_quiz_at(qid)
    drill = drill_of(quiz_of(at), qid)
    # the oracle: TRL's convention on the shown rewards
    assert drill.expected == pytest.approx(group_advantages(drill.rewards, convention="trl")[1])
    assert drill.prompt in texts(at, "markdown")
    at.run()  # a rerun keeps the numbers
    assert drill.prompt in texts(at, "markdown")
    assert not latex(at), "no solution before the attempt"
    at.text_input(key=f"qz.num.{qid}").set_value("about one")
    at.button(key=f"qz.check.{qid}").click().run()
    assert any("Not a number" in w for w in texts(at, "warning"))
    assert qid not in quiz_of(at).answers  # a typo is not an attempt
    at.text_input(key=f"qz.num.{qid}").set_value(f"{drill.expected + 0.008:.4f}")
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.success[0].value.startswith("Right: the exact value is")
    assert [line.strip() for line in latex(at)] == [line.strip() for line in drill.solution]


def test_a_drill_names_the_asked_advantage_as_its_prompt_writes_it():
    """The prompt writes A₂ in LaTeX; the answer box's label and "You wrote" said "A_2"."""
    qid = "drill-trl-binary"
    at = open_quiz_at(qid)
    drill = drill_of(quiz_of(at), qid)
    asked = "A" + "₀₁₂₃₄₅₆₇₈₉"[drill.ask]
    assert at.text_input(key=f"qz.num.{qid}").label == f"Your value of {asked}"
    at.text_input(key=f"qz.num.{qid}").set_value(f"{drill.expected:.4f}")
    at.button(key=f"qz.check.{qid}").click().run()
    assert f"You wrote (Your value of {asked}):" in texts(at, "caption")
    assert not any("_" in c for c in texts(at, "caption") if "You wrote" in c)


def test_numeric_drill_wrong_answer_names_the_mistake():
    qid = "drill-trl-binary"
    at = open_quiz_at(qid)
    drill = drill_of(quiz_of(at), qid)
    at.text_input(key=f"qz.num.{qid}").set_value(f"{-drill.expected:.4f}")
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.error[0].value.startswith("The sign is flipped")
    assert len(latex(at)) == len(drill.solution)


def test_followup_is_graded_point_by_point_with_quotes_and_partial_credit():
    qid = "followup-why-std"
    q = BY_ID[qid]
    at = open_quiz_at(qid)
    assert q.model_answer not in everything(at)
    at.button(key=f"qz.check.{qid}").click().run()
    assert any("Write your answer first" in w for w in texts(at, "warning"))
    assert q.model_answer not in everything(at)
    typed = (
        "Dividing by the group std puts every prompt on the same scale. "
        "You subtract the batch mean first."
    )
    at.text_area(key=f"qz.text.{qid}").set_value(typed)
    at.button(key=f"qz.check.{qid}").click().run()
    assert not at.exception
    assert at.warning[0].value.startswith("**1 of 4 key points made**")
    shown = everything(at)
    assert q.model_answer in shown and all(p.text in shown for p in q.key_points)
    assert "Earned by: “dividing” · “same scale” in:" in texts(at, "caption")
    assert typed in texts(at, "text")  # the answer, as plain text
    assert "Dividing by the group std puts every prompt on the same scale." in texts(at, "text")
    assert any("Red flag: a mean over the whole batch" in e for e in texts(at, "error"))
    trust = trust_sentence(load_trust(), qid)  # this follow-up's blind figures, then all's
    assert trust.startswith("On this question's")
    assert any(trust in c for c in texts(at, "caption")), "how far to trust this grade"
    assert quiz_of(at).answers[qid] == Fraction(1, 4)  # partial credit, no self-grading
    assert not [b for b in at.button if b.key.startswith(("qz.got", "qz.missed"))]
    assert at.button(key="qz.next")


def test_keyword_stuffing_earns_no_point():
    qid = "followup-why-std"
    at = open_quiz_at(qid)
    at.text_area(key=f"qz.text.{qid}").set_value("std, scale, z-score, Dr. GRPO, eps, up-weight")
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.error[0].value.startswith("**0 of 4 key points made**")
    assert quiz_of(at).answers[qid] == 0


# --- the whole quiz: score, review, retry, certificate -------------------------------------


def test_full_quiz_score_review_retry_and_no_certificate():
    at = open_page(QUIZ)
    missed_ids = finish(at, wrong=3)[:3]
    assert not at.exception
    n = len(IDS)
    assert f"### {n - 3} of {n} points ({100 * (n - 3) / n:.1f}%)" in texts(at, "markdown")
    assert any(c.startswith("Machine-graded") for c in texts(at, "caption"))
    # the review lists exactly the missed questions, with their explanations, and no ids
    reviewed = [c for c in texts(at, "caption") if c.startswith("Missed")]
    assert len(reviewed) == 3 and not any("id `" in r for r in reviewed)
    shown = everything(at)
    for qid in missed_ids:
        q = BY_ID[qid]
        assert cite(q.explanation) in shown  # claim links rendered
        if q.kind == "followup":
            assert q.model_answer in shown
    # practice never issues a certificate (issue 24: collect the answers, then pass)
    assert "qz.name" not in [t.key for t in at.text_input] and not at.get("download_button")
    assert any("Practice issues no certificate" in c for c in texts(at, "caption"))
    # retry what I missed: only those, in a new order
    at.button(key="qz.retry").click().run()
    retry = quiz_of(at)
    assert sorted(retry.order) == sorted(missed_ids) and not retry.full
    finish(at)
    assert "### 3 of 3 points (100.0%)" in texts(at, "markdown")


# --- progress in the URL -------------------------------------------------------------------


def test_progress_link_restores_the_stored_answers_and_the_next_question(store):
    order = start_quiz(IDS, 12345).order
    quiz, link = stored_link(store, 12345, [(q, n % 2 == 0) for n, q in enumerate(order[:10])])
    at = open_page(QUIZ, query={"p": link})
    assert not at.exception
    assert quiz_of(at) == quiz and current(at) == quiz.order[10]
    assert at.get("progress")[0].proto.text == f"Question 11 of {len(IDS)} · 5 points so far"


def test_progress_link_edited_or_of_an_unknown_quiz_is_refused(store):
    quiz, _ = stored_link(store, 5, [(q, True) for q in start_quiz(IDS, 5).order])
    forged = encode_progress(quiz)  # a real quiz, but not signed by this server
    unknown = sign_progress(encode_progress(replace(quiz, quiz_id="A" * 22)), secret=SECRET)
    for link in (forged, forged + ".AAAAAAAAAAAAAAAA", unknown):
        at = open_page(QUIZ, query={"p": link})
        assert any("could not be read" in i for i in texts(at, "info"))
        assert not quiz_of(at).answers


def test_a_wrong_answer_cannot_be_laundered_by_an_old_link_or_a_stale_session(store):
    """Answer wrong; reopen the link taken before the answer, and rerun a session holding
    the quiz as it was before the answer; answer right: the score and the certificate
    still count it wrong (the store keeps the first graded answer)."""
    at = open_page(QUIZ)
    before, old_link = quiz_of(at), at.query_params["p"]
    first = answer(at, right=False)
    # the earlier link, in a fresh browser: the answer stands, the quiz moves on
    reopened = open_page(QUIZ, query={"p": old_link})
    assert quiz_of(reopened).answers == {first: 0} and current(reopened) == before.order[1]
    # a stale session (the browser's Back): the quiz as it was, the question shown again
    at.session_state["qz.state"] = before
    at.session_state["qz.current"] = first
    at.session_state["qz.graded"] = {}
    at.query_params["p"] = old_link
    at.run()
    assert current(at) == first and quiz_of(at).answers == {first: 0}
    answer(at, right=True)  # answered right now: ignored
    assert quiz_of(at).answers[first] == 0
    assert store.quiz(before.quiz_id).answers[first] == 0
    # the rest right (kept in the store, as another tab of this quiz would; the walk through
    # every question's widgets is test_full_quiz_...), the last through its widgets
    for qid in before.order[1:-1]:
        store.answer_quiz(before.quiz_id, qid, True)
    at = open_page(QUIZ, query={"p": at.query_params["p"]})
    assert current(at) == before.order[-1]
    answer(at, right=True)
    n = len(IDS)
    assert f"### {n - 1} of {n} points ({100 * (n - 1) / n:.1f}%)" in texts(at, "markdown")


def test_graded_answers_go_to_spaced_review_only_with_a_learner_key(store):
    at = open_page(QUIZ)
    answer(at, right=False)
    assert "learner.key" not in at.session_state  # no key is made for the quiz
    key = store.create_learner()
    at = open_page(QUIZ, query={"learner": key})
    first = answer(at, right=False)
    second = answer(at, right=True)
    attempts = store.attempts(key)
    assert [(a.question_id, a.score) for a in attempts] == [(first, 0.0), (second, 1.0)]
    assert attempts[0].rating == 1 and set(store.cards(key)) == {first, second}


@pytest.mark.parametrize(
    "junk", ["<script>alert(1)</script>", "q1" + "A" * 40, "x" * 100_000, "", "%00"]
)
def test_junk_progress_link_gets_a_message_and_a_fresh_quiz(junk):
    at = open_page(QUIZ, query={"p": junk})
    assert not at.exception
    if junk:
        assert any("could not be read" in i for i in texts(at, "info"))
    assert quiz_of(at).full and not quiz_of(at).answers
    assert at.query_params["p"] != junk


def test_new_quiz_with_a_seed_and_a_filter():
    at = open_page(QUIZ)
    at.multiselect(key="qz.kinds").set_value(["numeric"])
    at.text_input(key="qz.seed_in").set_value("42")
    at.button(key="qz.new").click().run()
    quiz = quiz_of(at)
    assert quiz.seed == 42 and sorted(quiz.order) == sorted(
        q.id for q in BANK if q.kind == "numeric"
    )
    at.text_input(key="qz.seed_in").set_value("-1")
    at.button(key="qz.new").click().run()
    assert any("whole number" in w for w in texts(at, "warning"))
    assert quiz_of(at) == quiz


def test_picking_the_first_option_every_time_no_longer_scores_full_marks():
    """The bank lists the right option first; the quiz shows the options in a seeded order,
    so a learner who always picks the first option shown does not pass by it."""
    at = open_page(QUIZ)
    at.multiselect(key="qz.kinds").set_value(["choice", "redflag"])
    at.text_input(key="qz.seed_in").set_value("42")
    at.button(key="qz.new").click().run()
    assert {BY_ID[qid].kind for qid in quiz_of(at).order} == {"choice", "redflag"}
    while current(at) is not None:
        qid = current(at)
        radio = at.radio(key=f"qz.choice.{qid}")
        texts_in_bank = [o.text for o in BY_ID[qid].options]
        radio.set_value(texts_in_bank.index(radio.options[0]))  # the first option shown
        at.button(key=f"qz.check.{qid}").click().run()
        assert not at.exception, at.exception
        at.button(key="qz.next").click().run()
    sc = score(quiz_of(at))
    assert sc.answered == sc.total and sc.correct < sc.total


def test_a_shared_quiz_link_shows_the_options_in_the_same_order():
    qid = "choice-which-rewards"
    shown = [open_quiz_at(qid, seed=11).radio(key=f"qz.choice.{qid}").options for _ in range(2)]
    assert shown[0] == shown[1]
    assert shown[0] == [BY_ID[qid].options[i].text for i in option_order(BY_ID[qid], 11)]


# --- hostile input -------------------------------------------------------------------------


def test_five_megabyte_answers_and_markup_never_break_the_page():
    big = "<script>alert(1)</script>" * 200_000  # 5 MB
    at = open_quiz_at("blanks-grpo")
    at.text_input(key="qz.blank.blanks-grpo.0").set_value(big)
    at.text_input(key="qz.blank.blanks-grpo.1").set_value("<img src=x onerror=alert(1)>")
    at.button(key="qz.check.blanks-grpo").click().run()
    assert not at.exception
    # too long: said so, the start kept in the field, nothing graded yet
    assert any("is too long: 5,000,000 characters" in w for w in texts(at, "warning"))
    assert at.text_input(key="qz.blank.blanks-grpo.0").value == big[:200]
    assert "blanks-grpo" not in quiz_of(at).answers
    at.button(key="qz.check.blanks-grpo").click().run()
    assert texts(at, "error")[0] == "**Not quite: 0 of 2 blanks right.**"
    assert "<script>" not in everything(at) and "onerror" not in everything(at)
    assert "<img src=x onerror=alert(1)>" in texts(at, "text")  # echoed as plain text

    at = open_quiz_at("followup-why-std")
    at.text_area(key="qz.text.followup-why-std").set_value(big)
    at.button(key="qz.check.followup-why-std").click().run()
    assert not at.exception and any("is too long" in w for w in texts(at, "warning"))
    assert at.text_area(key="qz.text.followup-why-std").value == big[:4000]
    at.button(key="qz.check.followup-why-std").click().run()
    assert not at.exception and BY_ID["followup-why-std"].model_answer in everything(at)
    assert texts(at, "text")[-1].startswith("<script>alert(1)</script>")  # plain text, bounded
    assert len(texts(at, "text")[-1]) <= 4000 and "<script>" not in everything(at)

    at = open_quiz_at("drill-k2")
    at.text_input(key="qz.num.drill-k2").set_value(big)
    at.button(key="qz.check.drill-k2").click().run()
    assert not at.exception and any("is too long" in w for w in texts(at, "warning"))
    at.button(key="qz.check.drill-k2").click().run()
    assert not at.exception and any("Not a number" in w for w in texts(at, "warning"))


def test_a_pasted_3000_character_follow_up_is_graded_not_emptied():
    qid = "followup-float32"
    at = open_quiz_at(qid)
    paste = (BY_ID[qid].model_answer + " ") * 6
    assert 2000 < len(paste) < 4000
    at.text_area(key=f"qz.text.{qid}").set_value(paste)
    at.button(key=f"qz.check.{qid}").click().run()
    assert at.success[0].value.startswith("**4 of 4 key points made**")
    assert quiz_of(at).answers[qid] == 1


def test_presenting_folds_the_practice_intro_so_the_question_comes_up():
    """On a projector the paragraph on how practice works is folded under "How practice
    works" (at 1280x720 it pushed the question's options below the fold); for a reader it
    stays open."""
    reading = open_page(QUIZ)
    assert any(m.startswith("Practice: one question at a time") for m in texts(reading, "markdown"))
    assert "How practice works" not in [e.label for e in reading.expander]
    presenting = open_page(QUIZ, query={"present": "1"})
    assert not presenting.exception
    (folded,) = [e for e in presenting.expander if e.label == "How practice works"]
    assert folded.markdown[0].value.startswith("Practice: one question at a time")


def test_presenting_keeps_the_quiz_link_out_of_the_address_bar():
    """The practice quiz's ?p= link names the quiz, and whoever typed it in could answer
    its questions before the presenter (the first answer counts): while presenting it
    leaves the URL, the session keeps the quiz, and the link comes back after."""
    reading = open_page(QUIZ)
    link = reading.query_params["p"]
    link = link if isinstance(link, str) else link[0]
    presenting = open_page(QUIZ, query={"p": link, "present": "1"})
    assert not presenting.exception and "p" not in presenting.query_params
    quiz = presenting.session_state["qz.state"]
    assert quiz.quiz_id == reading.session_state["qz.state"].quiz_id, "the link's quiz"
    del presenting.query_params["present"]
    presenting.session_state["present"] = False
    presenting.run()
    assert "p" in presenting.query_params, "back in the URL once presenting ends"


# --- interview drill -----------------------------------------------------------------------


def test_interview_round_clock_per_question_grading_and_summary():
    at = open_page(INTERVIEW)
    assert not at.exception
    trust = trust_sentence(load_trust())  # the grader's figures on blind answers
    assert any(trust in c for c in texts(at, "caption")), "how far to trust the grade"
    at.number_input(key="iv.n").set_value(3)
    at.button(key="iv.start_btn").click().run()
    round_ = at.session_state["iv.round"]
    assert len(round_.order) == 3 and all(BY_ID[q].kind == "followup" for q in round_.order)
    assert any("on this question" in m and "(aim: 2:00)" in m for m in texts(at, "markdown"))
    at.session_state["iv.start"] = time.time() - 125  # two minutes in, all on question 1
    at.session_state["iv.q_start"] = time.time() - 125
    at.run()
    clock = next(m for m in texts(at, "markdown") if "on this question" in m)
    assert ":orange[" in clock and "2:0" in clock and "in total" in clock  # over the 2 minutes
    first = BY_ID[round_.order[0]]
    at.text_area(key=f"iv.text.{first.id}").set_value(first.model_answer)
    at.button(key=f"iv.check.{first.id}").click().run()
    graded = trust_sentence(load_trust(), first.id)  # this follow-up's figures first
    assert sum(graded in c for c in texts(at, "caption")) == 1, "under the answer's grade"
    at.button(key="iv.next").click().run()
    clock = next(m for m in texts(at, "markdown") if "on this question" in m)
    assert "**0:0" in clock and ":blue[" in clock  # the next question's clock starts at 0
    for n in (1, 2):
        answer(at, right=n != 1, prefix="iv", next_key="iv.next")
    assert not at.exception
    summary = everything(at)
    assert "### 2 of 3 questions' worth of key points, in 2:0" in summary
    missed = BY_ID[round_.order[1]]
    assert all(p.text in summary for p in missed.key_points)
    n = len(BY_ID[round_.order[0]].key_points)  # 3 or 4, as the round's seed picks
    assert summary.count("points** in ") == 3 and f"**{n} of {n} points** in 2:0" in summary
    at.button(key="iv.again").click().run()
    assert "iv.round" not in at.session_state and at.button(key="iv.start_btn")


def test_ending_a_round_early_shows_the_summary_of_what_was_answered():
    """ "End this round" after one answer of three dropped the round: the graded answer,
    its key points to make next time and its "I made this point" ticks were gone."""
    at = open_page(INTERVIEW)
    at.number_input(key="iv.n").set_value(3)
    at.button(key="iv.start_btn").click().run()
    first, *rest = at.session_state["iv.round"].order
    at.text_area(key=f"iv.text.{first}").set_value(BY_ID[first].model_answer)
    at.button(key=f"iv.check.{first}").click().run()
    at.button(key="iv.quit").click().run()
    assert not at.exception
    summary = everything(at)
    assert "Round summary" in [h.value for h in at.subheader]
    n = len(BY_ID[first].key_points)
    assert f"**{n} of {n} points** in " in summary and summary.count("** unanswered · ") == 2
    assert all(p.text in summary for q in rest for p in BY_ID[q].key_points)
    at.button(key="iv.again").click().run()
    assert "iv.round" not in at.session_state and at.button(key="iv.start_btn")


def test_the_interview_summary_marks_partial_credit_apart_from_none():
    """A follow-up with some key points made is marked in orange (incomplete), one with
    none in grey, one with all in green; partial credit read as a miss before."""
    qid = "followup-rloo-vs-grpo"
    at = open_page(INTERVIEW)
    at.number_input(key="iv.n").set_value(1)
    at.button(key="iv.start_btn").click().run()
    at.session_state["iv.round"] = start_quiz([qid], 0)
    at.session_state["iv.current"] = qid
    at.run()
    partial = (
        "RLOO compares answer i with the mean of the other K-1 answers, so its own reward is "
        "not in its baseline, which keeps the baseline independent of the answer being scored."
    )
    at.text_area(key=f"iv.text.{qid}").set_value(partial)
    at.button(key=f"iv.check.{qid}").click().run()
    at.button(key="iv.next").click().run()
    n = len(BY_ID[qid].key_points)
    line = next(m for m in texts(at, "markdown") if "points** in " in m)
    assert line.startswith(":orange[:material/incomplete_circle:] **2 of ") and f"of {n} " in line


# --- cheat sheet ---------------------------------------------------------------------------


def test_cheatsheet_renders_with_print_hint_and_download():
    at = open_page(CHEATSHEET)
    assert not at.exception
    sheet = (ROOT / "content" / "cheatsheet.md").read_text(encoding="utf-8")
    assert at.title[0].value == "GRPO advantages: the 60-second cheat sheet"
    assert any("Print" in c for c in texts(at, "caption"))
    assert "## What real trainers compute" in texts(at, "markdown")[-1]
    assert at.get("download_button")[0].proto.label == "Download (Markdown)"
    assert sheet.startswith("# GRPO advantages")


# --- verify page ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "GRPO1-AAAA",
        "<script>alert(1)</script>",
        "x" * 5_000,
        "GRPO1-ADIAOQALSZlBZGEkBiZ0fJAFQ7VlAa3GYQzS",  # version 1, another secret
        issue("Ada", 50, 57, private_key=Ed25519PrivateKey.generate()),  # another key
    ],
)
def test_verify_refuses_anything_not_issued_here(text):
    at = open_page(VERIFY)
    at.text_area(key="vf.id").set_value(text).run()
    assert not at.exception
    assert at.error[0].value.startswith("**Not a valid certificate.**")
    assert "<script>" not in everything(at)


def test_verify_a_tampered_id_and_an_empty_box():
    good = issue("Ada Lovelace", 50, 57, private_key=KEY, topics=["std"], scoring="Machine.")
    at = open_page(VERIFY, query={"id": good[:-2] + ("A" if good[-2] != "A" else "B") + good[-1]})
    assert at.error
    at.text_area(key="vf.id").set_value("").run()
    assert any("starts with GRPO2-" in i for i in texts(at, "info"))
    at.text_area(key="vf.id").set_value("  " + good + " ").run()
    assert "Valid certificate" in at.success[0].value
    shown = texts(at, "markdown")
    assert "**Name:** Ada Lovelace" in shown and "**Topics:** Dividing by the group std" in shown
    assert at.query_params["id"] == good
    assert math.isclose(verify(good, public_key=PUBLIC)["percent"], 87.7)


def test_verify_accepts_certificates_issued_before_ed25519():
    at = open_page(VERIFY, query={"id": LEGACY})
    assert not at.exception and "Valid certificate" in at.success[0].value
    assert "**Name:** Ada Lovelace" in texts(at, "markdown")
    assert any("shared secret (HMAC)" in c for c in texts(at, "caption"))
    assert verify_legacy(LEGACY, secret=SECRET)["correct"] == 50


def test_verify_publishes_the_public_key_and_the_offline_check():
    at = open_page(VERIFY)
    codes = [c.value for c in at.code]
    assert f"{key_id(PUBLIC)}: {b64url_encode(public_bytes(PUBLIC))}" in codes
    assert any("Ed25519PublicKey.from_public_bytes" in c for c in codes)
    assert at.get("download_button")


def test_a_5000_character_paste_in_the_verify_box_is_cut_and_said():
    at = open_page(VERIFY)
    at.text_area(key="vf.id").set_value("GRPO2-" + "A" * 4994).run()
    assert not at.exception and any("That ID is too long" in w for w in texts(at, "warning"))
    assert len(at.text_area(key="vf.id").value) == 4000 and at.error


# --- the certificate secret ----------------------------------------------------------------


def test_without_a_configured_secret_one_is_generated_once_and_logged(
    tmp_path, monkeypatch, caplog
):
    import ui.secret

    path = tmp_path / "cert_secret"
    monkeypatch.delenv("GRPO_CERT_SECRET")
    monkeypatch.setattr(ui.secret, "default_secret_path", lambda: path)
    with caplog.at_level(logging.INFO):
        secret, source = ui.secret.cert_secret()
    assert (
        source == f"generated and saved to {path}" and path.read_text().strip() == secret.decode()
    )
    assert f"GRPO certificate secret: generated and saved to {path}" in caplog.text
    assert secret.decode() not in caplog.text
    assert ui.secret.cert_secret() == (secret, source)  # cached, not generated again
    # the pages use it: a link it signed restores its quiz
    store = open_store(os.environ["GRPO_STORE"])
    quiz, link = stored_link(store, 3, [(start_quiz(IDS, 3).order[0], True)], secret=secret)
    at = open_page(QUIZ, query={"p": link})
    assert quiz_of(at) == quiz


def test_st_secrets_is_used_when_the_environment_has_none(tmp_path, monkeypatch):
    import ui.secret

    monkeypatch.delenv("GRPO_CERT_SECRET")
    monkeypatch.setattr(ui.secret, "default_secret_path", lambda: tmp_path / "unused")
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.secrets["GRPO_CERT_SECRET"] = "from-st-secrets-0123456789"
    at.query_params["id"] = "GRPO1-ADIAOQALSZlBZGHqiFoQU8iC5zZTYvD4dwcc"  # signed with it
    at.run()
    at.switch_page(VERIFY).run()
    assert not at.exception and "Valid certificate" in at.success[0].value
    assert not (tmp_path / "unused").exists()


def test_the_signing_key_from_st_secrets_or_generated_once(tmp_path, monkeypatch, caplog):
    from streamlit.testing.v1 import AppTest

    import ui.secret

    monkeypatch.delenv("GRPO_CERT_KEY")
    monkeypatch.setattr(ui.secret, "default_key_path", lambda: tmp_path / "key")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.secrets["GRPO_CERT_KEY"] = ui.secret.private_key_text(KEY)
    at.query_params["id"] = issue("Ada", 50, 57, private_key=KEY)
    at.run()
    at.switch_page(VERIFY).run()
    assert not at.exception and "Valid certificate" in at.success[0].value
    assert not (tmp_path / "key").exists()
    with caplog.at_level(logging.INFO):
        key, source = ui.secret.cert_key()
    assert source == f"generated and saved to {tmp_path / 'key'}"
    assert ui.secret.private_key_text(key) not in caplog.text  # never shown
    assert ui.secret.cert_key() == (key, source)  # cached, not generated again
    ring = ui.secret.public_keyring()
    assert set(ring) >= {key_id(key.public_key())}


def test_a_too_short_secret_is_explained_not_a_traceback(monkeypatch):
    monkeypatch.setenv("GRPO_CERT_SECRET", "short")
    at = open_page(VERIFY, query={"id": "GRPO1-x"})
    assert not at.exception
    assert any("is 5 bytes" in e for e in texts(at, "error"))
    at = open_page(QUIZ)
    assert not at.exception and at.session_state["qz.current"]


def test_interview_answers_go_to_spaced_review_with_a_learner_key(store):
    key = store.create_learner()
    at = open_page(INTERVIEW, query={"learner": key})
    at.number_input(key="iv.n").set_value(2)
    at.button(key="iv.start_btn").click().run()
    first = answer(at, prefix="iv", next_key="iv.next")
    second = answer(at, right=False, prefix="iv", next_key="iv.next")
    attempts = store.attempts(key)
    assert [(a.question_id, a.kind) for a in attempts] == [
        (first, "followup"),
        (second, "followup"),
    ]
    assert attempts[0].score == 1.0 and attempts[1].score < 0.5 and attempts[1].rating == 1
    assert set(store.cards(key)) == {first, second}
    missed = at.session_state["iv.graded"][second].followup.hits.index(False)
    at.checkbox(key=f"iv.flag.{second}.{missed}").check().run()  # in the summary
    assert not at.exception, at.exception
    (flag,) = store.flags(key)
    assert (flag.question, flag.flagged) == (second, (missed + 1,))
    assert store.attempts(key) == attempts, "a flag scores nothing and records no attempt"


def test_a_policy_loss_drill_asks_for_its_own_quantity_and_names_the_aggregation_mistake():
    qid = "drill-loss-grpo"
    at = open_quiz_at(qid)
    drill = drill_of(quiz_of(at), qid)
    assert drill.quantity == "loss" and drill.prompt in texts(at, "markdown")
    assert at.text_input(key=f"qz.num.{qid}").label == "Your value of the loss"
    dapo = next(v for v, text in drill.mistakes if "dapo aggregation" in text)
    at.text_input(key=f"qz.num.{qid}").set_value(f"{dapo:.4f}")
    at.button(key=f"qz.check.{qid}").click().run()
    assert not at.exception
    assert at.error[0].value.startswith("That is the dapo aggregation")
    assert [line.strip() for line in latex(at)] == [line.strip() for line in drill.solution]
    assert "Your value of the loss" in everything(at)
