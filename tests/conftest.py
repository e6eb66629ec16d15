"""Fixtures shared across test folders: ``trl_logs`` (real TRL logs, tests/trl_logs/fixture.py)."""

from tests.trl_logs.fixture import trl_logs  # noqa: F401
