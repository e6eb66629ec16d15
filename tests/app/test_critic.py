"""PPO critic vs GRPO and the training simulator: numbers against grpo_core, bad input,
links, and the simulator's cache."""

import base64
import json

import numpy as np
import pytest

from grpo_core.critic import advantage_error, toy_values
from grpo_core.format import fmt
from grpo_core.gae import expected_returns, gae, grpo_token_advantages, token_mask, token_rewards
from grpo_core.memory import memory_comparison, rollout_compute
from grpo_core.sim_report import estimator_table, summary_sentences
from grpo_core.simulate import SimConfig, simulate_cached
from tests.app.conftest import open_page, texts

CRITIC = "pages/critic.py"
SIM = "pages/simulator.py"
LENGTHS = [12, 20, 8, 30, 16, 24]
REWARDS = [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
SMALL = {"sim.steps": "30", "sim.seeds": "2"}  # a quick run for most simulator tests


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def heat(at, key) -> np.ndarray:
    """The z values of the heatmap with this key, NaN on padding."""
    spec = json.loads(next(c.proto.spec for c in at.get("plotly_chart") if c.key == key))
    z = spec["data"][0]["z"]
    if isinstance(z, dict):  # Plotly's base64 typed array
        shape = [int(d) for d in str(z["shape"]).split(",")]
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.array(z, dtype=float)


def expected_critic(lengths, rewards, *, bias, noise, gamma, lam, seed=0):
    mask = token_mask(lengths)
    true = expected_returns(rewards, lengths, gamma=gamma)
    yours = toy_values(true, mask, bias=bias, noise=noise, rng=np.random.default_rng(seed))
    r = token_rewards(lengths, rewards)
    perfect = gae(r, true, gamma=gamma, lam=lam, mask=mask)
    return perfect, gae(r, yours, gamma=gamma, lam=lam, mask=mask), mask


# --- the critic page -------------------------------------------------------------------------


def test_default_view_matches_grpo_core():
    at = open_page(CRITIC)
    assert not at.exception
    assert len(at.get("plotly_chart")) == 6  # 3 heatmaps, a line chart, memory, compute
    perfect, yours, mask = expected_critic(
        LENGTHS, REWARDS, bias=0.2, noise=0.1, gamma=1.0, lam=0.95
    )
    error = advantage_error(yours, perfect, mask)
    shown = metrics(at)
    assert shown["RMS error of advantages"] == fmt(error.rms)
    assert shown["Mean shift"] == fmt(error.mean)
    assert shown["Tokens pushed the wrong way"] == f"{error.sign_flips} of {error.tokens}"
    # the heatmap of your critic carries exactly these numbers, padding blank
    z = heat(at, "cr.heat_yours")
    np.testing.assert_allclose(z[mask], yours[mask])
    assert np.all(np.isnan(z[~mask]))
    grpo = grpo_token_advantages(REWARDS, LENGTHS, convention="trl")
    caption = " ".join(texts(at, "caption"))
    assert f"#1 +{fmt(grpo[0, 0])}" in caption and f"#2 −{fmt(-grpo[1, 0])}" in caption
    assert at.query_params["cr.g"] == "12:1_20:0_8:1_30:0_16:0_24:1"


def test_perfect_critic_has_no_error_and_bias_shifts_by_minus_b():
    at = open_page(CRITIC)
    at.slider(key="cr.bias").set_value(0.0)
    at.slider(key="cr.noise").set_value(0.0).run()
    assert metrics(at)["RMS error of advantages"] == "0"
    assert metrics(at)["Tokens pushed the wrong way"] == "0 of 110"
    # gamma = lam = 1: a constant bias b moves every advantage by exactly -b
    at.slider(key="cr.lam").set_value(1.0)
    at.slider(key="cr.bias").set_value(0.3).run()
    assert not at.exception
    assert metrics(at)["Mean shift"] == "-0.3"
    assert metrics(at)["Largest error on a token"] == "0.3"


def test_kl_penalty_and_convention_change_the_numbers():
    at = open_page(CRITIC)
    at.toggle(key="cr.kl").set_value(True)
    at.selectbox(key="cr.conv").set_value("rloo").run()
    assert not at.exception
    caption = " ".join(texts(at, "caption"))
    assert "KL penalty β = 0.05" in caption
    rloo = grpo_token_advantages(REWARDS, LENGTHS, convention="rloo")
    assert f"#1 +{fmt(rloo[0, 0])}" in caption
    z = heat(at, "cr.heat_grpo")
    np.testing.assert_allclose(z[0, :12], rloo[0, 0])


def test_memory_and_compute_numbers():
    at = open_page(CRITIC)
    caption = " ".join(texts(at, "caption"))
    # 7B, bf16-mixed AdamW: policy 112 + reference 14 + reward 14 GB, critic 112 GB more
    assert "With the critic: 252.0 GB; without it (GRPO): 140.0 GB" in caption
    assert "adds 112.0 GB, 44% of the PPO total" in caption
    at.selectbox(key="cr.size").set_value(70.0)
    at.selectbox(key="cr.prec").set_value("fp32")
    at.toggle(key="cr.rm").set_value(False).run()
    m = memory_comparison(70.0, precision="fp32", with_reward_model=False)
    caption = " ".join(texts(at, "caption"))
    assert f"With the critic: {m.with_critic_gb:,.1f} GB" in caption
    assert f"adds {m.saved_gb:,.1f} GB" in caption
    frame = rollout_compute(70.0, num_prompts=256, mean_length=500)
    assert f"{frame.total_tflop.iloc[0]:,.0f} TFLOP" in caption
    assert "GRPO: K = 8" in caption and "(4.0× PPO)" in caption
    assert any("- Bytes are for weights" in a for a in texts(at, "markdown"))


@pytest.mark.parametrize(
    ("lengths", "rewards", "message"),
    [
        ([12, 0, 8], [1.0, 0.0, 1.0], "response 2 has length 0"),
        ([12, 20, 8], [1.0, None, 1.0], "response 2 has no reward"),
        ([12, None, 8], [1.0, 0.0, 1.0], "response 2 has no length"),
        ([12, 99, 8], [1.0, 0.0, 1.0], "from 1 to 64 tokens"),
        ([12], [1.0], "at least 2 responses"),
    ],
)
def test_bad_responses_are_named_and_the_page_keeps_working(lengths, rewards, message):
    at = open_page(CRITIC)
    at.session_state["cr.base"] = {"length": lengths, "reward": rewards}
    at.session_state["cr.version"] = at.session_state["cr.version"] + 1
    at.run()
    assert not at.exception
    errors = texts(at, "error")
    assert any(message in e and "Showing the default group" in e for e in errors), errors
    assert len(at.get("plotly_chart")) == 6


def test_link_reproduces_the_group_and_sliders():
    at = open_page(CRITIC, query={"cr.g": "5:1_7:0_3:0.5", "cr.bias": "0", "cr.noise": "0"})
    assert not at.exception
    assert at.session_state["cr.base"] == {"length": [5, 7, 3], "reward": [1.0, 0.0, 0.5]}
    assert metrics(at)["Tokens pushed the wrong way"] == "0 of 15"
    z = heat(at, "cr.heat_grpo")
    assert z.shape == (3, 7)


@pytest.mark.parametrize(
    "query",
    [
        {"cr.g": "<script>alert(1)</script>"},
        {"cr.g": "3:1_0:0"},
        {"cr.bias": "abc", "cr.noise": "7", "cr.gamma": "-1", "cr.size": "999"},
        {"cr.prec": "fp4", "cr.opt": "lion", "cr.prompts": "-5", "cr.conv": "ppo"},
    ],
)
def test_malformed_link_falls_back_to_defaults(query):
    at = open_page(CRITIC, query=query)
    assert not at.exception
    assert at.slider(key="cr.bias").value == 0.2
    assert at.slider(key="cr.noise").value == 0.1
    assert at.selectbox(key="cr.size").value == 7.0
    assert at.selectbox(key="cr.prec").value == "bf16-mixed"
    assert at.session_state["cr.base"]["length"] == LENGTHS
    if "cr.g" in query:
        assert any("could not be used" in w for w in texts(at, "warning"))


# --- the simulator page ------------------------------------------------------------------------


def test_simulator_default_numbers_match_the_run():
    at = open_page(SIM)
    assert not at.exception
    result = simulate_cached(SimConfig())
    table = estimator_table(result)
    caption = " ".join(texts(at, "caption"))
    grpo = table.iloc[0]
    assert f"GRPO {grpo.final_accuracy:.0%} ({grpo.final_min:.0%}–{grpo.final_max:.0%})" in caption
    err = result.critic_value_error.mean(0)
    assert f"{err[0]:.3f} at the first step, {err[-1]:.3f} at the last" in caption
    markdown = " ".join(texts(at, "markdown"))
    for sentence in summary_sentences(result):
        assert sentence in markdown
    assert "effective learning-rate difference" in " ".join(texts(at, "info"))
    assert len(at.get("plotly_chart")) == 5  # accuracy, cosine, zero spread, raw variance, critic
    reinforce = table[table.estimator == "reinforce"].iloc[0]
    assert f"REINFORCE {reinforce.gradient_cosine:.2f}" in caption
    assert "REINFORCE without a baseline, and what a baseline is for" in markdown
    words = " ".join(markdown.split())
    assert "It was lowest for REINFORCE and highest for GRPO on this run" in words


def test_too_many_steps_are_clamped_with_a_message():
    at = open_page(SIM, query={**SMALL, "sim.steps": "500"})
    assert not at.exception
    assert any(
        "At most 400 training steps" in w and "instead of 500" in w for w in texts(at, "warning")
    )
    assert "After 400 steps" in " ".join(texts(at, "markdown"))


def test_the_widest_settings_run_fewer_steps_with_a_message():
    """Red team: a link with the widest settings cost 2.3 s of server CPU a new seed."""
    widest = {"sim.steps": "400", "sim.seeds": "10", "sim.k": "32", "sim.seed": "12345"}
    at = open_page(SIM, query=widest)
    assert not at.exception
    assert any(
        "At most 100 training steps here with 10 seeds of K = 32" in w for w in texts(at, "warning")
    )
    assert "After 100 steps" in " ".join(texts(at, "markdown"))


def test_display_widgets_do_not_rerun_the_simulation():
    at = open_page(SIM, query=SMALL)
    assert not at.exception
    before = simulate_cached.cache_info()
    at.segmented_control(key="sim.band").set_value("std").run()
    at.toggle(key="sim.log").set_value(False).run()
    after = simulate_cached.cache_info()
    assert after.misses == before.misses and after.hits > before.hits
    assert "mean ± 1 std over seeds band" in " ".join(texts(at, "caption"))
    at.number_input(key="sim.seed").set_value(12345).run()  # a new config: one new run
    assert simulate_cached.cache_info().misses == after.misses + 1


def test_same_seed_same_numbers():
    first = " ".join(texts(open_page(SIM, query=SMALL), "caption"))
    second = " ".join(texts(open_page(SIM, query=SMALL), "caption"))
    assert first == second


@pytest.mark.parametrize(
    ("widget", "value", "message"),
    [
        ("sim.k", 1, "need at least 2 samples per prompt"),
        ("sim.lr", 0.0, "lr must be a finite number > 0"),
        ("sim.clr", 1.5, "critic_lr must be at most 1"),
        ("sim.est", [], "choose at least one estimator"),
    ],
)
def test_bad_settings_are_explained(widget, value, message):
    at = open_page(SIM, query=SMALL)
    getattr(at, "multiselect" if widget == "sim.est" else "number_input")(key=widget).set_value(
        value
    ).run()
    assert not at.exception
    assert any(message in e for e in texts(at, "error")), texts(at, "error")
    assert at.title and at.code  # the page and its share link are still there


def test_one_sample_without_group_estimators_runs():
    at = open_page(SIM, query=SMALL)
    at.multiselect(key="sim.est").set_value(["reinforce", "ppo-critic"])
    at.number_input(key="sim.k").set_value(1).run()
    assert not at.exception
    assert any("no spread between samples" in i for i in texts(at, "info"))


def test_simulator_link_sets_the_config_and_ignores_garbage():
    at = open_page(SIM, query={**SMALL, "sim.est": ["GRPO", "RLOO"], "sim.conv": "verl"})
    assert not at.exception
    assert at.multiselect(key="sim.est").value == ["grpo", "rloo"]
    assert at.number_input(key="sim.steps").value == 30
    cfg = SimConfig(steps=30, num_seeds=2, estimators=("grpo", "rloo"), convention="verl")
    assert f"{estimator_table(simulate_cached(cfg)).final_accuracy[0]:.0%}" in at.caption[0].value
    bad = open_page(
        SIM, query={"sim.k": "abc", "sim.steps": "-4", "sim.conv": "nope", "sim.est": "PPO"}
    )
    assert not bad.exception
    assert bad.number_input(key="sim.k").value == 8
    assert bad.number_input(key="sim.steps").value == 200
    assert len(bad.multiselect(key="sim.est").value) == 6
    assert bad.selectbox(key="sim.conv").value == "trl"
