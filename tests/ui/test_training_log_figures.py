"""ui.figures.training_log: a million-row log's scatters stay small enough to draw."""

import numpy as np
import pandas as pd

from ui.figures import training_log as figures


def effects(groups: int, rng) -> pd.DataFrame:
    mean = rng.random(groups)
    return pd.DataFrame(
        {"mean": mean, "grpo_push": mean * 0.8, "dr_grpo_push": mean * 0.4, "size": 16}
    )


def test_coinciding_groups_are_drawn_once():
    binary = pd.DataFrame(
        {"mean": np.repeat([0.25, 0.5], 30_000), "grpo_push": 0.8, "dr_grpo_push": 0.4}
    )
    drawn, sampled = figures.drawn_points(binary, ["mean", "grpo_push", "dr_grpo_push"])
    assert len(drawn) == 2 and not sampled


def test_sixty_thousand_distinct_groups_draw_at_most_max_points_and_say_so():
    fig = figures.push_figure.__wrapped__(effects(62_500, np.random.default_rng(0)))
    assert all(len(trace["x"]) <= figures.MAX_POINTS for trace in fig["data"])
    title = fig["layout"]["title"]
    text = title["text"] if isinstance(title, dict) else title
    assert "2,000 of 62,500 groups drawn" in text.replace("<br>", " ")


def test_a_small_log_draws_every_group():
    fig = figures.push_figure.__wrapped__(effects(50, np.random.default_rng(1)))
    assert len(fig["data"][0]["x"]) == 50
