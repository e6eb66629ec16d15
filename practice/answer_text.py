"""Typed answers as comparable text: LaTeX, Unicode and spelling variants read the same way.

Contract: nothing here raises on a string. ``canonical`` lower-cases a typed formula and
reads LaTeX commands and symbols as words (``\\mu`` -> "μ", ``\\frac`` -> "frac",
brackets -> parentheses); ``normalise_answer`` goes further, to a key for comparing
with a bank's accepted answers, and refuses (None) what is not text, longer than
``MAX_ANSWER_CHARS`` or holds control characters.
"""

from __future__ import annotations

import re
import unicodedata

MAX_ANSWER_CHARS = 200
"""Longer answers are not read: feedback says "too long"."""


def word_set(text: str) -> frozenset[str]:
    """The space-separated words of ``text``, as a set."""
    return frozenset(text.split())


# Superscripts go before NFKC, which would turn "σ²" into "σ2".
SYMBOLS_BEFORE_NFKC = str.maketrans(
    {"²": "^2", "³": "^3", "≠": "!=", "…": "..", "$": " ", "√": " sqrt "}
    | dict.fromkeys("Σ∑", " sum ")
    | dict(zip("−–[]{}·×", "--()()**", strict=True))
)
_LATEX = {  # LaTeX command -> what it is read as
    **dict.fromkeys(["mu"], " μ "),
    **dict.fromkeys(["sigma"], " σ "),
    **dict.fromkeys(["varepsilon", "epsilon"], " ε "),
    **{"gamma": " γ ", "lambda": " λ ", "delta": " δ ", "phi": " φ ", "psi": " ψ "},
    **{w: f" {w} " for w in ("sum", "sqrt", "frac")},
    **dict.fromkeys(["ne", "neq"], " != "),
    **dict.fromkeys(["cdot", "times"], " * "),
    **dict.fromkeys(["ldots", "dots", "cdots"], " .. "),
    **dict.fromkeys(["bar", "overline"], " bar "),
    **dict.fromkeys(["mathbb", "hat", "tilde"], " "),
}
_LATEX_DROP = word_set(
    "left right mathrm operatorname text textrm textit textbf mathbf boldsymbol bm mathit "
    "mathcal mathsf vec displaystyle dfrac tfrac big bigl bigr quad qquad"
)
_WORDS = [  # (pattern, replacement) on lower-case text, in order
    (re.compile(r"(?<![a-z])(mu)(?![a-z])"), " μ "),
    (re.compile(r"(?<![a-z])(sigma)(?![a-z])"), " σ "),
    (re.compile(r"(?<![a-z])(epsilon|eps)(?![a-z])"), " ε "),
    (re.compile(r"(?<![a-z])(gamma)(?![a-z])"), " γ "),
    (re.compile(r"(?<![a-z])(lambda)(?![a-z])"), " λ "),
    (re.compile(r"\.{2,}"), " .. "),
    (re.compile(r"(\^|\*\*)\s*(\(\s*(0?\.5|1\s*/\s*2)\s*\)|0?\.5(?!\d))"), " sqrt "),  # x^0.5
    (re.compile(r"\^\s*\(\s*2\s*\)|\^\s*2(?!\d)|\*\*\s*2(?!\d)"), " squared "),
    (re.compile(r"(?<![a-z])(square\s*root|root)(?![a-z])"), " sqrt "),
]


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character or a lone surrogate (tab and newlines pass)."""
    return any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\t\n\r" for c in text)


def canonical(text: str) -> str:
    """Lower case, LaTeX turned into words and symbols, brackets into parentheses."""
    s = text.translate(SYMBOLS_BEFORE_NFKC)
    s = unicodedata.normalize("NFKC", s)
    s = re.sub(r"(\w)[\u0304\u0305]", r" bar \1 ", s)  # R̄: R with a combining macron
    s = re.sub(
        r"\\([a-zA-Z]+)",
        lambda m: " " if m[1] in _LATEX_DROP else _LATEX.get(m[1], " \\" + m[1].lower() + " "),
        s,
    )
    s = re.sub(r"\\[,;:! ]", " ", s)
    s = s.lower()
    for pattern, replacement in _WORDS:
        s = pattern.sub(replacement, s)
    return s


def normalise_answer(text) -> str | None:
    """A typed formula or phrase in a form to compare: None if not text, too long or with controls.

    Lower case, LaTeX read as words and symbols, articles, spaces and "*" removed,
    "_{x}" written "_x": "\\frac{1-p}{p}" and "frac (1 - P)(p)" compare equal.
    """
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS or has_control(text):
        return None
    s = canonical(text)
    s = re.sub(r"(?<![a-z])(the|a|an)(?![a-z])", " ", s)
    s = re.sub(r"[\s*]+", "", s)
    return re.sub(r"_\((\w+)\)", r"_\1", s)
