"""Graded answers, recorded where they count: the quiz's in the store, every one for review.

A quiz lives in the app's store (``practice.store.base.QuizStore``) under a random quiz
id: ``keep`` stores a new one, ``load`` rebuilds it from the store on every run (so the
score shown, and a certificate, are the stored first answers, whatever the browser
carries), ``answer`` stores an answer (a later one to the same question is ignored).

Every graded quiz and interview answer also goes to spaced review
(``practice.review.record_attempt``) when the reader has a learner key: one in the
session, or a learner link being opened. No key is made here: a learner who never opened
the Review page has chosen no spaced review, and a key they never kept would be lost.
"""

from __future__ import annotations

import secrets
import time
from fractions import Fraction

import streamlit as st

from practice.questions import Question
from practice.review import record_attempt
from practice.session import MAX_SEED, QuizState, stored_quiz
from practice.store.base import StoreRefusal
from ui import learner
from ui import quiz_widgets as qw
from ui.class_store import class_store


def keep(quiz: QuizState) -> QuizState:
    """``quiz`` (seed and questions; no answers yet) stored as a new quiz, with its id."""
    quiz_id = class_store().create_quiz(quiz.seed, quiz.order)
    return load(quiz_id)


def from_link(link, secret: bytes | None) -> QuizState | None:
    """The stored quiz a progress link points to (``qw.read_progress``), as stored now;
    None for junk, a foreign signature, an unknown quiz or a seed that is not the quiz's."""
    place = qw.read_progress(link, secret)
    quiz = load(place.quiz_id) if place else None
    return quiz if quiz is not None and quiz.seed == place.seed else None


def random_seed() -> int:
    """A quiz seed from ``secrets``: 0 to ``MAX_SEED``."""
    return secrets.randbelow(MAX_SEED + 1)


def load(quiz_id: str) -> QuizState | None:
    """The stored quiz with its stored answers; None for an unknown id or an older bank."""
    stored = class_store().quiz(quiz_id)
    if stored is None:
        return None
    ids = [q.id for q in qw.bank()]
    return stored_quiz(ids, stored.quiz_id, stored.seed, stored.question_ids, stored.answers)


def answer(quiz: QuizState, question: Question, credit: bool | Fraction, seconds: float):
    """Store the answer (the first to this question stands), record it for review, and
    return the quiz as stored now."""
    class_store().answer_quiz(quiz.quiz_id, question.id, Fraction(credit))
    record_review(question, credit, seconds)
    return load(quiz.quiz_id) or quiz


def record_review(question: Question, credit: bool | Fraction, seconds: float) -> None:
    """Reschedule the question's card for the learner key, if the reader has one."""
    try:
        key = learner.current()
        if key:
            record_attempt(
                class_store(),
                key,
                question.id,
                correct=float(credit),
                seconds=max(0.0, seconds),
                kind=question.kind,
                when=learner.now(),
            )
    except StoreRefusal:  # the key was deleted in another tab: nothing to schedule
        pass
    except (TypeError, ValueError, KeyError, AssertionError):  # a stored card fsrs refuses
        st.toast(
            "Your answer counts, but your spaced-review card for this question could not be "
            "read (stored before imports were checked): export, fix or reset it on Review.",
            icon=":material/warning:",
        )


def seconds_on(prefix: str, question_id: str) -> float:
    """Seconds since ``question_id`` was first shown under ``prefix`` (0 if it was not)."""
    shown = st.session_state.get(f"{prefix}.shown")
    return time.time() - shown[1] if shown and shown[0] == question_id else 0.0
