"""grpo_core.rewards: shapes, ranges, seeding, scenarios, and bad parameters."""

import numpy as np
import pytest

from grpo_core import group_advantages
from grpo_core.rewards import (
    SCENARIOS,
    binary_verifier,
    reward_model_scores,
    unit_test_credit,
)


def rng(seed=0):
    return np.random.default_rng(seed)


def test_binary_verifier_is_zero_one_with_the_pass_rate():
    r = binary_verifier(rng(), 200, 50, pass_rate=0.3)
    assert r.shape == (200, 50) and set(np.unique(r)) <= {0.0, 1.0}
    assert r.mean() == pytest.approx(0.3, abs=0.02)


def test_binary_verifier_per_prompt_pass_rates():
    r = binary_verifier(rng(), 3, 1000, pass_rate=[0.0, 1.0, 0.5])
    assert r[0].sum() == 0 and r[1].sum() == 1000 and 400 < r[2].sum() < 600


def test_unit_test_credit_is_k_over_n():
    r = unit_test_credit(rng(), 100, 16, num_tests=4, pass_prob=0.5)
    assert set(np.unique(r)) <= {0, 0.25, 0.5, 0.75, 1.0}
    assert r.mean() == pytest.approx(0.5, abs=0.03)


def test_reward_model_scores_spread_between_and_within_prompts():
    r = reward_model_scores(rng(), 400, 32, difficulty_spread=2.0, noise=0.1)
    assert r.mean(1).std() == pytest.approx(2.0, rel=0.15)
    assert r.std(1, ddof=1).mean() == pytest.approx(0.1, rel=0.1)


def test_same_seed_same_rewards():
    for scenario in SCENARIOS.values():
        np.testing.assert_array_equal(scenario.make(rng(7), 3, 8), scenario.make(rng(7), 3, 8))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_makes_valid_groups(name):
    rewards = SCENARIOS[name].make(rng(), 4, 8)
    assert rewards.shape == (4, 8) and np.all(np.isfinite(rewards))
    group_advantages(rewards, convention="trl")  # every scenario is valid engine input


def test_scenarios_show_what_they_say():
    assert np.all(group_advantages(SCENARIOS["all-correct"].make(rng(), 2, 8)) == 0)
    assert np.all(group_advantages(SCENARIOS["all-wrong"].make(rng(), 2, 8)) == 0)
    one = SCENARIOS["one-success"].make(rng(), 5, 16)
    assert np.all(one.sum(1) == 1)
    a = group_advantages(one, convention="zscore")
    np.testing.assert_allclose(a.max(1), np.sqrt(15), rtol=1e-12)  # sqrt((1-p)/p), p = 1/16
    two = SCENARIOS["two-scales"].make(rng(), 2, 8)
    assert two[0].max() <= 1 and two[1].max() > 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: binary_verifier(rng(), 0, 4), "num_prompts must be a whole number >= 1"),
        (lambda: binary_verifier(rng(), 2, 2.5), "group_size must be a whole number"),
        (lambda: binary_verifier(rng(), 2, 4, pass_rate=1.5), "pass_rate must lie between 0"),
        (lambda: binary_verifier(rng(), 2, 4, pass_rate=[0.5]), "one per prompt"),
        (lambda: binary_verifier(rng(), 2, 4, pass_rate="high"), "pass_rate must be"),
        (lambda: binary_verifier(rng(), 1000, 1000), "more than the 100,000"),
        (lambda: unit_test_credit(rng(), 2, 4, num_tests=0), "num_tests must be"),
        (lambda: reward_model_scores(rng(), 2, 4, noise=-1), "noise must be a finite number"),
    ],
)
def test_bad_parameters(call, message):
    with pytest.raises(ValueError, match=message):
        call()
