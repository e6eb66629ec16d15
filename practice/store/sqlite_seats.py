"""A class session's seats in the embedded SQLite store (mixed into ``SQLiteStore``): the
class size the lecturer sets (``class_sizes``; ``DEFAULT_CLASS_SIZE`` until set), the
check a join makes against it, and the lecturer's removal of a seat with its answers."""

from __future__ import annotations

import sqlite3

from practice.store.class_rules import DEFAULT_CLASS_SIZE, ClassFull, check_class_size
from practice.store.nicknames import nickname_key

SEAT_SCHEMA = """
CREATE TABLE IF NOT EXISTS class_sizes (code TEXT PRIMARY KEY, seats INTEGER NOT NULL);
"""
SEAT_TABLES = ("class_students", "class_answers", "class_submits", "class_rates")
"""The tables that hold a seat's rows, by (code, token)."""


def _size(db: sqlite3.Connection, code: str) -> int:
    row = db.execute("SELECT seats FROM class_sizes WHERE code = ?", (code,)).fetchone()
    return DEFAULT_CLASS_SIZE if row is None else row[0]


def check_seat(db: sqlite3.Connection, code: str) -> None:
    """ClassFull when every seat of session ``code`` is taken (inside the join's write)."""
    seats = _size(db, code)
    taken = db.execute("SELECT COUNT(*) FROM class_students WHERE code = ?", (code,)).fetchone()
    if taken[0] >= seats:
        raise ClassFull(seats)


class SeatsSQLite:
    """``class_size``, ``set_class_size`` and ``remove_student`` on ``SQLiteStore``."""

    def set_class_size(self, code: str, seats: int) -> None:
        seats = check_class_size(seats)
        with self._write() as db:
            live = self._live(db, code)
            db.execute("INSERT OR REPLACE INTO class_sizes VALUES (?, ?)", (live.code, seats))

    def class_size(self, code: str) -> int:
        db = self._db()
        return _size(db, self._live(db, code).code)

    def remove_student(self, code: str, token: str) -> bool:
        with self._write() as db:
            live = self._live(db, code)
            row = db.execute(
                "SELECT label FROM class_students WHERE code = ? AND token = ?", (live.code, token)
            ).fetchone()
            if row is None:
                return False
            for table in SEAT_TABLES:
                db.execute(f"DELETE FROM {table} WHERE code = ? AND token = ?", (live.code, token))
            db.execute(
                "DELETE FROM class_names WHERE code = ? AND name = ?",
                (live.code, nickname_key(row[0])),
            )
        return True
