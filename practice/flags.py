""" "I made this point": a learner's disagreement with the follow-up grader, kept for review.

A flag says the learner believes their answer makes a key point the grader did not credit.
It is stored with the learner's progress (``LearnerStore.set_flag``, both backends), shown
beside the point and on the Review page, and exported (``export_flags``) in the follow-up
evaluation's own format (``tests/practice/followup_eval``: TOML ``[[answer]]`` records) for
the next round of labelling; it never changes a score or a certificate: nothing that scores
reads it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass

MAX_FLAGGED_CHARS = 4000
"""The answer text kept with a flag (the follow-up grader reads no more)."""
MAX_POINTS = 20
"""No follow-up has more key points than this; a flag naming a higher one is refused."""
MAX_QUESTION_CHARS = 40
"""A bank id is at most 40 characters."""
EXPORT_CATEGORY = "flagged"
"""The category of an exported flag in the evaluation format (not one a writer intended)."""


@dataclass(frozen=True)
class Flag:
    """One answer's points the learner says they made, against what the grader credited."""

    question: str
    """The follow-up's id in the bank."""
    text: str
    """The learner's answer, as typed (first ``MAX_FLAGGED_CHARS`` characters)."""
    flagged: tuple[int, ...]
    """The key points (1-based, bank order) the learner says they made."""
    credited: tuple[int, ...]
    """The key points (1-based) the grader credited."""


def flag(question: str, text: str, hits: Iterable[bool], flagged: Iterable[int]) -> Flag:
    """The flag of an answer graded ``hits`` (one per key point) with the learner's
    ``flagged`` points (1-based). ValueError for a point that is not a missed one."""
    hits = tuple(bool(h) for h in hits)
    chosen = tuple(sorted(set(flagged)))
    if any(not 1 <= p <= len(hits) or hits[p - 1] for p in chosen):
        raise ValueError("only a missed key point (1-based) can be flagged.")
    credited = tuple(i + 1 for i, h in enumerate(hits) if h)
    return Flag(question, text[:MAX_FLAGGED_CHARS], chosen, credited)


def flag_id(f: Flag) -> str:
    """The flag's id in a learner's store: the same question and answer text are one flag
    (flagging again replaces it). 24 hex digits of SHA-256."""
    return hashlib.sha256(f"{f.question}\0{f.text}".encode()).hexdigest()[:24]


def _points(value) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= MAX_POINTS for p in value
    ):
        raise ValueError(f"a flag's points must be whole numbers from 1 to {MAX_POINTS}.")
    return tuple(sorted(set(value)))


def checked(f) -> Flag:
    """``f`` if every field is in bounds (a question id, text, points); ValueError otherwise."""
    if not isinstance(f, Flag):
        raise ValueError("expected a Flag.")
    if not isinstance(f.question, str) or not 0 < len(f.question) <= MAX_QUESTION_CHARS:
        raise ValueError(f"a flag's question id must be 1 to {MAX_QUESTION_CHARS} characters.")
    if not isinstance(f.text, str) or len(f.text) > MAX_FLAGGED_CHARS:
        raise ValueError(f"a flagged answer is at most {MAX_FLAGGED_CHARS} characters.")
    flagged, credited = _points(f.flagged), _points(f.credited)
    if set(flagged) & set(credited):
        raise ValueError("a credited point cannot also be flagged.")
    return Flag(f.question, f.text, flagged, credited)


def to_json(f: Flag) -> str:
    """The flag as the JSON text both store backends keep."""
    return json.dumps(asdict(checked(f)), ensure_ascii=False, sort_keys=True)


def from_json(text: str) -> Flag:
    """The flag a store kept (``to_json``); ValueError for anything else."""
    try:
        raw = json.loads(text)
        made = Flag(raw["question"], raw["text"], tuple(raw["flagged"]), tuple(raw["credited"]))
    except (ValueError, TypeError, KeyError) as err:
        raise ValueError("not a stored flag.") from err
    return checked(made)


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (control characters escaped, never a surrogate)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def export_flags(flags: Iterable[Flag]) -> str:
    """The flagged answers in the follow-up evaluation's format: one ``[[answer]]`` each
    with ``question``, ``category = "flagged"``, ``points`` (what the learner claims: the
    credited and the flagged points, for a person to check before it joins a set),
    ``credited`` and ``flagged`` and the ``text``. Answers with nothing flagged are left out."""
    records = []
    for f in flags:
        if not f.flagged:
            continue
        claimed = sorted(set(f.credited) | set(f.flagged))
        records.append(
            "[[answer]]\n"
            f"question = {_toml_string(f.question)}\n"
            f'category = "{EXPORT_CATEGORY}"\n'
            f"points = {claimed}\n"
            f"credited = {list(f.credited)}\n"
            f"flagged = {list(f.flagged)}\n"
            f"text = {_toml_string(f.text)}\n"
        )
    head = (
        "# Learners' flags (\"I made this point\"), in the follow-up evaluation's format.\n"
        "# points = what the learner claims; a person labels each answer before it joins a set.\n"
    )
    return head + "\n".join(records) if records else ""
