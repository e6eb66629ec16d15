""" "I made this point": a learner's disagreement with the follow-up grader, kept for review.

A flag says the learner believes their answer makes a key point the grader did not credit.
It is shown beside the point and exported (``export_flags``) as labelled answers for the
next round of the follow-up evaluation (``tests/practice/followup_eval``); it never changes
a score or a certificate: nothing that scores reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

MAX_FLAGGED_CHARS = 4000
"""The answer text kept with a flag (the follow-up grader reads no more)."""


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


def export_flags(flags: Iterable[Flag]) -> str:
    """The flags as JSON lines, one answer each, in the evaluation set's words: question,
    text, ``points_flagged`` and ``points_credited`` (to be labelled by a person)."""
    rows = (
        {
            "question": f.question,
            "text": f.text,
            "points_flagged": list(f.flagged),
            "points_credited": list(f.credited),
        }
        for f in flags
        if f.flagged
    )
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
