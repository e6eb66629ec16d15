"""The shipped bugs reproduce the numbers their issues and pull requests printed."""

import numpy as np
import pytest

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.conventions import HISTORICAL_CONVENTIONS
from grpo_core.trainer_bugs import (
    BUGS,
    floored_std_advantages,
    historical_advantages,
    leave_one_out_normalised,
)


def test_nemo_leave_one_out_with_std_gives_a_million():
    # NeMo-RL issue 1518: min=-1000000, max=1000000 on [1, 0, 0, 0].
    a = BUGS["nemo-loo-std"].printed_advantages()
    assert a.max() == pytest.approx(1e6) and a.min() == pytest.approx(-1e6)
    fixed = BUGS["nemo-loo-std"].expected_advantages()
    np.testing.assert_allclose(fixed[0], [1.0, *[-1 / 3 / np.sqrt(1 / 3)] * 3], rtol=1e-5)


def test_nemo_float32_residue_is_about_1_6e_4_and_amplifies_about_4000_times():
    x = np.array([[0.95] + [0.35] * 7])
    a = leave_one_out_normalised(x, float32=True)
    residue = 0.6 / a[0, 0] - 1e-6
    assert residue == pytest.approx(1.6e-4, rel=0.02)
    assert 3000 < a[0, 0] < 4500
    assert leave_one_out_normalised(x)[0, 0] == pytest.approx(0.6 / 1e-6)  # float64: exact 0
    fixed = BUGS["nemo-fp32-residue"].expected_advantages()
    assert fixed[0, 0] == pytest.approx(0.6, rel=1e-6)


def test_leave_one_out_against_a_loop():
    rng = np.random.default_rng(0)
    r = rng.random((5, 6))
    a = leave_one_out_normalised(r)
    for p in range(5):
        for i in range(6):
            others = np.delete(r[p], i)
            expected = (r[p, i] - others.mean()) / (others.std(ddof=1) + 1e-6)
            assert a[p, i] == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ValueError, match="K >= 3"):
        leave_one_out_normalised([[1.0, 0.0]])


def test_verl_vectorised_floor_shrinks_a_near_tie_to_0_005():
    # verl pull request 6348: canonical ±0.6196, vectorised ±0.0050.
    bug = BUGS["verl-vectorised-floor"]
    np.testing.assert_allclose(np.abs(bug.printed_advantages()), 0.005, atol=5e-5)
    np.testing.assert_allclose(np.abs(bug.expected_advantages()), 0.6196, atol=2e-4)
    big = np.array([[0.0, 1.0]])
    np.testing.assert_allclose(
        floored_std_advantages(big), group_advantages(big, convention="verl")
    )


def test_trl_0_22_1_default_divided_by_nothing():
    rewards = np.array(BUGS["trl-scale-swap"].rewards)
    np.testing.assert_allclose(
        historical_advantages("trl-0.22.1-group", rewards), rewards - rewards.mean(1, keepdims=True)
    )
    np.testing.assert_allclose(
        historical_advantages("trl-0.22.1-batch", rewards),
        group_advantages(rewards, convention="trl"),
    )
    assert set(HISTORICAL_CONVENTIONS).isdisjoint(CONVENTIONS)


def test_trl_0_22_1_none_divided_by_the_group_std_so_dr_grpo_users_got_grpo():
    bug = BUGS["trl-scale-none"]
    rewards = np.array(bug.rewards)
    grpo = group_advantages(rewards, convention="trl")
    np.testing.assert_allclose(bug.printed_advantages(), grpo)
    np.testing.assert_allclose(bug.expected_advantages(), rewards - rewards.mean(1, keepdims=True))


def test_nemo_fix_is_the_nemo_rl_convention():
    bug = BUGS["nemo-loo-std"]
    np.testing.assert_allclose(
        bug.expected_advantages(), leave_one_out_normalised(bug.rewards, std_floor=0.0), rtol=1e-12
    )
    assert bug.playground == {"c": "nemo-rl"}


@pytest.mark.parametrize("bug", BUGS.values(), ids=list(BUGS))
def test_every_preset_differs_from_its_fix_and_links_a_public_record(bug):
    assert not np.allclose(bug.printed_advantages(), bug.expected_advantages())
    assert bug.url.startswith("https://github.com/")
    assert bug.playground["c"] in CONVENTIONS
