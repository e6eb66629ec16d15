"""A bandit that trains like RL with verifiable rewards, to compare baselines.

The task: N prompts, each with M candidate answers of which ``num_correct``
are right (the first ones; order means nothing to a softmax). The policy of
prompt n is a softmax over its own logits theta_n (M,). Prompt n has a hidden
difficulty d_n: at step 0 it is answered correctly with probability
sigmoid(-d_n). A verifier scores each sampled answer: 1 if correct, else 0
("binary") or a fixed partial credit in {0, 0.1, ..., 0.4} ("partial"), or 2 if
correct, else 1 ("shifted": the binary reward plus 1, say a bonus for answering at all).

Each step every estimator samples K answers per prompt (the same budget for
all), turns their rewards into advantages A_k, and ascends the exact
score-function gradient of a softmax,

    g_n = (1/K) sum_k A_k (onehot(a_k) - pi_n),    theta_n += lr g_n.

Estimators differ only in A_k (see ``grpo_core.estimators``). GRPO, Dr. GRPO and RLOO
compute through ``grpo_core.group_advantages``, the engine the app shows.

Randomness: one ``numpy.random.Generator`` seeded with ``config.seed`` draws
the tasks of every seed, then each step's uniforms. Every estimator reuses the
same uniforms (common random numbers), so on a seed all estimators face the
same prompts and the same luck, and differences come from the estimator.
Everything is vectorized over seeds, prompts and samples (and estimators where
they share code); Python loops run over steps and estimators only (plus the
columns of short rows, and one call per seed for the "trl-batch" convention,
whose batch std must not mix seeds).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import group_advantages
from grpo_core.conventions import get_convention
from grpo_core.estimators import ESTIMATORS, GROUP_ESTIMATORS

REWARD_KINDS = ("binary", "partial", "shifted")
SAMPLE_BUDGET = 192_000
"""Samples per prompt a run may draw in all, steps x seeds x K x estimators (each over the
64 prompts): 4 times the default run's 200 x 5 x 8 x 6 = 48,000. The page's widest settings
(400 steps, 10 seeds, K = 32, 6 estimators) are 16 times it: 2.3 s of a shared server's CPU
for one link opened, which anyone can repeat with a new seed."""
MIN_STEPS = 10


def steps_within_budget(
    steps: int, *, num_seeds: int, group_size: int, num_estimators: int, budget=SAMPLE_BUDGET
) -> int:
    """``steps``, or fewer (never below ``MIN_STEPS``) so that steps x num_seeds x
    group_size x num_estimators stays within ``budget``. All arguments are counts >= 1
    (``num_estimators`` 0 counts as 1)."""
    per_step = max(1, num_seeds) * max(1, group_size) * max(1, num_estimators)
    return max(MIN_STEPS, min(steps, budget // per_step))


@dataclass(frozen=True)
class SimConfig:
    """Everything ``simulate`` needs; hashable, so a run can be cached by its config."""

    num_prompts: int = 64
    """N, prompts in the training set (every prompt is used every step)."""
    num_candidates: int = 8
    """M, answers the policy chooses from for each prompt."""
    num_correct: int = 1
    """Candidates that are correct, 1 <= num_correct < num_candidates."""
    group_size: int = 8
    """K, answers sampled per prompt per step, for every estimator (the samples budget)."""
    steps: int = 200
    """Policy updates."""
    lr: float = 0.3
    """Step size of the policy's gradient ascent on each prompt's logits, > 0."""
    critic_lr: float = 0.1
    """Step size of the critic's regression V <- V + critic_lr (mean_k R_k - V), in (0, 1]."""
    num_seeds: int = 5
    """Independent runs (new hidden difficulties, partial credits and samples each)."""
    seed: int = 0
    """Seeds the one random generator; same seed and config, same arrays."""
    estimators: tuple[str, ...] = tuple(ESTIMATORS)
    """Names from ``ESTIMATORS`` to run, in order."""
    convention: str = "trl"
    """The ``group_advantages`` convention of the "grpo" estimator."""
    reward: str = "binary"
    """"binary": 1 if correct else 0. "partial": wrong answers earn a fixed credit in
    {0, 0.1, ..., 0.4}, drawn per prompt and answer. "shifted": 2 if correct else 1."""
    difficulty: float = 2.0
    """Mean hidden difficulty: the log-odds of failing a prompt at step 0
    (2.0: a prompt of mean difficulty starts with about 12% of its answers correct,
    1/(1+e^2); averaged over the default spread 1.5, about 19%)."""
    difficulty_spread: float = 1.5
    """Std over prompts of the hidden difficulty, >= 0: easy and hard prompts."""

    def __post_init__(self):
        if isinstance(self.estimators, str):
            object.__setattr__(self, "estimators", (self.estimators,))
        else:
            object.__setattr__(self, "estimators", tuple(self.estimators))
        _validate(self)


