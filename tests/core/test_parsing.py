"""grpo_core.parsing: what people type into a reward cell."""

import math

import pytest

from grpo_core.parsing import parse_reward, parse_reward_grid


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.5", 0.5), (" 1 ", 1.0), ("-2", -2.0), ("−2", -2.0), (".5", 0.5), ("+3", 3.0),
        ("1e-3", 1e-3), ("1E3", 1000.0), (2, 2.0), (0.25, 0.25), ("", None), ("   ", None),
        (None, None), (math.nan, None),
    ],
)  # fmt: skip
def test_numbers_people_type(text, value):
    assert parse_reward(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "'abc' is not a number"),
        ("nan", "NaN is not a reward"),
        ("inf", "infinite"),
        ("-inf", "infinite"),
        ("1e400", "infinite"),
        ("1e200", "too large"),
        ("0,5", "decimal comma; write 0.5"),
        ("<script>alert(1)</script>", "is not a number"),
        ("9" * 5_000_000, "characters long"),
        (True, "not a number"),
        (math.inf, "infinite"),
    ],
)
def test_bad_cells_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        parse_reward(text)


def test_grid_leaves_out_blanks_and_reports_bad_cells_by_position():
    parsed = parse_reward_grid([["1", "", "0"], ["x", "2", "nan"]])
    assert parsed.groups == [[1.0, 0.0], [2.0]]
    assert parsed.blanks == 1
    assert [str(e) for e in parsed.errors] == [
        "Prompt 2, answer 1: 'x' is not a number.",
        "Prompt 2, answer 3: NaN is not a reward; type a number.",
    ]
