"""grpo_core.memory: hand-checked bytes per parameter, GB and TFLOP."""

import math

import pytest

from grpo_core.memory import (
    ASSUMPTIONS,
    OPTIMIZERS,
    PRECISIONS,
    SETUPS,
    memory_breakdown,
    memory_comparison,
    rollout_compute,
    sample_cost,
)

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


def test_rollout_compute_refuses_a_setup_too_small_to_compare_with():
    """Costs that underflow to 0 TFLOP or overflow would make every ratio 0/0 or inf/inf =
    NaN (the fuzzer's findings: 1e-284 B parameters and answers of 1e-300 tokens; answers
    of 2.2e298 tokens): a plain ValueError instead."""
    with pytest.raises(ValueError, match="rounds to 0 TFLOP"):
        rollout_compute(1e-284, num_prompts=1, mean_length=1e-300, group_sizes=[4])
    with pytest.raises(ValueError, match="overflows"):
        rollout_compute(1, num_prompts=1, mean_length=2.2e298, group_sizes=[4])
    tiny = rollout_compute(1e-9, num_prompts=1, mean_length=1e-3, group_sizes=[4])
    assert tiny.vs_ppo.iloc[1] == pytest.approx(2.0)  # K = 4 at 8 N a token against 16 N
