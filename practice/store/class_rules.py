"""What a class round adds to a vote and a session, and its bounds, for every backend:
a student's confidence with each vote, a round's countdown (the store closes the round
when it reaches 0, so every replica agrees) and the lecturer's own question set (TOML
text kept with the session; parsed by ``practice.class_questions``).
"""

from __future__ import annotations

from practice.store.base import TextRefused

CONFIDENCES = ("guessing", "fairly sure", "certain")
"""How sure a student says they are of a vote (optional: "" when not given)."""
MAX_ROUND_SECONDS = 3600.0
"""The longest countdown a round may have (an hour)."""
MAX_SET_CHARS = 100_000
"""The lecturer's own question set, as TOML text kept with the session (100 KB)."""


def check_confidence(confidence) -> str:
    """``confidence`` if it is "" or one of ``CONFIDENCES``; TextRefused otherwise."""
    if confidence != "" and confidence not in CONFIDENCES:
        raise TextRefused(f"How sure you are must be one of: {', '.join(CONFIDENCES)}.")
    return confidence


def check_seconds(seconds) -> float | None:
    """A round's countdown: None, or seconds in (0, MAX_ROUND_SECONDS]; ValueError otherwise."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(f"seconds must be a number, got {seconds!r}.")
    if not 0 < seconds <= MAX_ROUND_SECONDS:
        raise ValueError(f"seconds must be in (0, {MAX_ROUND_SECONDS:g}], got {seconds!r}.")
    return float(seconds)


def is_open(stored_open: bool, closes: float | None, now: float) -> bool:
    """Whether a round takes answers: open as stored, and its countdown not yet at 0."""
    return bool(stored_open) and (closes is None or now < closes)
