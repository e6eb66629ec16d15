"""grpo_core.format: each number-to-text helper on hand-checked values."""

import math

import pytest

from grpo_core.format import (
    as_typed,
    cell,
    decimal_tex,
    digits_to_tell_apart,
    equals_sign,
    fmt,
    plural,
    shortest,
    signed,
    subscripted,
    tex,
    tex_term,
)


def test_fmt_and_tex():
    assert [fmt(x) for x in (0, 0.5, -0.93523938, 1e-7, 123456.0)] == [
        "0", "0.5", "-0.9352", "1e-7", "1.235e5",
    ]  # fmt: skip
    assert tex(1.2e-7) == r"1.2 \times 10^{-7}"


def test_fmt_refuses_more_digits_than_a_float_holds():
    """17 digits print any float64 exactly; 10**9 of them wrote a gigabyte of zeros for 30 s
    (found by the fuzzer), so they are refused in plain words."""
    assert fmt(1 / 3, 17) == "0.33333333333333331"
    assert fmt(5e-324, 17) == "4.9406564584124654e-324"
    for digits in (0, -1, 18, 10**9):
        with pytest.raises(ValueError, match="digits must be 1 to 17"):
            tex(1e-300, digits)


def test_tex_term_puts_negatives_in_parentheses():
    assert (tex_term(-0.5), tex_term(0.5), tex_term(-1.2e-7)) == (
        "(-0.5)",
        "0.5",
        r"(-1.2 \times 10^{-7})",
    )
    assert tex_term(-1.000012, 6) == "(-1.00001)"


def test_decimal_tex_and_equals_sign():
    assert [decimal_tex(x) for x in (0.866, 1 / 3, 2.0, 1e-13)] == ["0.866", "0.3333", "2", "0"]
    assert [decimal_tex(x) for x in (1e-4, 1.2e-7, -0.00001)] == [
        "10^{-4}",
        r"1.2 \times 10^{-7}",
        r"-1 \times 10^{-5}",
    ]
    assert decimal_tex(-0.00004) == r"-4 \times 10^{-5}"
    assert (equals_sign(0.5), equals_sign(1 / 3), equals_sign(1e-4)) == (
        "=",
        r"\approx",
        r"\approx",
    )


def test_signed_cell_and_as_typed():
    assert (signed(0.935), signed(-0.935), signed(0)) == ("+0.935", "−0.935", "0")
    assert (cell(-0.5), cell(math.nan), cell(math.nan, nan="refused")) == ("−0.5", "NaN", "refused")
    assert (cell(math.inf), cell(-math.inf), cell(1e-7)) == ("∞", "−∞", "1e-7")
    assert as_typed(1000000.001) == "1000000.001"


def test_shortest_is_exact():
    assert [shortest(x) for x in (1.0, 0.1, 1e-7, -3.5)] == ["1", "0.1", "1e-07", "-3.5"]
    for x in (0.1 + 0.2, 1 / 3, 1e-300, 123456789.123):
        assert float(shortest(x)) == x


def test_digits_to_tell_apart():
    assert digits_to_tell_apart([1.0, 1.00000012]) == 8
    assert digits_to_tell_apart([1.0, 2.0]) == 4


def test_plural():
    assert [plural(n, "answer") for n in (0, 1, 3)] == ["0 answers", "1 answer", "3 answers"]
    assert plural(2, "Prompt", with_count=False) == "Prompts"
    assert plural(1, "Prompt", with_count=False) == "Prompt"
    assert plural(1_000_000, "answer") == "1,000,000 answers"


def test_subscripted_writes_the_index_below_the_line():
    assert subscripted("A", 2) == "A₂" and subscripted("R", "i") == "Rᵢ"
    assert subscripted("L", "max") == "Lₘₐₓ" and subscripted("k", 3) == "k₃"
    with pytest.raises(ValueError, match="no Unicode subscript"):
        subscripted("p", "old")  # no subscript d
