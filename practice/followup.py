"""Which key points a typed follow-up answer makes: concepts, and the relation between them.

A key point of the bank (``practice.questions.KeyPoint``) lists what earns it: ``needs``,
a tuple of concept groups, each a tuple of phrasings. The point is made when one sentence
(or, for ``within = "clause"``, one clause) holds a phrasing of every group, and

- no phrasing is negated: a negator ("not", "no", "never", "n't", ...) elsewhere in its
  clause, or a contrastive one ("instead of", "rather than", "without", "unlike") just
  before it, cancels it, unless the negator is part of a matched phrasing ("does not
  divide", "no longer inflated");
- the phrasings are related, not listed: a sentence that is a list (short comma-separated
  items, or words with no function word between them) earns nothing, and neither do
  phrasings separated only by list glue (", ", "and", "/", ...).

Phrasing syntax (lower case): words and symbols as typed; ``*`` ends a word with any ending
(``rescal*``); ``..`` stands for up to four words (``divid* .. std``). Spaces around
``= / ( ) | + - ^`` do not matter ("ddof=1" is "ddof = 1"). Never evaluates anything,
never raises on text; reads at most ``MAX_FOLLOWUP_CHARS`` characters.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass

from practice.questions import KeyPoint

MAX_FOLLOWUP_CHARS = 4000
"""The longest typed follow-up answer read (the answer field keeps up to this many)."""

WITHIN = ("sentence", "clause")
"""Where all of a key point's concepts must be found together."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_ABBREVIATIONS = re.compile(r"\b(dr|e\.g|i\.e|vs|approx|etc|cf)\.", re.IGNORECASE)
_CLAUSE_SPLIT = re.compile(
    r"[,;:()\u2014\u2013]|\s-\s|\b(?:but|whereas|while|although|though|however|so|which)\b"
)
_OPERATORS = re.compile(r"\s*([=/()|+^\-])\s*")
_STRONG_NEGATORS = re.compile(
    r"\b(?:not|no|never|nothing|none|neither|nor|cannot|hardly)\b|n't\b|\bwon't\b"
)
_CONTRASTIVE = re.compile(r"\b(?:instead of|rather than|without|unlike|other than)\b")
_CONTRAST_WORDS = 4
"""Words after a contrastive negator that it negates."""
_GLUE = frozenset(
    {
        "",
        ",",
        ";",
        "/",
        "&",
        "and",
        "or",
        "the",
        "a",
        "an",
        "plus",
        "also",
        "as",
        "well",
        "vs",
        "versus",
        "-",
        "·",
        "etc",
        "its",
        "their",
        "then",
    }
)
_FUNCTION_WORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "be",
        "of",
        "to",
        "by",
        "so",
        "that",
        "it",
        "its",
        "each",
        "every",
        "with",
        "and",
        "in",
        "on",
        "for",
        "as",
        "this",
        "which",
        "than",
        "when",
        "gets",
        "get",
        "has",
        "have",
        "you",
        "we",
        "they",
        "from",
        "into",
        "over",
        "per",
        "at",
        "then",
        "their",
        "them",
        "does",
        "do",
        "can",
        "will",
        "would",
        "instead",
        "only",
        "just",
        "still",
        "because",
        "since",
        "more",
        "less",
        "no",
        "not",
    }
)


@dataclass(frozen=True)
class PointMatch:
    """How one key point was earned, or not."""

    hit: bool
    quote: str = ""
    """The sentence of the answer that earned it, as typed (cut to 300 characters)."""
    words: tuple[str, ...] = ()
    """The phrasing found for each concept group, in the answer's (normalised) words."""


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {type(value).__name__}.")
    return value


def normalise(text: str) -> str:
    """Lower case, NFKC, one kind of dash and apostrophe, no spaces around operators."""
    text = _text(text)
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("\u2019", "'").replace("\u2212", "-").replace("\u2011", "-")
    text = _OPERATORS.sub(r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=4096)
def phrase_pattern(phrase: str) -> re.Pattern:
    """The regular expression of one phrasing (see the module docstring for the syntax)."""
    parts = []
    for token in normalise(_text(phrase)).split(" "):
        if token == "..":
            parts.append(r"(?:\S+\s){0,4}")
            continue
        escaped = re.escape(token.rstrip("*")) + (r"[\w'\-]*" if token.endswith("*") else "")
        parts.append(escaped + r"\s?")
    body = "".join(parts)
    body = body[: -len(r"\s?")] if body.endswith(r"\s?") else body
    start = r"(?<![\w])" if re.match(r"\w", phrase.strip()) else ""
    end = r"(?![\w])" if re.search(r"\w$", phrase.strip()) else ""
    return re.compile(start + body + end)


