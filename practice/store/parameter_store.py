"""A learner's own FSRS parameters in the store: the contract both backends keep.

The record (``practice.review_fit.OwnParameters``: 21 parameters, the reviews they were
fitted on, when) lives with the learner's progress, under the learner key, with no expiry:
SQLite table ``learner_parameters`` (``sqlite_learner``), or the field ``parameters`` of the
learner's Redis hash ``grpo:learner:<key>`` (``redis_learner``). ``delete_learner`` removes
it; ``replace_progress`` (a JSON import) replaces it with the file's (none: the defaults).
``practice.review.record_attempt`` reads it to schedule every answer.
"""

from __future__ import annotations

from typing import Protocol

from practice import review_fit
from practice.review_fit import OwnParameters
from practice.store.base import TextRefused


class ParameterStore(Protocol):
    """A learner's own FSRS parameters (both backends; UnknownLearner for a key the store
    never made)."""

    def set_parameters(self, key: str, own: OwnParameters | None) -> None:
        """Keep the learner's fitted parameters (replacing any), or remove them (None: the
        schedule goes back to FSRS's defaults). TextRefused when FSRS cannot use them."""

    def parameters(self, key: str) -> OwnParameters | None:
        """The learner's kept parameters, or None (FSRS's defaults)."""


def parameters_text(own: OwnParameters) -> str:
    """The record as the JSON text both backends keep; TextRefused when FSRS cannot use it."""
    try:
        return review_fit.to_json(own)
    except (ValueError, TypeError) as err:
        raise TextRefused(f"These FSRS parameters cannot be kept: {err}") from err


def parameters_from_text(text: str | None) -> OwnParameters | None:
    """The stored record, or None when nothing is stored."""
    return None if text is None else review_fit.from_json(text)
