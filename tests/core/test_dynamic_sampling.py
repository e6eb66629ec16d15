"""grpo_core.dynamic_sampling: DAPO's filtering and resampling, in expectation."""

import numpy as np
import pytest

from grpo_core.dynamic_sampling import (
    DIFFICULTY_POOLS,
    difficulty_pool,
    simulate_dynamic_sampling,
)


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
        ({"pass_rates": [], "group_size": 4, "batch_size": 8}, "empty"),
        (
            {"pass_rates": [0.5], "group_size": 1, "batch_size": 8},
            "group_size must be a whole number >= 2",
        ),
        ({"pass_rates": [0.5], "group_size": 4, "batch_size": 0}, "batch_size must be"),
        ({"pass_rates": [1.5], "group_size": 4, "batch_size": 8}, "between 0 and 1"),
        (
            {"pass_rates": [0.5], "group_size": 4, "batch_size": 8, "max_resample_rounds": -1},
            "max_resample_rounds must be",
        ),
    ],
)
def test_dynamic_sampling_input_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_dynamic_sampling(rng=np.random.default_rng(0), **kwargs)


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
