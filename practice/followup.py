"""Which key points a typed follow-up answer makes: who does what, related, not denied.

A key point of the bank (``practice.questions.KeyPoint``) lists what earns it: ``needs``,
a tuple of concept groups, each a tuple of phrasings (or ``or_needs``, another such tuple),
and optionally who it is about: ``actor`` and its ``rivals`` (phrasings), and ``negated``.
The point is made when one sentence (for ``within = "clause"``, one clause; for a sentence
point, else two adjacent sentences read as one) holds a phrasing of every group, and

- the phrasings are compared as tokens (``practice.followup_text``): stems, one spelling of
  symbols, numbers and formulas ("biases" is "bias", "K minus one" is "K-1", "(4/3)^0.5"
  is "√(4/3)");
- no phrasing is negated (``practice.followup_negation``: a negator before it in its
  clause or just after it, a contrastive "without"/"instead of" just before it, unless the
  negator is part of a matched phrasing, "does not divide"). With ``negated = true`` the
  last group must be denied instead (or follow a verb of leaving out, "skips", or be
  denied for the actor by the clause after it, "..., which RLOO never does"): the point is
  a denial ("RLOO does *not* divide by the std"); its ``or_needs`` says it positively of
  its ``or_actor``, the rival that does it ("GRPO then divides by the std");
- the direction holds: with ``actor``, the nearest actor or rival named before (or in)
  each group's phrasing must be an actor ("RLOO … other K−1" earns RLOO's point, "GRPO … other
  K−1" does not); an answer that names neither is read as about the question's subject.
  ``or_actor`` names who ``or_needs`` is about when that is another actor (the point's
  other half: "numpy defaults to ddof 0, torch to ddof 1");
- each group's phrasing is its own words (two groups never share a word; every choice of
  one phrasing per group is tried, up to ``MAX_CHOICES``);
- the scope does not state the point's contrary: a phrasing of ``unless`` (a swapped
  relation, "the batch mean" for "centring stays per group"), not negated, voids it there;
- the phrasings are related, not listed: a sentence that is a list (short comma-separated
  items, or words with no function word between them) earns a point only inside one of its
  items that relates its words (``practice.followup_items``: "A_i = (R_i - mean)/std",
  "same A_i for every token"), and phrasings separated only by list glue (", ", "and",
  "/", ...) earn nothing.

Phrasing syntax (lower case): words and symbols as typed; ``*`` ends a word with any ending
(``rescal*``); ``..`` stands for up to four words (``divid* .. std``); an article inside a
phrasing is optional on either side; ``@name`` stands for every phrasing of a concept of
``practice.followup_lexicon`` ("@amplify"); a leading ``!`` makes a phrasing stand whether
denied or not ("!0/0": "eps, so no 0/0" still names the hazard eps prevents). An actor
named in an aside right after a match binds it too ("the population std (numpy's default)").
Never evaluates anything, never raises on text; reads at most ``MAX_FOLLOWUP_CHARS``
characters.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from practice.followup_actors import actors_of, bound_right, named_after
from practice.followup_direction import misdirected
from practice.followup_items import NOUN_GLUE, labelled_items, list_items, relates
from practice.followup_lexicon import expand
from practice.followup_negation import denied, ellipsis_subject, negated
from practice.followup_numbers import misquantified, stated
from practice.followup_phrase import find
from practice.followup_text import normalise, tokens
from practice.questions import KeyPoint

__all__ = ["MAX_FOLLOWUP_CHARS", "WITHIN", "PointMatch", "is_list", "match_points", "normalise"]

MAX_FOLLOWUP_CHARS = 4000
"""The longest typed follow-up answer read (the answer field keeps up to this many)."""

WITHIN = ("sentence", "clause")
"""Where all of a key point's concepts must be found together."""

