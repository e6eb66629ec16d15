"""grpo_core.sim_report: the page's tables are the run's arrays averaged over seeds, and
the sentences read its numbers; grpo_core.estimators: one record per estimator."""

import re

import numpy as np
import pytest

from grpo_core.estimators import ESTIMATORS, GROUP_ESTIMATORS
from grpo_core.sim_report import (
    accuracy_band_limits,
    critic_error_bands,
    estimator_table,
    step_curves,
    summary_sentences,
)
from grpo_core.simulate import SimConfig, simulate, simulate_cached

SMALL = SimConfig(num_prompts=16, steps=30, num_seeds=2)


def test_every_estimator_has_one_record_with_its_own_style():
    assert SimConfig().estimators == tuple(ESTIMATORS)
    assert GROUP_ESTIMATORS == ("grpo", "dr-grpo", "rloo")
    assert [e.name for e in ESTIMATORS.values()] == list(ESTIMATORS)
    assert sorted(e.style for e in ESTIMATORS.values()) == list(range(len(ESTIMATORS)))
    assert ESTIMATORS["reinforce-batch-mean"].label == "REINFORCE − batch mean"
    assert ESTIMATORS["reinforce"].reading == "REINFORCE (no baseline)"


def test_page_tables_are_the_arrays_averaged_over_seeds():
    r = simulate_cached(SMALL)
    curves = step_curves(r)
    assert len(curves) == len(r.estimators) * SMALL.steps
    grpo = curves[curves.estimator == "grpo"]
    np.testing.assert_allclose(grpo.zero_spread, r.zero_spread_fraction[0].mean(0))
    np.testing.assert_allclose(grpo.solved, r.solved_fraction[0].mean(0))
    np.testing.assert_allclose(grpo.grad_variance, r.grad_variance[0])
    np.testing.assert_allclose(grpo.gradient_cosine, r.gradient_cosine[0].mean(0))
    bands = critic_error_bands(r)
    np.testing.assert_allclose(bands["mean"], r.critic_value_error.mean(0))
    assert (bands["min"] <= bands["mean"]).all() and (bands["mean"] <= bands["max"]).all()
    table = estimator_table(r)
    assert table.estimator.tolist() == list(r.estimators)
    np.testing.assert_allclose(table.final_accuracy, r.accuracy[:, :, -1].mean(1))
    np.testing.assert_allclose(table.grad_variance, r.grad_variance.mean(1))
    np.testing.assert_allclose(table.gradient_cosine, r.gradient_cosine.mean((1, 2)))
    np.testing.assert_allclose(table.zero_spread_last, r.zero_spread_fraction[:, :, -1].mean(1))
    without = simulate(SimConfig(num_prompts=4, steps=3, num_seeds=1, estimators=("grpo",)))
    assert critic_error_bands(without) is None


def test_accuracy_band_limits():
    r = simulate_cached(SMALL)
    mm = accuracy_band_limits(r, "min-max")
    np.testing.assert_array_equal(mm.lower, mm["min"])
    np.testing.assert_array_equal(mm.upper, mm["max"])
    sd = accuracy_band_limits(r, "std")
    np.testing.assert_allclose(sd.upper - sd["mean"], r.accuracy.std(1).ravel())
    np.testing.assert_allclose(sd["mean"] - sd.lower, r.accuracy.std(1).ravel())
    with pytest.raises(ValueError, match="unknown band"):
        accuracy_band_limits(r, "iqr")


def test_summary_reads_the_numbers():
    r = simulate(SMALL)
    sentences = summary_sentences(r)
    assert all(isinstance(x, str) and x.endswith(".") for x in sentences)
    final = r.accuracy[:, :, -1].mean(1)
    best = r.estimators[int(np.argmax(final))]
    label = {"grpo": "GRPO", "rloo": "RLOO", "dr-grpo": "Dr. GRPO"}.get(best, "")
    assert label in sentences[0]
    assert f"{final.max():.0%}" in sentences[0]
    assert any("zero spread" in x for x in sentences)
    assert any("value error" in x for x in sentences)
    cosine = r.gradient_cosine.mean((1, 2))
    ranking = next(x for x in sentences if "cosine to the true gradient" in x)
    best = r.estimators[int(np.argmax(cosine))]
    assert f"best first: {ESTIMATORS[best].reading} {cosine.max():.2f}" in ranking
    assert any("not comparable between estimators" in x for x in sentences)


def test_summary_explains_why_reinforce_leads_on_right_wrong_rewards():
    binary = " ".join(summary_sentences(simulate(SimConfig(steps=60, num_seeds=2))))
    assert "REINFORCE (no baseline) leads here because every rewarded sample" in binary
    shifted = simulate(SimConfig(steps=60, num_seeds=2, reward="shifted"))
    assert "leads here because" not in " ".join(summary_sentences(shifted))


def test_summary_of_a_single_estimator():
    r = simulate(SimConfig(num_prompts=8, steps=5, num_seeds=1, estimators=("reinforce",)))
    text = " ".join(summary_sentences(r))
    assert "REINFORCE (no baseline) reached an accuracy" in text
    assert "1 seed," in text and "zero spread" not in text


def test_zero_spread_shares_add_up_as_printed():
    """The page's default run read "96% at the last ... correctly by every sample ... 95%;
    the other 2%": the rest was rounded from the unrounded difference (0.9625 - 0.9469)."""
    text = next(x for x in summary_sentences(simulate(SimConfig())) if "all equal" in x)
    found = re.search(r"to (\d+)% at the last\..* to (\d+)%; the other (\d+)% at the end", text)
    all_equal, solved, rest = map(int, found.groups())
    assert (all_equal, solved, rest) == (96, 95, 1)
