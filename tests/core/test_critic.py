"""grpo_core.critic: the toy critic, its errors, the page's group of responses and the
comparison of PPO with a perfect critic, with the toy critic, and GRPO."""

import math

import numpy as np
import pytest

from grpo_core.critic import (
    advantage_error,
    blank_padding,
    critic_comparison,
    decode_group,
    encode_group,
    response_group,
    toy_kl,
    toy_values,
)
from grpo_core.gae import expected_returns, gae, grpo_token_advantages, token_mask, token_rewards

LENGTHS = [3, 5, 2]
OUTCOME = [1.0, 0.0, 1.0]


@pytest.mark.parametrize("bias", [0.3, -0.2])
def test_biased_critic_gamma_one(bias):
    """A constant bias b cancels in every delta but the last (next value 0, not V + b):
    with lam = 1 every advantage drops by b; with lam = 0 only the last token's."""
    mask = token_mask(LENGTHS)
    rewards = token_rewards(LENGTHS, OUTCOME)
    true = expected_returns(OUTCOME, LENGTHS)
    wrong = toy_values(true, mask, bias=bias)
    last = np.zeros((3, 5), dtype=bool)
    last[np.arange(3), np.array(LENGTHS) - 1] = True
    for lam, shifted in ((1.0, mask), (0.0, last)):
        shift = gae(rewards, wrong, gamma=1, lam=lam, mask=mask) - gae(
            rewards, true, gamma=1, lam=lam, mask=mask
        )
        np.testing.assert_allclose(shift, np.where(shifted, -bias, 0.0), atol=1e-12)


def test_toy_values_noise_is_seeded_and_masked():
    mask = token_mask(LENGTHS)
    true = expected_returns(OUTCOME, LENGTHS)
    a = toy_values(true, mask, noise=0.5, rng=np.random.default_rng(3))
    b = toy_values(true, mask, noise=0.5, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)
    assert np.all(a[~mask] == 0) and not np.allclose(a[mask], true[mask])
    np.testing.assert_array_equal(toy_values(true, mask), true)


def test_toy_values_noise_needs_a_generator():
    with pytest.raises(ValueError, match=r"noise > 0 needs a random generator"):
        toy_values(np.zeros((1, 2)), np.ones((1, 2), bool), noise=0.1)
    with pytest.raises(ValueError, match=r"noise must be a finite number >= 0"):
        toy_values(np.zeros((1, 2)), np.ones((1, 2), bool), noise=-1)


def test_response_group_accepts_whole_lengths_and_finite_rewards():
    lengths, outcome = response_group([3, 5.0, 64], [1, 0, 0.5])
    assert lengths.tolist() == [3, 5, 64] and lengths.dtype.kind == "i"
    assert outcome.tolist() == [1.0, 0.0, 0.5]


@pytest.mark.parametrize(
    ("lengths", "outcome", "message"),
    [
        ([3, 0], [1, 0], r"response 2 has length 0; lengths must be whole numbers from 1 to 64"),
        ([3, 65], [1, 0], r"response 2 has length 65"),
        ([2.5, 3], [1, 0], r"response 1 has length 2.5"),
        ([3, math.nan], [1, 0], r"response 2 has no length"),
        ([3, None], [1, 0], r"response 2 has no length"),
        ([3, 4], [1, math.inf], r"response 2 has reward inf; rewards must be finite"),
        ([3, 4], [math.nan, 1], r"response 1 has no reward"),
        ([3, 4], ["1", 0], r"response 1 has reward '1'"),
        ([3], [1], r"at least 2 responses"),
        ([3, 4], [1], r"got 2 lengths and 1 rewards"),
    ],
)
def test_response_group_refuses_in_plain_words(lengths, outcome, message):
    with pytest.raises(ValueError, match=message):
        response_group(lengths, outcome)


def test_toy_kl_is_seeded_nonnegative_and_masked():
    a = toy_kl([2, 4], mean=0.1, rng=np.random.default_rng(1))
    b = toy_kl([2, 4], mean=0.1, rng=np.random.default_rng(1))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (2, 4) and np.all(a >= 0)
    assert np.all(a[0, 2:] == 0) and np.all(a[1] > 0)
    big = toy_kl([4000], mean=0.1, rng=np.random.default_rng(2))
    assert big.mean() == pytest.approx(0.1, rel=0.1)
    assert np.all(toy_kl([3], mean=0.0, rng=np.random.default_rng(0)) == 0)


