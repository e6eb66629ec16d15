"""practice.formula: the tokenizer's limits, the parser's precedence, \\frac and implicit
multiplication, equality as functions of p, and no exception on any text."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.formula import (
    MAX_CHARS,
    MAX_DEPTH,
    MAX_EXPONENT,
    MAX_TOKENS,
    degree,
    evaluate,
    parse_formula,
    same_function,
    tokens,
    uses_p,
)


def value(text: str, p: Fraction = Fraction(1, 3)) -> Fraction | None:
    expr = parse_formula(text)
    assert expr is not None, text
    return evaluate(expr, p)


def equal(first: str, second: str) -> bool:
    a, b = parse_formula(first), parse_formula(second)
    return a is not None and b is not None and same_function(a, b)


# --- tokenizer ----------------------------------------------------------------------------


def test_tokens_read_latex_and_unicode_spellings():
    assert tokens(r"\frac{1-p}{p}") == ["frac", "(", "1", "-", "p", ")", "(", "p", ")"]
    assert tokens(r"\dfrac12") == tokens(r"\tfrac12") == tokens("frac12") == ["frac", "1", "2"]
    assert tokens("(1−p)·p") == ["(", "1", "-", "p", ")", "*", "p"]
    assert tokens(r"p \cdot 2 \times p") == ["p", "*", "2", "*", "p"]
    assert tokens("p**2") == tokens("p²") == ["p", "^", "2"]
    assert tokens(r"\left( p \right)") == ["(", "p", ")"]
    assert tokens("P") == ["p"]


@pytest.mark.parametrize(
    "text",
    ["x", "p + q", "sqrt(p)", r"\sqrt{p}", "1,5", "p = 1", "import os", "__import__('os')",
     "p\x00", None, 12, b"p", "1" * 13],
)  # fmt: skip
def test_tokens_refuse_what_is_not_arithmetic_in_p(text):
    assert tokens(text) is None


def test_tokenizer_limits():
    assert tokens("p" + " " * (MAX_CHARS - 1)) == ["p"]
    assert tokens("p" * (MAX_CHARS + 1)) is None
    assert tokens("+".join("1" * (MAX_TOKENS // 2 + 1))) is None  # > MAX_TOKENS tokens
    assert tokens("+".join("1" * (MAX_TOKENS // 2))) is not None


# --- parser -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("8 / 4 / 2", 1), ("2 - 3 - 4", -5),
        ("2 ^ 3", 8), ("-2^2", -4), ("(-2)^2", 4), ("2^-1", Fraction(1, 2)),
        ("2^{-2}", Fraction(1, 4)), ("2^(-1)", Fraction(1, 2)), ("--2", 2), ("+2", 2),
        (r"\frac{1}{4}", Fraction(1, 4)), (r"\frac12", Fraction(1, 2)), (r"\frac 1 2", 0.5),
        ("0.25", Fraction(1, 4)), (".5", Fraction(1, 2)), ("3p", 1), ("p(1-p)", Fraction(2, 9)),
        ("(1-p)(1+p)", Fraction(8, 9)),
        ("2(p)", Fraction(2, 3)), (r"2\frac{1}{p}", 6), ("1/2p", Fraction(1, 6)),
        ("p/p^2", 3), ("p^{-1} - 1", 2), ("((1-p)/p)", 2),
    ],
)  # fmt: skip
def test_precedence_and_notation(text, expected):
    assert value(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "(", "(p", "p)", "1 +", "* p", "p ^ p", "p ^ 1.5", f"p ^ {MAX_EXPONENT + 1}",
     "(p^2)^2", "frac(p)", "1 2", "p 2", "()", "^2"],
)  # fmt: skip
def test_parser_refuses_malformed_or_unbounded(text):
    assert parse_formula(text) is None


def test_nesting_is_bounded():
    assert parse_formula("(" * MAX_DEPTH + "p" + ")" * MAX_DEPTH) is not None
    assert parse_formula("(" * (MAX_DEPTH + 1) + "p" + ")" * (MAX_DEPTH + 1)) is None
    assert parse_formula("-" * 150) is None


def test_degree_bound_and_variable():
    assert degree(parse_formula("(1-p)/p")) == (1, 1)
    assert degree(parse_formula("p^{-2}")) == (0, 2)
    assert degree(parse_formula("1/p - p/p")) == (2, 2)
    assert parse_formula("p^8 p^8 p^8 p^8 p") is None  # degree 33 > MAX_DEGREE
    assert uses_p(parse_formula("1 + 2p")) and not uses_p(parse_formula("1 + 2"))


def test_division_by_zero_is_none_not_an_error():
    assert evaluate(parse_formula("1/(p - 1/3)"), Fraction(1, 3)) is None
    assert evaluate(parse_formula("(p - 1/3)^{-1}"), Fraction(1, 3)) is None
    assert evaluate(parse_formula("0^{-1}"), Fraction(1, 2)) is None


# --- same function of p -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["(1-p)/p", r"\frac{1}{p}-1", "(1/p)-1", r"\dfrac{1-p}{p}", r"\tfrac{1-p}{p}", "p^{-1}-1",
     "-1 + 1/p", "(-p+1)/p", "1/p - p/p", "(1-p)*p^{-1}", "(1-p)(1+p)/(p(1+p))", "frac(1-p)(p)",
     "(1 - p^2)/(p + p^2)", "2(1-p)/(2p)", "(1-p)/p + 0"],
)  # fmt: skip
def test_equal_forms_are_the_same_function(text):
    assert equal(text, "(1-p)/p")


@pytest.mark.parametrize(
    "text",
    ["p/(1-p)", "1 - 1/p", "1/p", "(1-p)/p^2", "(1+p)/p", "1/(p-1)", "p(1-p)", "1-p",
     "(1-p)/p + p^8 - p^8 + 10^{-8}", "1/(p-p)", "0"],
)  # fmt: skip
def test_different_functions_are_not_equal(text):
    assert not equal(text, "(1-p)/p")


def test_agreeing_on_few_points_is_not_enough():
    # (p - 1/2)(p - 1/3)(p - 2/3) vanishes on the first three points tried: degree 3 needs 4.
    bump = "(p - 1/2)(p - 1/3)(p - 2/3)"
    assert not equal(f"(1-p)/p + {bump}", "(1-p)/p")
    assert equal(f"(1-p)/p + {bump} - {bump}", "(1-p)/p")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=250))
def test_no_exception_on_any_text(text):
    expr = parse_formula(text)
    if expr is not None:
        same_function(expr, parse_formula("(1-p)/p"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="p0123456789.+-*/^(){} ", max_size=120))
def test_no_exception_on_arithmetic_looking_text(text):
    expr = parse_formula(text)
    if expr is not None:
        assert isinstance(same_function(expr, expr), bool)
