"""grpo_core.log_summary: hand-checked groups, steps and worst groups, and a loop oracle."""

import numpy as np
import pandas as pd
import pytest

from grpo_core.log_summary import (
    log_groups,
    log_totals,
    method_effects,
    step_summary,
    worst_groups,
)

LOG = pd.DataFrame(
    {
        "step": [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2],
        "prompt": ["a", "b", "a", "b", "c", "c", "a", "a", "b", "b", "c", "c"],
        "reward": [1.0, 0.0, 0.0, 0.0, 1.0, 1.0000001, 1.0, 1.0, 0.0, 1.0, 0.5, 0.5],
    }
)


def test_groups_collect_each_prompts_answers_per_step():
    g = log_groups(LOG)
    t = g.table
    assert t[["step", "prompt", "size"]].values.tolist() == [
        [1, "a", 2], [1, "b", 2], [1, "c", 2], [2, "a", 2], [2, "b", 2], [2, "c", 2],
    ]  # fmt: skip
    assert t["zero_spread"].tolist() == [False, True, False, True, False, True]
    assert t["near_tie"].tolist() == [False, False, True, False, False, False]
    assert t["first_row"].tolist() == [1, 2, 5, 7, 9, 11]
    np.testing.assert_array_equal(g.rewards_of(0), [1.0, 0.0])
    np.testing.assert_allclose(t["std"], [np.sqrt(0.5), 0, 1e-7 / np.sqrt(2), 0, np.sqrt(0.5), 0])
    assert t["std"][t["zero_spread"]].tolist() == [0.0, 0.0, 0.0]


def test_step_summary_by_hand():
    s = step_summary(log_groups(LOG))
    assert s["groups"].tolist() == [3, 3]
    np.testing.assert_allclose(s["zero_spread"], [1 / 3, 2 / 3])
    np.testing.assert_allclose(s["near_tie"], [1 / 3, 0])
    assert s["effective_batch"].tolist() == [4, 2]
    np.testing.assert_allclose(s["effective_fraction"], [4 / 6, 2 / 6])
    for step, row in s.set_index("step").iterrows():  # the loop oracle
        rewards = LOG.loc[LOG["step"] == step, "reward"]
        np.testing.assert_allclose(row["reward_mean"], rewards.mean())
        np.testing.assert_allclose(row["reward_std"], rewards.std(ddof=1), rtol=1e-6)


def test_totals_and_worst_groups():
    g = log_groups(LOG)
    totals = log_totals(g)
    assert totals["steps"] == 2 and totals["groups"] == 6 and totals["answers"] == 12
    np.testing.assert_allclose(totals["effective_fraction"], 0.5)
    worst = worst_groups(g, 2)
    assert worst["problem"].tolist() == ["near tie", "zero spread"]
    assert worst["prompt"].tolist() == ["c", "b"]
    assert worst["group"].tolist() == [2, 1]


def test_random_log_against_a_pandas_groupby():
    rng = np.random.default_rng(0)
    n = 3000
    frame = pd.DataFrame(
        {
            "step": rng.integers(0, 5, n),
            "prompt": rng.choice(list("abcdefg"), n),
            "reward": rng.integers(0, 3, n).astype(float),
        }
    )
    t = log_groups(frame).table.set_index(["step", "prompt"]).sort_index()
    oracle = frame.groupby(["step", "prompt"])["reward"].agg(["size", "mean", "std", "min", "max"])
    np.testing.assert_array_equal(t["size"], oracle["size"])
    np.testing.assert_allclose(t["mean"], oracle["mean"])
    np.testing.assert_allclose(t["std"], oracle["std"].fillna(0), atol=1e-12)
    np.testing.assert_array_equal(
        t["zero_spread"], (oracle["min"] == oracle["max"]) & (oracle["size"] > 1)
    )


def test_method_effects_on_binary_groups():
    frame = pd.DataFrame(
        {"step": 0, "prompt": list("aaaabbbbcccc"), "reward": [1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1]}
    )
    m = method_effects(log_groups(frame))
    np.testing.assert_allclose(m["mean"], [0.25, 0.5, 1.0])
    assert m["kept_by_dapo"].tolist() == [True, True, False]
    np.testing.assert_allclose(m["dr_grpo_push"], [0.375, 0.5, 0.0])
    # GRPO's push is Dr. GRPO's times the difficulty weight (eps aside)
    np.testing.assert_allclose(
        m["grpo_push"][:2], (m["dr_grpo_push"] * m["difficulty_weight"])[:2], rtol=1e-3
    )
    assert m["difficulty_weight"][2] == np.inf
    assert log_totals(log_groups(frame))["dapo_sampling_factor"] == pytest.approx(1.5)


def test_group_numbers_are_renumbered_only_when_not_in_first_appearance_order():
    from grpo_core.log_summary import group_codes, in_first_appearance_order

    blocks = pd.DataFrame(
        {
            "step": [1] * 4,
            "prompt": list("aabb"),
            "reward": [1.0, 0, 1, 0],
            "group_no": [0, 0, 1, 1],
        }
    )
    assert in_first_appearance_order(blocks["group_no"].to_numpy())
    assert group_codes(blocks).tolist() == [0, 0, 1, 1]
    later_first = blocks.assign(group_no=[2, 2, 0, 0])  # a step's rows read in step order
    assert not in_first_appearance_order(later_first["group_no"].to_numpy())
    assert group_codes(later_first).tolist() == [0, 0, 1, 1]
    apart = blocks.assign(group_no=[0, 1, 0, 1])
    assert group_codes(apart).tolist() == [0, 1, 0, 1]
    assert log_groups(apart).order.tolist() == [0, 2, 1, 3]
