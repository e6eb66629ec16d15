"""A follow-up answer (or a key point's phrasing) as comparable tokens.

Both sides go through the same steps, so a phrasing written once matches its variants:

1. ``normalise``: lower case, NFKC, one kind of dash and apostrophe, no spaces around
   ``= / ( ) | + - ^``;
2. ``EQUIVALENCES``: one spelling for what is written many ways: symbols and words
   ("σ", "sigma", "standard deviation" are "std"; "K minus one", "K−1" are "k-1"; "√(4/3)",
   "(4/3)^0.5", "square root of 4/3" are "sqrt(4/3)"; "1.1547" is "1.155"; "np" is "numpy";
   "Dr. GRPO" is "drgrpo", ...);
3. ``tokens``: words, numbers and symbols, each with its place in the normalised text; a
   word's ``key`` is its Snowball stem (``snowballstemmer``, the Sphinx project's) after
   British spellings are made American ("normalisation" and "normalizes" share "normal",
   "biases" and "bias" share "bias"), and an irregular verb's past is its present ("blew
   up" is "blow up", "kept" is "keep": ``IRREGULAR``). A hyphen between two words is a
   space ("low-spread" is "low spread"), after a prefix none ("up-weighted" is
   "upweighted", "re-sample" is "resample"); between a letter and a digit it stays ("k-1").

Every step keeps, for each character, where it came from, so a match is quoted in the
answer's own (normalised) words. Nothing here raises on a string.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import snowballstemmer

_OPERATORS = re.compile(r"\s*([=/()|+^\-])\s*")
_STEMMER = snowballstemmer.stemmer("english")

_NUMBER_WORDS = "two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905
"""Number words from 2 written as digits ("one" is also a pronoun: left alone)."""
PREFIXES = ("up", "down", "over", "under", "re", "non", "pre", "sub", "un", "de", "co", "multi")
"""Prefixes a hyphen joins to their word: "up-weighted" is "upweighted"."""
IRREGULAR = {
    **dict.fromkeys(("blew", "blown"), "blow"),
    **dict.fromkeys(("drew", "drawn"), "draw"),
    **dict.fromkeys(("took", "taken"), "take"),
    **dict.fromkeys(("gave", "given"), "give"),
    **dict.fromkeys(("threw", "thrown"), "throw"),
    **dict.fromkeys(("fell", "fallen"), "fall"),
    **dict.fromkeys(("grew", "grown"), "grow"),
    **dict.fromkeys(("shrank", "shrunk", "shrunken"), "shrink"),
    **dict.fromkeys(("chose", "chosen"), "choose"),
    **dict.fromkeys(("got", "gotten"), "get"),
    **dict.fromkeys(("broke", "broken"), "break"),
    **dict.fromkeys(("began", "begun"), "begin"),
    **dict.fromkeys(("rose", "risen"), "rise"),
    **dict.fromkeys(("wrote", "written"), "write"),
    **dict.fromkeys(("knew", "known"), "know"),
    **dict.fromkeys(("saw", "seen"), "see"),
    "lost": "lose",
    "kept": "keep",
    "spent": "spend",
    "brought": "bring",
    "paid": "pay",
    "sent": "send",
    "held": "hold",
    "became": "become",
    "stood": "stand",
    "stuck": "stick",
    "made": "make",
    "left": "leave",
    "ran": "run",
    "went": "go",
    "sank": "sink",
    "sunk": "sink",
}
"""An irregular verb's past forms and their present ("meant" is left out: "mean" is the mean)."""

