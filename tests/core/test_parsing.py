"""grpo_core.parsing: what people type into a reward cell."""

import math

import pytest

from grpo_core.parsing import ascii_minus, parse_reward, parse_reward_grid, parse_reward_text


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
    assert parsed.answers == [[1, 3], [2]]  # each reward's row: kept past a cell left out
    assert [str(e) for e in parsed.errors] == [
        "Prompt 2, answer 1: 'x' is not a number.",
        "Prompt 2, answer 3: NaN is not a reward; type a number.",
    ]


# --- rewards typed on one line --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("1, 0, 1; 0.5, 2", [[1.0, 0.0, 1.0], [0.5, 2.0]]),
        ("1 0 1", [[1.0, 0.0, 1.0]]),
        ("1,0,,1 ;", [[1.0, 0.0, 1.0]]),  # empty items and a trailing prompt are skipped
        ("3\n5", [[3.0], [5.0]]),
        ("−2, 1e-3", [[-2.0, 1e-3]]),
        ("", []),
        (None, []),
    ],
)
def test_reward_text(text, groups):
    parsed = parse_reward_text(text, max_prompts=8, max_answers=64)
    assert parsed.groups == groups and parsed.errors == []


def test_reward_text_names_what_is_not_a_number_and_keeps_the_rest():
    parsed = parse_reward_text("1, abc; 2, nan, 3", max_prompts=8, max_answers=64)
    assert parsed.groups == [[1.0], [2.0, 3.0]]
    assert [str(e) for e in parsed.errors] == [
        "Prompt 1, answer 2: 'abc' is not a number.",
        "Prompt 2, answer 2: NaN is not a reward; type a number.",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1; 2; 3", "3 prompts were typed; at most 2"),
        (", ".join(["1"] * 5), "prompt 1 has 5 rewards; at most 4"),
        ("1," * 3000, "characters long"),
    ],
)
def test_reward_text_too_much_is_refused_in_plain_words(text, message):
    with pytest.raises(ValueError, match=message):
        parse_reward_text(text, max_prompts=2, max_answers=4)


def test_ascii_minus_turns_every_pasted_minus_into_the_hyphen_minus():
    assert ascii_minus("−1, –2, ﹣3, －4, -5, 1e−6") == "-1, -2, -3, -4, -5, 1e-6"
    assert ascii_minus("0.5_1~2") == "0.5_1~2"
