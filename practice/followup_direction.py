"""Whether a key point's direction is bound to its subject, not to another one's.

A point such as "low-spread prompts get up-weighted" needs a subject ("low-spread") and a
direction (``@amplify``). An answer may name both and still bind them apart: "groups with a
small spread get their advantages shrunk, and groups with a big spread get amplified". A
direction is bound to a subject when no word of the opposite direction (``OPPOSITES``, a
concept of ``practice.followup_lexicon``), stated and not denied, stands nearer to that
subject in its clause.

Works on normalised text and its tokens; spans are (start, end) character offsets. Never
raises on text.
"""

from __future__ import annotations

import functools

from practice.followup_lexicon import CONCEPTS
from practice.followup_phrase import find

__all__ = ["OPPOSITES", "misdirected"]

OPPOSITES = {
    "amplify": "attenuate",
    "attenuate": "amplify",
    "lenient": "harsh",
    "harsh": "lenient",
}
"""A direction concept and its opposite."""


def _decides(subject: tuple[int, int], directions, clause_of) -> tuple[int, int] | None:
    """The direction match that binds to ``subject``: the nearest one in its clause; else
    the first after it in the sentence ("groups with a small spread, say one wrong answer
    in sixteen, get shrunk"); else the nearest before it."""
    mine = [d for d in directions if clause_of(d[0]) == clause_of(subject[0])]
    if mine:
        return min(mine, key=lambda d: max(d[0] - subject[1], subject[0] - d[1]))
    after = [d for d in directions if d[0] >= subject[1]]
    if after:
        return min(after)
    before = [d for d in directions if d[1] <= subject[0]]
    return max(before, key=lambda d: d[1]) if before else None


@functools.cache
def _directions(needs) -> tuple[tuple[int, str], ...]:
    """(group index, concept) of each direction concept a point's groups name."""
    return tuple(
        (g, p[1:])
        for g, group in enumerate(needs)
        for p in group
        if p[1:] in OPPOSITES and p[0] == "@"
    )


def misdirected(needs, chosen, toks, clause_of, negated) -> bool:
    """Whether a subject of the point is bound to a direction opposite to the point's.

    ``needs``: the point's concept groups; ``chosen``: one span per group; ``clause_of``:
    the (start, end) clause of a character offset; ``negated(span)``: whether a match is
    denied where it stands (a denied direction binds nothing)."""
    for g, name in _directions(needs):
        found = {s for p in CONCEPTS[OPPOSITES[name]] for s in find(p, toks) if not negated(s)}
        if any(s[0] <= chosen[g][0] and chosen[g][1] <= s[1] for s in found):
            return True  # the direction's words inside an opposite one: "reduces the weight"
        opposite = {s for s in found if not any(s[0] < c[1] and c[0] < s[1] for c in chosen)}
        directions = sorted(opposite | {chosen[g]})
        for k, subject in enumerate(chosen):
            if k != g and _decides(subject, directions, clause_of) in opposite:
                return True
    return False
