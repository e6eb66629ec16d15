"""Sum-then-normalise (TRL) against normalise-then-sum (GDPO), by hand and against a loop."""

import numpy as np
import pytest

from grpo_core import group_advantages
from grpo_core.multi_reward import (
    collapsed,
    compare_aggregations,
    normalise_then_sum,
    sum_then_normalise,
)

# One group of 4: accuracy 0/1, a length reward on a 0-10 scale that prefers the wrong answers.
REWARDS = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 9.0], [0.0, 10.0]])
GROUPS = np.zeros(4, dtype=int)


def test_sum_then_normalise_is_the_group_advantage_of_the_weighted_sum():
    a = sum_then_normalise(REWARDS, GROUPS, weights=[1.0, 0.5])
    total = REWARDS[:, 0] + 0.5 * REWARDS[:, 1]
    np.testing.assert_allclose(a, group_advantages(total, convention="trl"))


def test_normalise_then_sum_by_a_loop():
    def z(x):
        return (x - x.mean()) / (x.std(ddof=1) + 1e-4)

    expected = z(z(REWARDS[:, 0]) + z(REWARDS[:, 1]))
    np.testing.assert_allclose(normalise_then_sum(REWARDS, GROUPS), expected, rtol=1e-12)


def test_the_large_scale_reward_flips_the_right_answers_only_in_the_sum():
    frame = compare_aggregations(REWARDS, GROUPS, names=["accuracy", "length"])
    summed = frame["sum then normalise"].to_numpy()
    split = frame["normalise then sum"].to_numpy()
    assert np.all(summed[:2] < 0)  # length dominates the sum: right answers pushed down
    # each reward counts once: answer 2 (right, and not the shortest) is pushed up
    assert split[1] > 0 and frame["sign_changed"].tolist() == [False, True, True, False]
    assert list(frame.columns[:3]) == ["group", "accuracy", "length"]


def test_sign_changes_are_flagged():
    rewards = np.array([[1.0, 0.0], [0.0, 3.0], [0.0, 0.0], [1.0, 1.0]])
    frame = compare_aggregations(rewards, GROUPS)
    summed, split = frame["sum then normalise"], frame["normalise then sum"]
    assert frame["sign_changed"].tolist() == list(np.sign(summed) * np.sign(split) < 0)
    assert frame["sign_changed"].any()


def test_nan_scores_count_as_zero_in_the_sum_and_bad_weights_are_refused():
    rewards = np.array([[1.0, np.nan], [0.0, 1.0]])
    np.testing.assert_allclose(
        sum_then_normalise(rewards, [0, 0]), group_advantages([1.0, 1.0], convention="trl")
    )
    with pytest.raises(ValueError, match="one number per reward function"):
        sum_then_normalise(REWARDS, GROUPS, weights=[1.0])
    with pytest.raises(ValueError, match="shape"):
        sum_then_normalise([1.0, 0.0], [0, 0])


def test_collapse_summing_ties_distinct_combinations_gdpo_separates_them():
    rewards = [(1.0, 0.0), (0.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
    ids = [0, 0, 0, 0]
    summed = sum_then_normalise(rewards, ids)
    split = normalise_then_sum(rewards, ids)
    # sums (1, 1, 1, 0): the correct-unformatted answer ties with the formatted-wrong ones
    assert collapsed(rewards, ids, summed).tolist() == [True, True, True, False]
    assert not collapsed(rewards, ids, split).any()
    assert split[0] > split[1] == split[2] > 0 > split[3]
    # equal combinations are not a collapse; other groups do not count
    assert not collapsed([(1.0, 0.0), (1.0, 0.0)], [0, 0], [0.0, 0.0]).any()
    assert not collapsed([(1.0, 0.0), (0.0, 1.0)], [0, 1], [0.0, 0.0]).any()
    with pytest.raises(ValueError, match="advantages"):
        collapsed(rewards, ids, [0.0, 1.0])


def test_gdpo_normalises_each_batch_on_its_own():
    def z(x):
        return (x - x.mean()) / (x.std(ddof=1) + 1e-4)

    steps = np.repeat([1, 2], len(REWARDS))
    rewards = np.concatenate([REWARDS, REWARDS[::-1] * 3.0])
    groups = np.concatenate([GROUPS, np.asarray(GROUPS) + 100])
    a = normalise_then_sum(rewards, groups, batch_ids=steps)
    for step in (1, 2):
        rows = steps == step
        r, g = rewards[rows], groups[rows]
        per = sum(np.concatenate([z(r[g == k, f]) for k in dict.fromkeys(g)]) for f in range(2))
        np.testing.assert_allclose(a[rows], z(per), rtol=1e-12)
    whole = compare_aggregations(rewards, groups, batch_ids=steps)["normalise then sum"]
    np.testing.assert_allclose(whole, a)
