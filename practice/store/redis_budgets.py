"""Budgets (``practice.store.budgets``) in the Redis store: one key a bucket and window,
``grpo:budget:<window>:<bucket>``, counted with INCRBY and expiring with its window."""

from __future__ import annotations

import math

from practice.store.budgets import MAX_BUCKET_CHARS, Spent, window


class BudgetRedis:
    """``BudgetStore`` on ``RedisStore``'s client (``self.r``)."""

    def spend(self, bucket: str, seconds: int, cost: int = 1) -> Spent:
        now = self.clock()
        number, ends = window(now, seconds)
        key = f"grpo:budget:{number}:{str(bucket)[:MAX_BUCKET_CHARS]}"
        with self.r.pipeline() as p:  # MULTI/EXEC: the count and its expiry together
            p.incrby(key, cost)
            p.expire(key, max(1, math.ceil(ends - now)) + 1)
            count, _ = p.execute()
        return Spent(int(count), ends - now)
