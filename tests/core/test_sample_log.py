"""grpo_core.sample_log: the made-up TRL-shaped log, and the sizes it refuses."""

import numpy as np
import pytest

from grpo_core.sample_log import MAX_ROWS, sample_log


def test_a_small_sample_has_one_row_per_answer_and_trls_columns():
    log = sample_log(np.random.default_rng(0), steps=2, prompts=3, k=4)
    assert len(log) == 2 * 3 * 4
    assert list(log.columns) == [
        "step", "prompt", "completion", "accuracy_reward", "format_reward", "advantage",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "sizes",
    [{"steps": 0}, {"prompts": -1}, {"k": 1}, {"k": 2.5}, {"steps": True}, {"steps": MAX_ROWS}],
)
def test_sizes_out_of_range_are_refused_before_any_row_is_built(sizes):
    with pytest.raises(ValueError):
        sample_log(np.random.default_rng(0), **sizes)
