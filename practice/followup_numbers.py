"""Whether a number an answer attaches to a key point's evidence is one the point states.

A key point that states a quantity ("float32 has ~7 significant digits; spacing 0.0625 near
1e6") is not made by its words next to another number: "float32 keeps about 16 significant
digits" names the right concept with a wrong value. A number *quantifies* a matched phrasing
when it comes right before it, at most ``BEFORE_WORDS`` content words apart ("16 significant
digits"), or after it through one or more linking words ("spacing of about 0.1", "the ratio
is 1.22"; in "can't resolve 0.001" the number is what is lost, not how much). Such a number
must be within ``TOLERANCE`` of a number the point states (in its text or its phrasings), or
of the same order as a stated power of ten; numbers inside a formula ("2^-23", "K/(K-1)",
"1/eps") are terms, not values, and are never compared.

Works on tokens (``practice.followup_text.Token``); never raises on text.
"""

from __future__ import annotations

import math
import re

from practice.followup_text import Token, normalise, tokens

__all__ = ["BEFORE_WORDS", "ORDER", "TOLERANCE", "misquantified", "quantities", "stated"]

BEFORE_WORDS = 2
"""Content words that may stand between a number and the phrasing it quantifies."""
TOLERANCE = 0.15
"""How far (relative) a value may be from a stated one and still be that value ("6-7 digits")."""

ORDER = 3
"""How many times off a stated power of ten a value may be and still be that order."""

_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e-?\d+)?")
_FORMULA = frozenset("^ / ( ) * + - = sqrt".split())  # noqa: SIM905
"""Neighbours that make a number a term of a formula."""
_LINKS = frozenset(
    """of is are be was were about around roughly approximately only just like ~ ≈ : = at
    some nearly almost maybe circa""".split()  # noqa: SIM905
)
"""Words between a phrasing and the number after it that quantifies it ("spacing is about 0.1")."""
_NOT_CONTENT = frozenset(
    """the a an is are was were be to of and or in on at by for with than that this it its
    their from as so but not no which when while whereas only just about around roughly""".split()  # noqa: SIM905
)
"""Words that end the short run of content words between a number and what it counts."""


def _value(key: str) -> float | None:
    return float(key) if _NUMBER.fullmatch(key) else None


def quantities(toks: tuple[Token, ...]) -> list[tuple[int, float]]:
    """(token index, value) of every number of ``toks`` that is not a term of a formula."""
    out = []
    for i, t in enumerate(toks):
        value = _value(t.key)
        if value is None:
            continue
        around = {toks[j].key for j in (i - 1, i + 1) if 0 <= j < len(toks)}
        if not around & _FORMULA:
            out.append((i, value))
    return out


def stated(texts: tuple[str, ...]) -> frozenset[float]:
    """Every value the texts state (a point's text and its phrasings), formulas left out."""
    return frozenset(v for text in texts for _, v in quantities(tokens(normalise(text))))


def _agrees(value: float, values: frozenset[float]) -> bool:
    """Within ``TOLERANCE`` of a stated value; a stated power of ten is an order of
    magnitude ("1e-7"), met by any value less than ``ORDER`` times off it ("1.19e-7")."""
    return any(
        abs(value - v) <= TOLERANCE * abs(v)
        or (v > 0 and value > 0 and math.log10(v).is_integer() and 1 / ORDER < value / v < ORDER)
        for v in values
    )


def misquantified(toks: tuple[Token, ...], span: tuple[int, int], values) -> bool:
    """Whether a number quantifying the match at ``span`` (character offsets in the
    normalised text of ``toks``) is none of ``values`` (a point's stated values). A point
    that states no value is never misquantified."""
    if not values:
        return False
    inside = [i for i, t in enumerate(toks) if span[0] <= t.start and t.end <= span[1]]
    if not inside:
        return False
    numbers = dict(quantities(toks))
    first, last = inside[0], inside[-1]
    attached = []
    j = first - 1
    while j >= 0 and first - j <= BEFORE_WORDS + 1:
        if j in numbers:
            attached.append(numbers[j])
            break
        if toks[j].word in _NOT_CONTENT or not toks[j].word[0].isalpha():
            break
        j -= 1
    j = last + 1
    while j < len(toks) and j - last <= 3:
        if j in numbers and j > last + 1:
            attached.append(numbers[j])
            break
        if toks[j].word not in _LINKS:
            break
        j += 1
    return any(not _agrees(v, values) for v in attached)
