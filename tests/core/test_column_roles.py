"""grpo_core.column_roles: the reward columns are the set that reproduces the advantages."""

import numpy as np
import pandas as pd

from grpo_core import group_advantages
from grpo_core.column_roles import choose_rewards, column_roles, sample_rows
from grpo_core.log_files import from_table
from grpo_core.multi_reward import normalise_then_sum
from grpo_core.rollouts import ColumnMap

RNG = np.random.default_rng(0)
K, G = 4, 6
CODES = np.repeat(np.arange(G), K)
STEPS = np.ones(G * K, dtype=int)
RIGHT = RNG.integers(0, 2, G * K).astype(float)
LENGTH = -0.1 * RNG.integers(1, 9, G * K)
DIGITS = RNG.integers(0, 5, G * K).astype(float)


def test_an_unnamed_second_reward_is_found():
    advantage = group_advantages(RIGHT + LENGTH, group_size=K, convention="trl")
    fit = choose_rewards(
        {"is_right": RIGHT, "length_penalty": LENGTH, "num_digits": DIGITS},
        CODES,
        STEPS,
        advantage,
        named=(),
    )
    assert fit.matched and fit.rewards == ("is_right", "length_penalty")


def test_a_numeric_extra_named_like_nothing_is_left_out():
    advantage = group_advantages(RIGHT, group_size=K, convention="trl")
    fit = choose_rewards(
        {"is_right": RIGHT, "num_digits": DIGITS},
        CODES,
        STEPS,
        advantage,
        named=("is_right", "num_digits"),
    )
    assert fit.rewards == ("is_right",)


def test_gdpo_advantages_count_as_a_match():
    advantage = normalise_then_sum(np.column_stack([RIGHT, LENGTH]), CODES)
    fit = choose_rewards({"a": RIGHT, "b": LENGTH}, CODES, STEPS, advantage, named=("a",))
    assert fit.matched and fit.rewards == ("a", "b")


def test_no_match_keeps_the_named_columns():
    fit = choose_rewards({"a": RIGHT}, CODES, STEPS, RNG.normal(size=G * K), named=("a",))
    assert not fit.matched and fit.rewards == ("a",)


def test_the_search_reads_whole_steps():
    steps = np.repeat([1, 2, 3], 10)
    assert sample_rows(steps, limit=25) == 20
    assert sample_rows(steps, limit=5) == 10  # at least one step


def test_roles_of_every_column():
    roles = column_roles(
        ["step", "prompt", "r", "n", "t", "x"],
        {"r", "n", "x"},
        ("r",),
        ("x",),
        {"step": "step", "prompt": "prompt"},
    )
    assert roles == {
        "step": "step",
        "prompt": "prompt",
        "r": "reward",
        "n": "extra",
        "t": "extra (text)",
        "x": "ignored",
    }


def test_a_hand_chosen_reward_set_is_kept_even_when_it_does_not_reproduce():
    raw = pd.DataFrame(
        {
            "step": STEPS,
            "prompt": np.repeat([f"p{g}" for g in range(G)], K),
            "r": RIGHT,
            "n": DIGITS,
            "advantage": group_advantages(RIGHT, group_size=K, convention="trl"),
        }
    )
    mapping = ColumnMap(
        prompt="prompt", rewards=("r", "n"), step="step", advantage="advantage", chosen=True
    )
    log = from_table(raw, "csv", list(raw.columns), mapping)
    assert log.mapping.rewards == ("r", "n")
    assert not log.reward_fit.matched