@dataclass(frozen=True, eq=False)
class SimResult:
    """What ``simulate`` measured. E estimators, S seeds; arrays are read-only.

    ``steps`` is config.steps; index i of a per-step array is training step i
    (measured on the samples of step i, before its update).
    """

    config: SimConfig
    estimators: tuple[str, ...]
    """(E,) estimator names, the first axis of the per-estimator arrays."""
    accuracy: np.ndarray
    """(E, S, steps + 1): mean over prompts of the policy's probability of a correct
    answer, exact (not sampled); [..., 0] before training, [..., i] after i updates."""
    grad_variance: np.ndarray
    """(E, steps): noise of the gradient estimate, from its per-sample contributions
    g_k = A_k (onehot(a_k) - pi): sum_k ||g_k - mean g||^2 / (K (K - 1)), the squared
    standard error of g_n were the K terms independent, averaged over prompts and seeds.
    NaN when K = 1. Not comparable across estimators: each scales its advantages its own
    way (GRPO divides by the std), and mostly-zero rewards make mostly-zero terms;
    ``gradient_cosine`` is the comparable measure."""
    gradient_cosine: np.ndarray
    """(E, S, steps): cosine between the step's gradient estimate g (every prompt's
    logits, one vector of N * M numbers per seed) and the exact gradient of the mean
    expected reward, ``exact_policy_gradient``: 1 when the step points straight uphill,
    0 when it is zero or at right angles. Free of scale, so estimators that scale
    their advantages differently compare fairly."""
    zero_spread_fraction: np.ndarray
    """(E, S, steps): fraction of prompts whose K rewards were all equal (no signal
    for a group baseline). Always 1 when K = 1."""
    solved_fraction: np.ndarray
    """(E, S, steps): fraction of prompts whose K answers were all correct."""
    critic_value_error: np.ndarray | None
    """(S, steps): root mean square over prompts of V_n - E_pi[R_n], the critic's
    error when used at step i; None when "ppo-critic" is not run."""
    difficulty: np.ndarray
    """(S, N): the hidden difficulties."""

    def accuracy_bands(self) -> pd.DataFrame:
        """Long table for a chart: estimator, step, mean, std, min, max over seeds."""
        acc = self.accuracy
        e, _, t = acc.shape
        return pd.DataFrame(
            {
                "estimator": np.repeat(self.estimators, t),
                "step": np.tile(np.arange(t), e),
                "mean": acc.mean(1).ravel(),
                "std": acc.std(1).ravel(),
                "min": acc.min(1).ravel(),
                "max": acc.max(1).ravel(),
            }
        )


def softmax(logits: np.ndarray) -> np.ndarray:
    """pi = exp(theta) / sum exp(theta) over the last axis, shape of ``logits``."""
    z = logits - _row_max(logits)[..., None]
    np.exp(z, out=z)
    z /= _row_sum(z)[..., None]
    return z


def exact_policy_gradient(pi: np.ndarray, answer_rewards: np.ndarray) -> np.ndarray:
    """grad_theta E_{a~pi}[r(a)] = sum_a pi(a) r(a) (onehot(a) - pi) = pi * (r - pi.r).

    pi, answer_rewards: (..., M). Returns (..., M).
    """
    expected = (pi * answer_rewards).sum(-1, keepdims=True)
    return pi * (answer_rewards - expected)


