"""A learner's progress as JSON: what "export" downloads and "import" reads back.

The document is ``{"format": FORMAT, "attempts": [...], "cards": {question id: state}}``,
each attempt an object of ``Attempt``'s fields, each card state an ``fsrs.Card.to_dict()``,
and, when the learner keeps their own FSRS parameters, ``"parameters"``: an object of
``OwnParameters``' fields (a file without it, as every export before them, imports with
FSRS's defaults).
Import is bounded (``MAX_IMPORT_BYTES``, ``MAX_IMPORT_ATTEMPTS``, ``MAX_IMPORT_CARDS``) and
checked before anything is written, in this order: nesting deeper than ``MAX_DEPTH`` is
refused before any parser sees the text; NaN and Infinity are refused while parsing; the
document is validated against ``SCHEMA`` (JSON Schema 2020-12, with ``jsonschema``):
types, ranges, and times with a time zone; then every card state must be one the ``fsrs``
library itself accepts: ``fsrs.Card.from_dict`` builds it and the app's scheduler reviews
it without an error, and the parameters must be ones ``fsrs.Scheduler`` accepts (within
its bounds). A refusal (``TextRefused``) names the field; the learner's progress
is untouched. Then it is replaced by the file's, in one transaction.
The learner key itself is never in the file: importing on another machine files the
progress under that machine's key.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, fields
from datetime import datetime
from typing import NamedTuple

from fsrs.scheduler import DEFAULT_PARAMETERS
from jsonschema import Draft202012Validator, FormatChecker

from practice.review import fsrs_problem
from practice.review_fit import MAX_FITTED_AT, OwnParameters, check_own
from practice.store.base import (
    MAX_QUESTION_ID_CHARS,
    RATINGS,
    Attempt,
    LearnerStore,
    TextRefused,
    card_text,
    check_attempt,
)

FORMAT = "grpo-lab-progress/1"
MAX_IMPORT_BYTES = 2_000_000
MAX_IMPORT_ATTEMPTS = 10_000
MAX_IMPORT_CARDS = 1_000
MAX_DEPTH = 8
"""The deepest nesting of arrays and objects read (an export has 3)."""
_ATTEMPT_FIELDS = tuple(f.name for f in fields(Attempt))
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]")
_FORMATS = FormatChecker()


@_FORMATS.checks("date-time-tz", raises=ValueError)
def _with_time_zone(text) -> bool:
    """An ISO 8601 date and time that names its time zone (what FSRS compares)."""
    if not isinstance(text, str):
        return True
    if datetime.fromisoformat(text).tzinfo is None:
        raise ValueError("has no time zone")
    return True


_TIME = {"type": "string", "maxLength": 40, "format": "date-time-tz"}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["format", "attempts", "cards"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "attempts": {
            "type": "array",
            "maxItems": MAX_IMPORT_ATTEMPTS,
            "items": {
                "type": "object",
                "required": list(_ATTEMPT_FIELDS),
                "additionalProperties": False,
                "properties": {
                    "question_id": {"type": "string", "minLength": 1, "maxLength": 40},
                    "kind": {"type": "string", "maxLength": 16},
                    "score": {"type": "number", "minimum": 0, "maximum": 1},
                    "seconds": {"type": "number", "minimum": 0, "exclusiveMaximum": 1e7},
                    "rating": {"enum": list(RATINGS)},
                    "at": {"type": "number", "minimum": 0, "exclusiveMaximum": 1e11},
                },
            },
        },
        "cards": {
            "type": "object",
            "maxProperties": MAX_IMPORT_CARDS,
            "propertyNames": {"minLength": 1, "maxLength": MAX_QUESTION_ID_CHARS},
            "additionalProperties": {
                "type": "object",
                "required": ["card_id", "state", "step", "stability", "difficulty", "due"],
                "additionalProperties": False,
                "properties": {
                    "card_id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
                    "state": {"enum": [1, 2, 3]},
                    "step": {"type": ["integer", "null"], "minimum": 0, "maximum": 100},
                    "stability": {"type": ["number", "null"], "minimum": 0, "maximum": 1e6},
                    "difficulty": {"type": ["number", "null"], "minimum": 0, "maximum": 11},
                    "due": _TIME,
                    "last_review": {"anyOf": [_TIME, {"type": "null"}]},
                },
            },
        },
        "parameters": {
            "type": "object",
            "required": ["parameters", "reviews", "fitted"],
            "additionalProperties": False,
            "properties": {
                "parameters": {
                    "type": "array",
                    "minItems": len(DEFAULT_PARAMETERS),
                    "maxItems": len(DEFAULT_PARAMETERS),
                    "items": {"type": "number"},
                },
                "reviews": {"type": "integer", "minimum": 0, "maximum": 10**7},
                "fitted": {"type": "number", "minimum": 0, "exclusiveMaximum": MAX_FITTED_AT},
            },
        },
    },
}
"""What an export holds: the JSON Schema every import is validated against."""
_VALIDATOR = Draft202012Validator(SCHEMA, format_checker=_FORMATS)
_BOUNDS = Draft202012Validator(
    {
        "properties": {
            name: {k: v for k, v in rule.items() if k in ("maxItems", "maxProperties")}
            for name, rule in SCHEMA["properties"].items()
        }
    }
)
"""SCHEMA's size limits alone, checked first: the full validation of an oversized list
collects an error for every entry (a 300 KB file of empty attempts took a minute)."""


class Progress(NamedTuple):
    """What a progress file holds, checked."""

    attempts: list[Attempt]
    cards: dict[str, dict]
    """question id -> FSRS card state."""
    parameters: OwnParameters | None
    """The learner's own FSRS parameters, or None (FSRS's defaults)."""


def export_json(store: LearnerStore, key: str) -> str:
    """Everything stored under ``key`` (attempts oldest first, every card, the learner's own
    FSRS parameters when they keep some) as JSON text."""
    document = {
        "format": FORMAT,
        "attempts": [asdict(a) for a in store.attempts(key)],
        "cards": store.cards(key),
    }
    if (own := store.parameters(key)) is not None:
        document["parameters"] = asdict(own)
    return json.dumps(document, indent=1, sort_keys=True)


def parse_progress(data: bytes | str) -> Progress:
    """The attempts, cards and own parameters of an exported file; TextRefused naming the
    field at fault."""
    if len(data) > MAX_IMPORT_BYTES:
        raise TextRefused(f"The file is too large: at most {MAX_IMPORT_BYTES:,} bytes.")
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise TextRefused("The file is not text (UTF-8): export your progress again.") from None
    if nesting(text) > MAX_DEPTH:
        raise TextRefused(
            f"The file nests lists or objects more than {MAX_DEPTH} deep: it is not a progress "
            "export. Nothing was changed."
        )
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise TextRefused("The file is not JSON: export your progress again.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TextRefused(
            f"The file is not a progress export: its format field must be {FORMAT!r}. "
            "Nothing was changed."
        )
    error = next(_BOUNDS.iter_errors(document), None) or next(
        iter(sorted(_VALIDATOR.iter_errors(document), key=_first)), None
    )
    if error is not None:
        raise TextRefused(f"{_field(error.absolute_path)}: {_reason(error)} Nothing was changed.")
    attempts = [check_attempt(Attempt(**item)) for item in document["attempts"]]
    for qid, state in document["cards"].items():
        card_text(qid, state)
        if problem := fsrs_problem(state):
            raise TextRefused(
                f"The file's cards → {qid}: FSRS cannot use this card state ({problem}). "
                "Nothing was changed."
            )
    return Progress(attempts, document["cards"], _own(document.get("parameters")))


def _own(data: dict | None) -> OwnParameters | None:
    """The file's own FSRS parameters (schema-checked), checked by FSRS itself."""
    if data is None:
        return None
    try:
        return check_own(OwnParameters(tuple(data["parameters"]), data["reviews"], data["fitted"]))
    except ValueError as err:
        raise TextRefused(
            f"The file's parameters: FSRS cannot schedule with them ({err}). Nothing was changed."
        ) from None


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` (strings skipped), without parsing."""
    depth = deepest = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if c in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _first(error) -> tuple:
    return tuple(str(p) for p in error.absolute_path)


def _field(path) -> str:
    parts = [str(p) for p in path]
    return "The file's " + (" → ".join(parts) if parts else "top level")


def _reason(error) -> str:
    """What is wrong, in words, with at most 60 characters of the file quoted."""
    kind, limit = error.validator, error.validator_value
    shown = repr(error.instance)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    if kind == "format":
        return f"{shown} is not a date and time with a time zone (like 2025-01-31T09:00:00+00:00)."
    if kind == "type":
        wanted = " or ".join(limit) if isinstance(limit, list) else limit
        return f"must be {wanted}, not {shown}."
    if kind in ("const", "enum"):
        allowed = [limit] if kind == "const" else limit
        return f"must be {' or '.join(repr(v) for v in allowed)}, not {shown}."
    if kind in ("maxItems", "maxProperties"):
        return f"holds too much: at most {limit:,} entries."
    if kind in ("minimum", "maximum", "exclusiveMaximum"):
        return f"{shown} is out of range."
    if kind in ("minLength", "maxLength"):
        return f"{shown} has the wrong length."
    if kind == "additionalProperties":
        return "has a field that is not part of an export."
    return error.message[:120] + "."


def import_json(store: LearnerStore, key: str, data: bytes | str) -> int:
    """Replace ``key``'s progress (and own FSRS parameters) by the file's; how many attempts
    it held."""
    progress = parse_progress(data)
    store.replace_progress(key, progress.attempts, progress.cards, progress.parameters)
    return len(progress.attempts)
