"""Who a key point's evidence is about: the actor a phrasing is bound to.

A key point may name who it is about (``KeyPoint.actor``) and who else an answer may name
instead (``rivals``): "RLOO … other K−1" earns RLOO's point, "GRPO … other K−1" does not.
A phrasing is bound to the nearest actor or rival named before it (or in it); a mention set
aside by a contrast or an absence ("unlike GRPO", "compared to PPO", "without a critic") is
not who the clause is about; an actor named in an aside right after a match binds it too
("the population std (numpy's default)").

Works on normalised text and its tokens (``practice.followup_text``); never raises on text.
"""

from __future__ import annotations

import re

from practice.followup_lexicon import expand
from practice.followup_phrase import find
from practice.followup_text import tokens
from practice.questions import KeyPoint

__all__ = ["actors_of", "bound_right", "named_after"]


def bound_right(actors: tuple[tuple[str, ...], tuple[str, ...]], toks, end: int) -> bool:
    """Whether the nearest actor or rival (``actors``: both, phrasings) named before a
    phrasing's ``end``, so before it or in it (the phrasing names the actor itself: "the
    std"), is an actor, or none is. A rival named inside an actor's phrasing ("without the
    std" for centring alone) is none, and so is a mention set aside by a contrast or an
    absence ("GRPO, unlike RLOO, uses all K"; "without a critic"). An actor joined with a
    rival into one subject ("RLOO and GRPO both ...") is not the actor alone."""
    actor, rivals = actors
    if not actor:
        return True
    named = [(s, True) for p in actor for s in find(p, toks)]
    named += [
        (s, False)
        for p in rivals
        for s in find(p, toks)
        if not any(a[0] <= s[0] and s[1] <= a[1] for a, _ in named)
    ]
    before = sorted(
        (span, is_actor)
        for span, is_actor in named
        if span[0] < end and not _set_aside(toks, span[0])
    )
    if not before:
        return True
    (span, is_actor), earlier = before[-1], before[:-1]
    return is_actor and not any(
        other != is_actor and _joined(toks, s, span) for s, other in earlier
    )


_JOINS = frozenset({"and", "&", ",", "/", "both", "or", "as", "well"})
"""Words that join two names into one subject ("RLOO and GRPO both ...")."""


def _joined(toks, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether only joining words stand between two mentions: one subject for both."""
    between = [t.word for t in toks if first[1] <= t.start and t.end <= second[0]]
    return bool(between) and all(w in _JOINS for w in between)


_ASIDE_WORDS = (
    ("unlike",),
    ("than",),
    ("compared", "to"),
    ("compared", "with"),
    ("opposed", "to"),
    ("instead", "of"),
    ("contrast", "to"),
    ("contrary", "to"),
    ("without",),
    ("no",),
    ("drop",),
    ("dropping",),
    ("dropped",),
    ("removing",),
    ("lacks",),
    ("lacking",),
    ("replacing",),
    ("replaces",),
    ("trades",),
    ("trading",),
    ("swaps",),
    ("swapping",),
)
"""Words before a mention that set it aside as a contrast or an absence ("unlike GRPO",
"compared to PPO", "without a critic", "trades the critic for sampling"): not who the clause
is about."""


def _set_aside(toks, at: int) -> bool:
    """Whether the mention starting at character ``at`` follows one of ``_ASIDE_WORDS``,
    an article, a possessive or one more word between them allowed ("without the critic",
    "no learned value function")."""
    i = next((k for k, t in enumerate(toks) if t.start >= at), len(toks))
    words = [t.word for t in toks[max(0, i - 4) : i]]
    if words and words[-1] in ("the", "a", "an", "its", "their"):
        words = words[:-1]
    return any(
        tuple(words[len(words) - len(w) - skip : len(words) - skip]) == w
        for w in _ASIDE_WORDS
        for skip in (0, 1)
        if len(words) >= len(w) + skip and words[-1].isalpha()
    )


_ASIDE = re.compile(
    r"(?:\s+[\w'-]+){0,2}?\s*(?:\(|,\s*(?:which|that) (?:is|are|was) )([^()]{0,40})"
)
"""An aside right after a match, up to two words on: "(numpy's default", ", which is numpy's"."""


def named_after(actors, sentence: str, span: tuple[int, int]) -> bool:
    """Whether an aside right after the match names an actor before any rival."""
    m = _ASIDE.match(sentence, span[1])
    if not m or not actors[0]:
        return False
    aside = tokens(m.group(1))
    return bound_right(actors, aside, len(m.group(1)) + 1) and any(
        find(p, aside) for p in actors[0]
    )


def actors_of(point: KeyPoint, needs) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(actor, rivals) of one of the point's needs (``or_actor`` for its or_needs)."""
    if needs is point.or_needs and point.or_actor:
        others = tuple(p for p in point.actor + point.rivals if p not in point.or_actor)
        return expand(point.or_actor), expand(others)
    return expand(point.actor), expand(point.rivals)
