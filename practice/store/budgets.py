"""Budgets of work that every replica counts together: how many times something was done
under one name in the current window of time.

``spend(bucket, seconds, cost)`` adds ``cost`` to the count of ``bucket`` in the current
``seconds``-long window of the store's clock (windows start at multiples of ``seconds``
since the Unix epoch) and returns the count after it, with the seconds left until the
window ends. Both backends keep the counts where every replica sees them (a SQLite file,
a Redis server), so a reload (a new browser session) or another replica counts on the
same number; a count is gone once its window is over (Redis expires it, SQLite overwrites
or purges it). ``practice.limits`` names the budgets and what is refused past them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

MAX_BUCKET_CHARS = 200
"""A bucket's name (a budget, a session code, a client address) is cut to this length."""


@dataclass(frozen=True)
class Spent:
    """A bucket's count in the current window, after a spend."""

    count: int
    resets_in: float
    """Seconds until the window ends and the count starts again from 0."""


def window(now: float, seconds: int) -> tuple[int, float]:
    """(the window's number, its end in Unix seconds) for the clock time ``now``."""
    number = math.floor(now / seconds)
    return number, (number + 1) * seconds


class BudgetStore(Protocol):
    def spend(self, bucket: str, seconds: int, cost: int = 1) -> Spent:
        """Add ``cost`` to ``bucket``'s count in the current ``seconds``-long window; the
        count after it. Atomic: concurrent spends on any replica each see their own sum."""
