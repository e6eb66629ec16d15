"""Convention inference on logs generated with each convention, in float32 and float64."""

import warnings

import numpy as np
import pandas as pd
import pytest

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.inference import base_name, describe_fit, fit_conventions, fit_log
from grpo_core.log_summary import log_groups
from grpo_core.precision import float32_advantages
from grpo_core.rollouts import infer_convention


def make_log(rewards: np.ndarray, advantages: np.ndarray) -> pd.DataFrame:
    """A log of (steps, prompts, K) rewards with their advantages, rows shuffled per step."""
    steps, prompts, k = rewards.shape
    step = np.repeat(np.arange(steps), prompts * k)
    prompt = np.tile(np.repeat([f"p{p}" for p in range(prompts)], k), steps)
    return pd.DataFrame(
        {"step": step, "prompt": prompt, "reward": rewards.ravel(), "advantage": advantages.ravel()}
    )


def rewards_with_a_small_spread(rng, steps=3, prompts=6, k=8):
    r = rng.integers(0, 2, size=(steps, prompts, k)).astype(float)
    r[:, 0] = 0.5 + rng.normal(0, 3e-6, size=(steps, k))  # one group whose std is near eps
    r[:, 1] = 1.0  # a zero-spread group
    return r


def advantages_under(name: str, rewards: np.ndarray, *, float32: bool) -> np.ndarray:
    conv = CONVENTIONS[name]
    steps = rewards.shape[0]
    if float32:
        a = float32_advantages(rewards.reshape(-1, rewards.shape[-1]), eps=conv.eps, ddof=conv.ddof)
        a = np.nan_to_num(a)
        if conv.clip is not None:
            a = np.clip(a, -conv.clip, conv.clip)
        return a.reshape(rewards.shape)
    if conv.scale in ("batch", "whiten"):  # the batch is one step
        return np.stack([group_advantages(rewards[s], convention=name) for s in range(steps)])
    return group_advantages(rewards.reshape(-1, rewards.shape[-1]), convention=name).reshape(
        rewards.shape
    )


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_each_float64_convention_is_found_first(name):
    rewards = rewards_with_a_small_spread(np.random.default_rng(1))
    log = make_log(rewards, advantages_under(name, rewards, float32=False))
    ranking = infer_convention(log)
    assert base_name(ranking[0][0]) == name
    assert ranking[0][1] < 1e-9


@pytest.mark.parametrize(
    "name", [n for n, c in CONVENTIONS.items() if c.scale == "group" and c.baseline == "mean"]
)
def test_each_float32_convention_is_found_first(name):
    rewards = rewards_with_a_small_spread(np.random.default_rng(2))
    log = make_log(rewards, advantages_under(name, rewards, float32=True))
    best, error = infer_convention(log)[0]
    assert best == f"{name} (float32)"
    assert error == 0.0


def test_trl_and_verl_cannot_be_told_apart_on_a_coarse_log():
    # Wide spreads, and a log printed with 3 decimals: eps 1e-4 vs 1e-6 is invisible.
    rewards = np.tile([0.0, 1.0, 2.0, 3.0], (1, 4, 1)).astype(float)
    logged = np.round(advantages_under("trl", rewards, float32=False), 3)
    frame = make_log(rewards, logged)
    groups = log_groups(frame)
    fit = fit_conventions(groups, frame["step"].to_numpy(), frame["advantage"].to_numpy())
    names = {base_name(m) for m in fit.matches}
    assert {"trl", "verl", "openrlhf"} <= names
    words = describe_fit(fit)
    assert "cannot tell apart" in words and "eps (1e-4 vs 1e-6" in words


def test_a_tiny_spread_tells_trl_from_verl():
    rewards = rewards_with_a_small_spread(np.random.default_rng(3))
    frame = make_log(rewards, advantages_under("verl", rewards, float32=False))
    groups = log_groups(frame)
    fit = fit_conventions(groups, frame["step"].to_numpy(), frame["advantage"].to_numpy())
    assert {base_name(m) for m in fit.matches} == {"verl"}
    assert describe_fit(fit).startswith("This run matches **verl**")


def test_groups_that_match_none_are_flagged():
    rewards = rewards_with_a_small_spread(np.random.default_rng(4))
    advantages = advantages_under("trl", rewards, float32=False)
    advantages[1, 3] *= 2.0  # one group logged with doubled advantages (a bug)
    frame = make_log(rewards, advantages)
    groups = log_groups(frame)
    fit = fit_conventions(groups, frame["step"].to_numpy(), frame["advantage"].to_numpy())
    flagged = groups.table.loc[fit.unmatched, ["step", "prompt"]].values.tolist()
    assert flagged == [[1, "p3"]]
    assert "No listed convention reproduces" in describe_fit(fit)


def test_dr_grpo_logs_mention_the_trl_release_that_divided_by_nothing():
    rewards = rewards_with_a_small_spread(np.random.default_rng(5))
    frame = make_log(rewards, advantages_under("dr-grpo", rewards, float32=False))
    groups = log_groups(frame)
    fit = fit_conventions(groups, frame["step"].to_numpy(), frame["advantage"].to_numpy())
    assert "v0.22.0 and v0.22.1" in describe_fit(fit)


