"""grpo_core.loss: hand-checked values, TRL's edge behaviour, bad input, and properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grpo_core.loss import (
    CLIP_LOSS_TYPES,
    DELTA,
    FREE,
    HIGH,
    LOSS_TYPES,
    exact_sum,
    policy_loss,
)

FULL = np.ones((2, 2))
ON_POLICY = np.log([[0.5, 0.25], [0.5, 0.25]])


# --- hand-checked values -------------------------------------------------------------------


def test_on_policy_dapo_loss_is_zero_but_gradient_is_not():
    # r = 1 everywhere: loss = -(1 + 1 - 1 - 1) / 4 = 0; d loss / d logp = -A r / N.
    got = policy_loss(ON_POLICY, ON_POLICY, [1.0, -1.0], FULL)
    assert got.loss == 0.0
    np.testing.assert_array_equal(got.grad, [[-0.25, -0.25], [0.25, 0.25]])
    np.testing.assert_array_equal(got.ratio, np.ones((2, 2)))


def test_on_policy_loss_is_minus_the_mean_advantage_under_each_aggregation():
    mask = np.array([[1, 1], [1, 0]])  # lengths 2 and 1
    adv = [1.0, -1.0]
    # grpo: mean over completions of -A = 0; dapo: token mean -(1 + 1 - 1) / 3 = -1/3.
    assert policy_loss(ON_POLICY, ON_POLICY, adv, mask, loss_type="grpo").loss == 0.0
    assert policy_loss(ON_POLICY, ON_POLICY, adv, mask).loss == pytest.approx(-1 / 3)
    grpo = policy_loss(ON_POLICY, ON_POLICY, adv, mask, loss_type="grpo")
    np.testing.assert_allclose(grpo.grad, [[-0.25, -0.25], [0.5, 0.0]])  # -A / (B n_b)
    dr = policy_loss(ON_POLICY, ON_POLICY, adv, mask, loss_type="dr_grpo", max_completion_length=4)
    assert dr.loss == pytest.approx(-1 / 8)  # -(1 + 1 - 1) / (2 x 4)


@given(st.permutations(range(6)), st.sampled_from(CLIP_LOSS_TYPES))
def test_a_batch_whose_advantages_cancel_has_loss_exactly_0_in_any_order(order, loss_type):
    # z-scored rewards [1, 0, 1, 0, 1, 0], six answers of seven tokens, r = 1: in exact
    # arithmetic every clip-family aggregation gives 0. The sum's rounding, which differs
    # between CPUs (2.8e-18 on one, 0 on another), must not show.
    adv = np.array([0.9128709291752769, -0.9128709291752769] * 3)[list(order)]
    logp = np.log(np.full((6, 7), 0.3))
    got = policy_loss(
        logp, logp, adv, np.ones((6, 7)), loss_type=loss_type, max_completion_length=7
    )
    assert got.loss == 0.0


def test_exact_sum_of_terms_past_float64s_range_is_numpys_sum():
    assert exact_sum([1e308, 1e308]) == math.inf  # fsum raises OverflowError here
    assert exact_sum([math.inf, 1.0]) == math.inf  # not "within rounding of 0"
    assert math.isnan(exact_sum([math.inf, -math.inf]))
    assert exact_sum([0.1, 0.2, -0.3]) == 0.0 and exact_sum([1.0, 2.0]) == 3.0


def test_a_loss_far_above_rounding_is_kept_as_computed():
    tiny = policy_loss(ON_POLICY, ON_POLICY, [1e-9, -1e-9 + 1e-20], FULL)
    assert tiny.loss != 0.0  # a small loss that is not round-off stays


def test_clip_high_stops_the_gradient_of_a_positive_advantage():
    old = np.log([[0.2, 0.2]])
    logp = np.log([[0.3, 0.22]])  # r = 1.5 (clipped at 1.2), r = 1.1 (free)
    got = policy_loss(logp, old, [2.0], np.ones((1, 2)))
    assert got.per_token[0] == pytest.approx([-2.4, -2.2])
    assert got.grad[0] == pytest.approx([0.0, -2.0 * 1.1 / 2])
    assert got.clip[0].tolist() == [HIGH, FREE]
    assert got.clip_fraction.high == 0.5 and got.clip_fraction.low == 0.0
    wider = policy_loss(logp, old, [2.0], np.ones((1, 2)), epsilon_high=0.6)  # Clip-Higher
    assert wider.grad[0, 0] == pytest.approx(-2.0 * 1.5 / 2)
    assert wider.clip_fraction.region == 0.0


def test_delta_caps_the_ratio_whatever_the_advantage_sign():
    old = np.log([[0.1], [0.1]])
    logp = np.log([[0.3], [0.3]])  # r = 3
    adv = [1.0, -1.0]
    plain = policy_loss(logp, old, adv, np.ones((2, 1)), loss_type="grpo")
    capped = policy_loss(logp, old, adv, np.ones((2, 1)), loss_type="grpo", delta=2.0)
    # A > 0: clipped at 1.2 either way. A < 0: -A r = 3 without delta, -A delta = 2 with it.
    assert plain.per_token[:, 0] == pytest.approx([-1.2, 3.0])
    assert capped.per_token[:, 0] == pytest.approx([-1.2, 2.0])
    assert plain.grad[1, 0] == pytest.approx(3.0 / 2)  # -A r / B
    assert capped.grad[1, 0] == 0.0
    assert capped.clip[:, 0].tolist() == [HIGH, DELTA]


def test_sequence_ratio_with_token_sums_weighs_each_completion_by_its_length():
    old = np.log(np.full((2, 3), 0.5))
    logp = old + np.array([[0.3, 0.0, -0.15], [0.1, 0.0, 0.0]])
    mask = np.array([[1, 1, 1], [1, 0, 0]])
    adv = np.array([1.0, 1.0])
    r = np.exp([0.05, 0.1])  # mean log-ratio per completion
    for loss_type in ("bnpo", "dapo"):
        got = policy_loss(
            logp, old, adv, mask, importance_sampling_level="sequence", loss_type=loss_type
        )
        assert got.loss == pytest.approx(-(3 * r[0] + 1 * r[1]) / 4)
        # every token of a completion gets d/dlogp_t = (n_b / N) (-A r_b) / n_b
        np.testing.assert_allclose(got.grad, [[-r[0] / 4] * 3, [-r[1] / 4, 0, 0]])
    grpo = policy_loss(logp, old, adv, mask, importance_sampling_level="sequence", loss_type="grpo")
    assert grpo.loss == pytest.approx(-(r[0] + r[1]) / 2)  # GSPO: one weight per completion


@pytest.mark.parametrize("loss_type", LOSS_TYPES)
@pytest.mark.parametrize("level", ["token", "sequence"])
def test_an_all_zero_mask_row_contributes_nothing(loss_type, level):
    rng = np.random.default_rng(0)
    old = -rng.uniform(0.1, 2, (3, 4))
    logp = np.minimum(old + rng.normal(0, 0.3, (3, 4)), 0)
    mask = np.array([[1, 1, 1, 0], [0, 0, 0, 0], [1, 1, 0, 0]])
    options = {
        "loss_type": loss_type,
        "importance_sampling_level": level,
        "max_completion_length": 4,
        "beta": 0.1,
        "ref_logp": old,
    }
    got = policy_loss(logp, old, [1.0, 5.0, -1.0], mask, **options)
    assert not got.grad[1].any() and not got.per_token[1].any()
    other = logp.copy()
    other[1] = -7.0  # anything in the empty row
    again = policy_loss(other, old, [1.0, -3.0, -1.0], mask, **options)
    assert again.loss == got.loss
    np.testing.assert_array_equal(again.grad, got.grad)


def test_cispo_keeps_a_gradient_on_capped_tokens():
    old = np.log([[0.1, 0.1]])
    logp = np.log([[0.5, 0.12]])  # r = 5 (capped at 2), r = 1.2
    got = policy_loss(logp, old, [1.0], np.ones((1, 2)), loss_type="cispo", epsilon_high=2.0)
    assert got.grad[0] == pytest.approx([-2.0 / 2, -1.2 / 2])  # -min(r, cap) A / N
    assert got.clip[0].tolist() == [HIGH, FREE]


def test_k3_kl_and_its_bias_correction():
    ref = np.log([[0.5]])
    logp = np.log([[0.25]])  # d = ref - logp = ln 2: k3 = 2 - ln 2 - 1
    k3 = 1 - math.log(2)
    old = np.log([[0.2]])  # r = 1.25
    plain = policy_loss(
        logp, old, [0.0], [[1]], beta=0.1, ref_logp=ref, use_bias_correction_kl=False
    )
    assert plain.kl[0, 0] == pytest.approx(k3)
    assert plain.grad[0, 0] == pytest.approx(0.1 * (1 - 2))  # beta (1 - exp(d))
    corrected = policy_loss(logp, old, [0.0], [[1]], beta=0.1, ref_logp=ref)
    assert corrected.kl[0, 0] == pytest.approx(1.25 * k3)
    assert corrected.grad[0, 0] == pytest.approx(0.1 * 1.25 * ((1 - 2) + k3))


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"logp": np.zeros((2, 3))}, "old_logp must have the shape of logp"),
        ({"old_logp": [[0.0, np.nan], [0.0, 0.0]]}, "old_logp must be finite"),
        ({"logp": [[0.0, 0.5], [0.0, 0.0]]}, "log-probabilities, each <= 0"),
        ({"advantages": [1.0]}, "one value per completion"),
        ({"advantages": [1.0, np.inf]}, "advantages must be finite"),
        ({"mask": [[1, 2], [1, 1]]}, "mask must be 1 \\(a token\\) or 0"),
        ({"mask": np.ones((2, 3))}, "mask must have shape"),
        ({"loss_type": "ppo"}, "loss_type must be one of grpo, bnpo"),
        ({"importance_sampling_level": "token-mean"}, "importance_sampling_level"),
        ({"beta": 0.04}, "needs ref_logp"),
        ({"beta": -1.0}, "beta must be a finite number >= 0"),
        ({"epsilon_low": np.nan}, "epsilon_low"),
        ({"delta": 0.9}, "delta caps the ratio from above: it must be a number > 1"),
        ({"loss_type": "dr_grpo"}, "needs max_completion_length"),
        ({"loss_type": "dr_grpo", "max_completion_length": 1}, "a completion has 2 tokens"),
        ({"logp": [[]]}, "non-empty 2-D"),
        ({"logp": "abc"}, "table of numbers"),
    ],
)
def test_bad_input_names_the_problem(change, words):
    args = {"logp": ON_POLICY, "old_logp": ON_POLICY, "advantages": [1.0, -1.0], "mask": FULL}
    args.update(change)
    with pytest.raises(ValueError, match=words):
        policy_loss(**args)


# --- properties ----------------------------------------------------------------------------


@st.composite
def batches(draw, *, on_policy=False):
    B = draw(st.integers(1, 5))
    T = draw(st.integers(1, 6))
    old = draw(hnp.arrays(np.float64, (B, T), elements=st.floats(-6, -0.01)))
    shift = draw(hnp.arrays(np.float64, (B, T), elements=st.floats(-1, 1)))
    logp = old if on_policy else np.minimum(old + shift, 0.0)
    lengths = draw(hnp.arrays(np.int64, (B,), elements=st.integers(0, T)))
    mask = (np.arange(T)[None, :] < lengths[:, None]).astype(float)
    adv = draw(hnp.arrays(np.float64, (B,), elements=st.floats(-3, 3)))
    return logp, old, adv, mask


OPTIONS = st.fixed_dictionaries(
    {
        "loss_type": st.sampled_from(LOSS_TYPES),
        "importance_sampling_level": st.sampled_from(["token", "sequence"]),
        "epsilon_low": st.floats(0.05, 0.5),
        "epsilon_high": st.floats(0.05, 0.5),
        "delta": st.sampled_from([None, 1.5, 3.0]),
        "max_completion_length": st.just(6),
    }
)


@given(batches(), OPTIONS)
@settings(max_examples=150, deadline=None)
def test_zero_advantages_give_zero_gradient_without_kl(batch, options):
    logp, old, adv, mask = batch
    got = policy_loss(logp, old, np.zeros_like(adv), mask, **options)
    assert not got.grad.any()
    assert got.loss == 0.0


@given(batches(on_policy=True), OPTIONS)
@settings(max_examples=150, deadline=None)
def test_ratio_one_clips_nothing(batch, options):
    logp, old, adv, mask = batch
    if options["loss_type"] == "cispo":
        options["epsilon_high"] = 1.0 + options["epsilon_high"]  # cispo's cap is on r itself
    got = policy_loss(logp, old, adv, mask, **options)
    assert (got.clip == FREE).all()
    assert got.clip_fraction.low == got.clip_fraction.high == got.clip_fraction.region == 0.0
    if options["loss_type"] in CLIP_LOSS_TYPES:  # every real token gets -A x its weight
        np.testing.assert_allclose(got.grad, -adv[:, None] * got.weight, atol=1e-12)


@given(batches(on_policy=True), OPTIONS)
@settings(max_examples=150, deadline=None)
def test_at_ratio_one_flipping_the_advantages_flips_the_gradient(batch, options):
    logp, old, adv, mask = batch
    got = policy_loss(logp, old, adv, mask, **options)
    flipped = policy_loss(logp, old, -adv, mask, **options)
    np.testing.assert_allclose(flipped.grad, -got.grad, atol=1e-12)
    if options["loss_type"] != "sapo":  # sapo's loss at r = 1 is -(2 / tau) A, tau by A's sign
        assert flipped.loss == pytest.approx(-got.loss, abs=1e-12)


@given(batches(), OPTIONS)
@settings(max_examples=100, deadline=None)
def test_padding_gets_no_gradient_and_no_loss(batch, options):
    logp, old, adv, mask = batch
    got = policy_loss(logp, old, adv, mask, **options)
    assert not got.grad[mask == 0].any()
    assert not got.per_token[mask == 0].any()
    assert (got.clip[mask == 0] == FREE).all()
