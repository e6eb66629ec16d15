"""Numbers as text: for sentences, LaTeX, table cells and links.

Every page, chart and generated sentence writes its numbers through these few
functions, so the same number reads the same everywhere.
"""

from __future__ import annotations

import math

import numpy as np

MAX_DIGITS = 17
"""Significant digits worth printing: 17 tell any two float64 values apart; more are only
zeros (and 10**9 of them took seconds and a gigabyte of text)."""


def fmt(x: float, digits: int = 4) -> str:
    """A number as a person writes it: 4 significant digits, no '-0', sci for tiny/huge.
    ValueError unless ``digits`` is 1 to ``MAX_DIGITS``."""
    if not 1 <= digits <= MAX_DIGITS:
        raise ValueError(f"digits must be 1 to {MAX_DIGITS}, got {digits!r}.")
    x = float(x)
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e5:
        return f"{x:.{digits}g}"
    mantissa, exp = f"{x:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exp)}"


def tex(x: float, digits: int = 4) -> str:
    """A number for LaTeX: 1.2e-07 becomes 1.2 \\times 10^{-7}; negatives in parentheses
    are the caller's choice (``tex_term``)."""
    text = fmt(x, digits)
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa} \\times 10^{{{int(exp)}}}"
    return text


def tex_term(x: float, digits: int = 4) -> str:
    """``tex`` for a term after a minus or plus sign: negatives in parentheses, (-0.5)."""
    return f"({tex(x, digits)})" if x < 0 else tex(x, digits)


def decimal_tex(x: float) -> str:
    """A number for a worked solution: up to 4 decimals, or a power of ten when tiny.

    0.866 stays "0.866", 1/3 is "0.3333", 1e-4 is "10^{-4}", 1.2e-7 is
    "1.2 \\times 10^{-7}"; below 1e-12 it is "0" (rounding noise of an exact 0).
    """
    if abs(x) < 1e-12:
        return "0"
    if abs(x) < 1e-3:
        mantissa, exponent = f"{x:.3e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        power = f"10^{{{int(exponent)}}}"
        return power if mantissa == "1" else f"{mantissa} \\times {power}"
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def equals_sign(x: float) -> str:
    """ "=" when ``decimal_tex(x)`` is exact, "\\approx" when it is rounded."""
    try:
        return "=" if float(decimal_tex(x)) == x else r"\approx"
    except ValueError:
        return r"\approx"


def signed(x: float) -> str:
    """'+0.935', '−0.935' (a real minus sign) or '0'."""
    if x == 0:
        return "0"
    return ("+" if x > 0 else "−") + fmt(abs(x))


def cell(x: float, *, nan: str = "NaN") -> str:
    """A table cell: 4 significant digits, a real minus sign, ``nan`` for NaN, ∞ for inf."""
    if math.isnan(x):
        return nan
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return "−" + fmt(-x) if x < 0 else fmt(x)


def as_typed(x: float) -> str:
    """A reward as typed, to 12 significant digits (1000000.001 stays readable)."""
    return f"{x:.12g}"


def shortest(x: float) -> str:
    """Shortest text that reads back as exactly ``x`` ("1" for 1.0, "0.1", "1e-07")."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def digits_to_tell_apart(values) -> int:
    """Significant digits (4 to 15) at which distinct values also print differently."""
    values = np.unique(np.asarray(values, dtype=float))
    for digits in range(4, 16):
        if len({fmt(v, digits) for v in values}) == len(values):
            return digits
    return 16


def plural(count: int, word: str, *, with_count: bool = True) -> str:
    """ "1 answer", "3 answers", "1,000,000 answers": the count (thousands separated) and the
    word, with an s unless 1.

    ``with_count=False`` gives the word alone: "Prompts" for "Prompts 1 and 3 ...".
    """
    form = word if count == 1 else word + "s"
    return f"{count:,} {form}" if with_count else form


_SUBSCRIPTS = str.maketrans("0123456789+-aeijklmnoprstux", "₀₁₂₃₄₅₆₇₈₉₊₋ₐₑᵢⱼₖₗₘₙₒₚᵣₛₜᵤₓ")


def subscripted(symbol: str, index: object) -> str:
    """A symbol with its index as Unicode subscripts, for plain text that stands beside
    LaTeX (a widget label, a table header): ("A", 2) -> "A₂", ("R", "i") -> "Rᵢ",
    ("L", "max") -> "Lₘₐₓ". ValueError for an index Unicode has no subscript for."""
    text = str(index)
    written = text.translate(_SUBSCRIPTS)
    if any(a == b for a, b in zip(text, written, strict=True)):
        raise ValueError(f"no Unicode subscript for every character of {text!r}")
    return symbol + written
