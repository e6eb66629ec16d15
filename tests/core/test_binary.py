"""grpo_core.binary: closed forms for right/wrong rewards against the core, sampled groups."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import group_advantages
from grpo_core.binary import (
    binary_advantages,
    difficulty_bias_frame,
    dr_grpo_binary_advantages,
    group_pass_rates,
    pass_rate_grid,
    sampled_binary_groups,
    std_weight,
    zero_spread_probability,
)
from grpo_core.sentences import (
    explain_difficulty_bias,
)


def test_one_success_in_sixteen():
    correct, wrong = binary_advantages(1 / 16)
    assert correct == pytest.approx(math.sqrt(15), rel=1e-14)  # 3.873
    assert wrong == pytest.approx(-1 / math.sqrt(15), rel=1e-14)
    assert std_weight(1 / 16) == pytest.approx(16 / math.sqrt(15), rel=1e-14)


@pytest.mark.parametrize("k_total", [2, 4, 8, 16])
@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("eps", [0.0, 1e-4])
def test_binary_closed_form_matches_the_core(k_total, ddof, eps):
    for k in range(1, k_total):
        rewards = [1.0] * k + [0.0] * (k_total - k)
        core = group_advantages(rewards, convention="zscore", ddof=ddof, eps=eps)
        correct, wrong = binary_advantages(k / k_total, ddof=ddof, group_size=k_total, eps=eps)
        assert core[0] == pytest.approx(correct, rel=1e-12)
        assert core[-1] == pytest.approx(wrong, rel=1e-12)


def test_ddof_one_multiplies_by_sqrt_k_minus_one_over_k():
    p = np.array([0.1, 0.25, 0.5, 0.9])
    pop = np.stack(binary_advantages(p))
    sample = np.stack(binary_advantages(p, ddof=1, group_size=4))
    np.testing.assert_allclose(sample / pop, math.sqrt(3 / 4), rtol=1e-14)
    np.testing.assert_allclose(
        std_weight(p, ddof=1, group_size=4) / std_weight(p), math.sqrt(3 / 4), rtol=1e-14
    )


def test_edges_all_equal_group_gets_zero_and_the_missing_answer_nan():
    correct, wrong = binary_advantages([0.0, 1.0])
    assert np.isnan(correct[0]) and wrong[0] == 0.0
    assert correct[1] == 0.0 and np.isnan(wrong[1])
    correct, wrong = dr_grpo_binary_advantages(np.array([0.0, 1.0]))
    assert np.isnan(correct[0]) and wrong[0] == 0.0 and correct[1] == 0.0
    assert np.all(np.isinf(std_weight([0.0, 1.0])))
    assert std_weight(0.5) == 2.0


def test_dr_grpo_binary_matches_the_core():
    assert dr_grpo_binary_advantages(0.25) == (0.75, -0.25)
    core = group_advantages([1.0, 0.0, 0.0, 0.0], convention="dr-grpo")
    np.testing.assert_allclose(core, [0.75, -0.25, -0.25, -0.25])


@settings(max_examples=100, deadline=None)
@given(p=st.floats(1e-6, 1 - 1e-6), ddof=st.sampled_from([0, 1]), k=st.integers(2, 64))
def test_binary_advantages_balance_and_unit_variance(p, ddof, k):
    correct, wrong = binary_advantages(p, ddof=ddof, group_size=k)
    assert p * correct + (1 - p) * wrong == pytest.approx(0, abs=1e-9)  # sum to zero
    second_moment = p * correct**2 + (1 - p) * wrong**2
    assert second_moment == pytest.approx(1 if ddof == 0 else (k - 1) / k, rel=1e-9)


def test_difficulty_bias_frame_and_explanation():
    f = difficulty_bias_frame([0.1, 0.5])
    assert len(f) == 8
    grpo = f[(f["method"] == "GRPO") & (f["answer"] == "correct")]
    np.testing.assert_allclose(grpo["advantage"], [3.0, 1.0])
    np.testing.assert_allclose(grpo["weight"], [1 / math.sqrt(0.09), 2.0])
    assert (f[f["method"] == "Dr. GRPO"]["weight"] == 1).all()
    text = " ".join(explain_difficulty_bias((0.05, 0.5, 1.0)))
    assert "4.36" in text and "2.29 times" in text and "no learning signal" in text


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: binary_advantages(1.5), "between 0 and 1"),
        (lambda: binary_advantages(-0.1), "between 0 and 1"),
        (lambda: binary_advantages(0.5, ddof=1), "needs the group size K"),
        (lambda: std_weight(0.5, ddof=1, group_size=1), "group_size must be a whole number >= 2"),
        (lambda: binary_advantages("half"), "probability"),
        (lambda: binary_advantages(0.5, eps=-1), "eps must be"),
    ],
)
def test_binary_input_refused_in_plain_words(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_sampled_groups_lie_on_the_curve_and_skip_zero_spread():
    rng = np.random.default_rng(0)
    p = [0.05, 0.3, 0.5, 0.95]
    s = sampled_binary_groups(p, 8, rng, 2000)
    g = s.groups
    assert (g["std"] > 0).all()
    # each sampled weight is the analytic curve at the group's own pass rate
    np.testing.assert_allclose(g["weight"], std_weight(g["p_hat"].to_numpy()), rtol=1e-12)
    assert set(g["p_hat"] * 8) <= set(range(1, 8))
    # zero-spread fraction against p^K + (1-p)^K (sd <= 0.012 with 2000 groups)
    np.testing.assert_allclose(
        s.summary["zero_spread_fraction"], s.summary["zero_spread_probability"], atol=0.05
    )
    np.testing.assert_allclose(s.summary["analytic_weight"], std_weight(p))
    assert len(g) == round((1 - s.summary["zero_spread_fraction"]).sum() * 2000)


def test_sampled_groups_with_sample_std():
    s = sampled_binary_groups([0.5], 4, np.random.default_rng(1), 50, ddof=1)
    expected = std_weight(s.groups["p_hat"].to_numpy(), ddof=1, group_size=4)
    np.testing.assert_allclose(s.groups["weight"], expected, rtol=1e-12)


def test_zero_spread_probability_closed_form():
    assert zero_spread_probability(0.5, 2) == 0.5
    assert zero_spread_probability(0.5, 8) == 2 / 256
    assert zero_spread_probability(0.1, 4) == pytest.approx(0.9**4 + 0.1**4, rel=1e-15)
    assert zero_spread_probability(0.0, 16) == 1.0 and zero_spread_probability(1.0, 16) == 1.0
    assert zero_spread_probability(0.3, 1) == 1.0
    grid = zero_spread_probability(np.array([[0.1], [0.5], [0.9]]), np.array([2, 4, 8, 16]))
    assert grid.shape == (3, 4)
    assert np.all(np.diff(grid, axis=1) < 0)  # more answers, fewer all-equal groups


@settings(max_examples=100, deadline=None)
@given(p=st.floats(0, 1), k=st.integers(1, 40))
def test_zero_spread_is_one_minus_the_mixed_outcomes(p, k):
    mixed = sum(math.comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(1, k))
    assert zero_spread_probability(p, k) == pytest.approx(1 - mixed, abs=1e-12)


@pytest.mark.parametrize(
    ("p", "k", "message"),
    [
        (0.5, 0, "group_size must be a whole number >= 1"),
        (0.5, 2.5, "group_size must be a whole number"),
        (1.2, 4, "between 0 and 1"),
        ([0.1, 0.2], [2, 3, 4], "do not broadcast"),
    ],
)
def test_zero_spread_input_refused(p, k, message):
    with pytest.raises(ValueError, match=message):
        zero_spread_probability(p, k)


def test_pass_rate_grids():
    np.testing.assert_allclose(pass_rate_grid(), np.arange(1, 100) / 100)
    assert pass_rate_grid(1).tolist() == [0.5]
    assert group_pass_rates(4).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(ValueError, match="group_size must be a whole number >= 1"):
        group_pass_rates(0)
