"""grpo_core.precision: float32 against float64, where float32 loses digits and where not."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import group_advantages
from grpo_core.eps import (
    all_equal_outcomes,
)
from grpo_core.precision import (
    float32_advantages,
    precision_report,
)
from grpo_core.sentences import precision_summary

R4 = [1.0, 2.0, 3.0, 6.0]  # mean 3, centred [-2, -1, 0, 3], sum of squares 14
BIG = 1e6 + np.array([0.0, 1e-3, 2e-3, 3e-3])


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
    assert "0.0625 apart" in precision_summary(report) and "become one value" in precision_summary(
        report
    )
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


def test_summary_writes_numbers_as_the_page_does():
    """ "Near 1e+06, float32 numbers are 0.0625 apart": Python's %g exponent beside the
    app's "1e6" everywhere else."""
    text = precision_summary(precision_report(BIG, eps=1e-4))
    assert text.startswith("Near 1e6, float32 numbers are 0.0625 apart")
    assert "e+" not in text and "e-0" not in text
    tiny = precision_summary(precision_report([1.0, 1.0 + 1e-6, 1.0], eps=1e-4))
    assert "1.19e-7 apart" in tiny


def test_the_answers_keep_the_numbers_given():
    """The typed list's second item left out: the largest |A| of [1, 2, 3, 6] is the
    fourth reward, answer 5 as typed."""
    report = precision_report(R4, eps=1e-4)
    assert report.to_frame([1, 3, 4, 5])["answer"].tolist() == [1, 3, 4, 5]
    assert "answer 5's advantage is" in precision_summary(report, [1, 3, 4, 5])
    assert "answer 4's advantage is" in precision_summary(report)
