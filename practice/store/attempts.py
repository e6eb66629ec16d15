"""Certification attempts as the store keeps them (``practice.certification`` is the mode):
the contract both backends implement (``sqlite_quiz``, ``redis_quiz``), its record, its
refusal, and the attempt's private token.

An attempt is a stored quiz (same id) held by one learner; its token, never in a link,
answers, submits and issues the certificate.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from practice.store.base import StoreRefusal


class AttemptRefused(StoreRefusal):
    """A certification attempt refused an action: not its holder, or already submitted."""


@dataclass(frozen=True)
class StoredAttempt:
    """A certification attempt: a stored quiz (same id) held by one learner, with the
    private token that answers, submits and issues, and the certificate once issued."""

    attempt_id: str
    """The id of the stored quiz holding its seed, items and answers."""
    learner: str
    previous_seed: int | None
    """The seed of the learner's attempt before (its variants are avoided), or None."""
    started: float
    submitted: float | None
    cert_id: str | None


class AttemptStore(Protocol):
    """Certification attempts (``practice.certification``): one learner's, token-held."""

    def create_attempt(
        self, learner: str, seed: int, previous_seed: int | None, question_ids: Sequence[str]
    ) -> tuple[str, str]:
        """(attempt id, private token): a new stored quiz, held by ``learner``."""

    def attempt(self, attempt_id) -> StoredAttempt | None:
        """The attempt; None for junk or an unknown id (never raises)."""

    def latest_attempt(self, learner) -> StoredAttempt | None:
        """The learner's most recently started attempt, or None."""

    def attempt_token(self, attempt_id: str, learner: str) -> str | None:
        """The attempt's token for the learner who holds it (the learner key recovers the
        attempt after a reload); None for anyone else."""

    def answer_attempt(self, attempt_id: str, token: str, question_id: str, credit) -> Fraction:
        """``answer_quiz`` for the holder of an attempt not yet submitted; AttemptRefused."""

    def submit_attempt(self, attempt_id: str, token: str) -> float:
        """Mark it submitted (the first time stands), unanswered items at 0; AttemptRefused."""

    def set_certificate(self, attempt_id: str, token: str, cert_id: str, short: str) -> str:
        """Store the attempt's certificate unless it has one; the one that stands.
        ``short``: the signature prefix the short form names. AttemptRefused."""

    def certificate_by_short(self, short) -> str | None:
        """The full certificate ID an issued short form names, or None."""


def new_attempt_token() -> str:
    """An attempt's private token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def same_token(stored: str | None, given) -> bool:
    """Whether ``given`` is the stored token, compared as bytes in constant time."""
    if not isinstance(stored, str) or not isinstance(given, str):
        return False
    return secrets.compare_digest(stored.encode("utf-8"), given.encode("utf-8"))
