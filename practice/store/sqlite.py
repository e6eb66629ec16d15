"""The embedded store: one SQLite file (standard library ``sqlite3``, WAL mode).

Class sessions here; learner progress in ``sqlite_learner`` and quizzes in ``sqlite_quiz``
(mixed in, same file).

Every thread (Streamlit runs each session's script in a thread) gets a connection of its
own; WAL lets readers run while one writer writes, and a busy timeout makes writers from
several threads or processes wait their turn. Every change is one ``BEGIN IMMEDIATE``
transaction, so a replace-and-tally cannot interleave with another. The tally is a
``GROUP BY`` over the stored answers, so it cannot disagree with them.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from practice.store.base import (
    MAX_ANSWER_CHARS,
    MAX_CLIENT_CHARS,
    MAX_JOINS_PER_MINUTE,
    MAX_NICKNAME_CHARS,
    MAX_SUBMITS_PER_SECOND,
    SESSION_TTL,
    Answer,
    ClassSession,
    Clock,
    JoinsLimited,
    JoinsLocked,
    RateLimited,
    Receipt,
    Round,
    RoundClosed,
    Student,
    UnknownSession,
    check_id,
    check_reveal,
    check_text,
    join_window,
    new_code,
    new_token,
    normal_code,
)
from practice.store.class_rules import MAX_SET_CHARS, check_confidence, check_seconds, is_open
from practice.store.nicknames import check_nickname, label_for, nickname_key
from practice.store.sqlite_budgets import BUDGET_SCHEMA, BudgetSQLite
from practice.store.sqlite_learner import LEARNER_SCHEMA, LearnerSQLite
from practice.store.sqlite_quiz import QUIZ_SCHEMA, QuizSQLite
from practice.store.sqlite_seats import SEAT_SCHEMA, SeatsSQLite, check_seat

SCHEMA = """
CREATE TABLE IF NOT EXISTS class_sessions (
    code TEXT PRIMARY KEY, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, joined INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS class_students (
    code TEXT NOT NULL, token TEXT NOT NULL, number INTEGER NOT NULL, label TEXT NOT NULL,
    PRIMARY KEY (code, token));
CREATE TABLE IF NOT EXISTS class_rounds (
    code TEXT NOT NULL, number INTEGER NOT NULL, question TEXT NOT NULL,
    open INTEGER NOT NULL, reveal TEXT NOT NULL, revote_of INTEGER, opened REAL NOT NULL,
    closes REAL, PRIMARY KEY (code, number));
CREATE TABLE IF NOT EXISTS class_answers (
    code TEXT NOT NULL, number INTEGER NOT NULL, token TEXT NOT NULL, answer TEXT NOT NULL,
    at REAL NOT NULL, confidence TEXT NOT NULL DEFAULT '', PRIMARY KEY (code, number, token));
CREATE TABLE IF NOT EXISTS class_question_sets (code TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS class_submits (
    code TEXT NOT NULL, token TEXT NOT NULL, submit_id TEXT NOT NULL,
    PRIMARY KEY (code, token, submit_id));
CREATE TABLE IF NOT EXISTS class_locks (code TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS class_names (
    code TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (code, name));
CREATE TABLE IF NOT EXISTS class_join_rates (
    code TEXT NOT NULL, client TEXT NOT NULL, minute INTEGER NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (code, client));
CREATE TABLE IF NOT EXISTS class_rates (
    code TEXT NOT NULL, token TEXT NOT NULL, second INTEGER NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (code, token));
"""
"""Class tables, all keyed by the session code so a purge deletes a session whole.
Learner progress has its own tables, with no expiry (``sqlite_learner.LEARNER_SCHEMA``)."""
ADDED_COLUMNS = (
    ("class_rounds", "closes", "REAL"),
    ("class_answers", "confidence", "TEXT NOT NULL DEFAULT ''"),
)
"""Columns added after the first release: a file made before gets them on opening."""
BUSY_SECONDS = 10.0
"""How long a write waits for another's lock before "database is locked" (an outage,
``is_outage``: the app's guard shows "reconnecting" and the vote is sent again)."""
OUTAGE_MESSAGES = ("locked", "busy", "disk", "unable to open", "readonly", "i/o error")
"""SQLite's OperationalError messages that mean "not now", not "wrong"."""
_CLASS_TABLES = (
    "class_students",
    "class_rounds",
    "class_answers",
    "class_submits",
    "class_rates",
    "class_names",
    "class_join_rates",
    "class_locks",
    "class_question_sets",
    "class_sizes",
)


class SQLiteStore(SeatsSQLite, LearnerSQLite, QuizSQLite, BudgetSQLite):
    """``ClassStore``, ``LearnerStore`` and ``QuizStore`` on the SQLite file at ``path``
    (created with its folder if missing)."""

    def __init__(self, path: str | Path, *, clock: Clock = time.time):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self._local = threading.local()
        schemas = (SCHEMA, LEARNER_SCHEMA, QUIZ_SCHEMA, BUDGET_SCHEMA, SEAT_SCHEMA)
        self._db().executescript("".join(schemas))
        _add_columns(self._db())

    # --- connections and transactions --------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            self._local.db = db
        return db

    def _write(self):
        return _Transaction(self._db())

    def _live(self, db: sqlite3.Connection, code: str) -> ClassSession:
        code = normal_code(code)
        row = db.execute(
            "SELECT code, created, expires, ended FROM class_sessions WHERE code = ?", (code,)
        ).fetchone()
        if row is None or row[2] <= self.clock():
            raise UnknownSession(code)
        return ClassSession(row[0], row[1], row[2], bool(row[3]))

    # --- sessions and students ---------------------------------------------------------------

    def create_session(self) -> ClassSession:
        """A new session; sessions past their expiry are purged first (the store stays bounded)."""
        self.purge_expired()
        now = self.clock()
        with self._write() as db:
            while True:
                code = new_code()
                taken = db.execute(
                    "SELECT expires FROM class_sessions WHERE code = ?", (code,)
                ).fetchone()
                if taken is None or taken[0] <= now:
                    break
            _delete_session(db, code)
            db.execute(
                "INSERT INTO class_sessions (code, created, expires) VALUES (?, ?, ?)",
                (code, now, now + SESSION_TTL),
            )
        return ClassSession(code, now, now + SESSION_TTL, False)

    def session(self, code: str) -> ClassSession:
        return self._live(self._db(), code)

    def end_session(self, code: str) -> None:
        with self._write() as db:
            live = self._live(db, code)
            db.execute("UPDATE class_sessions SET ended = 1 WHERE code = ?", (live.code,))
            db.execute("UPDATE class_rounds SET open = 0 WHERE code = ?", (live.code,))

    def join(self, code: str, nickname: str = "", client: str = "") -> Student:
        nickname = check_text(nickname, MAX_NICKNAME_CHARS, "nickname")
        client = str(client)[:MAX_CLIENT_CHARS]
        with self._write() as db:
            live = self._live(db, code)
            if live.ended:
                raise UnknownSession(live.code)
            if db.execute("SELECT 1 FROM class_locks WHERE code = ?", (live.code,)).fetchone():
                raise JoinsLocked()
            if client:
                minute = join_window(self.clock())
                db.execute(
                    "INSERT INTO class_join_rates VALUES (?, ?, ?, 1) ON CONFLICT (code, client) "
                    "DO UPDATE SET count = CASE WHEN minute = excluded.minute THEN count + 1 "
                    "ELSE 1 END, minute = excluded.minute",
                    (live.code, client, minute),
                )
                count = db.execute(
                    "SELECT count FROM class_join_rates WHERE code = ? AND client = ?",
                    (live.code, client),
                ).fetchone()[0]
                if count > MAX_JOINS_PER_MINUTE:
                    raise JoinsLimited()  # the transaction still commits the count
            check_seat(db, live.code)
            check_nickname(
                nickname,
                lambda key: (
                    db.execute(
                        "SELECT 1 FROM class_names WHERE code = ? AND name = ?", (live.code, key)
                    ).fetchone()
                    is not None
                ),
            )
            if key := nickname_key(nickname):
                db.execute("INSERT INTO class_names VALUES (?, ?)", (live.code, key))
            db.execute("UPDATE class_sessions SET joined = joined + 1 WHERE code = ?", (live.code,))
            number = db.execute(
                "SELECT joined FROM class_sessions WHERE code = ?", (live.code,)
            ).fetchone()[0]
            student = Student(new_token(), label_for(nickname, number))
            db.execute(
                "INSERT INTO class_students VALUES (?, ?, ?, ?)",
                (live.code, student.token, number, student.label),
            )
        return student

    def lock_joins(self, code: str, locked: bool) -> None:
        with self._write() as db:
            live = self._live(db, code)
            if locked:
                db.execute("INSERT OR IGNORE INTO class_locks VALUES (?)", (live.code,))
            else:
                db.execute("DELETE FROM class_locks WHERE code = ?", (live.code,))

    def joins_locked(self, code: str) -> bool:
        db = self._db()
        live = self._live(db, code)
        found = db.execute("SELECT 1 FROM class_locks WHERE code = ?", (live.code,)).fetchone()
        return found is not None

    def student(self, code: str, token: str) -> Student | None:
        db = self._db()
        live = self._live(db, code)
        row = db.execute(
            "SELECT token, label FROM class_students WHERE code = ? AND token = ?",
            (live.code, token),
        ).fetchone()
        return Student(*row) if row else None

    def students(self, code: str) -> list[Student]:
        db = self._db()
        live = self._live(db, code)
        rows = db.execute(
            "SELECT token, label FROM class_students WHERE code = ? ORDER BY number", (live.code,)
        ).fetchall()
        return [Student(*row) for row in rows]

    # --- rounds ------------------------------------------------------------------------------

    def open_round(
        self, code: str, question: str, revote_of: int | None = None, seconds: float | None = None
    ) -> Round:
        seconds = check_seconds(seconds)
        now = self.clock()
        closes = None if seconds is None else now + seconds
        with self._write() as db:
            live = self._live(db, code)
            if live.ended:
                raise UnknownSession(live.code)
            db.execute("UPDATE class_rounds SET open = 0 WHERE code = ?", (live.code,))
            last = db.execute(
                "SELECT COALESCE(MAX(number), 0) FROM class_rounds WHERE code = ?", (live.code,)
            ).fetchone()[0]
            round_ = Round(last + 1, question, True, "none", revote_of, now, closes)
            db.execute(
                "INSERT INTO class_rounds (code, number, question, open, reveal, revote_of, "
                "opened, closes) VALUES (?, ?, ?, 1, 'none', ?, ?, ?)",
                (live.code, round_.number, question, revote_of, now, closes),
            )
        return round_

    def close_round(self, code: str, number: int) -> None:
        with self._write() as db:
            live = self._live(db, code)
            db.execute(
                "UPDATE class_rounds SET open = 0 WHERE code = ? AND number = ?",
                (live.code, number),
            )

    def set_reveal(self, code: str, number: int, reveal: str) -> None:
        check_reveal(reveal)
        with self._write() as db:
            live = self._live(db, code)
            db.execute(
                "UPDATE class_rounds SET reveal = ? WHERE code = ? AND number = ?",
                (reveal, live.code, number),
            )

    def rounds(self, code: str) -> list[Round]:
        db = self._db()
        live = self._live(db, code)
        rows = db.execute(
            f"SELECT {_ROUND_COLUMNS} FROM class_rounds WHERE code = ? ORDER BY number",
            (live.code,),
        ).fetchall()
        return [self._round(row) for row in rows]

    def _round(self, row: tuple) -> Round:
        n, q, o, r, v, t, closes = row
        return Round(n, q, is_open(o, closes, self.clock()), r, v, t, closes)

    def current_round(self, code: str) -> Round | None:
        db = self._db()
        live = self._live(db, code)
        row = db.execute(
            f"SELECT {_ROUND_COLUMNS} FROM class_rounds WHERE code = ? ORDER BY number DESC "
            "LIMIT 1",
            (live.code,),
        ).fetchone()
        return None if row is None else self._round(row)

    # --- answers -----------------------------------------------------------------------------

    def submit(
        self, code: str, number: int, token: str, answer: str, submit_id: str, confidence: str = ""
    ) -> Receipt:
        answer = check_text(answer, MAX_ANSWER_CHARS, "answer")
        confidence = check_confidence(confidence)
        token, submit_id = check_id(token, "student link"), check_id(submit_id, "submit id")
        now = self.clock()
        with self._write() as db:
            live = self._live(db, code)
            seen = db.execute(
                "SELECT 1 FROM class_submits WHERE code = ? AND token = ? AND submit_id = ?",
                (live.code, token, submit_id),
            ).fetchone()
            if seen:
                return Receipt(duplicate=True)
            known = db.execute(
                "SELECT 1 FROM class_students WHERE code = ? AND token = ?", (live.code, token)
            ).fetchone()
            if not known:
                raise UnknownSession(live.code)
            state = db.execute(
                "SELECT open, closes FROM class_rounds WHERE code = ? AND number = ?",
                (live.code, number),
            ).fetchone()
            if not state or not is_open(state[0], state[1], now) or live.ended:
                raise RoundClosed()
            second = int(now)
            db.execute(
                "INSERT INTO class_rates VALUES (?, ?, ?, 1) ON CONFLICT (code, token) DO UPDATE "
                "SET count = CASE WHEN second = excluded.second THEN count + 1 ELSE 1 END, "
                "second = excluded.second",
                (live.code, token, second),
            )
            count = db.execute(
                "SELECT count FROM class_rates WHERE code = ? AND token = ?", (live.code, token)
            ).fetchone()[0]
            if count > MAX_SUBMITS_PER_SECOND:
                raise RateLimited()  # the transaction still commits the count
            db.execute(
                "INSERT OR REPLACE INTO class_answers (code, number, token, answer, at, "
                "confidence) VALUES (?, ?, ?, ?, ?, ?)",
                (live.code, number, token, answer, now, confidence),
            )
            db.execute("INSERT INTO class_submits VALUES (?, ?, ?)", (live.code, token, submit_id))
        return Receipt(duplicate=False)

    def answers(self, code: str, number: int) -> list[Answer]:
        db = self._db()
        live = self._live(db, code)
        rows = db.execute(
            "SELECT a.token, s.label, a.answer, a.at, a.confidence FROM class_answers a "
            "JOIN class_students s "
            "ON s.code = a.code AND s.token = a.token WHERE a.code = ? AND a.number = ? "
            "ORDER BY s.number",
            (live.code, number),
        ).fetchall()
        return [Answer(*row) for row in rows]

    def tally(self, code: str, number: int) -> dict[str, int]:
        db = self._db()
        live = self._live(db, code)
        rows = db.execute(
            "SELECT answer, COUNT(*) FROM class_answers WHERE code = ? AND number = ? "
            "GROUP BY answer",
            (live.code, number),
        ).fetchall()
        return dict(rows)

    def purge_expired(self) -> int:
        with self._write() as db:
            codes = [
                row[0]
                for row in db.execute(
                    "SELECT code FROM class_sessions WHERE expires <= ?", (self.clock(),)
                ).fetchall()
            ]
            for code in codes:
                _delete_session(db, code)
        return len(codes)

    # --- the lecturer's own questions --------------------------------------------------------

    def set_question_set(self, code: str, text: str) -> None:
        text = check_text(text, MAX_SET_CHARS, "question set")
        with self._write() as db:
            live = self._live(db, code)
            db.execute(
                "INSERT OR REPLACE INTO class_question_sets VALUES (?, ?)", (live.code, text)
            )

    def question_set(self, code: str) -> str:
        db = self._db()
        live = self._live(db, code)
        row = db.execute(
            "SELECT text FROM class_question_sets WHERE code = ?", (live.code,)
        ).fetchone()
        return row[0] if row else ""

    # --- connection ------------------------------------------------------------------------------

    def ping(self) -> None:
        """Return when the file can be read; raise SQLite's error otherwise."""
        self._db().execute("PRAGMA schema_version").fetchone()

    @staticmethod
    def is_outage(err: BaseException) -> bool:
        """Whether ``err`` means the file is unusable for now (locked past the busy timeout,
        a full or failing disk, a file that cannot be opened), not that the request was wrong."""
        return is_outage(err)


def is_outage(err: BaseException) -> bool:
    """``SQLiteStore.is_outage``, also for errors raised while the store is being opened."""
    if not isinstance(err, sqlite3.OperationalError):
        return False
    message = str(err).lower()
    return any(part in message for part in OUTAGE_MESSAGES)


_ROUND_COLUMNS = "number, question, open, reveal, revote_of, opened, closes"


def _add_columns(db: sqlite3.Connection) -> None:
    """Add ``ADDED_COLUMNS`` missing from a file made by an earlier release."""
    for table, column, declaration in ADDED_COLUMNS:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            try:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
            except sqlite3.OperationalError as err:  # another process added it first
                if "duplicate column" not in str(err):
                    raise


def _delete_session(db: sqlite3.Connection, code: str) -> None:
    db.execute("DELETE FROM class_sessions WHERE code = ?", (code,))
    for table in _CLASS_TABLES:
        db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))


class _Transaction:
    """``with``: BEGIN IMMEDIATE (take the write lock now), COMMIT, or ROLLBACK on an error
    other than a store refusal (a refused rate-limited submit still counts)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, error, tb) -> None:
        if kind is None or kind in (RateLimited, JoinsLimited):
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
