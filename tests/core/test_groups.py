"""grpo_core.groups: every bad input gets a ValueError that names the position."""

import math

import numpy as np
import pytest

from grpo_core import group_advantages


@pytest.mark.parametrize(
    ("rewards", "kwargs", "message"),
    [
        ([[1, 2, 3], [4, 5, math.nan]], {}, r"reward 3 of prompt 2 is NaN"),
        ([1, 2, math.inf, 4], {"group_size": 2}, r"reward 1 of prompt 2 is \+infinite"),
        ([1, -math.inf], {}, r"reward 2 is -infinite"),
        ([1, 2e150], {}, r"reward 2 is 2e\+150, too large"),
        ([[1, 2], [3, "abc"]], {}, r"reward 2 of prompt 2 is the text 'abc', not a number"),
        ([1, None, 3, 4], {"group_size": 2}, r"reward 2 of prompt 1 is empty"),
        ([], {}, r"no rewards given"),
        (np.zeros((0, 4)), {}, r"no rewards given"),
        (3.0, {}, r"not a single number"),
        ("1,2,3", {}, r"not text"),
        ([[1, 2], [3]], {}, r"different lengths"),
        (np.zeros((2, 2, 2)), {}, r"got 3 dimensions"),
        ([1, 2, 3, 4, 5], {"group_size": 2}, r"group_size=2 does not divide the 5 rewards"),
        ([1, 2, 3, 4], {"group_size": 0}, r"group_size must be a whole number >= 1"),
        ([1, 2, 3, 4], {"group_size": 2.5}, r"group_size must be a whole number"),
        ([[1, 2], [3, 4]], {"group_size": 3}, r"does not match the 2 rewards per row"),
        ([1, 2, 3], {"group_ids": ["a", "b"]}, r"group_ids has 2 ids for 3 rewards"),
        ([1, 2, 3], {"group_ids": ["a", None, "a"]}, r"group id of reward 2 is missing"),
        ([1, 2], {"group_ids": [[1], [2]]}, r"group ids must be hashable"),
        ([1, math.nan, 3], {"group_ids": ["a", "b", "b"]}, r"reward 2 \(group 'b'\) is NaN"),
        ([1, 2], {"group_ids": ["a", "a"], "group_size": 2}, r"not both"),
        ([[1, 2]], {"convention": "ppo"}, r"unknown convention 'ppo'"),
        ([[1, 2]], {"eps": -1.0}, r"eps must be a finite number >= 0"),
        ([1, 2, 3], {"group_ids": ["a", "b", "b"]}, r"group 'a' has only one reward"),
        ([1 + 2j, 3], {}, r"not complex"),
    ],
)
def test_bad_input_is_a_plain_words_value_error(rewards, kwargs, message):
    with pytest.raises(ValueError, match=message):
        group_advantages(rewards, **kwargs)


def test_integer_and_boolean_rewards_are_numbers():
    a = group_advantages([True, False, True, True])
    np.testing.assert_array_equal(a, group_advantages([1.0, 0.0, 1.0, 1.0]))


def test_input_is_not_modified():
    rewards = np.array([[1.0, 2.0, 4.0]])
    group_advantages(rewards)
    np.testing.assert_array_equal(rewards, [[1.0, 2.0, 4.0]])
