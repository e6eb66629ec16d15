"""A certification attempt: its own mode, the only one that issues certificates.

Contract:
- ``start_or_resume`` gives a learner their open attempt back, or starts a new one with a
  seed the server draws (``secrets``; none can be typed) over every family of
  ``practice.variants``; a new attempt after a submitted one waits ``retake_wait``
  seconds from the last one's start (``RETAKE_ENV``, default a day), else ``RetakeWait``
  says until when. The new attempt avoids the last one's variants (other wording, other
  answers: ``practice.variants.draw(previous=...)``).
- Answers are stored through the attempt's private token (``practice.store.base.
  AttemptStore``); nothing about right or wrong is shown before ``submit``.
- ``issue_certificate`` issues one certificate per passed, submitted attempt, for the
  token's holder only, with the name given the first time: a second call returns the
  certificate that stands, whatever name it is given. The certificate states the attempt's
  ``fingerprint``, so two attempts never give the same ID.
The token lives in the holder's session and in the store, never in a link; the learner
key (the private learner link) recovers it after a reload (``holder_token``).
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from practice.certificates import issue, short_id, short_key
from practice.session import MAX_SEED, QuizState, certificate_terms, stored_quiz
from practice.store.attempts import AttemptRefused, StoredAttempt, same_token
from practice.variants import Family, Variant, draw

RETAKE_ENV = "GRPO_CERT_RETAKE_HOURS"
DEFAULT_RETAKE_HOURS = 24.0
MAX_RETAKE_HOURS = 24.0 * 365


class RetakeWait(Exception):
    """A new attempt is refused until ``until`` (Unix seconds)."""

    def __init__(self, until: float, now: float):
        self.until = until
        hours = max(1, math.ceil((until - now) / 3600))
        super().__init__(
            f"A retake waits {hours} more hour{'s' if hours != 1 else ''}: "
            "use the time to review what you missed."
        )


@dataclass(frozen=True)
class Holding:
    """An attempt and, for its holder, the private token (else None)."""

    attempt: StoredAttempt
    token: str | None


def retake_wait(environ: Mapping[str, str] = os.environ) -> float:
    """Seconds a retake waits: ``RETAKE_ENV`` hours (0 to a year), default a day.
    ValueError in plain words for a value that is not such a number (a setup error)."""
    text = environ.get(RETAKE_ENV, "").strip()
    if not text:
        return DEFAULT_RETAKE_HOURS * 3600
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    if not 0 <= hours <= MAX_RETAKE_HOURS:
        raise ValueError(f"{RETAKE_ENV} must be a number of hours from 0 to {MAX_RETAKE_HOURS:g}.")
    return hours * 3600


def start_or_resume(
    store, learner: str, families: Sequence[Family], *, now: float, wait: float
) -> Holding:
    """The learner's open attempt, or a new one; ``RetakeWait`` while the last one waits."""
    last = store.latest_attempt(learner)
    if last is not None and last.submitted is None:
        return Holding(last, store.attempt_token(last.attempt_id, learner))
    if last is not None and now < last.started + wait:
        raise RetakeWait(last.started + wait, now)
    previous = store.quiz(last.attempt_id).seed if last is not None else None
    seed = secrets.randbelow(MAX_SEED + 1)
    try:
        attempt_id, token = store.create_attempt(learner, seed, previous, [f.id for f in families])
    except AttemptRefused:  # another tab started one a moment ago: resume that one
        last = store.latest_attempt(learner)
        return Holding(last, store.attempt_token(last.attempt_id, learner))
    return Holding(store.attempt(attempt_id), token)


def holder_token(store, attempt: StoredAttempt, learner: str | None) -> str | None:
    """The attempt's token if ``learner`` holds it (recovery after a reload), else None."""
    return store.attempt_token(attempt.attempt_id, learner) if learner else None


def items(store, families: Sequence[Family], attempt: StoredAttempt) -> dict[str, Variant]:
    """Family id -> the attempt's variant of it, the same on every run."""
    seed = store.quiz(attempt.attempt_id).seed
    return {f.id: draw(f, seed, previous=attempt.previous_seed) for f in families}


def state(store, families: Sequence[Family], attempt: StoredAttempt) -> QuizState | None:
    """The attempt as a quiz (order from its seed, the stored first answers)."""
    stored = store.quiz(attempt.attempt_id)
    if stored is None:
        return None
    ids = [f.id for f in families]
    return stored_quiz(ids, stored.quiz_id, stored.seed, stored.question_ids, stored.answers)


def answer(store, attempt: StoredAttempt, token, item_id: str, credit) -> Fraction:
    """Store the answer's credit (the first stands); AttemptRefused after submitting or
    without the token."""
    return store.answer_attempt(attempt.attempt_id, token, item_id, Fraction(credit))


def submit(store, attempt: StoredAttempt, token) -> StoredAttempt:
    """Submit it (unanswered items count 0); the attempt as stored now."""
    store.submit_attempt(attempt.attempt_id, token)
    return store.attempt(attempt.attempt_id)


def issue_certificate(
    store,
    families: Sequence[Family],
    attempt: StoredAttempt,
    token,
    name: str,
    *,
    private_key,
    topic_order,
    scoring: str,
) -> str:
    """The attempt's certificate: issued for ``name`` on the first call, the one that
    stands on every later call. ValueError in plain words: not the holder, not submitted,
    not passed, an unfit name."""
    current = store.attempt(attempt.attempt_id)
    if current is None:
        raise ValueError("this attempt is not kept on this server.")
    if not same_token(store.attempt_token(current.attempt_id, current.learner), token):
        raise ValueError("only the browser that took this attempt can issue its certificate.")
    if current.cert_id:
        return current.cert_id
    if current.submitted is None:
        raise ValueError("submit the attempt first.")
    quiz = state(store, families, current)
    questions = {i: v.question for i, v in items(store, families, current).items()}
    correct, total, details = certificate_terms(quiz, questions, topic_order)
    cert_id = issue(
        name,
        correct,
        total,
        private_key=private_key,
        scoring=scoring,
        attempt=fingerprint(current.attempt_id),
        **details,
    )
    try:
        return store.set_certificate(current.attempt_id, token, cert_id, short(cert_id))
    except AttemptRefused as err:
        raise ValueError(str(err)) from None


def fingerprint(attempt_id: str) -> str:
    """What a certificate states of its attempt: 12 hex digits of SHA-256 of the attempt id
    (binds the certificate to one attempt, so two are never the same ID; the id itself,
    which the progress link carries, stays out of the public certificate)."""
    return hashlib.sha256(attempt_id.encode("utf-8")).hexdigest()[:12]


def short(cert_id: str) -> str:
    """The signature prefix the store indexes a certificate's short form by."""
    return short_key(short_id(cert_id))
