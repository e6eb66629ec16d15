"""grpo_core.simulate: the gradient estimators, determinism, learning, and bad parameters."""

import math

import numpy as np
import pytest

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.estimators import ESTIMATORS
from grpo_core.simulate import (
    SAMPLE_BUDGET,
    SimConfig,
    _gradient_noise,
    _group_advantages,
    exact_policy_gradient,
    gradient_cosine,
    policy_gradient,
    sample_answers,
    simulate,
    simulate_cached,
    softmax,
    steps_within_budget,
)

SMALL = SimConfig(num_prompts=16, steps=30, num_seeds=2)

# --- the softmax policy gradient ---------------------------------------------------------


def test_policy_gradient_matches_per_sample_loop():
    rng = np.random.default_rng(0)
    pi = softmax(rng.normal(size=(3, 4, 5)))
    answers = rng.integers(0, 5, size=(3, 4, 6))
    adv = rng.normal(size=(3, 4, 6))
    expected = np.zeros((3, 4, 5))
    for i in range(3):
        for j in range(4):
            for k in range(6):
                onehot = np.eye(5)[answers[i, j, k]]
                expected[i, j] += adv[i, j, k] * (onehot - pi[i, j]) / 6
    np.testing.assert_allclose(policy_gradient(pi, answers, adv), expected, atol=1e-14)


def test_exact_gradient_hand_value():
    # pi = (1/2, 1/2), r = (1, 0): E[r] = 1/2, grad = pi * (r - 1/2) = (1/4, -1/4)
    grad = exact_policy_gradient(np.array([0.5, 0.5]), np.array([1.0, 0.0]))
    np.testing.assert_allclose(grad, [0.25, -0.25])


def test_sample_answers_follow_the_policy():
    pi = np.array([[0.1, 0.6, 0.0, 0.3], [1.0, 0.0, 0.0, 0.0]])
    u = np.random.default_rng(1).random((2, 200_000))
    answers = sample_answers(pi, u)
    freq = np.stack([np.bincount(a, minlength=4) for a in answers]) / u.shape[1]
    np.testing.assert_allclose(freq, pi, atol=0.005)
    edges = sample_answers(pi[:1], np.array([[0.0, 0.0999, 0.1, 0.7, 0.99999999]]))
    assert edges.tolist() == [[0, 0, 1, 3, 3]]  # never the zero-probability answer 2


def test_sample_answers_broadcast_shared_uniforms():
    pi = softmax(np.random.default_rng(2).normal(size=(3, 2, 5, 4)))
    u = np.random.default_rng(3).random((2, 5, 6))
    both = sample_answers(pi, u)
    assert both.shape == (3, 2, 5, 6)
    np.testing.assert_array_equal(both[1], sample_answers(pi[1], u))


def test_gradient_noise_matches_direct_formula():
    rng = np.random.default_rng(4)
    pi = softmax(rng.normal(size=(2, 3, 4, 5)))
    answers = rng.integers(0, 5, size=(2, 3, 4, 6))
    adv = rng.normal(size=(2, 3, 4, 6))
    grad = policy_gradient(pi, answers, adv)
    g = adv[..., None] * (np.eye(5)[answers] - pi[..., None, :])  # (..., K, M)
    direct = ((g - g.mean(-2, keepdims=True)) ** 2).sum((-1, -2)) / (6 * 5)
    pi_a = np.take_along_axis(pi, answers, -1)
    np.testing.assert_allclose(_gradient_noise(pi, pi_a, adv, grad), direct.mean((1, 2)))


# --- the group baseline and the expected gradient ------------------------------------------

PI = softmax(np.array([0.2, -0.5, 0.9]))
ANSWER_REWARDS = np.array([1.0, 0.0, 0.3])


