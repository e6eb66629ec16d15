"""grpo_core.kl: the k1, k2, k3 estimators, by hand and by their properties."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grpo_core.kl import kl_estimate


def test_hand_checked_values_at_log_ratio_one_half():
    # log pi - log pi_ref = 0.5: k1 = 0.5, k2 = 0.125, k3 = e^-0.5 - 1 + 0.5
    assert kl_estimate([0.5], "k1")[0] == 0.5
    assert kl_estimate([0.5], "k2")[0] == 0.125
    assert kl_estimate([0.5], "k3")[0] == pytest.approx(math.exp(-0.5) - 0.5, rel=1e-15)


def test_k1_goes_negative_where_k2_and_k3_do_not():
    x = np.array([-0.5, 0.0, 0.5])
    assert kl_estimate(x, "k1")[0] < 0
    assert np.all(kl_estimate(x, "k2") >= 0) and np.all(kl_estimate(x, "k3") >= 0)
    assert kl_estimate([0.0], "k3")[0] == 0.0


def test_k1_and_k3_are_unbiased_on_a_small_distribution():
    # pi = (0.5, 0.3, 0.2), pi_ref = (0.2, 0.3, 0.5): the expectation under pi of each
    # estimator against the exact KL(pi || pi_ref)
    pi, ref = np.array([0.5, 0.3, 0.2]), np.array([0.2, 0.3, 0.5])
    exact = float(np.sum(pi * np.log(pi / ref)))
    log_ratio = np.log(pi) - np.log(ref)
    assert float(pi @ kl_estimate(log_ratio, "k1")) == pytest.approx(exact, rel=1e-12)
    assert float(pi @ kl_estimate(log_ratio, "k3")) == pytest.approx(exact, rel=1e-12)
    assert float(pi @ kl_estimate(log_ratio, "k2")) != pytest.approx(exact, rel=1e-3)


@given(st.floats(-50, 50))
def test_k3_is_never_negative_and_k2_matches_it_to_second_order(x):
    k3 = kl_estimate([x], "k3")[0]
    assert k3 >= 0
    if abs(x) < 1e-3:
        assert k3 == pytest.approx(kl_estimate([x], "k2")[0], rel=1e-2, abs=1e-12)


@pytest.mark.parametrize(
    ("value", "estimator", "message"),
    [
        ([0.1], "k4", "estimator must be one of k1, k2, k3"),
        ([math.nan], "k3", "log ratios must be finite"),
        ("0.5", "k3", "not text"),
        ([800.0], "k3", "within ±700"),
    ],
)
def test_bad_input_is_a_plain_value_error(value, estimator, message):
    with pytest.raises(ValueError, match=message):
        kl_estimate(value, estimator)
