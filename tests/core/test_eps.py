"""grpo_core.eps: the eps sweep against its closed form, regimes, the slider's steps."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.eps import (
    EPS_RANGE,
    LIBRARY_EPS,
    all_equal_outcomes,
    eps_grid,
    eps_regime,
    eps_steps,
    eps_sweep,
    eps_sweep_frame,
    regime_bounds,
    regime_tour,
)
from grpo_core.precision import (
    precision_report,
)

R4 = [1.0, 2.0, 3.0, 6.0]  # mean 3, centred [-2, -1, 0, 3], sum of squares 14
CENTRED4 = np.array([-2.0, -1.0, 0.0, 3.0])
NEAR_TIE = [1.0, 1.0 + 1.2e-7, 1.0, 1.0]  # a near tie: TRL's, verl's, OpenRLHF's eps differ


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
    columns = "eps answer reward advantage regime std z_score damped_limit"
    assert f.columns.tolist() == columns.split()
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


def test_all_equal_group_every_convention_gives_zero_float32_eps_zero_gives_nan():
    f = all_equal_outcomes(1.0, 4)
    assert f["setting"].tolist()[: len(CONVENTIONS)] == list(CONVENTIONS)
    assert np.all(f["advantage"].iloc[: len(CONVENTIONS)] == 0.0)
    raw = f.set_index("setting")["advantage"]
    assert math.isnan(raw["float32, eps = 0"]) and "NaN" in f["why"].iloc[-2]
    assert raw["float32, eps = 0.0001"] == 0.0


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


def test_regime_tour_lands_in_each_regime():
    for std in (6e-8, 0.01, 1e-9):
        tour = regime_tour(std)
        assert [r for r, _ in tour] == ["z-score", "transition", "damped"]
        assert all(eps in eps_steps() for _, eps in tour)
        assert [eps_regime(std, eps) for _, eps in tour] == ["z-score", "transition", "damped"]
    assert [r for r, _ in regime_tour(0.5)] == ["z-score", "transition"]  # 1 is the largest eps
    assert regime_tour(0.0) == []


def test_eps_sweep_frame_numbers_the_answers_as_given():
    """An item left out of a typed list (the second): the others keep their places."""
    f = eps_sweep_frame(R4, [0.0, 1.0], answers=[1, 3, 4, 5])
    assert f["answer"].tolist() == [1, 3, 4, 5] * 2
    with pytest.raises(ValueError, match="one number per answer"):
        eps_sweep_frame(R4, [1.0], answers=[1, 2])