PAIR_WORDS = 2
"""Two adjacent sentences are read as one only when each has at least this many words."""
HEAD_WORDS = 3
"""A colon after at most this many words labels what follows ("std: whole batch")."""
LONG_LIST, LONG_LIST_ITEM_WORDS = 6, 4
"""In a list of this many items or more (a string of keywords), an item relates its words
only with at least this many words and a verb, or as an equation ("broadcast to tokens" or
"resampling of the zero advantage groups for the batch" there is one more keyword)."""
MAX_CHOICES = 64
"""How many choices of one phrasing per concept group are tried in one scope, at most (a
long answer repeating its words cannot make the grader slow)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_STEP_NUMBER = re.compile(r"\(?\d+[.)]")
_ABBREVIATIONS = re.compile(r"\b(dr|e\.g|i\.e|vs|approx|etc|cf|np)\.", re.IGNORECASE)
_CLAUSE_SPLIT = re.compile(
    r"[,;:()\u2014\u2013]|[.!?]\s|\s-\s|->|=>|\b(?:but|whereas|while|although|though|however|so|which|because)\b"
)
_PARTICIPLE = re.compile(r"\s*(?:computed|calculated|taken|measured|estimated|averaged|pooled)\b")
"""A participle opening a phrase that describes the clause before it, not a new clause."""
_FORMULA_PARENS = re.compile(r"\([^()\s]*\)")
"""Parentheses around no space: part of a formula ("(r-mean_g)/std"), not an aside."""
_FUNCTION_SHARE, _SHARE_WORDS = 0.15, 10
"""A sentence of at least 10 words, under 15 % of them function words, is a list."""
_CONNECTIVES = frozenset(
    "so but which because since then while whereas thus hence if otherwise when unless".split()  # noqa: SIM905
)
"""Words that open a clause of its own after a comma."""
_VERBS = frozenset(
    """get gets is are was were has have had does do did can will would should could may
    might must""".split()  # noqa: SIM905
)
"""Function words that are verbs: an item they open does something."""
RELATION_SIGNS = ("=", "->", "∝", "≈", "<", ">")
"""Signs that relate the terms on their two sides: a sentence with one is no list."""
_GLUE = frozenset(
    ", ; / & and or the a an plus also as well vs versus - · etc its their then".split()  # noqa: SIM905
) | {""}
_FUNCTION_WORDS = frozenset(
    """the a an is are was be of to by so that it its each every with and in on for as this
    which than when gets get has have you we they from into over per at then their them does
    do can will would instead only just still because since more less no not via from
    using through under after before if or but vs versus those these two both what who
    how why where there here all any some most much many such same other own about between
    without within out up down off again once very too also i me my our your his her it's
    that's is isn't are aren't was were been being had did doesn't don't didn't should could
    may might must shall remains remain stays stay becomes become keeps goes turns i'm you're
    we're they're there's i'd you'd we'd i've you've nothing everything something
    anything""".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class PointMatch:
    """How one key point was earned, or not."""

    hit: bool
    quote: str = ""
    """The sentence(s) of the answer that earned it, as typed (cut to 300 characters)."""
    words: tuple[str, ...] = ()
    """The phrasing found for each concept group, in the answer's (normalised) words."""


# --- sentences, clauses, lists, negation -------------------------------------------------------


