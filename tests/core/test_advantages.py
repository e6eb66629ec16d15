"""grpo_core.advantages: exact hand-checked values, the reference loop, and properties."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from grpo_core import CONVENTIONS, advantage_trace, group_advantages
from grpo_core.reference import reference_advantages

SQRT_HALF = 1 / math.sqrt(2)
BINARY8 = [1, 0, 1, 1, 0, 0, 1, 0]


# --- hand-checked values -----------------------------------------------------------------


def test_trl_binary_group_of_eight():
    # mean 0.5; sample std sqrt(8 * 0.25 / 7) = 0.534522...; A = ±0.5 / (0.534522 + 1e-4)
    expected = 0.5 / (math.sqrt(2 / 7) + 1e-4)
    a = group_advantages(BINARY8, convention="trl")
    np.testing.assert_allclose(a, [expected if r else -expected for r in BINARY8], rtol=1e-14)
    assert expected == pytest.approx(0.935239, abs=1e-6)


@pytest.mark.parametrize("rewards", [[0, 1], [3, 7], [-2.5, 100.0]])
def test_k2_sample_std_is_plus_minus_one_over_root_two(rewards):
    a = group_advantages(rewards, convention="zscore", ddof=1)
    np.testing.assert_allclose(np.sort(a), [-SQRT_HALF, SQRT_HALF], rtol=1e-14)


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # R = [1, 2, 3, 6]: mean 3, centred [-2, -1, 0, 3], ss 14
        ("trl", np.array([-2, -1, 0, 3]) / (math.sqrt(14 / 3) + 1e-4)),
        ("verl", np.array([-2, -1, 0, 3]) / (math.sqrt(14 / 3) + 1e-6)),
        ("openrlhf", np.array([-2, -1, 0, 3]) / (math.sqrt(14 / 3) + 1e-9)),
        ("zscore", np.array([-2, -1, 0, 3]) / math.sqrt(14 / 4)),
        ("dr-grpo", [-2, -1, 0, 3]),
        # leave-one-out: R_i - mean(others) = [1-11/3, 2-10/3, 3-3, 6-2]
        ("rloo", [1 - 11 / 3, 2 - 10 / 3, 0, 4]),
        # a single group: batch std == group std
        ("trl-batch", np.array([-2, -1, 0, 3]) / (math.sqrt(14 / 3) + 1e-4)),
        # NeMo-RL: R_i - mean(others) over the others' sample std + 1e-6. Others of answer 1
        # (2, 3, 6): mean 11/3, ss 78/9, var 13/3; of 2 (1, 3, 6): 10/3, var 19/3;
        # of 3 (1, 2, 6): mean 3, so 0; of 4 (1, 2, 3): mean 2, std 1.
        (
            "nemo-rl",
            [
                (-8 / 3) / (math.sqrt(13 / 3) + 1e-6),
                (-4 / 3) / (math.sqrt(19 / 3) + 1e-6),
                0,
                4 / (1 + 1e-6),
            ],
        ),
    ],
)
def test_every_convention_on_one_group(convention, expected):
    np.testing.assert_allclose(
        group_advantages([1, 2, 3, 6], convention=convention), expected, rtol=1e-13, atol=1e-15
    )


def test_trl_batch_divides_by_the_std_of_all_rewards():
    rewards = np.array([[0.0, 1.0], [0.0, 100.0]])
    batch_std = np.std(rewards, ddof=1)
    a = group_advantages(rewards, convention="trl-batch")
    np.testing.assert_allclose(a, [[-0.5, 0.5], [-50, 50]] / (batch_std + 1e-4), rtol=1e-14)
    group = group_advantages(rewards, convention="trl")
    np.testing.assert_allclose(np.abs(group), SQRT_HALF, atol=1e-4)  # same scale per group


def test_nemo_rl_leaves_an_answer_undivided_where_the_others_agree():
    # one success in four: the others of the winner are all 0 (std 0: undivided, 1 - 0);
    # each failure's others are (1, 0, 0): mean 1/3, sample var 1/3
    a = group_advantages([[1, 0, 0, 0], [0, 1, 1, 1]], convention="nemo-rl")
    loser = (-1 / 3) / (math.sqrt(1 / 3) + 1e-6)
    np.testing.assert_allclose(a, [[1, loser, loser, loser], [-1, -loser, -loser, -loser]])
    # K = 2: one other reward, no std (NeMo-RL's nan_to_num gives 0): R_i - R_j
    np.testing.assert_array_equal(group_advantages([3.0, 7.0], convention="nemo-rl"), [-4, 4])


def test_nemo_rl_has_no_rounding_residue_where_float64_cannot_store_the_reward():
    # NeMo-RL pull request 4161: 0.35 seven times; the others of 0.95 are exactly equal
    a = group_advantages([0.95] + [0.35] * 7, convention="nemo-rl")
    assert a[0] == pytest.approx(0.6, abs=1e-15)
    assert np.all(np.abs(a[1:]) < 1)


def test_nemo_rl_gives_a_lone_answer_zero_and_keeps_per_answer_divisors():
    a = group_advantages([5.0, 1.0, 2.0], group_ids=["a", "b", "a"], convention="nemo-rl")
    np.testing.assert_array_equal(a, [3.0, 0.0, -3.0])
    t = advantage_trace([[1.0, 0.0, 0.0, 0.0]], convention="nemo-rl")
    assert np.isnan(t.denominator[0])
    np.testing.assert_allclose(t.divisor[0], [1.0] + [math.sqrt(1 / 3) + 1e-6] * 3)
    np.testing.assert_allclose(t.baseline[0], [0.0, 1 / 3, 1 / 3, 1 / 3])


def test_reinforce_pp_clips_then_whitens_over_the_batch():
    # (0, 1) and (0, 100): centred ±0.5 and ±50; OpenRLHF's reward clip makes ±50 ±10,
    # the batch mean stays 0, population std sqrt((2 * 0.25 + 2 * 100) / 4) = sqrt(50.125)
    rewards = np.array([[0.0, 1.0], [0.0, 100.0]])
    std = math.sqrt(50.125)
    a = advantage_trace(rewards, convention="reinforce-pp")
    np.testing.assert_allclose(a.advantages, [[-0.5, 0.5], [-10, 10]] / np.float64(std))
    assert a.batch_std == pytest.approx(std) and a.clamped[1].all() and not a.clamped[0].any()
    # without the clip: sqrt((2 * 0.25 + 2 * 2500) / 4) = 35.36, the divisor at one token each
    unclipped = group_advantages(rewards, convention="reinforce-pp", clip=math.inf)
    np.testing.assert_allclose(unclipped, np.array([[-0.5, 0.5], [-50, 50]]) / math.sqrt(1250.125))
    assert math.sqrt(1250.125) == pytest.approx(35.36, abs=0.005)


def test_reinforce_pp_asymmetric_clip_moves_the_batch_mean():
    # one group (0, 0, 30): centred (-10, -10, 20) -> clipped (-10, -10, 10), batch mean -10/3
    a = group_advantages([[0.0, 0.0, 30.0]], convention="reinforce-pp")
    c = np.array([-10, -10, 10]) + 10 / 3
    np.testing.assert_allclose(a[0], c / c.std())


def test_reinforce_pp_floors_the_batch_std_at_eps():
    a = group_advantages([[1.0, 1.0 + 2e-5]], convention="reinforce-pp")
    np.testing.assert_allclose(a[0], [-1e-5 / 1e-4, 1e-5 / 1e-4])


def test_openrlhf_clamps_one_success_in_128_to_ten():
    rewards = np.zeros(128)
    rewards[0] = 1
    a = advantage_trace(rewards, convention="openrlhf")
    assert a.advantages[0] == 10.0
    assert a.clamped[0] and not a.clamped[1:].any()
    unclamped = group_advantages(rewards, convention="openrlhf", clip=math.inf)[0]
    assert unclamped == pytest.approx(math.sqrt(127) * math.sqrt(127 / 128), rel=1e-6)  # ≈ 11.2


def test_binary_closed_form_one_success_in_sixteen():
    rewards = [1] + [0] * 15
    a = group_advantages(rewards, convention="zscore")
    p = 1 / 16
    assert a[0] == pytest.approx(math.sqrt((1 - p) / p), rel=1e-14)  # 3.873
    assert a[1] == pytest.approx(-math.sqrt(p / (1 - p)), rel=1e-14)


def test_ddof_one_scales_by_sqrt_k_over_k_minus_one():
    rewards = np.random.default_rng(0).normal(size=(3, 8))
    pop = group_advantages(rewards, convention="zscore")
    sample = group_advantages(rewards, convention="zscore", ddof=1)
    np.testing.assert_allclose(pop / sample, math.sqrt(8 / 7), rtol=1e-12)


def test_notes_near_tie_example_across_libraries():
    rewards = [1, 1 + 1.2e-7, 1, 1]
    assert group_advantages(rewards, convention="trl").max() == pytest.approx(0.0009, abs=1e-4)
    assert group_advantages(rewards, convention="verl").max() == pytest.approx(0.085, abs=0.01)
    assert 1.4 < group_advantages(rewards, convention="openrlhf").max() < 1.7


# --- edges: ties, singletons, eps = 0 ---------------------------------------------------


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@pytest.mark.parametrize("value", [0.0, 0.1, 1 / 3, -7.3, 1e6 + 0.1, 1e-300])
def test_all_equal_group_gives_exact_zero(convention, value):
    a = group_advantages([value] * 7, convention=convention)
    assert np.all(a == 0.0)


def test_eps_zero_on_a_tie_defines_zero_over_zero_as_zero():
    t = advantage_trace([[2.0, 2.0, 2.0], [1.0, 2.0, 3.0]], convention="trl", eps=0)
    assert np.all(t.advantages[0] == 0) and t.denominator[0] == 0
    assert t.zero_spread.tolist() == [True, False]
    np.testing.assert_allclose(t.advantages[1], [-1, 0, 1])


def test_verl_passes_a_lone_reward_through():
    a = group_advantages([5.0, 1.0, 2.0], group_ids=["a", "b", "a"], convention="verl")
    assert a[1] == pytest.approx(1.0 / (1 + 1e-6), rel=1e-15)
    np.testing.assert_allclose(a[[0, 2]], [SQRT_HALF, -SQRT_HALF], rtol=1e-5)
    assert group_advantages([3.0], convention="verl", scale="none")[0] == 3.0


def test_zscore_lone_reward_gets_zero():
    assert group_advantages([4.2], convention="zscore")[0] == 0.0


@pytest.mark.parametrize("convention", ["trl", "trl-batch", "dr-grpo", "openrlhf", "rloo"])
def test_k1_refused_naming_the_convention(convention):
    with pytest.raises(ValueError, match=rf"only one reward.*'{convention}'"):
        group_advantages([[1.0], [2.0]], convention=convention)


def test_tiny_spread_below_eps_is_damped_and_flagged():
    t = advantage_trace([1.0, 1.0 + 1e-6], convention="trl")
    assert t.damped.tolist() == [True]
    assert abs(t.advantages).max() < 0.01


def test_spread_survives_underflow():
    a = group_advantages([1e-170, 2e-170, 3e-170], convention="zscore")
    np.testing.assert_allclose(a, [-math.sqrt(1.5), 0, math.sqrt(1.5)], rtol=1e-12)


@pytest.mark.parametrize("eps", [5e-324, 1e-310, 1e-305])
def test_subnormal_eps_on_a_tie_is_still_zero(eps):
    assert np.all(group_advantages([1.0] * 4, convention="trl", eps=eps) == 0)


def test_subnormal_rewards_keep_their_z_scores():
    np.testing.assert_allclose(group_advantages([0, 1e-310], convention="zscore"), [-1, 1])
    a = group_advantages([0, 1e-310], convention="trl", eps=1e-320)
    assert np.all(np.isfinite(a)) and a[1] > 0.5


# --- shapes and grouping --------------------------------------------------------------


def test_flat_with_group_size_equals_two_d():
    rewards = np.arange(12.0) ** 1.5
    flat = group_advantages(rewards, group_size=4)
    assert flat.shape == (12,)
    np.testing.assert_array_equal(flat, group_advantages(rewards.reshape(3, 4)).ravel())


def test_interleaved_group_ids_equal_contiguous_groups():
    rewards = np.array([1.0, 10.0, 2.0, 20.0, 4.0, 40.0])
    ids = ["x", "y"] * 3
    a = group_advantages(rewards, group_ids=ids)
    np.testing.assert_allclose(a[0::2], group_advantages(rewards[0::2]), rtol=1e-13)
    np.testing.assert_allclose(a[1::2], group_advantages(rewards[1::2]), rtol=1e-13)


def test_trace_frame_has_every_step():
    frame = advantage_trace([[1, 0], [3, 5]], convention="trl").to_frame()
    columns = "prompt answer reward mean baseline centred std denominator advantage clamped"
    assert list(frame.columns) == columns.split()
    assert frame["answer"].tolist() == [1, 2, 1, 2]
    assert frame["mean"].tolist() == [0.5, 0.5, 4.0, 4.0]
    numbered = advantage_trace([[1, 0], [3, 5]], convention="trl").to_frame([1, 3, 2, 4])
    assert numbered["answer"].tolist() == [1, 3, 2, 4]  # a grid's rows, cells left out between
    trace = advantage_trace([[1, 0], [3, 5]], convention="trl")
    for bad in ([1, 2, 3], [1.5, 2, 3, 4], [0, 1, 2, 3], [2**63, 1, 2, 3]):  # the fuzzer's too
        with pytest.raises(ValueError, match="number"):
            trace.to_frame(bad)


def test_rloo_trace_baseline_is_leave_one_out_mean():
    t = advantage_trace([1.0, 2.0, 6.0], convention="rloo")
    np.testing.assert_allclose(t.baseline, [4.0, 3.5, 1.5])
    np.testing.assert_allclose(t.advantages, [-3.0, -1.5, 4.5])


# --- against the shipped per-group loop, grpo_core.reference -------------------------------


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@pytest.mark.parametrize("seed", range(5))
def test_vectorized_matches_loop_on_uneven_groups(convention, seed):
    rng = np.random.default_rng(seed)
    n = 60
    min_size = 1 if CONVENTIONS[convention].singleton != "refuse" else 2
    sizes = rng.integers(min_size, 9, size=12)
    ids = np.repeat(np.arange(len(sizes)), sizes)
    rng.shuffle(ids)
    ids = [f"q{i}" for i in ids[:n]]
    rewards = np.round(rng.normal(size=len(ids)) * 3, rng.integers(0, 3))
    if min_size == 2:  # truncation may leave a group of one
        counts = {g: ids.count(g) for g in ids}
        keep = [i for i, g in enumerate(ids) if counts[g] > 1]
        ids, rewards = [ids[i] for i in keep], rewards[keep]
    expected = reference_advantages(rewards, ids, convention=convention)
    got = group_advantages(rewards, group_ids=ids, convention=convention)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_overrides_match_loop(scale, ddof):
    rng = np.random.default_rng(ddof)
    rewards = rng.binomial(1, 0.3, size=(6, 5)).astype(float)
    ids = np.repeat(np.arange(6), 5).tolist()
    kwargs = {"scale": scale, "ddof": ddof, "eps": 1e-3, "clip": 1.5}
    expected = reference_advantages(rewards.ravel(), ids, convention="trl", **kwargs)
    got = group_advantages(rewards, convention="trl", **kwargs).ravel()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


# --- properties ----------------------------------------------------------------------

finite_rewards = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=64)
groups = st.integers(2, 12).flatmap(
    lambda k: st.lists(st.lists(finite_rewards, min_size=k, max_size=k), min_size=1, max_size=5)
)
centring = sorted(name for name, c in CONVENTIONS.items() if c.baseline == "mean")


@settings(max_examples=150, deadline=None)
@given(rewards=groups, convention=st.sampled_from(centring))
@example(rewards=[[0.5, 0.5], [1.0, 3.0]], convention="zscore")  # a group with no spread
def test_advantages_sum_to_zero_per_group(rewards, convention):
    a = group_advantages(rewards, convention=convention, clip=math.inf)
    r = np.asarray(rewards)
    scale = np.abs(r - r.mean(1, keepdims=True)).max(1) + 1e-300
    denom = advantage_trace(rewards, convention=convention, clip=math.inf).denominator
    # zscore divides by the bare std: a group with none has advantages 0 (0/0 is 0 there)
    tol = 1e-9 * (scale / np.where(denom > 0, denom, 1.0) + 1)
    assert np.all(np.abs(a.sum(1)) <= tol * r.shape[1])


@settings(max_examples=150, deadline=None)
@given(
    rewards=groups,
    shift=st.floats(-100, 100),
    factor=st.floats(0.01, 100),
    convention=st.sampled_from(["zscore", "trl", "verl", "openrlhf"]),
)
def test_invariant_to_shift_and_positive_scale(rewards, shift, factor, convention):
    r = np.asarray(rewards)
    spread = r.std(1)
    # eps aside: only groups whose spread dwarfs eps, before and after scaling
    r = r[(spread > 1e-2) & (np.abs(r).max(1) < 1e4)]
    if r.size == 0:
        return
    base = group_advantages(r, convention=convention, eps=0)
    moved = group_advantages(r * factor + shift, convention=convention, eps=0)
    np.testing.assert_allclose(moved, base, rtol=1e-6, atol=1e-6)
    flipped = group_advantages(-r, convention=convention, eps=0)
    np.testing.assert_allclose(flipped, -base, rtol=1e-9, atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(rewards=groups, data=st.data(), convention=st.sampled_from(sorted(CONVENTIONS)))
def test_permutation_equivariant(rewards, data, convention):
    r = np.asarray(rewards)
    perm = data.draw(st.permutations(range(r.shape[1])))
    a = group_advantages(r, convention=convention)
    np.testing.assert_allclose(
        group_advantages(r[:, perm], convention=convention), a[:, perm], rtol=1e-9, atol=1e-9
    )


@settings(max_examples=200, deadline=None)
@given(
    rewards=st.lists(
        st.floats(min_value=-1e100, max_value=1e100, allow_nan=False), min_size=2, max_size=20
    ),
    convention=st.sampled_from(sorted(CONVENTIONS)),
    eps=st.sampled_from([None, 0.0, 1e-12]),
)
def test_finite_in_finite_out(rewards, convention, eps):
    a = group_advantages(rewards, convention=convention, eps=eps)
    assert np.all(np.isfinite(a))


@settings(max_examples=100, deadline=None)
@given(value=finite_rewards, k=st.integers(2, 64), convention=st.sampled_from(sorted(CONVENTIONS)))
def test_ties_are_exactly_zero(value, k, convention):
    assert np.all(group_advantages([value] * k, convention=convention, eps=0) == 0)


@settings(max_examples=150, deadline=None)
@given(rewards=groups, eps=st.sampled_from([None, 0.0]))
@example(rewards=[[0.0, 1.0, 2.225073858507e-311]], eps=0.0)  # 1 over a subnormal std: saturates
@example(rewards=[[0.0, 0.0, 8.108238213792963e-161]], eps=0.0)  # subnormal squares: redone
def test_nemo_rl_signs_follow_the_group_mean_and_match_the_loop(rewards, eps):
    # R_i - mean(others) = K/(K-1) (R_i - mean), and every divisor is positive
    r = np.asarray(rewards)
    a = group_advantages(r, convention="nemo-rl", eps=eps)
    centred = r - r.mean(1, keepdims=True)
    assert np.all(a[centred > 1e-9 * np.abs(r).max()] > 0)
    assert np.all(a[centred < -1e-9 * np.abs(r).max()] < 0)
    ids = np.repeat(np.arange(r.shape[0]), r.shape[1]).tolist()
    expected = reference_advantages(r.ravel(), ids, convention="nemo-rl", eps=eps)
    np.testing.assert_allclose(a.ravel(), expected, rtol=1e-7, atol=1e-9)


def test_reference_refuses_a_group_of_one_where_the_convention_does():
    with pytest.raises(ValueError, match="refuses"):
        reference_advantages([1.0, 2.0, 3.0], ["a", "a", "b"], convention="trl")
    np.testing.assert_allclose(
        reference_advantages([3.0], convention="verl"), group_advantages([3.0], convention="verl")
    )


def test_nemo_rl_leave_one_out_std_keeps_its_digits_beside_a_far_outlier():
    # the others of 53 are [0, 0, 1/128]: their sum of squares is 2e-8 of the group's, and
    # the downdate SS - K/(K-1) (R_i - mean)^2 kept only 8 digits (11747.050933917646)
    exact = 11747.050977669123  # (53 - 1/384) / (std of [0, 0, 1/128] + 1e-6), in 50 digits
    got = group_advantages([[0.0, 0.0, 53.0, 0.0078125]], convention="nemo-rl")[0, 2]
    assert got == pytest.approx(exact, rel=1e-13)
