"""grpo_core.analysis: closed forms, the core as oracle, simulations in expectation."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.analysis import (
    DIFFICULTY_POOLS,
    EPS_RANGE,
    LIBRARY_EPS,
    all_equal_outcomes,
    binary_advantages,
    compare_conventions,
    conventions_table,
    difficulty_bias_frame,
    difficulty_pool,
    dr_grpo_binary_advantages,
    eps_grid,
    eps_regime,
    eps_steps,
    eps_sweep,
    eps_sweep_frame,
    explain_differences,
    explain_difficulty_bias,
    float32_advantages,
    group_pass_rates,
    numpy_snippet,
    pass_rate_grid,
    precision_report,
    regime_bounds,
    sampled_binary_groups,
    scaling_comparison,
    simulate_dynamic_sampling,
    std_weight,
    zero_spread_probability,
)

R4 = [1.0, 2.0, 3.0, 6.0]  # mean 3, centred [-2, -1, 0, 3], sum of squares 14
CENTRED4 = np.array([-2.0, -1.0, 0.0, 3.0])
NEAR_TIE = [1.0, 1.0 + 1.2e-7, 1.0, 1.0]  # the notes' example
TWO_SCALES = [[0.0, 1.0, 0.0, 1.0], [0.0, 100.0, 50.0, 100.0]]
BIG = 1e6 + np.array([0.0, 1e-3, 2e-3, 3e-3])


# --- eps ----------------------------------------------------------------------------


def test_library_eps_read_from_the_registry():
    assert LIBRARY_EPS == {"TRL": 1e-4, "verl": 1e-6, "OpenRLHF": 1e-9}


def test_eps_sweep_is_the_closed_form():
    eps = [0.0, 1e-4, 1.0]
    a = eps_sweep(R4, eps)
    assert a.shape == (3, 4)
    expected = CENTRED4[None, :] / (math.sqrt(14 / 3) + np.array(eps)[:, None])
    np.testing.assert_allclose(a, expected, rtol=1e-14)
    pop = eps_sweep(R4, [0.0], ddof=0)
    np.testing.assert_allclose(pop[0], CENTRED4 / math.sqrt(14 / 4), rtol=1e-14)


@pytest.mark.parametrize("convention", ["trl", "verl", "openrlhf"])
def test_eps_sweep_at_a_library_eps_is_that_library(convention):
    eps = CONVENTIONS[convention].eps
    expected = group_advantages(NEAR_TIE, convention=convention)
    np.testing.assert_allclose(eps_sweep(NEAR_TIE, [eps])[0], expected, rtol=1e-12)


def test_eps_sweep_all_equal_group_is_zero_for_every_eps():
    assert np.all(eps_sweep([0.7] * 5, [0.0, 1e-12, 1e-4, 1.0]) == 0.0)


def test_large_eps_tends_to_centred_over_eps():
    eps = 1e3  # std sqrt(14/3) ≈ 2.16, so std / eps ≈ 2e-3
    a = eps_sweep(R4, [eps])[0]
    np.testing.assert_allclose(a * eps, CENTRED4, rtol=3e-3)


@pytest.mark.parametrize(
    ("std", "eps", "regime"),
    [
        (0.0, 1e-4, "no spread"),
        (0.0, 0.0, "no spread"),
        (1e-3, 1e-4, "z-score"),  # exactly 10 eps
        (1.0, 0.0, "z-score"),
        (1e-4, 1e-4, "transition"),
        (9.9e-4, 1e-4, "transition"),
        (1e-5, 1e-4, "damped"),  # exactly eps / 10
        (1.2e-7, 1e-4, "damped"),
    ],
)
def test_eps_regime_with_factor_ten(std, eps, regime):
    assert eps_regime(std, eps) == regime


def test_regime_bounds():
    assert regime_bounds(1e-3) == pytest.approx((1e-4, 1e-2))


def test_eps_sweep_frame_is_long_with_limits():
    f = eps_sweep_frame(R4, [0.0, 1.0])
    assert len(f) == 8
    assert f.columns.tolist() == [
        "eps", "answer", "reward", "advantage", "regime", "std", "z_score", "damped_limit",
    ]  # fmt: skip
    assert f["answer"].tolist() == [1, 2, 3, 4] * 2
    at_zero = f[f["eps"] == 0]
    np.testing.assert_allclose(at_zero["advantage"], at_zero["z_score"])
    assert np.isinf(at_zero["damped_limit"].iloc[0]) and at_zero["damped_limit"].iloc[2] == 0
    np.testing.assert_allclose(f[f["eps"] == 1]["damped_limit"], CENTRED4)
    assert f["regime"].tolist() == ["z-score"] * 4 + ["transition"] * 4


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: eps_sweep(R4, [1e-4, -1e-4]), "finite number >= 0"),
        (lambda: eps_sweep(R4, [math.nan]), "finite number >= 0"),
        (lambda: eps_sweep(R4, []), "non-empty"),
        (lambda: eps_sweep(R4, [2.2e-313]), "0 or at least 1e-300"),
        (lambda: precision_report(R4, eps=1e-310), "0 or at least 1e-300"),
        (lambda: eps_sweep([[1, 2], [3, 4]], [0.0]), "one group"),
        (lambda: eps_sweep([], [0.0]), "no rewards"),
        (lambda: eps_sweep([1, math.inf], [0.0]), "finite"),
        (lambda: eps_sweep(R4, [0.0], ddof=2), "ddof must be 0"),
        (lambda: eps_regime(-1.0, 1e-4), "std must be"),
        (lambda: eps_regime(1.0, -1e-4), "eps must be"),
    ],
)
def test_eps_input_refused_in_plain_words(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@settings(max_examples=100, deadline=None)
@given(
    rewards=st.lists(st.floats(-100, 100), min_size=2, max_size=10),
    eps=st.lists(st.just(0.0) | st.floats(1e-300, 10), min_size=2, max_size=8),
)
def test_advantages_shrink_as_eps_grows(rewards, eps):
    a = np.abs(eps_sweep(rewards, sorted(eps)))
    assert np.all(np.diff(a, axis=0) <= 1e-12 * (1 + a[:-1]))


# --- all-equal groups and float32 ----------------------------------------------------


def test_all_equal_group_every_convention_gives_zero_float32_eps_zero_gives_nan():
    f = all_equal_outcomes(1.0, 4)
    assert f["setting"].tolist()[: len(CONVENTIONS)] == list(CONVENTIONS)
    assert np.all(f["advantage"].iloc[: len(CONVENTIONS)] == 0.0)
    raw = f.set_index("setting")["advantage"]
    assert math.isnan(raw["float32, eps = 0"]) and "NaN" in f["why"].iloc[-2]
    assert raw["float32, eps = 0.0001"] == 0.0


def test_float32_rounding_of_a_tie_becomes_full_size_advantages_without_eps():
    # In float32 the mean of seven 0.1s is not 0.1: every R - mean is the same residue c,
    # so std = sqrt(7 c² / 6) and c / std = ±sqrt(6/7), one sign for the whole group.
    f = all_equal_outcomes(0.1, 7).set_index("setting")["advantage"]
    assert abs(f["float32, eps = 0"]) == pytest.approx(math.sqrt(6 / 7), rel=1e-6)
    assert abs(f["float32, eps = 0.0001"]) < 1e-3


def test_float32_cannot_represent_a_spread_of_1e_minus_3_at_1e6():
    assert np.spacing(np.float32(1e6)) == 0.0625
    assert np.all(float32_advantages(BIG, eps=1e-4) == 0.0)  # every reward rounds to 1e6
    assert np.all(np.isnan(float32_advantages(BIG, eps=0.0)))  # 0/0
    report = precision_report(BIG, eps=1e-4)
    assert report.float32_spacing == 0.0625
    assert (report.distinct_float64, report.distinct_float32) == (4, 1)
    assert np.all(report.rewards_float32 == 1e6)
    # float64: centred [-1.5, -0.5, 0.5, 1.5]e-3 over std sqrt(5e-6 / 3) + 1e-4
    expected = np.array([-1.5, -0.5, 0.5, 1.5]) * 1e-3 / (math.sqrt(5e-6 / 3) + 1e-4)
    np.testing.assert_allclose(report.advantages_float64, expected, rtol=1e-6)
    assert report.relative_error == 1.0
    assert "0.0625 apart" in report.summary() and "become one value" in report.summary()
    assert report.to_frame()["error"].abs().max() == pytest.approx(report.max_abs_error)


def test_float32_keeps_part_of_a_coarser_spread_at_1e6():
    report = precision_report(1e6 + np.array([0.0, 0.1, 0.2, 0.3]), eps=1e-4)
    # float32 stores 1e6 + [0, 0.125, 0.1875, 0.3125]
    np.testing.assert_array_equal(report.rewards_float32 - 1e6, [0, 0.125, 0.1875, 0.3125])
    assert 0.1 < report.relative_error < 1


def test_float32_advantages_on_rows_match_each_row():
    rows = np.array([[0.1, 0.5, 0.9], [2.0, 3.0, 7.0]])
    both = float32_advantages(rows, eps=1e-4)
    for r, a in zip(rows, both, strict=True):
        np.testing.assert_array_equal(a, float32_advantages(r, eps=1e-4))


@settings(max_examples=150, deadline=None)
@given(
    rewards=st.lists(st.floats(-10, 10), min_size=2, max_size=16),
    eps=st.sampled_from([0.0, 1e-9, 1e-6, 1e-4]),
    ddof=st.sampled_from([0, 1]),
)
def test_float32_agrees_with_float64_on_modest_rewards(rewards, eps, ddof):
    r = np.asarray(rewards)
    if r.std() < 0.1:  # a tie or near tie is a different story (tested above)
        return
    a32 = float32_advantages(r, eps=eps, ddof=ddof)
    a64 = group_advantages(r, convention="zscore", eps=eps, ddof=ddof)
    # float32 rounding (1.2e-7) amplified by cancellation, |R| / std: about 1e-6 here
    condition = 1 + np.abs(r).max() / r.std()
    tol = 4 * np.finfo(np.float32).eps * condition * max(1.0, np.abs(a64).max())
    assert np.abs(a32 - a64).max() <= tol


def test_float32_agrees_to_about_1e_minus_6_on_unit_rewards():
    report = precision_report([0.1, 0.5, 0.9, 0.3, 0.7], eps=1e-4)
    assert report.max_abs_error < 1e-6 and report.relative_error < 1e-6
    assert report.distinct_float32 == 5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: float32_advantages([1.0], eps=1e-4), "no sample std"),
        (lambda: float32_advantages([1.0, 1e39], eps=1e-4), "float32's range"),
        (lambda: float32_advantages(R4, eps=-1.0), "eps must be"),
        (lambda: float32_advantages("1, 2", eps=1e-4), "not text"),
        (lambda: all_equal_outcomes(1.0, 1), "group_size must be a whole number >= 2"),
        (lambda: all_equal_outcomes(math.nan, 4), "value must be a finite number"),
    ],
)
def test_float32_input_refused_in_plain_words(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- conventions side by side -------------------------------------------------------


def test_compare_conventions_is_every_convention_through_the_core():
    c = compare_conventions(TWO_SCALES)
    assert c.frame.columns.tolist() == ["prompt", "answer", "reward", *CONVENTIONS]
    assert c.refusals == {}
    for name in CONVENTIONS:
        expected = group_advantages(TWO_SCALES, convention=name).ravel()
        np.testing.assert_array_equal(c.frame[name].to_numpy(), expected)
    long = c.long()
    assert len(long) == 8 * len(CONVENTIONS)
    assert set(long.columns) == {"prompt", "answer", "reward", "convention", "advantage"}


def test_groups_of_one_refused_by_most_passed_through_by_verl():
    c = compare_conventions([3.0, 5.0], group_size=1)
    assert set(c.refusals) == {"trl", "trl-batch", "dr-grpo", "openrlhf", "rloo"}
    assert all("only one reward" in why for why in c.refusals.values())
    assert c.frame[list(c.refusals)].isna().all().all()
    np.testing.assert_allclose(c.frame["verl"], [3 / (1 + 1e-6), 5 / (1 + 1e-6)], rtol=1e-15)
    assert c.frame["zscore"].tolist() == [0.0, 0.0]
    (sentence,) = explain_differences([3.0, 5.0], group_size=1)
    assert "verl passes each lone reward through" in sentence and "refuse" in sentence
    assert "trl, trl-batch, dr-grpo, openrlhf, rloo" in sentence


def test_bad_rewards_are_not_mistaken_for_a_refusal():
    with pytest.raises(ValueError, match="reward 2 is NaN"):
        compare_conventions([1.0, math.nan, 2.0])


def test_explain_ddof_factor_at_k4():
    text = " ".join(explain_differences(R4))
    assert "zscore's numbers are 1.155 times verl's" in text
    assert "sqrt(4/3) = 1.155" in text
    assert "4/3 = 1.333 times dr-grpo's" in text  # rloo
    assert "trl-batch equals trl" in text
    assert "did not bite" in text


def test_explain_eps_on_the_notes_near_tie():
    text = " ".join(explain_differences(NEAR_TIE))
    for name, lib in [("trl", "TRL"), ("verl", "verl"), ("openrlhf", "OpenRLHF")]:
        largest = np.abs(group_advantages(NEAR_TIE, convention=name)).max()
        assert f"{largest:.3g} in {lib}" in text
    assert "eps decides the numbers" in text
    assert "pulls the ratio" in text  # the ddof ratio is distorted by eps here


def test_explain_openrlhf_clamp_and_batch_std():
    one_in_128 = np.zeros(128)
    one_in_128[0] = 1
    text = " ".join(explain_differences(one_in_128))
    assert "OpenRLHF clamped 1 advantage to ±10 (the largest would have been 11.2)" in text
    text = " ".join(explain_differences(TWO_SCALES))
    batch_std = np.std(np.asarray(TWO_SCALES), ddof=1)
    assert f"batch std {batch_std:.3g}" in text and "(0.577, 47.9)" in text


def test_explain_all_equal_prompt_and_every_sentence_has_a_source():
    sentences = explain_differences([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])
    assert sentences[0] == (
        "Prompt 1 has all-equal rewards: every convention gives exactly 0 there, "
        "no learning signal."
    )
    assert all("Source: " in s for s in sentences[1:])
    assert explain_differences([2.0] * 4) == [
        "The group has all-equal rewards: every convention gives exactly 0 there, "
        "no learning signal."
    ]


# --- difficulty bias and Dr. GRPO ----------------------------------------------------


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
        correct, wrong = binary_advantages(k / k_total, ddof=ddof, K=k_total, eps=eps)
        assert core[0] == pytest.approx(correct, rel=1e-12)
        assert core[-1] == pytest.approx(wrong, rel=1e-12)


def test_ddof_one_multiplies_by_sqrt_k_minus_one_over_k():
    p = np.array([0.1, 0.25, 0.5, 0.9])
    pop = np.stack(binary_advantages(p))
    sample = np.stack(binary_advantages(p, ddof=1, K=4))
    np.testing.assert_allclose(sample / pop, math.sqrt(3 / 4), rtol=1e-14)
    np.testing.assert_allclose(
        std_weight(p, ddof=1, K=4) / std_weight(p), math.sqrt(3 / 4), rtol=1e-14
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
    correct, wrong = binary_advantages(p, ddof=ddof, K=k)
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
        (lambda: std_weight(0.5, ddof=1, K=1), "K must be a whole number >= 2"),
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
    expected = std_weight(s.groups["p_hat"].to_numpy(), ddof=1, K=4)
    np.testing.assert_allclose(s.groups["weight"], expected, rtol=1e-12)


# --- zero spread and dynamic sampling --------------------------------------------------


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
        (0.5, 0, "K must be a whole number >= 1"),
        (0.5, 2.5, "K must be a whole number"),
        (1.2, 4, "between 0 and 1"),
        ([0.1, 0.2], [2, 3, 4], "do not broadcast"),
    ],
)
def test_zero_spread_input_refused(p, k, message):
    with pytest.raises(ValueError, match=message):
        zero_spread_probability(p, k)


def test_dynamic_sampling_matches_the_closed_form_in_expectation():
    pool = np.array([0.05, 0.5, 0.95])
    d = simulate_dynamic_sampling(pool, 4, 3000, np.random.default_rng(0))
    expected = 1 - np.mean(pool**4 + (1 - pool) ** 4)
    assert d.expected_signal_fraction == pytest.approx(expected, rel=1e-12)
    assert d.signal_before / 3000 == pytest.approx(expected, abs=0.03)  # sd ≈ 0.009
    assert d.after_filter == d.signal_before
    assert d.after_resample == 3000 and d.resample_rounds >= 1
    assert d.extra_samples == d.resample_rounds * 3000 * 4
    assert set(np.unique(d.final_pass_rates)) <= set(pool)
    # filtering keeps the medium prompts: P(signal) 0.875 at p = 0.5, 0.185 at 0.05 and 0.95
    share = np.mean(d.final_pass_rates == 0.5)
    assert share == pytest.approx(0.875 / (0.875 + 2 * 0.185), abs=0.03)
    summary = d.summary()
    assert summary["groups"].tolist() == [3000, d.signal_before, 3000]
    assert summary["answers_generated"].tolist()[-1] == 12000 + d.extra_samples


def test_dynamic_sampling_gives_up_after_max_rounds():
    d = simulate_dynamic_sampling(
        [0.0, 1.0], 8, 16, np.random.default_rng(0), max_resample_rounds=3
    )
    assert d.signal_before == 0 and d.after_resample == 0
    assert d.resample_rounds == 3 and d.extra_samples == 3 * 16 * 8
    assert d.expected_signal_fraction == 0.0


def test_dynamic_sampling_no_rounds_when_every_group_has_signal():
    # 64 answers at p = 0.5 are all equal with chance 2^-63
    d = simulate_dynamic_sampling([0.5], 64, 32, np.random.default_rng(3))
    assert d.signal_before == 32 and d.resample_rounds == 0 and d.extra_samples == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pass_rates": [], "K": 4, "batch_size": 8}, "empty"),
        ({"pass_rates": [0.5], "K": 1, "batch_size": 8}, "K must be a whole number >= 2"),
        ({"pass_rates": [0.5], "K": 4, "batch_size": 0}, "batch_size must be"),
        ({"pass_rates": [1.5], "K": 4, "batch_size": 8}, "between 0 and 1"),
        (
            {"pass_rates": [0.5], "K": 4, "batch_size": 8, "max_resample_rounds": -1},
            "max_resample_rounds must be",
        ),
    ],
)
def test_dynamic_sampling_input_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_dynamic_sampling(rng=np.random.default_rng(0), **kwargs)


# --- batch vs group scaling ------------------------------------------------------------


def test_scaling_comparison_two_reward_scales():
    s = scaling_comparison(TWO_SCALES)
    r = np.asarray(TWO_SCALES)
    centred = r - r.mean(axis=1, keepdims=True)
    batch_std = np.std(r, ddof=1)
    assert s.batch_std == pytest.approx(batch_std, rel=1e-14)
    np.testing.assert_allclose(s.group_std, np.std(r, axis=1, ddof=1), rtol=1e-14)
    np.testing.assert_allclose(s.frame["none"], centred.ravel(), rtol=1e-14)
    np.testing.assert_allclose(s.frame["batch"], (centred / (batch_std + 1e-4)).ravel())
    np.testing.assert_allclose(
        s.frame["group"], group_advantages(TWO_SCALES, convention="trl").ravel()
    )
    assert s.mean_abs.index.tolist() == [0, 1]
    np.testing.assert_allclose(s.mean_abs["none"], [0.5, 37.5])
    # group scaling puts both prompts on one scale; batch scaling does not
    assert s.mean_abs["group"].max() / s.mean_abs["group"].min() < 1.2
    assert s.mean_abs["batch"][1] / s.mean_abs["batch"][0] == pytest.approx(75, rel=1e-12)
    assert len(s.long()) == 8 * 3


def test_scaling_comparison_refuses_groups_of_one():
    with pytest.raises(ValueError, match="only one reward"):
        scaling_comparison([[1.0], [2.0]])


# --- additions for the lab pages: grids, uneven groups, the registry, snippets, pools ----


def test_eps_slider_steps_are_1_2_5_and_hold_the_library_eps_exactly():
    steps = eps_steps()
    assert steps.size == 37 and (steps[0], steps[-1]) == EPS_RANGE
    assert np.all(np.diff(steps) > 0)
    assert steps[:4].tolist() == [1e-12, 2e-12, 5e-12, 1e-11]
    assert set(LIBRARY_EPS.values()) <= set(steps.tolist())


def test_eps_grid_is_log_spaced_with_exact_decades():
    grid = eps_grid(10)
    assert grid.size == 121 and (grid[0], grid[-1]) == EPS_RANGE
    np.testing.assert_allclose(np.diff(np.log10(grid)), 0.1, rtol=1e-9)
    assert set(LIBRARY_EPS.values()) <= set(grid.tolist())
    assert eps_grid(1).tolist() == [float(f"1e{d}") for d in range(-12, 1)]
    with pytest.raises(ValueError, match="per_decade must be a whole number >= 1"):
        eps_grid(0)


def test_pass_rate_grids():
    np.testing.assert_allclose(pass_rate_grid(), np.arange(1, 100) / 100)
    assert pass_rate_grid(1).tolist() == [0.5]
    assert group_pass_rates(4).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(ValueError, match="K must be a whole number >= 1"):
        group_pass_rates(0)


def test_explain_difficulty_bias_with_sample_std_and_k():
    text = " ".join(explain_difficulty_bias((1 / 16,), ddof=1, K=16))
    assert "K/(K-1) = 16/15" in text and "1.94 at p = 0.5" in text  # 2 sqrt(15/16)
    assert "right answer 3.75 and a wrong one -0.25" in text  # sqrt(15) sqrt(15/16)
    text = " ".join(explain_difficulty_bias((0.5,), K=16))
    assert "largest weight GRPO gives a group is 4.13" in text  # 16 / sqrt(15)
    with pytest.raises(ValueError, match="needs the group size K"):
        explain_difficulty_bias((0.5,), ddof=1)


def test_uneven_groups_by_id_match_each_group_alone():
    rewards, ids = [1.0, 0.0, 1.0, 1.0, 0.9, 0.2, 0.5], [7, 7, 7, 7, 9, 9, 9]
    c = compare_conventions(rewards, group_ids=ids)
    assert c.frame["prompt"].tolist() == ids
    for name in CONVENTIONS:
        if name == "trl-batch":  # one std over both prompts
            continue
        expected = np.concatenate(
            [group_advantages(g, convention=name) for g in (rewards[:4], rewards[4:])]
        )
        np.testing.assert_allclose(c.frame[name], expected, rtol=1e-14)
    text = " ".join(explain_differences(rewards, group_ids=ids))
    assert "prompts with another K get sqrt(3/2) = 1.225 at K=3" in text
    assert "K/(K-1) for its prompt's K (3/2 = 1.5 at K=3, 4/3 = 1.333 at K=4)" in text
    tied = explain_differences([2.0, 2.0, 0.0, 1.0], group_ids=[7, 7, 9, 9])
    assert tied[0].startswith("Prompt 7 has all-equal rewards")
    with pytest.raises(ValueError, match="some prompts have one reward and others several"):
        explain_differences([1.0, 2.0, 3.0], group_ids=[1, 2, 2])


def test_scaling_comparison_by_group_ids_matches_the_table_form():
    by_rows = scaling_comparison(TWO_SCALES)
    by_ids = scaling_comparison(np.ravel(TWO_SCALES), group_ids=[1] * 4 + [2] * 4)
    for mode in ("group", "batch", "none"):
        np.testing.assert_array_equal(by_ids.frame[mode], by_rows.frame[mode])
    assert by_ids.mean_abs.index.tolist() == [1, 2]
    assert by_ids.batch_std == by_rows.batch_std


def test_conventions_table_reads_the_registry():
    t = conventions_table().set_index("convention")
    assert t.index.tolist() == list(CONVENTIONS)
    assert t.loc["verl", "K = 1"] == "A = R / (1 + 1e-06)"
    assert t.loc["openrlhf", "clamp"] == "±10" and t.loc["openrlhf", "eps"] == "1e-09"
    assert t.loc["dr-grpo", "divides by"] == "nothing" and t.loc["dr-grpo", "eps"] == "–"
    assert t.loc["trl-batch", "divides by"] == "batch std + eps"
    assert t.loc["rloo", "baseline"] == "mean of the other K-1"
    assert t.loc["zscore", "std"] == "population (ddof=0)"


@settings(max_examples=30, deadline=None)
@given(
    rewards=st.lists(
        st.lists(st.floats(-100, 100), min_size=4, max_size=4), min_size=1, max_size=4
    ),
    name=st.sampled_from(list(CONVENTIONS)),
)
def test_numpy_snippet_computes_the_convention(rewards, name):
    r = np.asarray(rewards)
    if np.any(r.std(axis=1) < 1e-3):  # ties: zscore's nan_to_num path, tested below
        return
    namespace = {}
    exec(numpy_snippet(name, r).replace("print(A)", ""), namespace)
    np.testing.assert_allclose(
        namespace["A"], group_advantages(r, convention=name), rtol=1e-9, atol=1e-12
    )


def test_numpy_snippet_writes_rewards_exactly_and_refuses_groups_of_one():
    code = numpy_snippet("zscore", [1.0, 1.0 + 1.2e-7, 0.1])
    assert "[1, 1.00000012, 0.1]" in code and "K = 3" in code
    with pytest.raises(ValueError, match="at least 2 answers"):
        numpy_snippet("trl", [[1.0], [2.0]])
    with pytest.raises(ValueError, match="unknown convention"):
        numpy_snippet("ppo", [1.0, 2.0])


def test_difficulty_pools():
    for kind, pool in DIFFICULTY_POOLS.items():
        p = difficulty_pool(kind, 20_000, np.random.default_rng(0))
        assert p.shape == (20_000,) and np.all((p >= 0) & (p <= 1))
        assert p.mean() == pytest.approx(pool.a / (pool.a + pool.b), abs=0.01)  # Beta mean
    same = difficulty_pool("easy", 5, np.random.default_rng(1))
    np.testing.assert_array_equal(same, difficulty_pool("easy", 5, np.random.default_rng(1)))
    with pytest.raises(ValueError, match="kind must be one of"):
        difficulty_pool("medium", 5, np.random.default_rng(0))


def test_dynamic_sampling_signal_fraction_and_groups_without_signal():
    d = simulate_dynamic_sampling([0.05, 0.5, 0.95], 4, 200, np.random.default_rng(2))
    assert d.signal_fraction == d.signal_before / 200
    summary = d.summary()
    assert summary["without_signal"].tolist() == [200 - d.signal_before, 0, 0]
    assert (summary["with_signal"] + summary["without_signal"]).tolist()[0] == 200


def test_regime_tour_lands_in_each_regime():
    from grpo_core.analysis import eps_regime, eps_steps, regime_tour

    for std in (6e-8, 0.01, 1e-9):
        tour = regime_tour(std)
        assert [r for r, _ in tour] == ["z-score", "transition", "damped"]
        assert all(eps in eps_steps() for _, eps in tour)
        assert [eps_regime(std, eps) for _, eps in tour] == ["z-score", "transition", "damped"]
    assert [r for r, _ in regime_tour(0.5)] == ["z-score", "transition"]  # 1 is the largest eps
    assert regime_tour(0.0) == []