EQUIVALENCES: tuple[tuple[str, str], ...] = (
    # symbols and their names
    (r"\bstandard[ -]deviations?\b|\bstd\.?[ -]?devs?\b|\bstdevs?\b|σ|\bsigmas?\b", "std"),
    (r"\bclip(?:ping)?[ _-]?(?:ε|eps|epsilon)\b|(?:ε|\beps|\bepsilon)[ _-]?clip\b", "clip_range"),
    (r"\bepsilons?\b|ε|\beps\b", "eps"),
    (r"\bmu\b|μ", "mean"),
    (r"\bnp(?=[.\s,;)]|$)", "numpy"),
    (r"\bpytorch\b", "torch"),
    (r"\bavg\b", "average"),
    (r"\s*÷\s*", " divided by "),
    # common misspellings of the domain's words
    (r"\bsubstract", "subtract"),
    (r"\bdivison", "division"),
    (r"\bpenality", "penalty"),
    (r"\bavarage", "average"),
    (r"\bvarience", "variance"),
    (r"\badvs?\b", "advantage"),
    (r"\bsd\b|\bstandard dev\b", "std"),
    (r"\\bar\{\w+\}|\\bar ?[rx]\b|\b[rx]\u0304|\b[rx][_-]?bar\b", "mean"),
    (r"\bfp ?32\b|\bfloat ?32\b|\bsingle[- ]precision\b", "float32"),
    (r"\bfp ?64\b|\bfloat ?64\b|\bdouble[- ]precision\b|\bdoubles?\b", "float64"),
    (r"\bdr\.? ?grpo\b", "drgrpo"),
    (r"\bbessel'?s?\b", "bessel"),
    (r"\bdegrees? of freedom\b", "ddof"),
    (r"\bcorrection=", "ddof="),
    (r"\bunbiased=false\b", "ddof=0"),
    (r"\bunbiased=true\b", "ddof=1"),
    # numbers and formulas
    (r"\bminus (?:one|1)\b", "-1"),
    (r"\bminus\b", "-"),
    (r"(?<=\b[kng]) ?- ?1\b", "-1"),
    (r"√|\bsquare[- ]root of\b|\bsquare[- ]root\b|\broot of\b", "sqrt"),
    (r"\(((?:[^()]|\([^()]*\))+)\)\s*(?:\^|\*\*)\s*(?:0?\.5|\(1/2\)|1/2)", r"sqrt(\1)"),
    (r"\bsqrt\s*(\w+/\(?\w+(?:-1)?\)?)", r"sqrt(\1)"),
    (r"\bsqrt\(\(([^()]+)\)\)", r"sqrt(\1)"),
    (r"\b(\w+)/\((\w+-1)\)", r"\1/(\2)"),
    (r"\b(\d+|[a-z](?:_\w+)?|std) over \(?(\d+|[a-z](?:_\w+|-1)?|std)\)?(?=[\s,.;)]|$)", r"\1/\2"),
    (r"\b(\d+|[a-z](?:_\w+)?) over ?(\|\w+\|)", r"\1/\2"),
    (r"\+1e-\d+\b", "+eps"),
    (r"\b(\w+)/(\w+-1)\b", r"\1/(\2)"),
    (r"\b(\d+(?:\.\d+)?)x\b", r"\1 x"),
    (r"\b1\.15\d*\b", "1.155"),
    (r"\b(?:one|1|a) million\b|\b10\^6\b|\b1000000\b(?!\.)", "1e6"),
    (r"\bhundred\b", "100"),
    (r"\bthousand\b", "1000"),
    *((rf"\b{word}\b", str(n)) for n, word in enumerate(_NUMBER_WORDS, start=2)),
    (r"\bnon[- ]?zero\b", "nonzero"),
    (r"\bzero\b", "0"),
    # words
    (rf"\b({'|'.join(PREFIXES)})-(?=[a-z])", r"\1"),
    (r"\bany more\b", "anymore"),
    (r"\bcan't\b", "cannot"),
    (r"\bwon't\b", "will not"),
    (r"\b(is|are|was|were|does|do|did|has|have|had|should|would|could)n't\b", r"\1 not"),
    (r"\b(mean|std)\((?:r|rewards?|r_\w+)\)", r"\1"),
    (  # a tensor's statistic in code: "r.mean(dim=1)" (a library's call keeps its name and ddof)
        r"\b(?:(?!numpy\.|torch\.)[a-z_]\w*\.)+(mean|std)\((?![^()]*(?:ddof|unbiased|correction))[^()]*\)",
        r"\1",
    ),
)
"""(pattern, replacement) on normalised text, in order."""
_COMPILED = tuple((re.compile(p), r) for p, r in EQUIVALENCES)
_AMERICAN = (
    (re.compile(r"^(cent|met|lit|fib)re(s)?$"), r"\1er\2"),
    (re.compile(r"^(cent|met|lit|fib)red$"), r"\1ered"),
    (re.compile(r"^(cent|met|lit|fib)ring$"), r"\1ering"),
    (re.compile(r"^(\w{2,})our(s|ed|ing|able|ite|ites)?$"), r"\1or\2"),
    (re.compile(r"^(\w{3,})is(e|ed|es|ing|ation|ations|er|ers)$"), r"\1iz\2"),
    (re.compile(r"^(\w{3,})ys(e|ed|es|ing)$"), r"\1yz\2"),
)
_TOKEN = re.compile(r"[a-z_][a-z0-9_]*(?:'[a-z]+)?|\d+(?:\.\d+)?(?:e-?\d+)?[a-z]*|[^\s\w]")


