"""What a class round adds to a vote and a session, and its bounds, for every backend:
the class size (``DEFAULT_CLASS_SIZE`` seats until the lecturer sets it), a student's
confidence with each vote, a round's countdown (the store closes the round
when it reaches 0, so every replica agrees) and the lecturer's own question set (TOML
text kept with the session; parsed by ``practice.class_questions``).
"""

from __future__ import annotations

from practice.store.base import StoreRefusal, TextRefused

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


DEFAULT_CLASS_SIZE = 200
"""Seats a session has until its lecturer sets the class size: every class of 30 to 150
fits, and a script that joins again and again stops there."""
MAX_CLASS_SIZE = 500
"""The most seats a lecturer may set."""


class ClassFull(StoreRefusal):
    def __init__(self, seats: int):
        super().__init__(
            f"This class is full: all {seats} seats are taken. Ask your lecturer to make "
            "room (they can raise the class size or free a seat)."
        )


def check_class_size(seats) -> int:
    """``seats`` if it is a whole number from 1 to ``MAX_CLASS_SIZE``; ValueError otherwise."""
    if isinstance(seats, bool) or not isinstance(seats, int | float) or seats != int(seats):
        raise ValueError(f"The class size must be a whole number, got {seats!r}.")
    if not 1 <= seats <= MAX_CLASS_SIZE:
        raise ValueError(f"The class size must be from 1 to {MAX_CLASS_SIZE}, got {seats!r}.")
    return int(seats)