def test_blank_padding_puts_nan_on_padding():
    x = blank_padding([[1, 2, 3], [4, 5, 6]], token_mask([3, 1]))
    assert x[0].tolist() == [1, 2, 3] and x[1, 0] == 4 and np.all(np.isnan(x[1, 1:]))


def test_advantage_error_hand_values():
    mask = token_mask([2, 1])
    ref = np.array([[1.0, -1.0], [0.5, 99.0]])
    a = np.array([[1.5, 0.5], [0.5, -7.0]])  # errors 0.5, 1.5, 0 on real tokens
    e = advantage_error(a, ref, mask)
    assert e.tokens == 3
    assert e.rms == pytest.approx(math.sqrt((0.25 + 2.25) / 3))
    assert e.mean == pytest.approx(2 / 3)
    assert e.max_abs == 1.5
    assert e.sign_flips == 1  # token 2 of response 1: -1 became +0.5
    np.testing.assert_allclose(e.per_position, [math.sqrt(0.25 / 2), 1.5])
    assert np.isnan(e.error[1, 1])
    with pytest.raises(ValueError, match="same shape"):
        advantage_error(a, ref[:, :1], mask)


def test_advantage_error_of_a_biased_critic_gamma_lam_one_is_minus_bias():
    mask = token_mask(LENGTHS)
    rewards = token_rewards(LENGTHS, OUTCOME)
    true = expected_returns(OUTCOME, LENGTHS)
    perfect = gae(rewards, true, gamma=1, lam=1, mask=mask)
    biased = gae(rewards, toy_values(true, mask, bias=0.25), gamma=1, lam=1, mask=mask)
    e = advantage_error(biased, perfect, mask)
    assert e.mean == pytest.approx(-0.25) and e.rms == pytest.approx(0.25)


def test_group_link_round_trip_and_refusals():
    text = encode_group([12, 20, 8], [1, 0, 0.25])
    assert text == "12:1_20:0_8:0.25"
    lengths, outcome = decode_group(text)
    assert lengths.tolist() == [12, 20, 8] and outcome.tolist() == [1, 0, 0.25]
    for bad, message in [
        ("12:1_x", r"response 2 in the link should read length:reward"),
        ("12:1_0:1", r"response 2 has length 0"),
        ("12:1_4:nan", r"response 2 has no reward"),
        ("12:1_4:inf", r"rewards must be finite"),
        ("_".join(["3:1"] * 17), r"at most 16"),
        ("<script>", r"response 1 in the link"),
        ("1:1_" * 400, r"too long"),
    ]:
        with pytest.raises(ValueError, match=message):
            decode_group(bad)


def test_response_group_caps_the_group_size():
    with pytest.raises(ValueError, match=r"17 responses is too many here; at most 16"):
        response_group([3] * 17, [0] * 17)


@pytest.mark.parametrize("kl_coef", [None, 0.0, 0.2])
def test_critic_comparison_is_the_chain_of_its_parts(kl_coef):
    lengths, outcome = np.array(LENGTHS), np.array(OUTCOME)
    got = critic_comparison(
        lengths, outcome, bias=0.2, noise=0.1, gamma=0.9, lam=0.95, convention="trl",
        kl_coef=kl_coef, rng=np.random.default_rng(4),
    )  # fmt: skip
    rng = np.random.default_rng(4)
    mask = token_mask(lengths)
    kl = None if kl_coef is None else toy_kl(lengths, mean=0.05, rng=rng)
    beta = kl_coef or 0.0
    rewards = token_rewards(lengths, outcome, kl=kl, kl_coef=beta)
    true = expected_returns(outcome, lengths, kl=kl, kl_coef=beta, gamma=0.9)
    wrong = toy_values(true, mask, bias=0.2, noise=0.1, rng=rng)
    perfect = gae(rewards, true, gamma=0.9, lam=0.95, mask=mask)
    yours = gae(rewards, wrong, gamma=0.9, lam=0.95, mask=mask)
    np.testing.assert_array_equal(got.perfect, perfect)
    np.testing.assert_array_equal(got.yours, yours)
    np.testing.assert_array_equal(got.grpo, grpo_token_advantages(outcome, lengths))
    np.testing.assert_array_equal(got.mask, mask)
    assert got.error.rms == advantage_error(yours, perfect, mask).rms
    assert got.kl_coef == beta
    assert got.labels == ("#1 R=1 L=3", "#2 R=0 L=5", "#3 R=1 L=2")
