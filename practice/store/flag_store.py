"""A learner's "I made this point" flags in the store: the contract both backends keep.

Flags (``practice.flags``) live with the learner's progress, under the learner key, with no
expiry, in ``learner_flags`` (SQLite, ``sqlite_learner``) or ``grpo:learner:<key>:flags``
(Redis, ``redis_learner``). One flag per (question, answer text): flagging the same answer
again replaces it in its place. ``delete_learner`` removes them; ``replace_progress`` (a
JSON import) keeps them. Nothing that scores reads them.
"""

from __future__ import annotations

from typing import Protocol

from practice import flags
from practice.flags import Flag
from practice.store.base import TextRefused

MAX_FLAGS = 500
"""Flagged answers kept for one learner; more are refused."""


class FlagStore(Protocol):
    """A learner's flags (both backends; UnknownLearner for a key the store never made)."""

    def set_flag(self, key: str, flag: Flag) -> None:
        """Keep the learner's flag of one answer, or remove it when nothing is flagged.
        TextRefused beyond ``MAX_FLAGS`` or out of bounds."""

    def flags(self, key: str) -> list[Flag]:
        """The learner's flags, oldest first."""


def flag_text(flag: Flag) -> str:
    """The flag as the JSON text both backends keep; TextRefused when out of bounds."""
    try:
        return flags.to_json(flag)
    except ValueError as err:
        raise TextRefused(f"This flag cannot be kept: {err}") from err
