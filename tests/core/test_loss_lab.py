"""grpo_core.loss_lab: the toy batch, the logit bump, the three KL estimators."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.loss_lab import (
    MAX_ANSWERS,
    PRESETS,
    default_lengths,
    kl_estimators,
    kl_in_reward,
    logit_bump,
    probabilities_table,
    toy_batch,
    with_probabilities,
)


def test_logit_bump_by_hand():
    # p = 1/2, z = ln 3: p_new = 3/2 / (3/2 + 1/2) = 3/4
    got = logit_bump(np.log([0.5]), math.log(3))
    assert got[0] == pytest.approx(math.log(0.75))


@given(st.floats(1e-6, 1 - 1e-6), st.floats(-20, 20))
@settings(max_examples=200, deadline=None)
def test_logit_bump_is_a_log_probability_moving_with_z(p, z):
    new = logit_bump(np.log([p]), z)[0]
    assert new <= 0.0
    if z > 0:
        assert new >= math.log(p) - 1e-12
    if z < 0:
        assert new <= math.log(p) + 1e-12


@pytest.mark.parametrize("preset", list(PRESETS))
def test_step_zero_is_on_policy(preset):
    _, rewards, lengths = PRESETS[preset]
    toy = toy_batch(rewards, lengths, step=0.0)
    np.testing.assert_array_equal(toy.logp, toy.old_logp)
    assert toy.lengths.tolist() == list(lengths)
    assert (toy.old_logp[toy.mask == 0] == 0).all() and (toy.old_logp <= 0).all()


def test_a_step_raises_right_answers_and_lowers_wrong_ones():
    toy = toy_batch([1, 0, 1, 0], [3, 4, 5, 2], step=1.0, seed=3)
    real = toy.mask > 0
    up = (toy.advantages[:, None] > 0) & real
    down = (toy.advantages[:, None] < 0) & real
    assert (toy.logp[up] > toy.old_logp[up]).all()
    assert (toy.logp[down] < toy.old_logp[down]).all()


def test_all_equal_rewards_have_zero_advantages_and_do_not_move():
    toy = toy_batch([1, 1, 1], [2, 3, 4], step=2.0)
    assert not toy.advantages.any()
    np.testing.assert_array_equal(toy.logp, toy.old_logp)


@pytest.mark.parametrize(
    ("rewards", "lengths", "words"),
    [
        ([1, 0], [3], "one token count per answer"),
        ([1], [3], "2 to 16 answers"),
        ([1] * (MAX_ANSWERS + 1), [2] * (MAX_ANSWERS + 1), "2 to 16 answers"),
        ([1, 0], [3, 99], "at most 24 tokens"),
        ([1, 0], [3, 0], "at least 1 token"),
        ([1, float("nan")], [3, 3], "finite"),
    ],
)
def test_bad_groups_are_refused_in_words(rewards, lengths, words):
    with pytest.raises(ValueError, match=words):
        toy_batch(rewards, lengths, step=0.5)


def test_default_lengths_are_seeded_and_small():
    assert default_lengths(5, seed=1) == default_lengths(5, seed=1)
    assert all(3 <= n <= 8 for n in default_lengths(50))


def test_kl_estimators_by_hand():
    logp, ref = np.log([[0.25, 0.5]]), np.log([[0.5, 0.5]])
    k = kl_estimators(logp, ref, np.array([[1.0, 0.0]]))
    d = math.log(2)  # ref - logp on the real token
    assert k["k1"][0].tolist() == pytest.approx([-d, 0.0])
    assert k["k2"][0].tolist() == pytest.approx([d * d / 2, 0.0])
    assert k["k3"][0].tolist() == pytest.approx([2 - 1 - d, 0.0])


def test_kl_in_reward_subtracts_beta_times_summed_k1():
    k1 = np.array([[0.5, 0.5], [-1.0, 0.0]])
    mask = np.array([[1.0, 1.0], [1.0, 0.0]])
    assert kl_in_reward([1.0, 0.0], k1, mask, 0.5).tolist() == [0.5, 0.5]


def test_probabilities_set_by_hand_replace_the_computed_ones():
    toy = toy_batch([1, 0], [2, 3], step=0.5)
    table = probabilities_table(toy)
    assert table["answer"] == [1, 1, 2, 2, 2] and table["token"] == [1, 2, 1, 2, 3]
    np.testing.assert_allclose(table["p_old"], np.exp(toy.old_logp[toy.mask > 0]))
    hand = with_probabilities(toy, [(2, 3, 0.5, 0.25)])
    assert hand.old_logp[1, 2] == pytest.approx(math.log(0.5))
    assert hand.logp[1, 2] == pytest.approx(math.log(0.25))
    np.testing.assert_array_equal(hand.ref_logp, toy.ref_logp)
    np.testing.assert_array_equal(hand.logp[0], toy.logp[0])


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        ((1, 3, 0.5, 0.5), "answer 1 has no token 3"),
        ((1, 1, 0.0, 0.5), "p_old of answer 1, token 1 must be a probability"),
        ((2, 1, 0.5, 1.5), "p_new of answer 2, token 1"),
        ((2, 1, 0.5, None), "got None"),
    ],
)
def test_bad_hand_probabilities_are_refused_in_words(edit, words):
    toy = toy_batch([1, 0], [2, 3], step=0.5)
    with pytest.raises(ValueError, match=words):
        with_probabilities(toy, [edit])
