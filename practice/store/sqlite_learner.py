"""Learner progress in the embedded SQLite store (``LearnerStore``; mixed into ``SQLiteStore``).

Five tables keyed by the learner key (bounds and expiry: ``learner_rules``; a key that
never kept anything is deleted by ``create_learner``): ``learners`` (key, created),
``learner_attempts`` (one row an attempt, ``seq`` keeps their order),
``learner_cards`` (one FSRS card state, as JSON text, per learner and question id),
``learner_flags`` (one "I made this point" flag, as JSON text, per learner and answer) and
``learner_parameters`` (the learner's own FSRS parameters, as JSON text, at most one row).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from practice.flags import Flag, flag_id, from_json
from practice.review_fit import OwnParameters
from practice.store.base import (
    Attempt,
    TextRefused,
    UnknownLearner,
    card_text,
    check_attempt,
    is_learner_key,
    new_learner_key,
)
from practice.store.flag_store import MAX_FLAGS, flag_text
from practice.store.learner_rules import MAX_ATTEMPTS, UNUSED_SECONDS, check_new_card
from practice.store.parameter_store import parameters_from_text, parameters_text

LEARNER_SCHEMA = """
CREATE TABLE IF NOT EXISTS learners (key TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS learners_created ON learners (created);
CREATE TABLE IF NOT EXISTS learner_attempts (
    key TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT, question_id TEXT NOT NULL,
    kind TEXT NOT NULL, score REAL NOT NULL, seconds REAL NOT NULL, rating INTEGER NOT NULL,
    at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS learner_attempts_key ON learner_attempts (key, seq);
CREATE TABLE IF NOT EXISTS learner_cards (
    key TEXT NOT NULL, question_id TEXT NOT NULL, state TEXT NOT NULL,
    PRIMARY KEY (key, question_id));
CREATE TABLE IF NOT EXISTS learner_flags (
    key TEXT NOT NULL, flag_id TEXT NOT NULL, state TEXT NOT NULL,
    PRIMARY KEY (key, flag_id));
CREATE TABLE IF NOT EXISTS learner_parameters (key TEXT PRIMARY KEY, state TEXT NOT NULL);
"""
LEARNER_TABLES = (
    "learners",
    "learner_attempts",
    "learner_cards",
    "learner_flags",
    "learner_parameters",
)


_UNUSED = """DELETE FROM learners WHERE created < ?
    AND NOT EXISTS (SELECT 1 FROM learner_attempts a WHERE a.key = learners.key)
    AND NOT EXISTS (SELECT 1 FROM learner_cards c WHERE c.key = learners.key)
    AND NOT EXISTS (SELECT 1 FROM learner_flags f WHERE f.key = learners.key)
    AND NOT EXISTS (SELECT 1 FROM learner_parameters p WHERE p.key = learners.key)"""
"""Delete the keys made before the parameter that never kept anything."""


class LearnerSQLite:
    """``LearnerStore`` on ``SQLiteStore``'s connection (``_db``) and transactions (``_write``)."""

    def _learner(self, db, key) -> str:
        if not is_learner_key(key):
            raise UnknownLearner()
        if db.execute("SELECT 1 FROM learners WHERE key = ?", (key,)).fetchone() is None:
            raise UnknownLearner()
        return key

    def create_learner(self) -> str:
        key, now = new_learner_key(), self.clock()
        with self._write() as db:
            db.execute(_UNUSED, (now - UNUSED_SECONDS,))
            db.execute("INSERT INTO learners VALUES (?, ?)", (key, now))
        return key

    def learner_exists(self, key) -> bool:
        try:
            self._learner(self._db(), key)
        except UnknownLearner:
            return False
        return True

    def add_attempt(self, key: str, attempt: Attempt) -> None:
        a = check_attempt(attempt)
        with self._write() as db:
            self._learner(db, key)
            _insert_attempt(db, key, a)
            db.execute(  # the key keeps its last MAX_ATTEMPTS
                "DELETE FROM learner_attempts WHERE key = ? AND seq <= (SELECT seq FROM "
                "learner_attempts WHERE key = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                (key, key, MAX_ATTEMPTS),
            )

    def attempts(self, key: str) -> list[Attempt]:
        db = self._db()
        self._learner(db, key)
        rows = db.execute(
            "SELECT question_id, kind, score, seconds, rating, at FROM learner_attempts "
            "WHERE key = ? ORDER BY seq",
            (key,),
        ).fetchall()
        return [Attempt(*row) for row in rows]

    def card(self, key: str, question_id: str) -> dict | None:
        db = self._db()
        self._learner(db, key)
        row = db.execute(
            "SELECT state FROM learner_cards WHERE key = ? AND question_id = ?", (key, question_id)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def set_card(self, key: str, question_id: str, state: Mapping) -> None:
        text = card_text(question_id, state)
        with self._write() as db:
            self._learner(db, key)
            kept = db.execute(
                "SELECT COUNT(*) FROM learner_cards WHERE key = ? AND question_id != ?",
                (key, question_id),
            ).fetchone()[0]
            check_new_card(kept)
            db.execute(
                "INSERT OR REPLACE INTO learner_cards VALUES (?, ?, ?)", (key, question_id, text)
            )

    def cards(self, key: str) -> dict[str, dict]:
        db = self._db()
        self._learner(db, key)
        rows = db.execute(
            "SELECT question_id, state FROM learner_cards WHERE key = ? ORDER BY question_id",
            (key,),
        ).fetchall()
        return {qid: json.loads(state) for qid, state in rows}

    def replace_progress(
        self,
        key: str,
        attempts: Sequence[Attempt],
        cards: Mapping[str, Mapping],
        parameters: OwnParameters | None = None,
    ) -> None:
        checked = [check_attempt(a) for a in attempts]
        texts = {qid: card_text(qid, state) for qid, state in cards.items()}
        own = None if parameters is None else parameters_text(parameters)
        with self._write() as db:
            self._learner(db, key)
            for table in ("learner_attempts", "learner_cards", "learner_parameters"):
                db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
            for a in checked:
                _insert_attempt(db, key, a)
            db.executemany(
                "INSERT INTO learner_cards VALUES (?, ?, ?)",
                [(key, qid, text) for qid, text in texts.items()],
            )
            if own is not None:
                db.execute("INSERT INTO learner_parameters VALUES (?, ?)", (key, own))

    def set_parameters(self, key: str, own: OwnParameters | None) -> None:
        text = None if own is None else parameters_text(own)
        with self._write() as db:
            self._learner(db, key)
            if text is None:
                db.execute("DELETE FROM learner_parameters WHERE key = ?", (key,))
            else:
                db.execute("INSERT OR REPLACE INTO learner_parameters VALUES (?, ?)", (key, text))

    def parameters(self, key: str) -> OwnParameters | None:
        db = self._db()
        self._learner(db, key)
        row = db.execute("SELECT state FROM learner_parameters WHERE key = ?", (key,)).fetchone()
        return parameters_from_text(row[0] if row else None)

    def set_flag(self, key: str, flag: Flag) -> None:
        text, fid = flag_text(flag), flag_id(flag)
        with self._write() as db:
            self._learner(db, key)
            if not flag.flagged:
                db.execute("DELETE FROM learner_flags WHERE key = ? AND flag_id = ?", (key, fid))
                return
            count = db.execute(
                "SELECT COUNT(*) FROM learner_flags WHERE key = ? AND flag_id != ?", (key, fid)
            ).fetchone()[0]
            if count >= MAX_FLAGS:
                raise TextRefused(f"At most {MAX_FLAGS} flagged answers are kept.")
            db.execute(
                "INSERT INTO learner_flags VALUES (?, ?, ?) "
                "ON CONFLICT (key, flag_id) DO UPDATE SET state = excluded.state",
                (key, fid, text),
            )

    def flags(self, key: str) -> list[Flag]:
        db = self._db()
        self._learner(db, key)
        rows = db.execute(
            "SELECT state FROM learner_flags WHERE key = ? ORDER BY rowid", (key,)
        ).fetchall()
        return [from_json(state) for (state,) in rows]

    def delete_learner(self, key: str) -> None:
        if not is_learner_key(key):
            return
        with self._write() as db:
            for table in LEARNER_TABLES:
                db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))


def _insert_attempt(db, key: str, a: Attempt) -> None:
    db.execute(
        "INSERT INTO learner_attempts (key, question_id, kind, score, seconds, rating, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (key, a.question_id, a.kind, float(a.score), float(a.seconds), int(a.rating), a.at),
    )
