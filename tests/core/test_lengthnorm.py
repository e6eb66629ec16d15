"""grpo_core.lengthnorm: hand-computed token weights for every TRL loss_type, and properties."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.lengthnorm import (
    LOSS_TYPES,
    comparison,
    explain_length_bias,
    length_bias_table,
    per_sequence_push,
    per_token_push,
    sequence_token_weight,
    token_count,
    token_strip,
    token_weights,
)

LENGTHS = [2, 8]
ADVANTAGES = [1.0, -1.0]  # a short right answer and a long wrong one

# --- hand-computed values: lengths [2, 8], G = 2, 10 tokens ------------------------------


@pytest.mark.parametrize(
    ("loss_type", "weight", "token_push", "sequence_push"),
    [
        # 1 / (G |o_i|): 1/4 and 1/16; every completion's total is A_i / G
        ("grpo", [0.25, 0.0625], [0.25, -0.0625], [0.5, -0.5]),
        # 1 / (2 + 8) for every token
        ("bnpo", [0.1, 0.1], [0.1, -0.1], [0.2, -0.8]),
        # 1 / (G L_max) with L_max = max(lengths) = 8
        ("dr_grpo", [0.0625, 0.0625], [0.0625, -0.0625], [0.125, -0.5]),
        # a single batch: the global batch's tokens are these 10
        ("dapo", [0.1, 0.1], [0.1, -0.1], [0.2, -0.8]),
    ],
)
def test_two_answers_of_different_lengths(loss_type, weight, token_push, sequence_push):
    assert sequence_token_weight(LENGTHS, loss_type).tolist() == weight
    assert per_token_push(LENGTHS, ADVANTAGES, loss_type).tolist() == token_push
    assert per_sequence_push(LENGTHS, ADVANTAGES, loss_type).tolist() == sequence_push


def test_grpo_token_weights_are_padded_with_zeros():
    w = token_weights(LENGTHS, "grpo")
    assert w.shape == (2, 8)
    np.testing.assert_array_equal(w[0], [0.25, 0.25, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(w[1], [0.0625] * 8)


def test_dr_grpo_uses_the_configured_max_completion_length():
    w = sequence_token_weight(LENGTHS, "dr_grpo", max_completion_length=10)
    np.testing.assert_array_equal(w, [1 / 20, 1 / 20])


def test_dapo_divides_by_the_global_batch():
    w = sequence_token_weight(LENGTHS, "dapo", num_items_in_batch=40)
    np.testing.assert_array_equal(w, [1 / 40, 1 / 40])


def test_table_has_every_loss_type_and_completion():
    t = length_bias_table(LENGTHS, ADVANTAGES, max_completion_length=10)
    assert t["loss_type"].unique().tolist() == list(LOSS_TYPES)
    assert len(t) == 2 * len(LOSS_TYPES)
    dr = t[t["loss_type"] == "dr_grpo"]
    np.testing.assert_allclose(dr["sequence_push"], [2 / 20, -8 / 20])


def test_explanation_quotes_the_numbers():
    first, second = explain_length_bias(LENGTHS, ADVANTAGES)
    assert "-0.0625" in first and "+0.25" in first and "long wrong answer" in first
    assert "-0.1" in second and "+0.1" in second
    assert "same length" in explain_length_bias([3, 3], ADVANTAGES)[0]


def test_registry_cites_trl_and_the_papers():
    assert set(LOSS_TYPES) == {"grpo", "bnpo", "dr_grpo", "dapo"}
    assert all("TRL GRPOTrainer loss_type" in t.source for t in LOSS_TYPES.values())
    assert "2503.20783" in LOSS_TYPES["dr_grpo"].source
    assert "2503.14476" in LOSS_TYPES["dapo"].source


# --- validation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: sequence_token_weight(LENGTHS, "token"), "choose one of: grpo, bnpo, dr_grpo"),
        (lambda: sequence_token_weight([2, 0], "grpo"), "at least 1 token"),
        (lambda: sequence_token_weight([], "grpo"), "non-empty"),
        (lambda: sequence_token_weight([2.5, 3], "grpo"), "whole number"),
        (lambda: sequence_token_weight([[2, 3]], "grpo"), "flat list"),
        (
            lambda: sequence_token_weight(LENGTHS, "dr_grpo", max_completion_length=5),
            "shorter than a completion of 8",
        ),
        (
            lambda: sequence_token_weight(LENGTHS, "grpo", max_completion_length=10),
            '"dr_grpo" only',
        ),
        (lambda: sequence_token_weight(LENGTHS, "dapo", num_items_in_batch=9), "less than"),
        (lambda: sequence_token_weight(LENGTHS, "bnpo", num_items_in_batch=20), '"dapo" only'),
        (lambda: per_token_push(LENGTHS, [1.0], "grpo"), "one advantage per completion"),
        (lambda: per_token_push(LENGTHS, [1.0, np.nan], "grpo"), "finite"),
    ],
)
def test_bad_input_is_refused_in_plain_words(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_whole_float_lengths_are_accepted():
    np.testing.assert_array_equal(
        sequence_token_weight([2.0, 8.0], "grpo"), sequence_token_weight(LENGTHS, "grpo")
    )


# --- properties ----------------------------------------------------------------------

lengths_st = st.lists(st.integers(1, 64), min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(lengths=lengths_st, loss_type=st.sampled_from(sorted(LOSS_TYPES)))
def test_token_weights_match_their_row_weight_and_mask(lengths, loss_type):
    w = token_weights(lengths, loss_type)
    n = np.asarray(lengths)
    assert w.shape == (n.size, n.max())
    np.testing.assert_array_equal((w > 0).sum(axis=1), n)
    np.testing.assert_allclose(w.sum(axis=1), n * sequence_token_weight(n, loss_type))


@settings(max_examples=100, deadline=None)
@given(lengths=lengths_st)
def test_weights_sum_to_one_except_dr_grpo(lengths):
    # grpo, bnpo and dapo (single batch) average: the weights of all tokens sum to 1.
    for loss_type in ("grpo", "bnpo", "dapo"):
        assert token_weights(lengths, loss_type).sum() == pytest.approx(1.0, rel=1e-12)
    # dr_grpo's constant G * L_max: the sum is the fraction of the padded grid used.
    n = np.asarray(lengths)
    expected = n.sum() / (n.size * n.max())
    assert token_weights(lengths, "dr_grpo").sum() == pytest.approx(expected, rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(lengths=lengths_st, data=st.data())
def test_grpo_sequence_push_ignores_length_token_level_scales_with_it(lengths, data):
    n = np.asarray(lengths)
    a = np.asarray(
        data.draw(st.lists(st.floats(-5, 5), min_size=n.size, max_size=n.size)), dtype=float
    )
    np.testing.assert_allclose(per_sequence_push(n, a, "grpo"), a / n.size, atol=1e-15)
    np.testing.assert_allclose(per_sequence_push(n, a, "bnpo"), a * n / n.sum(), atol=1e-15)
    # token-level losses push every token of equal advantage equally, whatever its length
    token = per_token_push(n, np.ones(n.size), "dapo")
    assert np.all(token == token[0])


# --- token strip (the length normalisation page's chart) ------------------------------


def test_token_strip_lays_tokens_out_with_a_gap():
    strip = token_strip(LENGTHS, ADVANTAGES, "grpo")
    assert strip["completion"].tolist() == [1] * 2 + [2] * 8
    assert strip["token"].tolist() == [1, 2, *range(1, 9)]
    assert strip["position"].tolist() == [1, 2, *range(4, 12)]  # one empty place after 2
    assert strip["push"].tolist() == [0.25] * 2 + [-0.0625] * 8
    tight = token_strip(LENGTHS, ADVANTAGES, "dr_grpo", gap=0, max_completion_length=16)
    assert tight["position"].tolist() == list(range(1, 11))
    np.testing.assert_array_equal(tight["token_weight"], 1 / 32)


def test_token_strip_refuses_a_negative_gap():
    with pytest.raises(ValueError, match="gap must be a whole number"):
        token_strip(LENGTHS, ADVANTAGES, "grpo", gap=-1)


@settings(max_examples=100, deadline=None)
@given(lengths=lengths_st, loss_type=st.sampled_from(sorted(LOSS_TYPES)), data=st.data())
def test_token_strip_sums_to_the_sequence_push(lengths, loss_type, data):
    n = np.asarray(lengths)
    a = data.draw(st.lists(st.floats(-5, 5), min_size=n.size, max_size=n.size))
    strip = token_strip(n, a, loss_type)
    assert len(strip) == n.sum()
    assert strip["position"].is_unique and strip["position"].is_monotonic_increasing
    totals = strip.groupby("completion")["push"].sum().to_numpy()
    np.testing.assert_allclose(totals, per_sequence_push(n, a, loss_type), atol=1e-12)


def test_token_count_accepts_whole_numbers_only():
    assert token_count(8) == 8 and token_count(8.0) == 8
    assert isinstance(token_count(np.float64(3.0)), int)
    for bad, message in [
        (2.5, "whole number of tokens, got 2.5"),
        (0, "at least 1 token, got 0"),
        (-3.0, "at least 1 token"),
        (float("nan"), "whole number"),
        (float("inf"), "whole number"),
        ("8", "whole number"),
        (True, "whole number"),
    ]:
        with pytest.raises(ValueError, match=message):
            token_count(bad, "Answer A's length")


def test_comparison_is_the_table_the_strips_and_the_sentences():
    got = comparison([2, 8], [1.0, -1.0], max_completion_length=16)
    pd.testing.assert_frame_equal(
        got.table, length_bias_table([2, 8], [1.0, -1.0], max_completion_length=16)
    )
    assert list(got.strips) == list(LOSS_TYPES)
    pd.testing.assert_frame_equal(
        got.strips["dr_grpo"],
        token_strip([2, 8], [1.0, -1.0], "dr_grpo", max_completion_length=16),
    )
    pd.testing.assert_frame_equal(got.strips["grpo"], token_strip([2, 8], [1.0, -1.0], "grpo"))
    assert got.sentences == tuple(explain_length_bias([2, 8], [1.0, -1.0]))
    with pytest.raises(ValueError):
        comparison([2, 8], [1.0, -1.0], max_completion_length=4)
