"""grpo_core.log_grouping: groups by position (TRL), by a group column, or by prompt text."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grpo_core.log_grouping import (
    BY_COLUMN,
    BY_POSITION,
    BY_TEXT,
    assign_groups,
    block_codes,
    consecutive_size,
    mixed_blocks,
    size_candidates,
)


def frame(steps, prompts, **more):
    return pd.DataFrame({"step": steps, "prompt": prompts, **more})


def test_a_prompt_repeated_in_adjacent_groups_is_two_groups():
    # TRL's RepeatSampler: K=2 consecutive rows a group; prompt "a" fills groups 1 and 2.
    log = frame([1] * 6, ["a", "a", "a", "a", "b", "b"])
    codes, grouping = assign_groups(log)
    assert grouping.how == BY_POSITION and grouping.size == 2 and grouping.inferred
    assert codes.tolist() == [0, 0, 1, 1, 2, 2]


def test_blocks_restart_at_each_step():
    codes = block_codes(np.array([1, 1, 1, 1, 2, 2, 2, 2]), 2)
    assert codes.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_a_short_last_block_stays_its_own_group():
    assert block_codes(np.array([1, 1, 1, 2, 2]), 2).tolist() == [0, 0, 1, 2, 2]


def test_k_is_the_gcd_of_the_prompt_runs():
    steps = np.array([1] * 12)
    prompts = pd.Series(list("aaaaaaaabbbb"))  # runs of 8 and 4: K = 4
    assert consecutive_size(steps, prompts) == 4


def test_interleaved_prompts_fall_back_to_the_prompt_text():
    log = frame([1] * 4, ["a", "b", "a", "b"])
    codes, grouping = assign_groups(log)
    assert grouping.how == BY_TEXT
    assert codes.tolist() == [0, 1, 0, 1]


def test_a_group_column_wins():
    log = frame([1] * 4, ["a"] * 4, group=["u1", "u2", "u1", "u2"])
    codes, grouping = assign_groups(log)
    assert grouping.how == BY_COLUMN
    assert codes.tolist() == [0, 1, 0, 1]


def test_a_k_chosen_by_hand_is_used_and_mixed_blocks_are_named():
    log = frame([1] * 4, ["a", "a", "b", "b"])
    codes, grouping = assign_groups(log, size=4)
    assert grouping.size == 4 and not grouping.inferred
    assert codes.tolist() == [0, 0, 0, 0]
    assert "1 of 1 block of 4 rows holds more than one prompt text" in grouping.notes[0]


def test_k_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        assign_groups(frame([1, 1], ["a", "a"]), size=0)


def test_size_candidates_are_the_divisors_largest_first():
    assert size_candidates(8) == [8, 4, 2]
    assert size_candidates(6) == [6, 3, 2]


def test_steps_out_of_order_are_grouped_within_each_step():
    log = frame([2, 2, 1, 1], ["a", "a", "b", "b"])
    codes, grouping = assign_groups(log, size=2)
    assert grouping.how == BY_POSITION
    assert codes[0] == codes[1] and codes[2] == codes[3] and codes[0] != codes[2]


@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=6),
    st.integers(2, 5),
)
def test_positional_groups_recover_any_sequence_of_prompts(prompt_ids, k):
    # Each prompt id repeated K times (RepeatSampler), ids may repeat side by side.
    prompts = [f"p{p}" for p in prompt_ids for _ in range(k)]
    codes, _ = assign_groups(frame([1] * len(prompts), prompts), size=k)
    assert np.bincount(codes).tolist() == [k] * len(prompt_ids)
    assert mixed_blocks(codes, pd.Series(prompts)).size == 0


def test_k_is_inferred_when_a_steps_rows_are_apart_and_notes_name_file_rows():
    # Step 2's rows come first and step 1's are split: each step is read in file order.
    log = frame([2, 2, 1, 1, 2, 2, 1, 1], ["a", "a", "b", "b", "c", "c", "b", "b"])
    codes, grouping = assign_groups(log)
    assert grouping.how == BY_POSITION and grouping.size == 2
    assert codes.tolist() == [2, 2, 0, 0, 3, 3, 1, 1]
    log.loc[4, "prompt"] = "d"  # row 5 now starts a block of two texts
    _, grouping = assign_groups(log, size=2)
    assert "(the first starts at row 5)" in grouping.notes[0]
