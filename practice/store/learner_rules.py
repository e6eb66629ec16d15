"""How much a learner key keeps, and how long a key nobody used lives, for every backend.

Anyone may make a learner key (a first visit to Review or certification makes one), so the
store bounds what keys hold: a key that never kept anything (no attempt, card, flag or own
FSRS parameters) is deleted ``UNUSED_DAYS`` after it was made; a used key keeps its last
``MAX_ATTEMPTS`` attempts (the oldest go first) and at most ``MAX_CARDS`` card states, and
is kept until its learner deletes it.
"""

from __future__ import annotations

from practice.store.base import TextRefused

UNUSED_DAYS = 7
"""Days a learner key that never kept anything lives (a visit that answered nothing), and a
practice quiz never answered (``sqlite_quiz``, ``redis_quiz``)."""
UNUSED_SECONDS = UNUSED_DAYS * 86400
MAX_ATTEMPTS = 20_000
"""Attempts one key keeps: 50 a day for a year and more (about 2 MB); the oldest go first.
An import holds at most ``learner_json.MAX_IMPORT_ATTEMPTS``, fewer."""
MAX_CARDS = 1_000
"""Card states one key keeps: one per bank question (about 60), and room to spare; as many
as an import may hold (``learner_json.MAX_IMPORT_CARDS``)."""


def check_new_card(cards_kept: int) -> None:
    """TextRefused when a key that keeps ``cards_kept`` cards may not keep one more."""
    if cards_kept >= MAX_CARDS:
        raise TextRefused(f"A learner key keeps at most {MAX_CARDS:,} cards.")
