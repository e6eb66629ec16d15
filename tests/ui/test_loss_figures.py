"""ui.figures.loss: the ratio bar's labels stay apart whatever the ratios' spread."""

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ui.figures.loss import RATIO_TICK_GAP, _ratio_ticks, clip_heatmap, ratio_heatmap


@given(st.floats(0.0, 0.5), st.floats(0.01, 0.5), st.floats(0.01, 5.0))
@example(0.0, 0.1, 0.1328125)  # the end 1.142 read "1.1", as the clip range's end
def test_ratio_labels_never_crowd_and_1_or_the_clip_range_is_named(eps_low, eps_high, spread):
    lo, hi = 1 - eps_low, 1 + eps_high
    reach = max(spread, np.log(hi))
    ticks = _ratio_ticks(lo, hi, reach)
    values = ticks["tickvals"]
    assert values == sorted(values)
    assert all(b - a >= RATIO_TICK_GAP * 2 * reach - 1e-12 for a, b in pairwise(values))
    assert "1" in ticks["ticktext"] or f"{lo:g}–{hi:g}" in ticks["ticktext"]
    assert len(set(ticks["ticktext"])) == len(values)


def test_the_default_step_labels_the_clip_range_and_a_typed_ratio_the_ends():
    assert _ratio_ticks(0.8, 1.2, np.log(1.545))["ticktext"] == ["0.65", "0.8", "1", "1.2", "1.5"]
    assert _ratio_ticks(0.8, 1.2, np.log(10))["ticktext"] == ["0.1", "0.8–1.2", "10"]


def test_the_ratio_map_is_log_scaled_and_blank_on_padding():
    ratio = np.array([[2.0, 0.5], [1.0, 0.0]])
    mask = np.array([[1, 1], [1, 0]])
    fig = ratio_heatmap.__wrapped__(ratio, mask, ("#1", "#2"), title="Ratio", bounds=(0.8, 1.2))
    z = np.asarray(fig["data"][0]["z"], dtype=float)
    assert z[0] == pytest.approx(np.log([2.0, 0.5])) and np.isnan(z[1, 1])


def test_a_ratio_of_exactly_1_reads_1_so_the_first_update_is_not_an_empty_map():
    ratio = np.array([[1.0, 1.5], [1.0, 0.0]])
    mask = np.array([[1, 1], [1, 0]])
    fig = ratio_heatmap.__wrapped__(ratio, mask, ("#1", "#2"), title="Ratio", bounds=(0.8, 1.2))
    assert np.asarray(fig["data"][0]["text"]).tolist() == [["1", "+"], ["1", ""]]


def test_the_clip_map_draws_tokens_whose_gradient_flows_apart_from_padding():
    code, mask = np.zeros((2, 2), dtype=np.int8), np.array([[1, 1], [1, 0]])
    fig = clip_heatmap.__wrapped__(code, mask, ("#1", "#2"), title="Clipped?")
    flows = fig["data"][0]["colorscale"][0][1]
    assert flows.upper() not in ("#FFFFFF", "WHITE")  # white cells on white paper vanish
    assert np.isnan(np.asarray(fig["data"][0]["z"], dtype=float)[1, 1])
