"""Arithmetic in one variable p, read from a typed answer and compared by its value.

Contract: ``parse_formula`` reads numbers, ``p``, ``+ - * / ^`` (``**`` too), parentheses
and braces, ``\\frac{a}{b}`` (``\\dfrac``, ``\\tfrac``, written with or without the
backslash), ``\\cdot``/``\\times`` and implicit multiplication before p, a parenthesis
or a fraction (``2p``, ``p(1-p)``) into a tree, or None for anything else or anything too
big: over ``MAX_CHARS`` characters, ``MAX_TOKENS`` tokens, ``MAX_DEPTH`` nested levels, an
exponent that is not a whole number of size at most ``MAX_EXPONENT`` (or a power of a
power), a degree over ``MAX_DEGREE``. The text is never evaluated as Python.

``same_function`` decides whether two such formulas are the same rational function of p:
both are evaluated with exact ``Fraction`` arithmetic at more points of (0, 1) than the
degree of their difference, so agreeing there means identical (a nonzero polynomial of
degree d has at most d roots). Points where either side divides by zero are skipped.
Nothing here raises on a string.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from practice.answer_text import MAX_ANSWER_CHARS, SYMBOLS_BEFORE_NFKC, has_control

MAX_CHARS = MAX_ANSWER_CHARS
"""Longer text is not read (the same bound as every typed answer)."""
MAX_TOKENS = 100
MAX_DEPTH = 12
MAX_EXPONENT = 8
MAX_DEGREE = 32
MAX_NUMBER_CHARS = 12

Expr = tuple
"""A formula tree: ("num", Fraction), ("p",), ("neg", e), ("add"|"sub"|"mul"|"div", e, e),
("pow", e, n) with n a whole number."""

_TOKEN = re.compile(
    r"\s+|\\[,;:! ]"  # spaces, LaTeX spacing
    r"|([0-9]+\.?[0-9]*|\.[0-9]+)"  # a number
    r"|(\\?(?:d|t)?frac|\\cdot|\\times|\\left|\\right|\*\*|[-+*/^()p])"  # an operator, p
)
_WORD_OPS = {"\\cdot": "*", "\\times": "*", "**": "^"}


def tokens(text) -> list[str] | None:
    """The tokens of ``text`` ("frac" for every \\frac spelling), or None if not arithmetic in p."""
    if not isinstance(text, str) or len(text) > MAX_CHARS or has_control(text):
        return None
    s = unicodedata.normalize("NFKC", text.translate(SYMBOLS_BEFORE_NFKC)).lower()
    out: list[str] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None:
            return None
        pos = m.end()
        if m[1] is not None:
            number = m[1]
            if len(number) > MAX_NUMBER_CHARS:
                return None
            while len(number) > 1 and _frac_argument_next(out):  # \frac12 is 1/2
                out.append(number[0])
                number = number[1:]
            out.append(number)
        elif m[2] is not None and m[2] not in ("\\left", "\\right"):
            op = m[2]
            out.append("frac" if op.endswith("frac") else _WORD_OPS.get(op, op))
        if len(out) > MAX_TOKENS:
            return None
    return out


def _frac_argument_next(out: list[str]) -> bool:
    """Whether the next token is an argument of a \\frac written without braces."""
    return out[-1:] == ["frac"] or (len(out) >= 2 and out[-2] == "frac" and out[-1].isdigit())


class _Refused(Exception):
    """The text is not a formula this module reads (internal: never leaves the module)."""


class _Parser:
    """Recursive descent: expr = term {(+|-) term}; term = unary {(*|/|implicit) unary};
    unary = (+|-) unary | power; power = atom [^ exponent]; atom = number | p | (expr) |
    frac atom atom."""

    def __init__(self, toks: list[str]) -> None:
        self.toks = toks
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _Refused
        self.i += 1
        return tok

    def expr(self) -> Expr:
        node = self.term()
        while self.peek() in ("+", "-"):
            node = ("add" if self.take() == "+" else "sub", node, self.term())
        return node

    def term(self) -> Expr:
        node = self.unary()
        while True:
            tok = self.peek()
            if tok in ("*", "/"):
                self.take()
                node = ("mul" if tok == "*" else "div", node, self.unary())
            elif tok in ("p", "(", "frac"):
                node = ("mul", node, self.unary())  # implicit: 2p, p(1-p), (1-p)(1+p)
            else:
                return node

    def unary(self) -> Expr:
        if self.peek() in ("+", "-"):
            sign = self.take()
            operand = self.nested(self.unary)
            return operand if sign == "+" else ("neg", operand)
        return self.power()

    def power(self) -> Expr:
        base = self.atom()
        if self.peek() != "^":
            return base
        self.take()
        if _has_power(base):  # (x^a)^b: refused, so no exponent exceeds MAX_EXPONENT
            raise _Refused
        return ("pow", base, self.exponent())

    def exponent(self) -> int:
        """A whole number, optionally signed and in parentheses: ^2, ^{-1}, ^(-1)."""
        paren = self.peek() == "("
        if paren:
            self.take()
        sign = -1 if self.peek() == "-" else 1
        if self.peek() in ("+", "-"):
            self.take()
        tok = self.take()
        if not tok.isdigit() or int(tok) > MAX_EXPONENT:
            raise _Refused
        if paren:
            self.take(")")
        return sign * int(tok)

    def atom(self) -> Expr:
        tok = self.take()
        if tok == "p":
            return ("p",)
        if tok == "(":
            node = self.nested(self.expr)
            self.take(")")
            return node
        if tok == "frac":
            return ("div", self.nested(self.atom), self.nested(self.atom))
        if tok[0].isdigit() or tok[0] == ".":
            return ("num", Fraction(tok))
        raise _Refused

    def nested(self, rule) -> Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Refused
        node = rule()
        self.depth -= 1
        return node


def _has_power(expr: Expr) -> bool:
    return expr[0] == "pow" or any(isinstance(e, tuple) and _has_power(e) for e in expr[1:])


def degree(expr: Expr) -> tuple[int, int]:
    """Bounds (numerator degree, denominator degree) of ``expr`` written as one fraction."""
    kind = expr[0]
    if kind == "num":
        return 0, 0
    if kind == "p":
        return 1, 0
    if kind == "neg":
        return degree(expr[1])
    if kind == "pow":
        n, d = degree(expr[1])
        k = expr[2]
        return (n * k, d * k) if k >= 0 else (d * -k, n * -k)
    (na, da), (nb, db) = degree(expr[1]), degree(expr[2])
    if kind in ("add", "sub"):
        return max(na + db, nb + da), da + db
    if kind == "mul":
        return na + nb, da + db
    return na + db, da + nb  # div


def parse_formula(text) -> Expr | None:
    """The tree of an arithmetic formula in p, or None (not arithmetic in p, or too big)."""
    toks = tokens(text)
    if not toks:
        return None
    parser = _Parser(toks)
    try:
        expr = parser.expr()
    except (_Refused, RecursionError):
        return None
    if parser.i != len(toks) or sum(degree(expr)) > MAX_DEGREE:
        return None
    return expr


def evaluate(expr: Expr, p: Fraction) -> Fraction | None:
    """The exact value of ``expr`` at ``p``, or None where it divides by zero."""
    kind = expr[0]
    if kind == "num":
        return expr[1]
    if kind == "p":
        return p
    a = evaluate(expr[1], p)
    if a is None:
        return None
    if kind == "neg":
        return -a
    if kind == "pow":
        if a == 0 and expr[2] < 0:
            return None
        return a ** expr[2]
    b = evaluate(expr[2], p)
    if b is None:
        return None
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    return None if b == 0 else a / b


def uses_p(expr: Expr) -> bool:
    """Whether the variable p appears in ``expr``."""
    return expr[0] == "p" or any(isinstance(e, tuple) and uses_p(e) for e in expr[1:])


def _points():
    """Distinct rationals in (0, 1): 1/2, 1/3, 2/3, 1/4, 3/4, 1/5, ... (Farey order)."""
    seen: set[Fraction] = set()
    q = 2
    while True:
        for n in range(1, q):
            x = Fraction(n, q)
            if x not in seen:
                seen.add(x)
                yield x
        q += 1


def same_function(first: Expr, second: Expr) -> bool:
    """Whether two formula trees are the same rational function of p on (0, 1).

    a/b = c/d as functions iff a*d - c*b is the zero polynomial, of degree at most
    ``n1 + d2`` or ``n2 + d1``: equal values at one more point than that decide it.
    Points where a side divides by zero (finitely many) are skipped, at most
    ``MAX_DEGREE`` extra tries per side.
    """
    (n1, d1), (n2, d2) = degree(first), degree(second)
    needed = max(n1 + d2, n2 + d1) + 1
    budget = needed + 4 * MAX_DEGREE + 4
    agreed = 0
    for p, _ in zip(_points(), range(budget), strict=False):
        a, b = evaluate(first, p), evaluate(second, p)
        if a is None or b is None:
            continue
        if a != b:
            return False
        agreed += 1
        if agreed >= needed:
            return True
    return False
