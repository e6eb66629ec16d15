"""The items of a listed sentence that still relate their words.

A sentence that lists terms ("std, scale, z-score, eps") earns no key point
(``practice.followup.is_list``). Notes written as a list often hold relations in some of
their items, though: "K rollouts, scalar rewards, A_i = (R_i - mean)/(std + eps), same A_i
for every token of answer i". An item relates its words when it is an equation or has a
word that does more than join a noun phrase: a verb's helper, a pronoun or a preposition of
relation ("for", "to", "from", "in"), not only "the", "of", "per", "all", "and".
A point may then be made inside one such item, never across two.

Never raises on a string.
"""

from __future__ import annotations

import re

__all__ = ["ITEM_SPLIT", "LABELLED_ITEMS", "NOUN_GLUE", "labelled_items", "list_items", "relates"]

ITEM_SPLIT = re.compile(r"[,;]|->|=>|\s\*\s|\s\u2014\s")
"""What separates the items of a normalised list: commas, semicolons, arrows, bullets and
dashes (a slash or a hyphen is part of a term there: ``normalise`` drops the spaces
around them)."""

NOUN_GLUE = frozenset(
    """the a an of per all and or vs versus its their each every own same other more less
    most two both any some""".split()  # noqa: SIM905
)
"""Function words that only join a noun phrase ("the std of all rewards"): they relate nothing."""

MIN_ITEM_WORDS = 3
"""An item of fewer words ("noisy baseline") names a term; it does not relate two."""


def list_items(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each item of a normalised listed sentence, in order."""
    if not isinstance(sentence, str):
        raise ValueError(f"expected text, got {type(sentence).__name__}.")
    bounds, start = [], 0
    for m in ITEM_SPLIT.finditer(sentence):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(sentence)))
    return [(a, b) for a, b in bounds if sentence[a:b].strip()]


def relates(item: str, function_words: frozenset[str], is_list) -> bool:
    """Whether one normalised item relates its words: an equation, or at least
    ``MIN_ITEM_WORDS`` words, one of them a function word outside ``NOUN_GLUE``, and not
    itself a list (``is_list``)."""
    if "=" in item:
        return True
    words = [w.strip(".,;:()") for w in item.split()]
    relating = function_words - NOUN_GLUE
    return len(words) >= MIN_ITEM_WORDS and any(w in relating for w in words) and not is_list(item)


_LABEL = re.compile(r"^\s*([^:,;()]+?):\s+(?=\S)")
"""A list's label: a few words and a colon before its first item ("lost: ...")."""


LABELLED_ITEMS = 4
"""A labelled list of at most this many items is read item by item with its label; a longer
one is a string of keywords under a heading ("group vs batch: std, variance, robust, ...")."""


def labelled_items(sentence: str, head_words: int) -> list[str]:
    """Each item of a short labelled list read with its label ("lost: per-token credit,
    bootstrapping" gives "lost: per-token credit" and "lost: bootstrapping"): the label
    says what every item is. Empty when the list has no label of at most ``head_words``
    words, or more than ``LABELLED_ITEMS`` items."""
    if not isinstance(sentence, str):
        raise ValueError(f"expected text, got {type(sentence).__name__}.")
    m = _LABEL.match(sentence)
    if not m or len(m.group(1).split()) > head_words:
        return []
    rest = sentence[m.end() :]
    items = list_items(rest)
    if len(items) > LABELLED_ITEMS:
        return []
    return [f"{m.group(1)}: {rest[a:b].strip()}" for a, b in items]
