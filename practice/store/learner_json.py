"""A learner's progress as JSON: what "export" downloads and "import" reads back.

The document is ``{"format": FORMAT, "attempts": [...], "cards": {question id: state}}``,
each attempt an object of ``Attempt``'s fields. Import is bounded (``MAX_IMPORT_BYTES``,
``MAX_IMPORT_ATTEMPTS``, ``MAX_IMPORT_CARDS``) and checked field by field before anything
is written; then the learner's progress is replaced by the file's, in one transaction.
The learner key itself is never in the file: importing on another machine files the
progress under that machine's key.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from practice.store.base import Attempt, LearnerStore, TextRefused, card_text, check_attempt

FORMAT = "grpo-lab-progress/1"
MAX_IMPORT_BYTES = 2_000_000
MAX_IMPORT_ATTEMPTS = 10_000
MAX_IMPORT_CARDS = 1_000
_ATTEMPT_FIELDS = tuple(f.name for f in fields(Attempt))


def export_json(store: LearnerStore, key: str) -> str:
    """Everything stored under ``key`` (attempts oldest first, every card) as JSON text."""
    document = {
        "format": FORMAT,
        "attempts": [asdict(a) for a in store.attempts(key)],
        "cards": store.cards(key),
    }
    return json.dumps(document, indent=1, sort_keys=True)


def parse_progress(data: bytes | str) -> tuple[list[Attempt], dict[str, dict]]:
    """The attempts and cards of an exported file; TextRefused saying what is wrong."""
    if len(data) > MAX_IMPORT_BYTES:
        raise TextRefused(f"The file is too large: at most {MAX_IMPORT_BYTES:,} bytes.")
    try:
        document = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise TextRefused("The file is not JSON: export your progress again.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TextRefused(f"The file is not a progress export ({FORMAT}).")
    items, cards = document.get("attempts"), document.get("cards")
    if not isinstance(items, list) or not isinstance(cards, dict):
        raise TextRefused("The file has no attempts list or no cards table.")
    if len(items) > MAX_IMPORT_ATTEMPTS or len(cards) > MAX_IMPORT_CARDS:
        raise TextRefused(
            f"The file holds too much: at most {MAX_IMPORT_ATTEMPTS:,} attempts "
            f"and {MAX_IMPORT_CARDS:,} cards."
        )
    attempts = [check_attempt(_attempt(item)) for item in items]
    for qid, state in cards.items():
        card_text(qid, state)  # bounds and type; the scheduler reads the fields
    return attempts, cards


def import_json(store: LearnerStore, key: str, data: bytes | str) -> int:
    """Replace ``key``'s progress by the file's; how many attempts it held."""
    attempts, cards = parse_progress(data)
    store.replace_progress(key, attempts, cards)
    return len(attempts)


def _attempt(item) -> Attempt:
    if not isinstance(item, dict) or set(item) != set(_ATTEMPT_FIELDS):
        raise TextRefused(f"Every attempt must have exactly: {', '.join(_ATTEMPT_FIELDS)}.")
    return Attempt(**item)
