"""Whether a phrasing found in a follow-up answer is denied where it stands.

A negator ("not", "no", "never", "n't", ...) before a match in its clause denies it, and so
does one at most ``AFTER_WORDS`` words after it in the same part of the clause (up to an
"and": "the group mean is no longer subtracted"); a contrastive ("instead of", "without",
"unlike", ...) at most ``CONTRAST_WORDS`` words before it. A negator's reach stops at an "and"
that opens a new subject ("X isn't part of it and the baseline doesn't ..."), at a label's
colon ("Nothing useful: the advantages are 0"), at a relative pronoun after the match ("of
normal size that mean nothing"), at an "or" just before it ("every time or never": another
alternative), and "without" at a subject pronoun ("without it you'd divide
by 0"). Negators inside a matched phrasing ("does not divide") belong to it. For a point that
is a denial, a verb of leaving out ("skips", "drops") denies too, and so does a relative
clause right after the match that denies it for someone ("..., which RLOO never does").

Works on normalised text (``practice.followup_text.normalise``); spans are (start, end)
character offsets in it. Never raises on a string.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["AFTER_WORDS", "CONTRAST_WORDS", "denied", "ellipsis_subject", "negated"]

_STRONG_NEGATORS = re.compile(
    r"\b(?:not|no(?! matter)|never|nothing|none|neither|nor|cannot|hardly)\b|n't\b|\bwon't\b"
)
_CONTRASTIVE = re.compile(r"\b(?:instead of|rather than|without|unlike|other than)\b")
_LEAVES_OUT = re.compile(r"\b(?:skip\w*|omit\w*|drop\w*|remov\w*|lack\w*|leaves? out)\b")
"""Verbs of leaving out: before a denial's phrasing they deny it ("RLOO skips the std")."""
_NEW_SUBJECT = re.compile(
    r"\b(?:and|or) (?:the|a|an|it|they|this|that|these|those|its|their|we|you|i)\b"
)
"""An "and" opening a new subject: a negator before it denies nothing after it."""
_ELLIPSIS = re.compile(
    r"[^.;:]{0,40}?,?\s*(?:which|and|but|something)\s+([\w'.]+(?: [\w'.]+)?)\s+"
    r"(?:never does|never did|does not|doesn't|did not|didn't|does no such)\b"
)
"""A relative clause that denies what precedes it for someone ("..., which RLOO doesn't")."""
_RELATIVE = re.compile(r"\b(?:that|which|who)\b")
"""A relative pronoun: a negator after it is in its own clause ("... that mean nothing")."""
_SUBJECT = re.compile(r"\b(?:you|we|they|i|he|she)(?:'\w+)?\b")
"""A subject pronoun: after "without it" it opens the main clause, which is not denied."""
AFTER_WORDS = 3
"""Words after a match within which a negator still denies it ("the mean is no longer ...")."""
CONTRAST_WORDS = 4
"""Words after a contrastive negator that it negates."""


def negated(sentence: str, clause: tuple[int, int], span: tuple[int, int], consumed) -> bool:
    """Whether the match at ``span`` is negated in its clause (negators in ``consumed``
    spans belong to a matched phrasing and do not count; a negator before an "and" that
    opens a new subject, "and the baseline ...", or a label's colon denies nothing after it,
    one after a relative pronoun nothing before it; "without" reaches no further than a
    subject pronoun: "without it you'd divide by 0")."""
    lo, hi = clause
    text = sentence[lo:hi]
    part = _and_part(sentence, clause, span[0])
    for m in _STRONG_NEGATORS.finditer(text):
        where = (lo + m.start(), lo + m.end())
        after = len(sentence[span[1] : where[0]].split())
        in_scope = where[0] < span[1] or (part[0] <= where[0] < part[1] and after <= AFTER_WORDS)
        if where[0] < span[0] and _NEW_SUBJECT.search(sentence, where[1], span[0]):
            in_scope = False  # "X isn't part of it and the baseline doesn't ...": a new subject
        if where[0] < span[0] and ":" in sentence[where[1] : span[0]]:
            in_scope = False  # "Nothing useful: the advantages are all 0": a label's negator
        if where[0] >= span[1] and _RELATIVE.search(sentence, span[1], where[0]):
            in_scope = False  # "advantages of normal size that mean nothing": another clause
        if where[0] >= span[1] and sentence[span[1] : where[0]].split() == ["or"]:
            in_scope = False  # "every time or never": the other alternative, not a denial
        if in_scope and not any(a <= where[0] and where[1] <= b for a, b in consumed):
            return True
    for m in _CONTRASTIVE.finditer(text):
        at = lo + m.end()
        reach = len(sentence[at : span[0]].split())
        if (
            at <= span[0]
            and reach <= CONTRAST_WORDS
            and not _SUBJECT.search(sentence, at, span[0])  # "without it, you'd divide ..."
            and not any(a <= lo + m.start() and at <= b for a, b in consumed)
        ):
            return True
    return False


def denied(sentence: str, clause, span, consumed, denial: bool) -> bool:
    """Whether the match is negated; for a point's denial a verb of leaving out ("skips",
    "drops", "omits", "lacks") before it in its clause denies it too (both: not denied)."""
    negator = negated(sentence, clause, span, consumed)
    left_out = denial and _LEAVES_OUT.search(sentence[clause[0] : span[0]]) is not None
    return negator != left_out  # "doesn't skip the std" divides by it


def _and_part(sentence: str, clause: tuple[int, int], at: int) -> tuple[int, int]:
    """(start, end) of the part of ``clause`` around ``at`` between two "and"s."""
    cuts = [clause[0]]
    cuts += [
        clause[0] + m.start() for m in re.finditer(r"\band\b", sentence[clause[0] : clause[1]])
    ]
    cuts.append(clause[1])
    return next(((a, b) for a, b in itertools.pairwise(cuts) if a <= at < b), clause)


def ellipsis_subject(sentence: str, span: tuple[int, int]) -> str | None:
    """Who a relative clause right after ``span`` denies it for, as typed: "GRPO divides by
    the std, which RLOO never does" gives "rloo"; None without such a clause."""
    m = _ELLIPSIS.match(sentence, span[1])
    return m.group(1) if m else None
