"""grpo_core.compare: every convention through the core, side by side; tables and snippets."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.compare import (
    compare_conventions,
    conventions_table,
    numpy_snippet,
    scaling_comparison,
)
from grpo_core.sentences import (
    explain_differences,
)

TWO_SCALES = [[0.0, 1.0, 0.0, 1.0], [0.0, 100.0, 50.0, 100.0]]


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
    assert set(c.refusals) == {"trl", "trl-batch", "dr-grpo", "openrlhf", "rloo", "reinforce-pp"}
    assert all("only one reward" in why for why in c.refusals.values())
    assert c.frame[list(c.refusals)].isna().all().all()
    np.testing.assert_allclose(c.frame["verl"], [3 / (1 + 1e-6), 5 / (1 + 1e-6)], rtol=1e-15)
    assert c.frame["zscore"].tolist() == [0.0, 0.0]
    (sentence,) = explain_differences([3.0, 5.0], group_size=1)
    assert "verl passes each lone reward through" in sentence and "refuse" in sentence
    assert "trl, trl-batch, dr-grpo, openrlhf, rloo, reinforce-pp" in sentence
    assert c.frame["nemo-rl"].tolist() == [0.0, 0.0]  # NeMo-RL: a lone answer's baseline is itself


def test_bad_rewards_are_not_mistaken_for_a_refusal():
    with pytest.raises(ValueError, match="reward 2 is NaN"):
        compare_conventions([1.0, math.nan, 2.0])


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


def test_uneven_groups_by_id_match_each_group_alone():
    rewards, ids = [1.0, 0.0, 1.0, 1.0, 0.9, 0.2, 0.5], [7, 7, 7, 7, 9, 9, 9]
    c = compare_conventions(rewards, group_ids=ids)
    assert c.frame["prompt"].tolist() == ids
    for name in CONVENTIONS:
        if name in ("trl-batch", "reinforce-pp"):  # one std over both prompts
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
    assert t.loc["openrlhf", "clip (OpenRLHF: the reward, before KL)"] == "±10"
    assert t.loc["openrlhf", "eps"] == "1e-09"
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


def test_answers_keep_the_numbers_they_were_given():
    """A cell left out (answer 2 of prompt 1): the frames number the others as typed."""
    from grpo_core.compare import scaling_comparison

    rewards, ids, numbers = [1, 0, 1, 2, 5], [1, 1, 1, 2, 2], [1, 3, 4, 1, 2]
    frame = compare_conventions(rewards, group_ids=ids, answers=numbers).frame
    assert frame["answer"].tolist() == numbers
    assert scaling_comparison(rewards, group_ids=ids, answers=numbers).frame.answer.tolist() == [
        1, 3, 4, 1, 2
    ]  # fmt: skip
    assert compare_conventions(rewards, group_ids=ids).frame["answer"].tolist() == [1, 2, 3, 1, 2]
