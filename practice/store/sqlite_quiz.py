"""Quizzes and certification attempts in the embedded SQLite store (``QuizStore`` and
``AttemptStore``; mixed into ``SQLiteStore``).

Tables, no expiry: ``quizzes`` (id, seed, the ids asked joined by newlines, created)
and ``quiz_answers`` (one row per quiz and question, primary key (quiz, question)): the
first answer is an ``INSERT OR IGNORE``, so a second one cannot replace it, however the
two interleave. ``cert_attempts`` (id = the quiz's id, learner, token, previous seed,
started, submitted, certificate ID and its short key, unique): submitting and issuing
are ``UPDATE ... WHERE ... IS NULL``, so the first stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

from practice.store.attempts import AttemptRefused, StoredAttempt, new_attempt_token, same_token
from practice.store.base import (
    StoredQuiz,
    TextRefused,
    UnknownQuiz,
    check_new_quiz,
    credit_text,
    is_learner_key,
    is_quiz_id,
    new_quiz_id,
)
from practice.store.learner_rules import UNUSED_SECONDS

QUIZ_SCHEMA = """
CREATE TABLE IF NOT EXISTS quizzes (
    id TEXT PRIMARY KEY, seed INTEGER NOT NULL, questions TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS quiz_answers (
    id TEXT NOT NULL, question_id TEXT NOT NULL, credit TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (id, question_id));
CREATE TABLE IF NOT EXISTS cert_attempts (
    id TEXT PRIMARY KEY, learner TEXT NOT NULL, token TEXT NOT NULL, previous_seed INTEGER,
    started REAL NOT NULL, submitted REAL, cert_id TEXT, short TEXT UNIQUE);
CREATE INDEX IF NOT EXISTS cert_attempts_by_learner ON cert_attempts (learner, started);
CREATE INDEX IF NOT EXISTS quizzes_created ON quizzes (created);
"""
_UNANSWERED = """DELETE FROM quizzes WHERE created < ?
    AND NOT EXISTS (SELECT 1 FROM quiz_answers a WHERE a.id = quizzes.id)
    AND NOT EXISTS (SELECT 1 FROM cert_attempts c WHERE c.id = quizzes.id)"""
"""Delete the practice quizzes started before the parameter and never answered."""
_ATTEMPT = "SELECT id, learner, previous_seed, started, submitted, cert_id FROM cert_attempts"


class QuizSQLite:
    """``QuizStore`` on ``SQLiteStore``'s connection (``_db``) and transactions (``_write``)."""

    def create_quiz(self, seed: int, question_ids: Sequence[str]) -> str:
        seed, questions = check_new_quiz(seed, question_ids)
        quiz_id, now = new_quiz_id(), self.clock()
        with self._write() as db:
            db.execute(_UNANSWERED, (now - UNUSED_SECONDS,))
            db.execute("INSERT INTO quizzes VALUES (?, ?, ?, ?)", (quiz_id, seed, questions, now))
        return quiz_id

    def quiz(self, quiz_id) -> StoredQuiz | None:
        if not is_quiz_id(quiz_id):
            return None
        db = self._db()
        row = db.execute(
            "SELECT seed, questions, created FROM quizzes WHERE id = ?", (quiz_id,)
        ).fetchone()
        if row is None:
            return None
        answers = db.execute(
            "SELECT question_id, credit FROM quiz_answers WHERE id = ? ORDER BY seq", (quiz_id,)
        ).fetchall()
        by_id = MappingProxyType({qid: Fraction(c) for qid, c in answers})
        return StoredQuiz(quiz_id, row[0], tuple(row[1].split("\n")), by_id, row[2])

    def answer_quiz(self, quiz_id: str, question_id: str, credit: Fraction) -> Fraction:
        text = credit_text(credit)
        if not is_quiz_id(quiz_id):
            raise UnknownQuiz()
        with self._write() as db:
            row = db.execute("SELECT questions FROM quizzes WHERE id = ?", (quiz_id,)).fetchone()
            if row is None:
                raise UnknownQuiz()
            if question_id not in row[0].split("\n"):
                raise TextRefused("That question is not part of this quiz.")
            db.execute(
                "INSERT OR IGNORE INTO quiz_answers VALUES (?, ?, ?, "
                "(SELECT COUNT(*) FROM quiz_answers WHERE id = ?))",
                (quiz_id, question_id, text, quiz_id),
            )
            stood = db.execute(
                "SELECT credit FROM quiz_answers WHERE id = ? AND question_id = ?",
                (quiz_id, question_id),
            ).fetchone()
        return Fraction(stood[0])

    # --- certification attempts ------------------------------------------------------------

    def create_attempt(
        self, learner: str, seed: int, previous_seed: int | None, question_ids: Sequence[str]
    ) -> tuple[str, str]:
        if not is_learner_key(learner):
            raise AttemptRefused("A certification attempt needs a learner key.")
        seed, questions = check_new_quiz(seed, question_ids)
        quiz_id, token, now = new_quiz_id(), new_attempt_token(), self.clock()
        with self._write() as db:  # one open attempt per learner, however starts race
            if db.execute(
                "SELECT 1 FROM cert_attempts WHERE learner = ? AND submitted IS NULL", (learner,)
            ).fetchone():
                raise AttemptRefused("An attempt of yours is open: finish it first.")
            db.execute("INSERT INTO quizzes VALUES (?, ?, ?, ?)", (quiz_id, seed, questions, now))
            db.execute(
                "INSERT INTO cert_attempts VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL)",
                (quiz_id, learner, token, previous_seed, now),
            )
        return quiz_id, token

    def attempt(self, attempt_id) -> StoredAttempt | None:
        if not is_quiz_id(attempt_id):
            return None
        row = self._db().execute(_ATTEMPT + " WHERE id = ?", (attempt_id,)).fetchone()
        return StoredAttempt(*row) if row else None

    def latest_attempt(self, learner) -> StoredAttempt | None:
        if not is_learner_key(learner):
            return None
        row = (
            self._db()
            .execute(_ATTEMPT + " WHERE learner = ? ORDER BY started DESC LIMIT 1", (learner,))
            .fetchone()
        )
        return StoredAttempt(*row) if row else None

    def attempt_token(self, attempt_id: str, learner: str) -> str | None:
        if not is_quiz_id(attempt_id) or not is_learner_key(learner):
            return None
        row = (
            self._db()
            .execute("SELECT learner, token FROM cert_attempts WHERE id = ?", (attempt_id,))
            .fetchone()
        )
        return row[1] if row and same_token(row[0], learner) else None

    def _held(self, db, attempt_id, token) -> tuple:
        row = db.execute(
            "SELECT token, submitted, cert_id FROM cert_attempts WHERE id = ?", (attempt_id,)
        ).fetchone()
        if row is None or not same_token(row[0], token):
            raise AttemptRefused("Only the browser that took this attempt can do that.")
        return row

    def answer_attempt(self, attempt_id: str, token: str, question_id: str, credit) -> Fraction:
        if not is_quiz_id(attempt_id):
            raise AttemptRefused("This attempt is not known here.")
        if self._held(self._db(), attempt_id, token)[1] is not None:
            raise AttemptRefused("This attempt was submitted: its answers are final.")
        return self.answer_quiz(attempt_id, question_id, credit)

    def submit_attempt(self, attempt_id: str, token: str) -> float:
        if not is_quiz_id(attempt_id):
            raise AttemptRefused("This attempt is not known here.")
        with self._write() as db:
            self._held(db, attempt_id, token)
            questions = db.execute(
                "SELECT questions FROM quizzes WHERE id = ?", (attempt_id,)
            ).fetchone()[0]
            for qid in questions.split("\n"):
                db.execute(
                    "INSERT OR IGNORE INTO quiz_answers VALUES (?, ?, '0', "
                    "(SELECT COUNT(*) FROM quiz_answers WHERE id = ?))",
                    (attempt_id, qid, attempt_id),
                )
            db.execute(
                "UPDATE cert_attempts SET submitted = ? WHERE id = ? AND submitted IS NULL",
                (self.clock(), attempt_id),
            )
            return db.execute(
                "SELECT submitted FROM cert_attempts WHERE id = ?", (attempt_id,)
            ).fetchone()[0]

    def set_certificate(self, attempt_id: str, token: str, cert_id: str, short: str) -> str:
        if not is_quiz_id(attempt_id):
            raise AttemptRefused("This attempt is not known here.")
        with self._write() as db:
            if self._held(db, attempt_id, token)[1] is None:
                raise AttemptRefused("Submit the attempt first.")
            db.execute(
                "UPDATE cert_attempts SET cert_id = ?, short = ? WHERE id = ? AND cert_id IS NULL",
                (cert_id, short, attempt_id),
            )
            return db.execute(
                "SELECT cert_id FROM cert_attempts WHERE id = ?", (attempt_id,)
            ).fetchone()[0]

    def certificate_by_short(self, short) -> str | None:
        if not isinstance(short, str) or not 8 <= len(short) <= 64:
            return None
        row = (
            self._db()
            .execute("SELECT cert_id FROM cert_attempts WHERE short = ?", (short,))
            .fetchone()
        )
        return row[0] if row else None
