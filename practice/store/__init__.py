"""Where class sessions and learner progress are kept: one interface each, two backends.

- ``base``: the contracts (``ClassStore``, ``LearnerStore``, ``QuizStore``), records,
  refusals, key forms.
- ``sqlite``: the embedded default, a SQLite file in WAL mode (``data/grpo.sqlite3``).
- ``redis_store``: Redis, for replicas that must share one class (learner progress
  there needs ``appendonly yes``).
- ``sqlite_learner``, ``redis_learner``: each backend's learner part.
- ``sqlite_quiz``, ``redis_quiz``: each backend's quiz part (the first answer stands).
- ``attempts``: certification attempts' contract, record, refusal and private token.
- ``learner_json``: a learner's progress as JSON (export, validated import).

``open_store(url)`` picks the backend from a URL: ``sqlite:///abs/path.sqlite3``,
``sqlite:relative/path.sqlite3`` or ``redis://host:port/db``. ``store_url(env)`` is the
URL a deployment asked for in the environment variable ``GRPO_STORE``, else the default
file; the app also reads ``st.secrets`` (see ``ui/class_store.py``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from practice.store.base import Clock, Store

ENV_VAR = "GRPO_STORE"
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "data" / "grpo.sqlite3"
"""The embedded store's file: data/ at the repository root (git-ignored)."""


def store_url(env: Mapping[str, str]) -> str:
    """``env["GRPO_STORE"]`` when set, else the SQLite file at ``DEFAULT_PATH``."""
    value = (env.get(ENV_VAR) or "").strip()
    return value or f"sqlite://{DEFAULT_PATH}"


def open_store(url: str, *, clock: Clock = time.time) -> Store:
    """The store at ``url``; ValueError naming the valid forms for any other URL."""
    if url.startswith("redis://") or url.startswith("rediss://"):
        from practice.store.redis_store import RedisStore  # only deployments need the client

        return RedisStore(url, clock=clock)
    if url.startswith("sqlite:"):
        path = url.removeprefix("sqlite:")
        path = path[2:] if path.startswith("//") else path  # sqlite:///abs -> /abs
        path = path[1:] if path.startswith("//") else path  # SQLAlchemy's sqlite:////abs
        if path:
            from practice.store.sqlite import SQLiteStore

            return SQLiteStore(path, clock=clock)
    raise ValueError(
        f"{ENV_VAR} must look like sqlite:///path/to/file.sqlite3 or redis://host:port/0, "
        f"got {url[:80]!r}."
    )
