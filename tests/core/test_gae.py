"""grpo_core.gae: per-token rewards, the true values of the toy task, GAE against a loop
oracle and GRPO's per-token advantages."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import group_advantages
from grpo_core.gae import expected_returns, gae, grpo_token_advantages, token_mask, token_rewards

LENGTHS = [3, 5, 2]
OUTCOME = [1.0, 0.0, 1.0]


# --- per-token rewards -------------------------------------------------------------------


def test_token_mask_marks_the_first_tokens():
    np.testing.assert_array_equal(
        token_mask([2, 3, 1], num_tokens=4).astype(int),
        [[1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 0, 0]],
    )


def test_outcome_lands_on_the_last_real_token():
    np.testing.assert_array_equal(
        token_rewards(LENGTHS, OUTCOME),
        [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 1, 0, 0, 0]],
    )


def test_kl_penalty_on_every_real_token():
    kl = np.full((2, 4), 0.5)
    r = token_rewards([2, 4], [1.0, -1.0], kl=kl, kl_coef=0.1)
    np.testing.assert_allclose(r, [[-0.05, 0.95, 0, 0], [-0.05, -0.05, -0.05, -1.05]])


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([3, 0], [1, 0]), {}, r"at least 1 token, got length 0 \(completion 2\)"),
        (([3, 2], [1, 0, 1]), {}, r"one value per response"),
        (([3, 2], [1, math.nan]), {}, r"outcome must be finite"),
        (([3, 2], [1, 0]), {"kl": np.zeros((2, 2))}, r"num_tokens=2 is shorter than.*3"),
        (([3, 2], [1, 0]), {"kl_coef": -0.1}, r"kl_coef must be a finite number >= 0"),
        (([2.5, 2], [1, 0]), {}, r"whole number of tokens"),
    ],
)
def test_token_rewards_refuses_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        token_rewards(*args, **kwargs)


# --- GAE ---------------------------------------------------------------------------------


def gae_oracle(rewards, values, mask, gamma, lam):
    """A_t = sum_l (gamma lam)^l delta_{t+l} over each response's real tokens, by the sum."""
    b, t = rewards.shape
    out = np.zeros((b, t))
    for i in range(b):
        idx = [j for j in range(t) if mask[i, j]]
        bootstrap = values[i, t] if values.shape[1] == t + 1 else 0.0
        deltas = []
        for n, j in enumerate(idx):
            next_value = values[i, idx[n + 1]] if n + 1 < len(idx) else bootstrap
            deltas.append(rewards[i, j] + gamma * next_value - values[i, j])
        for n, j in enumerate(idx):
            out[i, j] = sum((gamma * lam) ** m * deltas[n + m] for m in range(len(idx) - n))
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("bootstrap", [False, True])
def test_gae_matches_loop_oracle(seed, bootstrap):
    rng = np.random.default_rng(seed)
    b, t = 7, 12
    lengths = rng.integers(1, t + 1, size=b)
    mask = token_mask(lengths, t)
    if seed % 2:  # holes in the middle too (skipped tokens, as verl allows)
        mask &= rng.random((b, t)) > 0.2
        mask[:, 0] = True
    rewards = rng.normal(size=(b, t))
    values = rng.normal(size=(b, t + 1 if bootstrap else t))
    gamma, lam = rng.uniform(0.5, 1.0), rng.uniform(0.0, 1.0)
    got = gae(rewards, values, gamma=gamma, lam=lam, mask=mask)
    np.testing.assert_allclose(got, gae_oracle(rewards, values, mask, gamma, lam), atol=1e-12)
    assert np.all(got[~mask] == 0)


def test_gamma_lam_one_zero_values_is_reward_to_go():
    rewards = token_rewards(LENGTHS, OUTCOME, kl=np.full((3, 5), 0.2), kl_coef=1.0)
    mask = token_mask(LENGTHS)
    a = gae(rewards, np.zeros((3, 5)), gamma=1.0, lam=1.0, mask=mask)
    to_go = np.cumsum(rewards[:, ::-1], axis=1)[:, ::-1]
    np.testing.assert_allclose(a, np.where(mask, to_go, 0.0), atol=1e-15)
    np.testing.assert_allclose(a[:, 0], [1 - 0.6, -1.0, 1 - 0.4])


def test_lam_zero_is_the_one_step_td_error():
    rewards = np.array([[0.0, 0.0, 1.0]])
    values = np.array([[0.5, 0.6, 0.8]])
    a = gae(rewards, values, gamma=0.9, lam=0.0)
    np.testing.assert_allclose(a, [[0.9 * 0.6 - 0.5, 0.9 * 0.8 - 0.6, 1.0 - 0.8]])


def test_one_response_as_1d():
    a = gae([0.0, 1.0], [0.5, 0.5], gamma=1.0, lam=1.0)
    np.testing.assert_allclose(a, [0.5, 0.5])