def mean_estimate(convention, k=4, seeds=20, groups=10_000):
    """Average of the estimator's gradient over seeds x groups draws, and its standard error."""
    estimates = []
    for seed in range(seeds):
        u = np.random.default_rng(seed).random((groups, k))
        answers = sample_answers(PI, u)
        rewards = ANSWER_REWARDS[answers]
        if convention == "reinforce":
            adv = rewards
        else:
            adv = group_advantages(rewards, convention=convention)
        estimates.append(policy_gradient(np.broadcast_to(PI, (groups, 3)), answers, adv))
    g = np.concatenate(estimates)
    return g.mean(0), g.std(0) / math.sqrt(len(g))


@pytest.mark.parametrize(
    ("convention", "factor"), [("rloo", 1.0), ("reinforce", 1.0), ("dr-grpo", 3 / 4)]
)
def test_group_baselines_and_the_expected_gradient(convention, factor):
    """Against the analytic gradient g* = sum_a pi(a) r(a) (onehot(a) - pi), K = 4.

    - RLOO's baseline, the mean of the OTHER K-1 rewards, is independent of
      sample k, so E[(R_k - b_k) s_k] = E[R_k s_k] = g*: exactly unbiased
      (s_k = onehot(a_k) - pi, E[s_k] = 0). No baseline is unbiased too.
    - The group mean includes R_k itself: R_k - mean = (K-1)/K (R_k - b_k), so
      the mean-centred estimator of GRPO/Dr. GRPO is (K-1)/K g* in expectation:
      same direction, a step 3/4 as long at K = 4. (GRPO's division by the
      std on top is not a constant factor, so it is not tested here.)
    """
    g_star = exact_policy_gradient(PI, ANSWER_REWARDS)
    mean, se = mean_estimate(convention)
    assert np.all(np.abs(mean - factor * g_star) < 5 * se + 1e-12), (mean, factor * g_star, se)
    if factor != 1:  # and the shrinkage is real, not noise
        assert np.any(np.abs(mean - g_star) > 5 * se)


# --- the simulator --------------------------------------------------------------------------


def test_shapes():
    r = simulate(SMALL)
    e, s, t = len(ESTIMATORS), 2, 30
    assert r.estimators == tuple(ESTIMATORS)
    assert r.accuracy.shape == (e, s, t + 1)
    assert r.grad_variance.shape == (e, t)
    assert r.zero_spread_fraction.shape == r.solved_fraction.shape == (e, s, t)
    assert r.critic_value_error.shape == (s, t)
    assert r.difficulty.shape == (s, 16)
    assert np.all((r.accuracy >= 0) & (r.accuracy <= 1))
    assert np.all(r.solved_fraction <= r.zero_spread_fraction)
    bands = r.accuracy_bands()
    assert len(bands) == e * (t + 1)
    assert list(bands.columns) == ["estimator", "step", "mean", "std", "min", "max"]