def test_uneven_groups_are_compared_per_size():
    rewards = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.5]
    groups_of = ["a", "a", "a", "b", "b", "b", "b"]
    advantages = group_advantages(rewards, group_ids=groups_of, convention="trl")
    frame = pd.DataFrame(
        {"step": 0, "prompt": groups_of, "reward": rewards, "advantage": advantages}
    )
    assert base_name(infer_convention(frame)[0][0]) == "trl"


def gdpo_log(rng, steps=2, prompts=4, k=4):
    """Two reward columns and TRL's GDPO advantages per step, in float32 as torch does."""
    import torch

    rows = []
    for step in range(steps):
        r = np.column_stack(
            [rng.integers(0, 2, prompts * k), -0.1 * rng.integers(1, 9, prompts * k)]
        ).astype(np.float32)
        t = torch.tensor(r).view(-1, k, 2)
        mean = t.mean(dim=1, keepdim=True)
        std = t.std(dim=1, keepdim=True)
        total = ((t - mean) / (std + 1e-4)).view(-1, 2).sum(dim=1)
        a = ((total - total.mean()) / (total.std() + 1e-4)).numpy()
        for i in range(prompts * k):
            rows.append((step, f"p{i // k}", float(r[i, 0]), float(r[i, 1]), float(a[i])))
    frame = pd.DataFrame(rows, columns=["step", "prompt", "reward.a", "reward.b", "advantage"])
    return frame.assign(reward=frame["reward.a"] + frame["reward.b"])


def test_gdpo_is_a_candidate_per_step_and_found_in_float32():
    pytest.importorskip("torch")
    fit = fit_log(gdpo_log(np.random.default_rng(3)))
    assert base_name(fit.best) == "gdpo"
    assert fit.ranking[0][1] <= 1e-6
    assert fit.float32_logged
    text = describe_fit(fit, ("a", "b"))
    assert "**GDPO**" in text and "normalised over the step's batch" in text
    assert "computed in float32 (every logged value is a float32 number)" in text


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_every_convention_has_a_float32_candidate(name):
    from grpo_core.inference import candidate_advantages

    rewards = rewards_with_a_small_spread(np.random.default_rng(4))
    groups = log_groups(make_log(rewards, np.zeros(rewards.shape)))
    steps = np.repeat(np.arange(3), 6 * 8)
    assert f"{name} (float32)" in candidate_advantages(groups, steps)


def test_float32_batch_scaling_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    r = rng.normal(size=(2, 4, 4)).astype(np.float32)
    expected = []
    for s in range(2):
        t = torch.tensor(r[s])
        a = (t - t.mean(dim=1, keepdim=True)) / (t.flatten().std() + 1e-4)
        expected.append(a.numpy())
    log = make_log(r.astype(np.float64), np.stack(expected).astype(np.float64))
    best, error = infer_convention(log)[0]
    assert best == "trl-batch (float32)" and error <= 1e-6


def test_float32_words_need_every_value_to_be_a_float32_number():
    from grpo_core.inference import float32_evidence

    assert float32_evidence(np.array([np.float32(0.1), np.float32(1 / 3)], dtype=np.float64))
    assert not float32_evidence(np.array([0.1, 1 / 3]))
    assert not float32_evidence(np.array([0.5, 1.0]))  # short decimals prove nothing


def test_a_value_beyond_float32s_range_is_no_float32_evidence_and_no_warning():
    from grpo_core.inference import float32_evidence

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # hypothesis found the overflow's RuntimeWarning
        assert not float32_evidence(np.array([np.float32(0.1), 1e300]))


def test_a_long_log_is_screened_on_its_first_steps_and_still_read_right():
    rng = np.random.default_rng(6)
    rewards = rng.integers(0, 2, size=(40, 200, 16)).astype(float)  # 128,000 rows
    log = make_log(rewards, advantages_under("trl", rewards, float32=True))
    fit = fit_log(log)
    assert base_name(fit.best) == "trl" and fit.ranking[0][1] <= 1e-6
    assert fit.screened and "trl" not in fit.screened and "trl (float32)" not in fit.screened
    assert "rloo" in fit.screened


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_every_float32_candidate_computes_its_own_convention(name):
    """The float32 candidate of each convention (leave-one-out std and REINFORCE++'s
    whitening included) agrees with its float64 one to float32's precision, on 0/1
    rewards (ties, an answer alone against equal others) and on spread-out rewards."""
    from grpo_core.inference import FLOAT32, candidate_advantages

    rng = np.random.default_rng(7)
    rewards = rng.integers(0, 2, size=(3, 6, 8)).astype(float)
    rewards[:, 1] = 1.0  # zero spread
    rewards[:, 2] = [1, 0, 0, 0, 0, 0, 0, 0]  # one answer alone against equal others
    rewards[:, 3] = rng.normal(0, 20, size=(3, 8))  # spread wide enough to clip at ±10
    frame = make_log(rewards, np.zeros(rewards.shape))
    groups = log_groups(frame)
    steps = frame["step"].to_numpy()[groups.order]
    out = candidate_advantages(groups, steps, only={name, name + FLOAT32})
    np.testing.assert_allclose(out[name + FLOAT32], out[name], atol=1e-5, rtol=1e-5)
