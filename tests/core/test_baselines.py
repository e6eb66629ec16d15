"""grpo_core.baselines: GAE against a loop oracle, hand-checked critic and memory figures."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import group_advantages
from grpo_core.baselines import (
    ASSUMPTIONS,
    OPTIMIZERS,
    PRECISIONS,
    expected_returns,
    gae,
    grpo_token_advantages,
    memory_breakdown,
    sample_cost,
    token_mask,
    token_rewards,
    toy_values,
)

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
        (([3, 0], [1, 0]), {}, r"response 2 has 0 tokens"),
        (([3, 2], [1, 0, 1]), {}, r"one value per response"),
        (([3, 2], [1, math.nan]), {}, r"outcome must be finite"),
        (([3, 2], [1, 0]), {"kl": np.zeros((2, 2))}, r"num_tokens=2 is shorter than.*3"),
        (([3, 2], [1, 0]), {"kl_coef": -0.1}, r"kl_coef must be >= 0"),
        (([2.5, 2], [1, 0]), {}, r"whole numbers of tokens"),
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
    with pytest.raises(ValueError, match=r"noise must be >= 0"):
        toy_values(np.zeros((1, 2)), np.ones((1, 2), bool), noise=-1)


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


# --- memory and compute --------------------------------------------------------------------


def bytes_of(frame, model, component=None):
    rows = frame[frame["model"] == model]
    if component is not None:
        rows = rows[rows["component"] == component]
    return float(rows["bytes"].sum())


def test_7b_mixed_adam_critic_is_112_gb():
    frame = memory_breakdown(7, precision="bf16-mixed", optimizer="adamw", with_critic=True)
    assert bytes_of(frame, "value model") == 112e9  # 7e9 x (2 + 2 + 4 + 8)
    assert bytes_of(frame, "policy") == 112e9
    assert bytes_of(frame, "policy", "optimizer state") == 56e9  # m and v in fp32
    assert bytes_of(frame, "policy", "master weights") == 28e9
    assert bytes_of(frame, "reference model") == 14e9
    assert bytes_of(frame, "reward model") == 14e9
    assert frame["bytes"].sum() == 252e9
    assert frame.loc[frame["model"] == "value model", "gb"].sum() == 112.0
    without = memory_breakdown(7, precision="bf16-mixed", optimizer="adamw", with_critic=False)
    assert without["bytes"].sum() == 140e9
    assert "value model" not in set(without["model"])


@pytest.mark.parametrize(
    ("precision", "optimizer", "trained", "frozen"),
    [
        ("bf16-mixed", "adamw", 16, 2),
        ("bf16-mixed", "adamw-8bit", 10, 2),  # 2 + 2 + 4 + 1 + 1
        ("bf16-mixed", "sgd-momentum", 12, 2),  # 2 + 2 + 4 + 4
        ("bf16-mixed", "sgd", 8, 2),
        ("bf16", "adamw", 8, 2),  # 2 + 2 + 2 + 2, no master copy
        ("fp32", "adamw", 16, 4),  # 4 + 4 + 4 + 4
        ("fp32", "sgd", 8, 4),
    ],
)
def test_bytes_per_parameter(precision, optimizer, trained, frozen):
    frame = memory_breakdown(1.5, precision=precision, optimizer=optimizer)
    assert bytes_of(frame, "policy") == pytest.approx(trained * 1.5e9, rel=1e-15)
    assert bytes_of(frame, "value model") == pytest.approx(trained * 1.5e9, rel=1e-15)
    assert bytes_of(frame, "reference model") == pytest.approx(frozen * 1.5e9, rel=1e-15)


@pytest.mark.parametrize(("size", "gb"), [(0.5, 8), (1.5, 24), (7, 112), (32, 512), (70, 1120)])
def test_policy_gb_for_common_sizes(size, gb):
    frame = memory_breakdown(size)
    assert frame.loc[frame["model"] == "policy", "gb"].sum() == pytest.approx(gb, rel=1e-12)


def test_other_sizes_and_switches():
    frame = memory_breakdown(
        7, critic_params_billion=1.5, reward_params_billion=0.5, with_reference=False
    )
    assert bytes_of(frame, "value model") == pytest.approx(24e9)
    assert bytes_of(frame, "reward model") == pytest.approx(1e9)
    assert "reference model" not in set(frame["model"])
    verifier = memory_breakdown(7, with_reward_model=False, with_critic=False)
    assert verifier["model"].unique().tolist() == ["policy", "reference model"]
    assert list(frame.columns) == [
        "model", "component", "trained", "params", "bytes_per_param", "bytes", "gb",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"params_billion": 0}, r"params_billion must be a positive number"),
        ({"params_billion": math.inf}, r"params_billion must be a finite number"),
        ({"params_billion": 7, "precision": "fp8"}, r"unknown precision 'fp8'.*bf16-mixed"),
        ({"params_billion": 7, "optimizer": "lion"}, r"unknown optimizer 'lion'.*adamw"),
        ({"params_billion": 7, "critic_params_billion": -1}, r"critic_params_billion"),
    ],
)
def test_memory_refuses_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        memory_breakdown(**kwargs)


def test_registries_and_assumptions_are_consistent():
    assert set(PRECISIONS) == {"bf16-mixed", "bf16", "fp32"}
    assert set(OPTIMIZERS) == {"adamw", "adamw-8bit", "sgd-momentum", "sgd"}
    assert isinstance(ASSUMPTIONS, tuple) and all(isinstance(a, str) for a in ASSUMPTIONS)
    assert any("16 bytes per trained parameter" in a for a in ASSUMPTIONS)


def test_sample_cost_hand_values():
    frame = sample_cost(7, num_prompts=64, group_sizes=[1, 8], mean_length=500)
    assert frame["responses"].tolist() == [64, 512]
    assert frame["generated_tokens"].tolist() == [32_000, 256_000]
    # 2 x 7e9 x 256,000 = 3.584e15 FLOPs; 6 x for the update
    assert frame["generation_tflop"].tolist() == pytest.approx([448, 3584])
    assert frame["update_tflop"].tolist() == pytest.approx([1344, 10752])
    assert sample_cost(1, num_prompts=2, group_sizes=4, mean_length=10)["responses"][0] == 8
    with pytest.raises(ValueError, match=r"group_size must be a whole number >= 1"):
        sample_cost(7, num_prompts=64, group_sizes=[0], mean_length=500)
    with pytest.raises(ValueError, match=r"mean_length must be > 0"):
        sample_cost(7, num_prompts=64, group_sizes=8, mean_length=0)


# --- helpers of the critic page -------------------------------------------------------------

from grpo_core.baselines import (  # noqa: E402
    SETUPS,
    advantage_error,
    blank_padding,
    memory_comparison,
    response_group,
    rollout_compute,
    toy_kl,
)


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


def test_memory_comparison_saves_the_critic():
    m = memory_comparison(7, precision="bf16-mixed", optimizer="adamw")
    assert m.saved_gb == pytest.approx(112.0)
    # policy 112 + reference 14 + reward 14 (+ critic 112)
    assert m.without_critic_gb == pytest.approx(140.0)
    assert m.with_critic_gb == pytest.approx(252.0)
    assert m.saved_fraction == pytest.approx(112 / 252)
    with_rows = m.by_model[m.by_model.setup == SETUPS[0]]
    assert with_rows.model.tolist() == ["policy", "reference model", "reward model", "value model"]
    assert "value model" not in m.by_model[m.by_model.setup == SETUPS[1]].model.tolist()
    none = memory_comparison(7, with_reference=False, with_reward_model=False)
    assert none.without_critic_gb == pytest.approx(112.0)
    with pytest.raises(ValueError, match="both"):
        memory_comparison(7, with_critic=True)


def test_rollout_compute_hand_values():
    # 1B policy and critic, 10 prompts of 100 tokens: 1000 tokens for PPO
    frame = rollout_compute(1, num_prompts=10, mean_length=100, group_sizes=[4])
    ppo, grpo = frame.iloc[0], frame.iloc[1]
    assert ppo.setup == "PPO: 1 sample + critic" and grpo.setup == "GRPO: K = 4"
    assert ppo.generation_tflop == pytest.approx(2e9 * 1000 / 1e12)
    assert ppo.update_tflop == pytest.approx(6e9 * 1000 / 1e12)
    assert ppo.critic_tflop == pytest.approx(8e9 * 1000 / 1e12)
    assert ppo.total_tflop == pytest.approx(16.0)
    assert grpo.critic_tflop == 0 and grpo.total_tflop == pytest.approx(32.0)
    assert grpo.vs_ppo == pytest.approx(2.0)


def test_group_link_round_trip_and_refusals():
    from grpo_core.baselines import decode_group, encode_group

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
