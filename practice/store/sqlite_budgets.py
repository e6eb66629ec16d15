"""Budgets (``practice.store.budgets``) in the embedded SQLite store: one row a bucket,
holding the count of its current window; a row whose window ended is overwritten by the
next spend, and rows idle for a day are deleted as spends come in."""

from __future__ import annotations

from practice.store.budgets import MAX_BUCKET_CHARS, Spent, window

BUDGET_SCHEMA = """
CREATE TABLE IF NOT EXISTS budgets (
    bucket TEXT PRIMARY KEY, window INTEGER NOT NULL, count INTEGER NOT NULL,
    ends REAL NOT NULL);
CREATE INDEX IF NOT EXISTS budgets_ends ON budgets (ends);
"""
IDLE_SECONDS = 86400.0
"""A bucket whose window ended this long ago is deleted (a client address seen once)."""


class BudgetSQLite:
    """``BudgetStore`` on ``SQLiteStore``'s connection and transactions."""

    def spend(self, bucket: str, seconds: int, cost: int = 1) -> Spent:
        bucket = str(bucket)[:MAX_BUCKET_CHARS]
        now = self.clock()
        number, ends = window(now, seconds)
        with self._write() as db:
            db.execute("DELETE FROM budgets WHERE ends < ?", (now - IDLE_SECONDS,))
            db.execute(
                "INSERT INTO budgets VALUES (?, ?, ?, ?) ON CONFLICT (bucket) DO UPDATE SET "
                "count = CASE WHEN window = excluded.window THEN count + excluded.count "
                "ELSE excluded.count END, window = excluded.window, ends = excluded.ends",
                (bucket, number, cost, ends),
            )
            count = db.execute("SELECT count FROM budgets WHERE bucket = ?", (bucket,)).fetchone()
        return Spent(count[0], ends - now)