def sentences(answer: str) -> list[str]:
    """The answer cut into sentences, as typed ("Dr." and "e.g." do not end one; a step's
    number, "1." or "2)", is none: the steps around it stay adjacent)."""
    if not isinstance(answer, str):
        raise ValueError(f"expected text, got {type(answer).__name__}.")
    protected = _ABBREVIATIONS.sub(lambda m: m.group(1) + "\x00", answer)
    parts = _SENTENCE_END.split(protected)
    cut = (_BULLET.sub("", p.replace("\x00", ".")).strip() for p in parts if p)
    return [p for p in cut if p and not _STEP_NUMBER.fullmatch(p)]


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of a normalised sentence. A colon after a head of at
    most ``HEAD_WORDS`` words ("mean: still per group", a note's label) does not end one,
    nor do the parentheses of a formula ("(r-mean_g)/std_batch"), nor a comma before a
    participle that describes what came before ("..., computed over the group")."""
    bounds, start = [], 0
    formula = {i for m in _FORMULA_PARENS.finditer(sentence) for i in (m.start(), m.end() - 1)}
    for m in _CLAUSE_SPLIT.finditer(sentence):
        if m.group(0) == ":" and len(sentence[start : m.start()].split()) <= HEAD_WORDS:
            continue
        if m.start() in formula:  # "(r-mean_g)" is a term of a formula, not an aside
            continue
        if m.group(0) == "," and _PARTICIPLE.match(sentence, m.end()):
            continue  # "A = (r - mean)/std, computed over that prompt's answers" goes on
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(sentence)))
    return bounds


def _clause_of(clauses: list[tuple[int, int]], at: int) -> tuple[int, int]:
    return next((c for c in clauses if c[0] <= at <= c[1]), clauses[-1])


def _acts(item: list[str]) -> bool:
    """Whether a comma item does something ("reward them", "broadcast to tokens"): two or
    more words, the first not a function word (or a verb: "get the rewards"), another one a
    function word that does more than join a noun phrase ("Dr. GRPO and eps" does nothing);
    a subject and its verb ("the long one is penalised"); or three or
    more opened by a connective ("so no reward signal") or by "and"/"or" and a word that
    is no noun phrase's ("and they waste compute", not "and the std versus the mean")."""
    words = [w.strip(".,;:()") for w in item]
    if len(words) >= 2 and words[0] in _VERBS:
        return True  # "get the rewards", "is the std": a verb, though a function word
    if len(words) >= 3 and any(w in _VERBS for w in words[1:]):
        return True  # "the long one is penalised less": a subject and its verb
    if len(words) >= 3 and words[0] in _CONNECTIVES:
        return True  # "so no reward signal": a clause of its own
    if len(words) >= 3 and words[0] in ("and", "or") and words[1] in _FUNCTION_WORDS - NOUN_GLUE:
        return True  # "and they waste compute", not "and the std"
    return (
        len(words) >= 2
        and words[0] not in _FUNCTION_WORDS
        and any(w in _FUNCTION_WORDS - NOUN_GLUE for w in words[1:])
    )


def is_list(sentence: str) -> bool:
    """A normalised sentence that lists terms instead of relating them.

    Three or more comma/semicolon items averaging under 4.5 words, over two thirds of them not
    doing anything (a noun phrase, not "reward them" or "broadcast to tokens"); five or more
    items, also cut at "and"/"or", averaging under 4 ("the std and the group size and the eps");
    ten or more words, under 15 % of them function words ("the", "is", "by", ...); or three
    to nine words without one (not an equation: "A = (r - mean_g)/std_batch" relates its
    terms). Parenthesised asides are left out.
    """
    if not isinstance(sentence, str):
        raise ValueError(f"expected text, got {type(sentence).__name__}.")
    bare = re.sub(r"\([^()]*\)", " ", re.sub(r"\([^()]*\)", " ", sentence))  # asides out
    items = [i.split() for i in re.split(r"[,;]|\s/\s", bare) if i.strip()]
    words = bare.split()
    acting = sum(_acts(item) for item in items)
    if len(items) >= 3 and len(words) / len(items) < 4.5 and 3 * acting < len(items):
        return True
    chained = [i for i in re.split(r"[,;]|\s/\s|\b(?:and|or)\b", bare) if i.strip()]
    joins = len(re.findall(r"\b(?:and|or)\b", bare))
    if joins >= 2 and len(chained) >= 5 and len(words) / len(chained) < 4.0:
        return True
    if any(sign in bare for sign in RELATION_SIGNS):
        return False  # an equation or an arrow relates its terms itself, function words or not
    if len(items) == 1 and _aside_relates(sentence):
        return False  # "token-level credit (A is constant over the response)": the aside says it
    function = sum(w.strip(".,;:") in _FUNCTION_WORDS for w in words)
    if len(words) >= _SHARE_WORDS:
        return function < _FUNCTION_SHARE * len(words)
    return len(words) >= 3 and not function


def _aside_relates(sentence: str) -> bool:
    """Whether a parenthesised aside of the sentence has a verb of its own ("(A is
    constant over the response)")."""
    return any(
        any(w.strip(".,;:") in _VERBS for w in m.group(1).split()[1:])
        for m in re.finditer(r"\(([^()]*)\)", sentence)
    )


def _glue_only(sentence: str, spans: list[tuple[int, int]]) -> bool:
    """Whether three or more matches are listed: every gap between consecutive ones is
    list glue, one with a separator (", the", "; ", " / "); "X, Y" alone is not a list."""
    ordered = sorted(spans)
    gaps = [sentence[a[1] : b[0]] for a, b in itertools.pairwise(ordered)]
    gaps = [g for g in gaps if g.strip()]  # adjacent or overlapping: a compound, not a list
    if len(gaps) < 2 or not any(re.search(r"[,;/]", g) for g in gaps):
        return False
    return all(all(w in _GLUE for w in re.split(r"[\s,;/]+", g.strip())) for g in gaps)


# --- a point in a scope ----------------------------------------------------------------------


def _related(point: KeyPoint, needs, sentence: str, toks) -> tuple[str, ...] | None:
    """The phrasing found for each concept group, together in one scope of the normalised
    ``sentence``, none negated (the last one negated, for a ``negated`` point), the first
    bound to the actor, not merely listed; None when there is no such set."""
    found = [sorted({s for p in expand(group) for s in find(p, toks)}) for group in needs]
    if not all(found):
        return None
    free = {s for group in needs for p in expand(group) if p[0] == "!" for s in find(p, toks)}
    clauses = _clauses(sentence)
    consumed = [s for group in found for s in group]
    # a denial's or_needs says it positively, of its or_actor ("GRPO then divides by the std")
    denies = point.negated and needs is point.needs
    last, actors = (len(found) - 1 if denies else -1), actors_of(point, needs)
    for scope in clauses if point.within == "clause" else [(0, len(sentence))]:
        where = (sentence, toks, clauses, scope, consumed, free)
        ok = [
            [s for s in group if _fits(point, g == last, actors, where, s)]
            for g, group in enumerate(found)
        ]
        for chosen in itertools.islice(_apart(ok), MAX_CHOICES):
            if _glue_only(sentence, chosen) or _contrary(point, sentence, toks, scope):
                continue
            if _misvalued(point, toks, clauses, chosen, consumed):
                continue
            if not misdirected(
                needs,
                chosen,
                toks,
                lambda at: _clause_of(clauses, at),
                lambda s: negated(sentence, _clause_of(clauses, s[0]), s, [s]),
            ):
                return tuple(sentence[a:b] for a, b in chosen)
    return None


def _fits(point: KeyPoint, last: bool, actors, where, span) -> bool:
    """Whether the match at ``span`` may stand for its concept group: inside the scope, not
    denied (denied, for a denial's last group), bound to the actor; or, for a denial's last
    group, denied for the actor by the clause after it ("..., which RLOO never does").
    A match of a ``!`` phrasing stands whether denied or not ("eps: no 0/0", "so it's not
    NaN"). An actor named in an aside right after the match binds it too ("the population
    std, which is numpy's default").
    ``where``: (sentence, its tokens, its clauses, the scope, the spans of every phrasing,
    the spans of ``!`` phrasings)."""
    sentence, toks, clauses, scope, consumed, free = where
    if not (scope[0] <= span[0] and span[1] <= scope[1]):
        return False
    denial = point.negated and last
    clause = _clause_of(clauses, span[0])
    said = span in free or denied(sentence, clause, span, consumed, denial) == denial
    if said and (bound_right(actors, toks, span[1]) or named_after(actors, sentence, span)):
        return True
    who = ellipsis_subject(sentence, span) if denial and actors[0] else None
    return who is not None and any(find(p, tokens(who)) for p in actors[0])


def _misvalued(point: KeyPoint, toks, clauses, chosen, spans) -> bool:
    """Whether a clause of the chosen matches gives one of the point's phrasings (any of
    ``spans``) a value the point does not state ("float32 keeps about three significant
    digits in the mantissa": the mantissa is the right word, three the wrong value)."""
    values = _values(point)
    where = {_clause_of(clauses, a) for a, _ in chosen}
    return any(_clause_of(clauses, s[0]) in where and misquantified(toks, s, values) for s in spans)


@functools.cache
def _values(point: KeyPoint) -> frozenset[float]:
    """The values a point states (``practice.followup_numbers``), when it is about a value:
    its text states one other than 0 and 1 ("exactly 0" is a relation, not a measurement)
    that is also one of its phrasings ("~7 significant digits": "7"). Empty for any other
    point: a number may stand by its words ("about 28 GB for a 7B critic")."""
    phrasings = tuple(p for g in point.needs + point.or_needs for p in expand(g))
    bare = stated(tuple(p for p in phrasings if re.fullmatch(r"\d+(?:\.\d+)?", p)))
    if not (stated((point.text,)) - {0.0, 1.0}) & bare:
        return frozenset()
    return stated((point.text, *phrasings))


def _apart(candidates: list[list[tuple[int, int]]], chosen: tuple = ()):
    """Every choice of one span per group, in order, no two overlapping (each group's own
    words: "turns that noise into" and "noise" cannot both be chosen, "normal size" and
    "noise" can)."""
    if len(chosen) == len(candidates):
        yield list(chosen)
        return
    for s in candidates[len(chosen)]:
        if not any(s[0] < b and a < s[1] for a, b in chosen):
            yield from _apart(candidates, (*chosen, s))


def _contrary(point: KeyPoint, sentence: str, toks, scope: tuple[int, int]) -> bool:
    """Whether ``scope`` states the point's contrary (a phrasing of ``unless``, not negated)."""
    clauses = _clauses(sentence)
    for phrase in expand(point.unless):
        for span in find(phrase, toks):
            inside = scope[0] <= span[0] and span[1] <= scope[1]
            if inside and not negated(sentence, _clause_of(clauses, span[0]), span, [span]):
                return True
    return False


def _states(item: str) -> bool:
    """Whether an item of a string of keywords states something: at least
    ``LONG_LIST_ITEM_WORDS`` words with a verb among them ("the mean is per group") or an
    equation, not a longer keyword ("resampling of the zero advantage groups for the batch")."""
    words = [w.strip(".,;:()") for w in item.split()]
    return "=" in item or (len(words) >= LONG_LIST_ITEM_WORDS and any(w in _VERBS for w in words))


def _scopes(answer_sentences: list[str], pairs: bool):
    """(quote, normalised text) of each sentence, then (with ``pairs``) of each two
    adjacent sentences read as one."""
    for original in answer_sentences:
        yield original, normalise(original)
    if pairs:
        for a, b in itertools.pairwise(answer_sentences):
            if all(len(x.split()) >= PAIR_WORDS and not is_list(normalise(x)) for x in (a, b)):
                yield f"{a} {b}", normalise(f"{a} {b}")


def _quote(text: str) -> str:
    return text if len(text) <= 300 else text[:299] + "…"


def _match_point(point: KeyPoint, answer_sentences: list[str]) -> PointMatch:
    """Whether ``point`` is made in a sentence (or two adjacent ones), by its needs or its
    or_needs; in a listed sentence, only inside one item that relates its words
    (``practice.followup_items``)."""
    for original, sentence in _scopes(answer_sentences, point.within == "sentence"):
        if is_list(sentence):
            parts = [sentence[a:b].strip() for a, b in list_items(sentence)]
            long = len(parts) >= LONG_LIST
            parts = [
                p
                for p in parts
                if relates(p, _FUNCTION_WORDS, is_list) and (not long or _states(p))
            ] + labelled_items(sentence, HEAD_WORDS)
        else:
            parts = [sentence]
        for part in parts:
            toks = tokens(part)
            for needs in (point.needs, point.or_needs):
                words = _related(point, needs, part, toks) if needs else None
                if words is not None:
                    return PointMatch(True, _quote(original), words)
    return PointMatch(False)


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