def test_same_seed_same_arrays_other_seed_other_arrays():
    a, b = simulate(SMALL), simulate(SMALL)
    for name in ("accuracy", "grad_variance", "zero_spread_fraction", "critic_value_error"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    c = simulate(SimConfig(num_prompts=16, steps=30, num_seeds=2, seed=1))
    assert not np.array_equal(a.accuracy, c.accuracy)


def test_estimators_start_equal_on_the_same_task():
    r = simulate(SMALL)
    assert np.all(r.accuracy[:, :, 0] == r.accuracy[0, :, 0])


def test_grpo_improves_accuracy_on_the_default_task():
    r = simulate(SimConfig(num_seeds=3, estimators=("grpo",)))
    start, end = r.accuracy[0, :, 0], r.accuracy[0, :, -1]
    assert np.all(end > start + 0.3), (start, end)
    assert np.all(end > 0.8)


def test_every_estimator_learns():
    r = simulate(SimConfig(num_seeds=2, steps=100))
    assert np.all(r.accuracy[:, :, -1] > r.accuracy[:, :, 0] + 0.2)


def test_critic_error_shrinks_and_is_absent_without_critic():
    r = simulate(SimConfig(num_seeds=2, steps=100, estimators=("ppo-critic",)))
    err = r.critic_value_error.mean(0)
    assert err[-1] < err[0] / 2
    assert (
        simulate(SimConfig(num_seeds=1, steps=5, estimators=("grpo",))).critic_value_error is None
    )


def test_one_engine_call_over_seeds_equals_one_call_per_seed():
    """Rows are independent: batching every seed into one call changes no bit."""
    rng = np.random.default_rng(5)
    rewards = rng.binomial(1, 0.2, size=(3, 40, 4)).astype(float)
    rewards[0, 0] = 0.4  # a tie that is not 0 or 1
    for convention in CONVENTIONS:
        expected = np.stack([group_advantages(r, convention=convention) for r in rewards])
        np.testing.assert_array_equal(_group_advantages(rewards, convention), expected)


@pytest.mark.parametrize("convention", ["trl-batch", "verl", "openrlhf", "zscore"])
def test_every_grpo_convention_runs(convention):
    r = simulate(SimConfig(num_prompts=8, steps=5, num_seeds=2, convention=convention))
    assert np.all(np.isfinite(r.accuracy))


def test_partial_credit_and_single_sample():
    r = simulate(SimConfig(num_prompts=8, steps=10, num_seeds=2, reward="partial"))
    assert np.all(np.isfinite(r.grad_variance))
    one = simulate(
        SimConfig(num_prompts=8, steps=10, group_size=1, estimators=("reinforce", "ppo-critic"))
    )
    assert np.all(np.isnan(one.grad_variance))
    assert np.all(one.zero_spread_fraction == 1.0)  # one reward: nothing to compare


def test_cached_run_is_reused_and_read_only():
    a = simulate_cached(SMALL)
    assert simulate_cached(SimConfig(num_prompts=16, steps=30, num_seeds=2)) is a
    with pytest.raises(ValueError, match="read-only"):
        a.accuracy[0, 0, 0] = 1.0


def test_config_takes_a_list_of_estimators_and_stays_hashable():
    cfg = SimConfig(estimators=["grpo", "rloo"])
    assert cfg.estimators == ("grpo", "rloo")
    assert hash(cfg) == hash(SimConfig(estimators=("grpo", "rloo")))


# --- bad parameters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"group_size": 1, "estimators": ("rloo",)},
            r"RLOO needs at least 2 samples per prompt.*: its baseline",
        ),
        (
            {"group_size": 1},
            r"GRPO, Dr. GRPO and RLOO need at least 2 samples per prompt.*: their baseline",
        ),
        ({"steps": 0}, r"steps must be a whole number >= 1, got 0"),
        ({"steps": 2.5}, r"steps must be a whole number"),
        ({"lr": -0.1}, r"lr must be a finite number > 0, got -0.1"),
        ({"lr": 0}, r"lr must be a finite number > 0"),
        ({"lr": math.nan}, r"lr must be a finite number > 0"),
        ({"lr": math.inf}, r"lr must be a finite number > 0"),
        ({"critic_lr": 0.0}, r"critic_lr must be a finite number > 0"),
        ({"critic_lr": 1.5}, r"critic_lr must be at most 1"),
        ({"estimators": ("grpo", "ppo")}, r"unknown estimator 'ppo'; choose from: grpo, dr-grpo"),
        ({"estimators": ()}, r"choose at least one estimator"),
        ({"estimators": ("grpo", "grpo")}, r"each estimator may be listed once"),
        ({"num_correct": 9}, r"num_correct=9 must be less than num_candidates=8"),
        ({"num_correct": 8}, r"at least one answer has to be wrong"),
        ({"num_candidates": 1}, r"num_candidates must be a whole number >= 2"),
        ({"num_prompts": 0}, r"num_prompts must be a whole number >= 1"),
        ({"num_seeds": 0}, r"num_seeds must be a whole number >= 1"),
        ({"convention": "deepseek"}, r"unknown convention 'deepseek'; choose one of: trl"),
        ({"reward": "graded"}, r"unknown reward 'graded'; choose one of: binary, partial, shifted"),
        ({"difficulty_spread": -1.0}, r"difficulty_spread must be >= 0"),
        ({"difficulty": math.nan}, r"difficulty must be a finite number"),
    ],
)
def test_bad_parameters_are_refused_in_plain_words(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SimConfig(**kwargs)


def test_simulate_wants_a_config():
    with pytest.raises(ValueError, match=r"config must be a SimConfig"):
        simulate({"steps": 10})


# --- a measure comparable across estimators -------------------------------------------------


def test_gradient_cosine_is_free_of_scale_and_zero_for_a_zero_step():
    rng = np.random.default_rng(6)
    exact = rng.normal(size=(2, 4, 3))
    grad = rng.normal(size=(2, 4, 3))
    cos = gradient_cosine(grad, exact)
    expected = [np.dot(g.ravel(), e.ravel()) / np.linalg.norm(g) / np.linalg.norm(e)
                for g, e in zip(grad, exact, strict=True)]  # fmt: skip
    np.testing.assert_allclose(cos, expected)
    np.testing.assert_allclose(gradient_cosine(7.5 * grad, exact), cos)
    np.testing.assert_allclose(gradient_cosine(exact, exact), 1.0)
    assert gradient_cosine(np.zeros((4, 3)), exact[0]) == 0.0


def test_cosine_ordering_on_the_seeded_default_run():
    """Why REINFORCE's raw variance is lowest, and what the comparable measure says.

    With right/wrong rewards and one right answer, REINFORCE's estimate is
    (#right / K)(onehot(right) - pi), always parallel to the exact gradient: its cosine
    leads, and its raw per-sample variance is lowest because most of its terms are 0.
    GRPO's 1/std weights tilt the batch's step away from the mean reward's gradient:
    lowest cosine. Shift every reward by 1 and the group baselines do not notice, while
    REINFORCE pushes up every answer it samples and falls below all of them.
    """
    cfg = SimConfig(steps=100, num_seeds=3)
    binary = simulate(cfg)
    cosine = dict(zip(binary.estimators, binary.gradient_cosine.mean((1, 2)), strict=True))
    noise = dict(zip(binary.estimators, binary.grad_variance.mean(1), strict=True))
    ranked = sorted(cosine, key=cosine.get, reverse=True)
    assert ranked[0] == "reinforce" and ranked[-1] == "grpo", cosine
    assert min(noise, key=noise.get) == "reinforce", noise
    assert np.all(binary.gradient_cosine >= 0) and np.all(binary.gradient_cosine <= 1 + 1e-12)

    shifted = simulate(SimConfig(steps=100, num_seeds=3, reward="shifted"))
    moved = dict(zip(shifted.estimators, shifted.gradient_cosine.mean((1, 2)), strict=True))
    assert min(moved, key=moved.get) == "reinforce", moved
    for name in ("grpo", "dr-grpo", "rloo"):  # a group baseline ignores a shift
        np.testing.assert_allclose(moved[name], cosine[name], rtol=1e-9)


def test_the_widest_settings_are_held_to_the_sample_budget():
    """Red team: 400 steps x 10 seeds x K = 32 x 6 estimators, opened by a link, took 2.3 s
    of the server's CPU (16 times the default run), each new seed a new run."""
    default = SimConfig()
    per_step = default.num_seeds * default.group_size * len(default.estimators)
    assert default.steps * per_step * 4 == SAMPLE_BUDGET, "4 times the default run"
    widest = steps_within_budget(400, num_seeds=10, group_size=32, num_estimators=6)
    assert widest == SAMPLE_BUDGET // (10 * 32 * 6) == 100
    assert steps_within_budget(400, num_seeds=2, group_size=8, num_estimators=6) == 400
    assert steps_within_budget(400, num_seeds=10, group_size=32, num_estimators=0) == 400 // 1
    assert steps_within_budget(400, num_seeds=10**6, group_size=32, num_estimators=6) == 10