def sample_answers(pi: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Answers a ~ pi by inverting each row's CDF: the first a with u < cdf(a).

    pi: (..., M) policies. uniforms: (..., K) in [0, 1), broadcast against
    pi's leading axes (the simulator shares one (S, N, K) draw between
    estimators). Returns (..., K) answer indices in 0..M-1.

    Every row's CDF is shifted by its row number, so all rows form one sorted
    array and a single ``searchsorted`` samples them all.
    """
    m = pi.shape[-1]
    lead = np.broadcast_shapes(pi.shape[:-1], uniforms.shape[:-1])
    pi = np.broadcast_to(pi, (*lead, m))
    rows = np.arange(math.prod(lead), dtype=np.float64).reshape(*lead, 1)
    cdf = np.cumsum(pi, axis=-1)
    cdf[..., -1] = 1.0  # rounding must not leave a gap at the top
    flat = np.searchsorted((cdf + rows).ravel(), (uniforms + rows).ravel(), side="right")
    answers = flat.reshape(*lead, -1) - (rows * m).astype(np.intp)
    return np.minimum(answers, m - 1)


def gradient_cosine(grad: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """cos(g, g*) = g . g* / (||g|| ||g*||) over the last two axes (prompts N, answers M);
    0 where either is zero (a step that does not move points nowhere).

    grad, exact: (..., N, M). Returns (...).
    """
    dot = (grad * exact).sum((-1, -2))
    norms = np.sqrt((grad * grad).sum((-1, -2)) * (exact * exact).sum((-1, -2)))
    return np.divide(dot, norms, out=np.zeros_like(dot), where=norms > 0)


def policy_gradient(pi: np.ndarray, answers: np.ndarray, advantages: np.ndarray) -> np.ndarray:
    """The score-function estimate g = (1/K) sum_k A_k (onehot(a_k) - pi), shape (..., M).

    pi: (..., M) policy. answers: (..., K) sampled answer indices in 0..M-1.
    advantages: (..., K). Leading axes broadcast-free: all three share them.
    """
    m = pi.shape[-1]
    group_size = answers.shape[-1]
    lead = pi.shape[:-1]
    # sum_k A_k onehot(a_k), by counting weighted answers per row
    rows = np.arange(math.prod(lead)).reshape(*lead, 1) * m
    counts = np.bincount(
        (rows + answers).ravel(), weights=advantages.ravel(), minlength=math.prod(lead) * m
    ).reshape(pi.shape)
    return (counts - _row_sum(advantages)[..., None] * pi) / group_size


def simulate(config: SimConfig | None = None) -> SimResult:
    """Train one policy per estimator and seed on the bandit task; see ``SimResult``."""
    cfg = SimConfig() if config is None else config
    if not isinstance(cfg, SimConfig):
        raise ValueError(f"config must be a SimConfig, got {type(cfg).__name__}.")
    names = cfg.estimators
    e, s, n, m, group_size, c = (
        len(names),
        cfg.num_seeds,
        cfg.num_prompts,
        cfg.num_candidates,
        cfg.group_size,
        cfg.num_correct,
    )
    rng = np.random.default_rng(cfg.seed)

    # The task of each seed: hidden difficulties and what the verifier pays per answer.
    difficulty = cfg.difficulty + cfg.difficulty_spread * rng.standard_normal((s, n))
    credit = np.zeros((s, n, m))  # (S, N, M) reward of each candidate answer
    # drawn for both reward kinds, so that they go on to sample with the same uniforms
    partial = np.floor(rng.random((s, n, m)) * 5) / 10  # tenths in [0, 0.4]
    if cfg.reward == "partial":
        credit[:] = partial
    credit[:, :, :c] = 1.0
    if cfg.reward == "shifted":
        credit += 1.0

    # Initial logits: correct answers at log((M-c)/c) - d, wrong ones at 0, so that
    # P(correct) = c e^l / (c e^l + M - c) = sigmoid(-d).
    theta = np.zeros((e, s, n, m))
    theta[..., :c] = (math.log((m - c) / c) - difficulty)[None, :, :, None]
    credit_e = np.broadcast_to(credit, (e, s, n, m))
    critic_at = names.index("ppo-critic") if "ppo-critic" in names else None
    value = np.zeros((s, n))  # the critic's V_n, a fresh value head predicting 0

    accuracy = np.empty((e, s, cfg.steps + 1))
    grad_variance = np.empty((e, cfg.steps))
    cosine = np.empty((e, s, cfg.steps))
    zero_spread = np.empty((e, s, cfg.steps))
    solved = np.empty((e, s, cfg.steps))
    value_error = np.empty((s, cfg.steps)) if critic_at is not None else None
    advantages = np.empty((e, s, n, group_size))

    pi = softmax(theta)
    accuracy[..., 0] = _row_sum(pi[..., :c]).mean(-1)
    offsets = np.arange(e * s * n).reshape(e, s, n, 1) * m  # flat index of each row's answer 0
    credit_flat = np.ascontiguousarray(credit_e).ravel()
    for step in range(cfg.steps):
        # Sample K answers per prompt by inverting each policy's CDF at shared uniforms.
        answers = sample_answers(pi, rng.random((s, n, group_size)))  # (E, S, N, K)
        index = offsets + answers
        rewards = credit_flat[index]  # (E, S, N, K)

        for i, name in enumerate(names):
            r = rewards[i]
            if name in GROUP_ESTIMATORS:
                conv = {"grpo": cfg.convention, "dr-grpo": "dr-grpo", "rloo": "rloo"}[name]
                advantages[i] = _group_advantages(r, conv)
            elif name == "reinforce":
                advantages[i] = r
            elif name == "reinforce-batch-mean":
                advantages[i] = r - r.mean(axis=(1, 2), keepdims=True)
            else:  # ppo-critic
                target = _row_sum(pi[i] * credit)  # E_pi[R_n], what V_n should predict
                value_error[:, step] = np.sqrt(((value - target) ** 2).mean(-1))
                advantages[i] = r - value[..., None]
                # regression on 0.5 (V - R)^2
                value += cfg.critic_lr * (_row_sum(r) / group_size - value)

        grad = policy_gradient(pi, answers, advantages)  # (E, S, N, M)
        grad_variance[:, step] = _gradient_noise(pi, pi.ravel()[index], advantages, grad)
        cosine[..., step] = gradient_cosine(grad, exact_policy_gradient(pi, credit_e))
        zero_spread[..., step] = _row_sum(_row_min(rewards) == _row_max(rewards)) / n
        solved[..., step] = _row_sum(_row_max(answers) < c) / n

        theta += cfg.lr * grad
        pi = softmax(theta)
        accuracy[..., step + 1] = _row_sum(pi[..., :c]).mean(-1)

    arrays = [accuracy, grad_variance, cosine, zero_spread, solved, difficulty]
    if value_error is not None:
        arrays.append(value_error)
    for a in arrays:
        a.setflags(write=False)
    return SimResult(
        config=cfg,
        estimators=names,
        accuracy=accuracy,
        grad_variance=grad_variance,
        gradient_cosine=cosine,
        zero_spread_fraction=zero_spread,
        solved_fraction=solved,
        critic_value_error=value_error,
        difficulty=difficulty,
    )


@functools.lru_cache(maxsize=16)
def simulate_cached(config: SimConfig) -> SimResult:
    """``simulate(config)``, remembered for the 16 most recent configs.

    SimConfig is frozen and hashable and the result's arrays are read-only,
    so a page can call this on every rerun: moving a widget that does not
    change the config returns the stored result at once.
    """
    return simulate(config)


def _group_advantages(rewards: np.ndarray, convention: str) -> np.ndarray:
    """(S, N, K) advantages of each seed's batch, through ``group_advantages``.

    A convention that divides by a statistic of the whole batch ("trl-batch",
    "reinforce-pp") sees one call per seed, so that its batch is one run's prompts,
    not every seed's.
    """
    if get_convention(convention).scale in ("batch", "whiten"):
        return np.stack([group_advantages(r, convention=convention) for r in rewards])
    s, n, group_size = rewards.shape
    flat = group_advantages(rewards.reshape(s * n, group_size), convention=convention)
    return flat.reshape(s, n, group_size)


def _gradient_noise(pi, pi_a, advantages, grad) -> np.ndarray:
    """(E,) sum_k ||g_k - g||^2 / (K (K-1)), averaged over seeds and prompts.

    ||g_k||^2 = A_k^2 ||onehot(a_k) - pi||^2 = A_k^2 (1 - 2 pi(a_k) + ||pi||^2), and
    sum_k ||g_k - g||^2 = sum_k ||g_k||^2 - K ||g||^2 with g the mean of the g_k.
    """
    group_size = advantages.shape[-1]
    if group_size == 1:
        return np.full(pi.shape[0], np.nan)
    norms = 1.0 - 2.0 * pi_a + _row_sum(pi * pi)[..., None]
    total = _row_sum(advantages**2 * norms) - group_size * _row_sum(grad * grad)
    # rounding can dip below 0
    per_prompt = np.maximum(total, 0.0) / (group_size * (group_size - 1))
    return per_prompt.reshape(len(per_prompt), -1).mean(-1)


def _row_sum(x: np.ndarray) -> np.ndarray:
    """Sum over the last axis; a matrix-vector product is numpy's fastest for short rows."""
    return x @ np.ones(x.shape[-1], dtype=np.result_type(x.dtype, np.float64))