@dataclass(frozen=True)
class Token:
    """One word, number or symbol of a text, with where it is in the normalised text."""

    key: str
    """What it is compared by: a word's stem, a number or a symbol as written."""
    word: str
    """The word after the equivalences and American spelling, unstemmed (for ``*``)."""
    start: int
    end: int


def normalise(text: str) -> str:
    """Lower case, NFKC, one kind of dash and apostrophe, no spaces around operators."""
    if not isinstance(text, str):
        raise ValueError(f"expected text, got {type(text).__name__}.")
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)  # "1,000,000.123" is one number
    text = re.sub(r"\s*[\u03a3\u2211](?=[_^{])", " sum", text)  # capital sigma is a sum, not σ
    text = re.sub(r"\s*[\u03a3\u2211]\s*", " sum ", text).lower()
    for dash in "\u2212\u2011\u2010\u2013":
        text = text.replace(dash, "-")
    for arrow in "\u2192\u27f6\u21d2":  # →, ⟶, ⇒
        text = text.replace(arrow, "->")
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"\s+-{2,3}\s+", " \u2014 ", text)  # "a -- b" is a dash, not two minuses
    text = _OPERATORS.sub(r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=16384)
def american(word: str) -> str:
    """A British spelling made American ("normalise" -> "normalize", "centred" -> "centered")."""
    for pattern, replacement in _AMERICAN:
        word = pattern.sub(replacement, word)
    return word


@functools.lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The Snowball stem of an American-spelled word ("biases" -> "bias")."""
    return _STEMMER.stemWord(american(word)) if len(word) > 2 else word


def rewrite(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` (normalised) after ``EQUIVALENCES``, with each character's start and end
    in ``text``."""
    starts, ends = list(range(len(text))), list(range(1, len(text) + 1))
    for pattern, replacement in _COMPILED:
        pieces, new_starts, new_ends, at = [], [], [], 0
        for m in pattern.finditer(text):
            if m.expand(replacement) == m.group(0):
                continue  # nothing to rewrite: keep where each character came from
            pieces.append(text[at : m.start()])
            new_starts += starts[at : m.start()]
            new_ends += ends[at : m.start()]
            out = m.expand(replacement)
            pieces.append(out)
            lo = starts[m.start()] if m.start() < len(starts) else len(text)
            hi = ends[m.end() - 1] if m.end() > m.start() else lo
            new_starts += [lo] * len(out)
            new_ends += [hi] * len(out)
            at = m.end()
        if not pieces:
            continue
        pieces.append(text[at:])
        new_starts += starts[at:]
        new_ends += ends[at:]
        text, starts, ends = "".join(pieces), new_starts, new_ends
    return text, starts, ends


class Tokens(tuple):
    """A text's tokens: a tuple that hashes once (every phrasing looks its tokens up in a
    cache keyed by them, hundreds of times an answer)."""

    def __hash__(self) -> int:
        cached = self.__dict__.get("hash")
        if cached is None:
            cached = self.__dict__["hash"] = tuple.__hash__(self)
        return cached


@functools.lru_cache(maxsize=4096)
def tokens(normalised: str) -> tuple[Token, ...]:
    """The tokens of a normalised text; a hyphen between two words is dropped."""
    text, starts, ends = rewrite(normalised)
    found = list(_TOKEN.finditer(text))
    out = []
    for i, m in enumerate(found):
        word = m.group(0)
        if word == "-" and 0 < i < len(found) - 1:
            left, right = found[i - 1].group(0), found[i + 1].group(0)
            touching = found[i - 1].end() == m.start() and m.end() == found[i + 1].start()
            if touching and left[-1].isalpha() and right[0].isalpha():
                continue
        word = IRREGULAR.get(word, word)
        spelled = american(word) if word[0].isalpha() else word
        key = stem(word) if word[0].isalpha() else word
        out.append(Token(key, spelled, starts[m.start()], ends[m.end() - 1]))
    return Tokens(out)