@settings(max_examples=60, deadline=None)
@given(
    rewards=st.lists(st.floats(-10, 10), min_size=1, max_size=10),
    gamma=st.floats(0, 1),
    seed=st.integers(0, 2**16),
)
def test_lam_one_is_discounted_return_minus_value(rewards, gamma, seed):
    r = np.array([rewards])
    v = np.random.default_rng(seed).normal(size=r.shape)
    returns = np.zeros_like(r)
    running = 0.0
    for t in reversed(range(r.shape[1])):
        running = r[0, t] + gamma * running
        returns[0, t] = running
    np.testing.assert_allclose(gae(r, v, gamma=gamma, lam=1.0), returns - v, atol=1e-9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"gamma": 1.1, "lam": 0.9}, r"gamma must lie in \[0, 1\]"),
        ({"gamma": 0.9, "lam": -0.1}, r"lam must lie in \[0, 1\]"),
        ({"gamma": 0.9, "lam": 0.9, "values": np.zeros((2, 5))}, r"values must have shape"),
        ({"gamma": 0.9, "lam": 0.9, "mask": np.ones((2, 4), bool)}, r"mask must have shape"),
        ({"gamma": 0.9, "lam": 0.9, "rewards": [[0, 0, math.nan], [0, 0, 0]]}, r"token 3"),
    ],
)
def test_gae_refuses_bad_input(kwargs, message):
    args = {"rewards": np.zeros((2, 3)), "values": np.zeros((2, 3))} | kwargs
    with pytest.raises(ValueError, match=message):
        gae(**args)


def test_nan_on_padding_is_ignored():
    rewards = np.array([[1.0, math.nan]])
    a = gae(rewards, np.zeros((1, 2)), gamma=1.0, lam=1.0, mask=[[True, False]])
    np.testing.assert_array_equal(a, [[1.0, 0.0]])


# --- the toy critic and what its errors do -------------------------------------------------


def test_expected_returns_hand_values():
    # p = mean outcome = 2/3; b_t = p + (R - p) t / L
    v = expected_returns(OUTCOME, LENGTHS)
    p = 2 / 3
    np.testing.assert_allclose(
        v,
        [
            [p, p + (1 - p) / 3, p + 2 * (1 - p) / 3, 0, 0],
            [p - p * t / 5 for t in range(5)],
            [p, p + (1 - p) / 2, 0, 0, 0],
        ],
    )


def test_perfect_critic_lam_zero_spreads_r_minus_p_evenly():
    # delta_t = b_{t+1} - b_t = (R - p) / L on every token (gamma = 1, no KL)
    mask = token_mask(LENGTHS)
    a = gae(token_rewards(LENGTHS, OUTCOME), expected_returns(OUTCOME, LENGTHS), gamma=1, lam=0)
    per_token = (np.array(OUTCOME) - 2 / 3) / np.array(LENGTHS)
    np.testing.assert_allclose(a, np.where(mask, per_token[:, None], 0.0), atol=1e-15)


def test_perfect_critic_lam_one_cancels_the_kl_it_foresaw():
    kl = np.random.default_rng(0).random((3, 5))
    rewards = token_rewards(LENGTHS, OUTCOME, kl=kl, kl_coef=0.3)
    values = expected_returns(OUTCOME, LENGTHS, kl=kl, kl_coef=0.3, prior=0.5)
    a = gae(rewards, values, gamma=1.0, lam=1.0, mask=token_mask(LENGTHS))
    t = np.arange(5)
    belief = 0.5 + (np.array(OUTCOME)[:, None] - 0.5) * t / np.array(LENGTHS)[:, None]
    expected = np.array(OUTCOME)[:, None] - belief  # G_t - V_t: the KL terms cancel
    np.testing.assert_allclose(a, np.where(token_mask(LENGTHS), expected, 0), atol=1e-12)


def test_expected_returns_discount():
    # one response of 3 tokens, R = 1, p = 0.4, gamma = 0.5: gamma^(L-1-t) b_t
    v = expected_returns([1.0], [3], prior=0.4, gamma=0.5)
    b = [0.4, 0.6, 0.8]
    np.testing.assert_allclose(v, [[0.25 * b[0], 0.5 * b[1], b[2]]])


# --- GRPO's per-token advantages --------------------------------------------------------


@pytest.mark.parametrize("convention", ["trl", "dr-grpo", "rloo"])
def test_grpo_tokens_share_their_response_advantage(convention):
    a = grpo_token_advantages(OUTCOME, LENGTHS, convention=convention)
    expected = group_advantages(OUTCOME, convention=convention)
    mask = token_mask(LENGTHS)
    np.testing.assert_array_equal(a, np.where(mask, expected[:, None], 0.0))


def test_grpo_tokens_hand_values():
    # [1, 0, 1]: mean 2/3, population std sqrt(2)/3, so A = (1/sqrt(2), -sqrt(2), 1/sqrt(2))
    a = grpo_token_advantages(OUTCOME, LENGTHS, convention="zscore")
    np.testing.assert_allclose(a[0, :3], math.sqrt(1 / 2))
    np.testing.assert_allclose(a[1], -math.sqrt(2))
    assert a[2, 2:].tolist() == [0, 0, 0]


def test_grpo_tokens_several_prompts():
    a = grpo_token_advantages([[1, 0], [0, 0]], [[2, 1], [3, 3]], convention="dr-grpo")
    assert a.shape == (2, 2, 3)
    np.testing.assert_array_equal(a[0], [[0.5, 0.5, 0], [-0.5, 0, 0]])
    assert np.all(a[1] == 0)
    with pytest.raises(ValueError, match=r"lengths must have the shape"):
        grpo_token_advantages([1, 0], [2, 2, 2])
