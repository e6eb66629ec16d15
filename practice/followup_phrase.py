"""A key point's phrasing as a token pattern, and where it occurs in an answer.

Phrasing syntax (lower case): words and symbols as typed, compared as tokens
(``practice.followup_text``: stems, one spelling of symbols and numbers); ``*`` ends a word
with any ending (``rescal*``); ``..`` stands for up to ``GAP_WORDS`` words (``divid* .. std``);
an article inside a phrasing is optional on either side ("without eps" matches "without the
eps"), but not its first or last word; a subscripted statistic is also the statistic ("mean"
matches "mean_g"); a leading ``!`` (a phrasing that stands whether denied or not) is not part
of the pattern. Never raises on text.
"""

from __future__ import annotations

import bisect
import functools
import re

from practice.followup_text import Token, american, normalise, tokens

__all__ = ["ARTICLES", "GAP_WORDS", "compile_phrase", "find"]

ARTICLES = frozenset({"a", "an", "the"})
"""Words a phrasing may have or leave out inside it (not as its first or last word)."""
GAP_WORDS = 4
"""How many words ``..`` in a phrasing stands for, at most."""

_GAP, _STAR = "zzgap", "zzstar"


@functools.lru_cache(maxsize=8192)
def compile_phrase(phrase: str) -> tuple[tuple[str, str], ...]:
    """A phrasing as items: ("key", stem), ("prefix", American-spelled prefix), ("gap", "")."""
    marked = re.sub(r"(?<=\w)\*", _STAR, normalise(phrase).replace("..", f" {_GAP} "))
    items: list[tuple[str, str]] = []
    for token in tokens(marked):
        if token.word == _GAP:
            items.append(("gap", ""))
        elif token.word.endswith(_STAR):
            prefix = re.sub(r"(?<=\w{3})is$", "iz", american(token.word.removesuffix(_STAR)))
            items.append(("prefix", re.sub(r"(?<=\w{2})our$", "or", prefix)))
        else:
            items.append(("key", token.key))
    return tuple(items)


def _base(key: str) -> str | None:
    """The statistic a subscripted one is ("mean" of "mean_g", "std" of "std_batch")."""
    base, _, sub = key.partition("_")
    return base if sub and base in ("mean", "std") else None


def _ends(items, toks: tuple[Token, ...], at: int, i: int = 0):
    """Every token index where ``items[i:]`` matched from token ``at`` ends. Inside a
    phrasing (not before its first word) an article is optional on either side: "without
    eps" matches "without the eps", "divide by the std" matches "divide by std"; a phrasing's
    last article is its meaning ("subtract* a" is not "subtract*")."""
    if i == len(items):
        yield at
        return
    kind, value = items[i]
    if kind == "gap":
        for skip in range(GAP_WORDS + 1):
            if at + skip > len(toks):
                break
            yield from _ends(items, toks, at + skip, i + 1)
        return
    if 0 < i < len(items) - 1 and kind == "key" and value in ARTICLES:
        yield from _ends(items, toks, at, i + 1)  # the phrasing's article, left out
    if at < len(toks):
        token = toks[at]
        if (kind == "key" and value in (token.key, _base(token.key))) or (
            kind == "prefix" and token.word.startswith(value)
        ):
            yield from _ends(items, toks, at + 1, i + 1)
        elif (
            i > 0 and token.key in ARTICLES and at + 1 < len(toks) and toks[at + 1].key[0].isalpha()
        ):
            yield from _ends(items, toks, at + 1, i)  # an article the phrasing leaves out


@functools.lru_cache(maxsize=256)
def _positions(toks: tuple[Token, ...]) -> dict[str, list[int]]:
    """Where each key (and each subscripted statistic's base, "mean" of "mean_g") occurs."""
    at: dict[str, list[int]] = {}
    for i, t in enumerate(toks):
        at.setdefault(t.key, []).append(i)
        base = _base(t.key)
        if base:
            at.setdefault(base, []).append(i)
    return at


@functools.lru_cache(maxsize=256)
def _words(toks: tuple[Token, ...]) -> tuple[list[str], list[int]]:
    """The tokens' words in sorted order, and the index of each (a prefix's words are
    neighbours there)."""
    pairs = sorted((t.word, i) for i, t in enumerate(toks))
    return [w for w, _ in pairs], [i for _, i in pairs]


def _first_positions(item: tuple[str, str], toks: tuple[Token, ...]):
    """The token indexes where a phrasing's first item can match."""
    kind, value = item
    if kind == "key":
        return _positions(toks).get(value, ())
    words, where = _words(toks)
    lo = bisect.bisect_left(words, value)
    hi = bisect.bisect_left(words, value + "\U0010ffff", lo)
    return where[lo:hi]


def find(phrase: str, toks: tuple[Token, ...]) -> list[tuple[int, int]]:
    """(start, end) in the normalised text of every match of ``phrase`` in ``toks``."""
    items = compile_phrase(phrase.removeprefix("!"))
    if not items or items[0][0] == "gap":
        return []
    spans = set()
    for at in _first_positions(items[0], toks):
        for end in _ends(items, toks, at):
            if end > at and not _cut_term(toks, end):
                spans.add((toks[at].start, toks[end - 1].end))
    return sorted(spans)


def _cut_term(toks: tuple[Token, ...], end: int) -> bool:
    """Whether a match ending before token ``end`` cuts a term short: "divides by k" is not
    in "divides by k-1" (a minus and a number touching what came before)."""
    if end + 1 >= len(toks) or toks[end].key != "-":
        return False
    minus, number = toks[end], toks[end + 1]
    return (
        toks[end - 1].end == minus.start and minus.end == number.start and number.key[0].isdigit()
    )
