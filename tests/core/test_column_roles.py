"""grpo_core.column_roles: the reward columns are the set that reproduces the advantages."""

import numpy as np
import pandas as pd
import pytest

from grpo_core import group_advantages
from grpo_core.column_roles import choose_rewards, column_roles, sample_rows, size_errors
from grpo_core.multi_reward import normalise_then_sum
from grpo_core.rollouts import ColumnMap, from_table

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


def k_log(k: int = 4, convention: str = "trl") -> pd.DataFrame:
    """One step of G groups of k answers, each prompt text once: a TRL-shaped table."""
    return pd.DataFrame(
        {
            "step": STEPS,
            "prompt": np.repeat([f"p{g}" for g in range(G)], K),
            "r": RIGHT,
            "advantage": group_advantages(RIGHT, group_size=k, convention=convention),
        }
    )


def hand_k(raw: pd.DataFrame, k: int):
    mapping = ColumnMap(
        prompt="prompt", rewards=("r",), step="step", advantage="advantage", group_size=k
    )
    return from_table(raw, "csv", list(raw.columns), mapping)


def test_a_hand_typed_k_that_reproduces_the_advantages_says_so():
    log = hand_k(k_log(), 4)
    assert log.grouping.size == 4 and not log.grouping.inferred
    assert log.grouping.reproduces is True
    assert not any("chosen by hand" in note for note in log.warnings)


@pytest.mark.parametrize("convention", ["verl", "rloo", "nemo-rl", "reinforce-pp", "openrlhf"])
def test_a_hand_typed_k_is_checked_under_every_convention(convention):
    assert hand_k(k_log(convention=convention), 4).grouping.reproduces is True
    wrong = hand_k(k_log(convention=convention), 8)
    assert wrong.grouping.reproduces is False
    assert "; K = 4 does. Set K to 4 under Columns." in wrong.warnings[0]


def test_a_wrong_hand_typed_k_names_the_k_that_reproduces_the_advantages():
    log = hand_k(k_log(), 8)  # 24 rows, groups of 4
    assert log.grouping.reproduces is False
    note = log.warnings[0]
    assert note.startswith("K = 8, chosen by hand, does not reproduce the logged advantages")
    assert "; K = 4 does. Set K to 4 under Columns." in note


def test_when_no_k_reproduces_the_advantages_the_reward_columns_are_blamed():
    raw = k_log().assign(advantage=RNG.normal(size=G * K))
    log = hand_k(raw, 4)
    assert log.grouping.reproduces is False
    assert (
        "no other K does with the reward columns 'r' (tried K = 2, 3, 4, 6, 8, 12"
        in (log.warnings[0])
    )
    assert log.warnings[0].endswith("check the reward columns.")


def test_size_errors_are_zero_only_at_the_true_k():
    errors = size_errors(k_log(), RIGHT[:, None], [2, 4, 8])
    assert errors[4] < 1e-12 and errors[8] > 1e-3