def _row_max(x: np.ndarray) -> np.ndarray:
    """Max over a short last axis, column by column (faster than .max(-1) for M, K ~ 8)."""
    out = x[..., 0].copy()
    for j in range(1, x.shape[-1]):
        np.maximum(out, x[..., j], out=out)
    return out


def _row_min(x: np.ndarray) -> np.ndarray:
    """Min over a short last axis, column by column."""
    out = x[..., 0].copy()
    for j in range(1, x.shape[-1]):
        np.minimum(out, x[..., j], out=out)
    return out


# --- validation ----------------------------------------------------------------------


def _validate(cfg: SimConfig) -> None:
    for name, low in (
        ("num_prompts", 1),
        ("num_candidates", 2),
        ("num_correct", 1),
        ("group_size", 1),
        ("steps", 1),
        ("num_seeds", 1),
        ("seed", 0),
    ):
        _checks.whole(getattr(cfg, name), name, minimum=low)
    if cfg.num_correct >= cfg.num_candidates:
        raise ValueError(
            f"num_correct={cfg.num_correct} must be less than num_candidates="
            f"{cfg.num_candidates}: at least one answer has to be wrong."
        )
    for name in ("lr", "critic_lr"):
        x = getattr(cfg, name)
        if not _checks.is_real(x) or not math.isfinite(x) or x <= 0:
            raise ValueError(f"{name} must be a finite number > 0, got {x!r}.")
    if cfg.critic_lr > 1:
        raise ValueError(
            f"critic_lr must be at most 1 (1 jumps straight to the batch's mean reward; "
            f"more overshoots it), got {cfg.critic_lr!r}."
        )
    for name in ("difficulty", "difficulty_spread"):
        _checks.finite(getattr(cfg, name), name)
    if cfg.difficulty_spread < 0:
        raise ValueError(f"difficulty_spread must be >= 0, got {cfg.difficulty_spread!r}.")
    if not cfg.estimators:
        raise ValueError(f"choose at least one estimator from: {', '.join(ESTIMATORS)}.")
    for name in cfg.estimators:
        if name not in ESTIMATORS:
            raise ValueError(f"unknown estimator {name!r}; choose from: {', '.join(ESTIMATORS)}.")
    if len(set(cfg.estimators)) != len(cfg.estimators):
        raise ValueError(f"each estimator may be listed once, got {list(cfg.estimators)}.")
    grouped = [x for x in cfg.estimators if x in GROUP_ESTIMATORS]
    if cfg.group_size < 2 and grouped:
        names = [ESTIMATORS[x].label for x in grouped]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        one = len(names) == 1
        raise ValueError(
            f"{listed} {'needs' if one else 'need'} at least 2 samples per prompt "
            f"(group_size >= 2): {'its' if one else 'their'} baseline compares a prompt's "
            "samples with each other. Got group_size=1."
        )
    get_convention(cfg.convention)  # ValueError listing the conventions
    if cfg.reward not in REWARD_KINDS:
        raise ValueError(
            f"unknown reward {cfg.reward!r}; choose one of: {', '.join(REWARD_KINDS)}."
        )
