"""Quizzes in the embedded SQLite store (``QuizStore``; mixed into ``SQLiteStore``).

Two tables, no expiry: ``quizzes`` (id, seed, the ids asked joined by newlines, created)
and ``quiz_answers`` (one row per quiz and question, primary key (quiz, question)): the
first answer is an ``INSERT OR IGNORE``, so a second one cannot replace it, however the
two interleave.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

from practice.store.base import (
    StoredQuiz,
    TextRefused,
    UnknownQuiz,
    check_new_quiz,
    credit_text,
    is_quiz_id,
    new_quiz_id,
)

QUIZ_SCHEMA = """
CREATE TABLE IF NOT EXISTS quizzes (
    id TEXT PRIMARY KEY, seed INTEGER NOT NULL, questions TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS quiz_answers (
    id TEXT NOT NULL, question_id TEXT NOT NULL, credit TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (id, question_id));
"""


class QuizSQLite:
    """``QuizStore`` on ``SQLiteStore``'s connection (``_db``) and transactions (``_write``)."""

    def create_quiz(self, seed: int, question_ids: Sequence[str]) -> str:
        seed, questions = check_new_quiz(seed, question_ids)
        quiz_id = new_quiz_id()
        with self._write() as db:
            db.execute(
                "INSERT INTO quizzes VALUES (?, ?, ?, ?)", (quiz_id, seed, questions, self.clock())
            )
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