def sentences(answer: str) -> list[str]:
    """The answer cut into sentences, as typed ("Dr." and "e.g." do not end one)."""
    protected = _ABBREVIATIONS.sub(lambda m: m.group(1) + "\x00", _text(answer))
    parts = _SENTENCE_END.split(protected)
    cut = (_BULLET.sub("", p.replace("\x00", ".")).strip() for p in parts if p)
    return [p for p in cut if p]


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of a normalised sentence."""
    bounds, start = [], 0
    for m in _CLAUSE_SPLIT.finditer(sentence):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(sentence)))
    return bounds


def is_list(sentence: str) -> bool:
    """A normalised sentence that lists terms instead of relating them.

    Three or more comma/semicolon items averaging under 4.5 words, or three or more
    words without a single function word ("the", "is", "by", ...).
    """
    _text(sentence)
    items = [i for i in re.split(r"[,;]|\s/\s", sentence) if i.strip()]
    words = sentence.split()
    if len(items) >= 3 and len(words) / len(items) < 4.5:
        return True
    return len(words) >= 3 and not any(w.strip(".,;:") in _FUNCTION_WORDS for w in words)


def _negated(sentence: str, clause: tuple[int, int], span: tuple[int, int], consumed) -> bool:
    """Whether the match at ``span`` is negated in its clause (negators in ``consumed``
    spans belong to a matched phrasing and do not count)."""
    lo, hi = clause
    text = sentence[lo:hi]
    for m in _STRONG_NEGATORS.finditer(text):
        where = (lo + m.start(), lo + m.end())
        if not any(a <= where[0] and where[1] <= b for a, b in consumed):
            return True
    for m in _CONTRASTIVE.finditer(text):
        at = lo + m.end()
        reach = len(sentence[at : span[0]].split())
        if (
            at <= span[0]
            and reach <= _CONTRAST_WORDS
            and not any(a <= lo + m.start() and at <= b for a, b in consumed)
        ):
            return True
    return False


def _glue_only(sentence: str, spans: list[tuple[int, int]]) -> bool:
    """Whether the matches are listed: every gap between consecutive ones is list glue
    with a separator (", the", "; ", " / "); "X and Y" alone is not a list."""
    ordered = sorted(spans)
    gaps = [sentence[a[1] : b[0]] for a, b in itertools.pairwise(ordered)]
    gaps = [g for g in gaps if g.strip()]  # adjacent or overlapping: a compound, not a list
    if not gaps or not any(re.search(r"[,;/]", g) for g in gaps):
        return False
    return all(all(w in _GLUE for w in re.split(r"[\s,;/]+", g.strip())) for g in gaps)


def _match_point(point: KeyPoint, answer_sentences: list[str]) -> PointMatch:
    """Whether ``point`` is made in one of the sentences (by its needs or its or_needs)."""
    for original in answer_sentences:
        sentence = normalise(original)
        if is_list(sentence):
            continue
        for needs in (point.needs, point.or_needs):
            words = _related(needs, sentence, point.within) if needs else None
            if words is not None:
                quote = original if len(original) <= 300 else original[:299] + "…"
                return PointMatch(True, quote, words)
    return PointMatch(False)


def _related(needs, sentence: str, within: str) -> tuple[str, ...] | None:
    """The phrasing found for each concept group, together in one scope of the normalised
    ``sentence``, none negated and not merely listed; None when there is no such set."""
    found = [[m for p in group for m in phrase_pattern(p).finditer(sentence)] for group in needs]
    if not all(found):
        return None
    clauses = _clauses(sentence)
    consumed = [m.span() for group in found for m in group]
    for scope in clauses if within == "clause" else [(0, len(sentence))]:
        chosen = []
        for group in found:
            ok = [
                m
                for m in group
                if scope[0] <= m.start()
                and m.end() <= scope[1]
                and not _negated(sentence, _clause_of(clauses, m.start()), m.span(), consumed)
            ]
            if not ok:
                break
            chosen.append(ok[0])
        else:
            if not _glue_only(sentence, [m.span() for m in chosen]):
                return tuple(m.group(0) for m in chosen)
    return None


def _clause_of(clauses: list[tuple[int, int]], at: int) -> tuple[int, int]:
    return next((c for c in clauses if c[0] <= at <= c[1]), clauses[-1])


def match_points(points: tuple[KeyPoint, ...], answer) -> tuple[PointMatch, ...]:
    """One ``PointMatch`` per key point, in order; all missed for anything but text.

    Reads the first ``MAX_FOLLOWUP_CHARS`` characters of ``answer``. ValueError if
    ``points`` is not a tuple of ``KeyPoint`` (a caller's error).
    """
    if not isinstance(points, tuple) or not all(isinstance(p, KeyPoint) for p in points):
        raise ValueError("points must be a tuple of KeyPoint records.")
    if not isinstance(answer, str):
        return tuple(PointMatch(False) for _ in points)
    cut = sentences(answer[:MAX_FOLLOWUP_CHARS])
    return tuple(_match_point(p, cut) for p in points)
