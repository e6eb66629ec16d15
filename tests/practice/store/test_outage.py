"""Which backend errors are outages ("not reachable now, try again"), not wrong requests."""

from __future__ import annotations

import sqlite3

import pytest
import redis

from practice.store import sqlite as sqlite_backend
from practice.store.redis_store import RedisStore


@pytest.mark.parametrize(
    ("message", "outage"),
    [
        ("database is locked", True),
        ("database table is locked", True),
        ("disk I/O error", True),
        ("database or disk is full", True),
        ("unable to open database file", True),
        ("attempt to write a readonly database", True),
        ("no such table: class_rounds", False),
        ('near "SELEC": syntax error', False),
    ],
)
def test_sqlite_outages_are_the_errors_of_locks_and_disks(message, outage):
    assert sqlite_backend.is_outage(sqlite3.OperationalError(message)) is outage


def test_other_sqlite_errors_are_not_outages():
    assert not sqlite_backend.is_outage(sqlite3.IntegrityError("UNIQUE constraint failed"))
    assert not sqlite_backend.is_outage(ValueError("database is locked"))


def test_redis_outages_are_refused_dropped_timed_out_or_loading_connections():
    assert RedisStore.is_outage(redis.ConnectionError("Connection refused"))
    assert RedisStore.is_outage(redis.TimeoutError("Timeout reading from socket"))
    assert RedisStore.is_outage(redis.BusyLoadingError("Redis is loading the dataset"))
    assert not RedisStore.is_outage(redis.ResponseError("WRONGTYPE"))
    assert not RedisStore.is_outage(ValueError("could not convert string to float"))
