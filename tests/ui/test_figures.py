"""ui.figures: a cached figure is the figure its builder makes, a copy handed to a page cannot
change the cache, distinct inputs (arrays, tables) get distinct figures, and every figure
of a page is validated once: a rerun with the same inputs builds nothing."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from grpo_core.lengthnorm import comparison
from ui.figures import group, length
from ui.figures.common import freeze


def test_cached_figures_equal_freshly_built_ones():
    rewards = np.array([1, 0, 1, 1, 0, 0, 1, 0.5])
    for args, kwargs in [
        ((rewards, 0.5625, 0.42), {"title": "R"}),
        ((rewards - 0.5, 0.5, None), {"title": "c", "centred": True}),
    ]:
        cached = group.rewards_figure(*args, **kwargs)
        fresh = go.Figure(group.rewards_figure.__wrapped__(*args, **kwargs))
        assert cached.to_dict() == fresh.to_dict()
    for clip in (None, 10.0):
        got = group.advantages_figure(rewards - 0.5, title="A", clip=clip)
        want = go.Figure(group.advantages_figure.__wrapped__(rewards - 0.5, title="A", clip=clip))
        assert got.to_dict() == want.to_dict()


def test_a_page_changing_its_figure_does_not_change_the_cache():
    rewards = np.array([0.25, 0.75, -0.0, 0.0])
    first = group.advantages_figure(rewards, title="A")
    first.update_layout(title="changed", height=999)
    first.data[0].text = ["x"] * 4
    again = group.advantages_figure(rewards, title="A")
    assert again.layout.title.text == "A" and again.layout.height == 320
    assert list(again.data[0].text) != ["x"] * 4
    assert group.advantages_figure.cache_info().hits >= 1


def test_distinct_values_get_distinct_figures():
    a = group.advantages_figure(np.array([0.0, 1.0]), title="A")
    c = group.advantages_figure(np.array([0.0, 2.0]), title="A")
    assert a.to_dict()["data"][0]["y"] != c.to_dict()["data"][0]["y"]


def test_tables_are_keys_by_their_values():
    frame = pd.DataFrame({"estimator": ["grpo", "rloo"], "step": [0, 1], "mean": [0.5, 0.25]})
    assert freeze(frame) == freeze(frame.copy())
    assert freeze(frame) != freeze(frame.assign(mean=[0.5, 0.3]))
    assert freeze(frame) != freeze(frame.assign(estimator=["grpo", "dr-grpo"]))
    assert freeze({"a": np.zeros(2), "b": [1, 2]}) != freeze({"b": [1, 2], "a": np.zeros(2)})
    hash(freeze((frame, {"x": np.arange(3.0)}, None, "t")))


def test_a_rerun_with_the_same_inputs_builds_nothing():
    view = comparison((3, 7), (0.75, -1.25), max_completion_length=9)
    length.strip_figure(view.strips, True)
    misses = length.strip_figure.cache_info().misses
    again = comparison((3, 7), (0.75, -1.25), max_completion_length=9)  # new, equal tables
    length.strip_figure(again.strips, True)
    assert length.strip_figure.cache_info().misses == misses
    length.strip_figure(again.strips, False)
    assert length.strip_figure.cache_info().misses == misses + 1


def test_the_recall_legend_sits_above_the_plot_with_room_for_its_phone_rows():
    from ui.figures.common import LINE_PX, legend_rows
    from ui.figures.review import PLOT_PX, recall_figure

    topics = tuple(f"topic {i}" for i in range(9))
    titles = tuple((t, f"A rather long topic title number {i}") for i, t in enumerate(topics))
    recall = tuple((1.0, 0.5) for _ in topics)
    fig = recall_figure(("2026-01-01", "2026-01-02"), topics, recall, titles)
    layout = fig.layout
    rows = legend_rows([{"name": n} for _, n in titles])
    assert rows >= 5, "nine long names take several rows on a phone"
    assert layout.legend.yref == "container" and layout.legend.yanchor == "top"
    assert layout.height == PLOT_PX + LINE_PX * rows
    assert layout.margin.t >= LINE_PX * rows, "the legend's rows fit above the plot"
    assert layout.margin.b is None or layout.margin.b < 100, "nothing hangs under the axis"


def test_the_recall_axes_are_labelled_at_body_size():
    """Streamlit's chart theme sets ticks at 12 px: the dates and percentages of a learner's
    recall were small on a phone; they are set at the body size (the colour: ui.style)."""
    from ui.figures.review import recall_figure

    fig = recall_figure(("2026-01-01", "2026-01-02"), ("t",), ((1.0, 0.5),), (("t", "T"),))
    assert fig.layout.xaxis.tickfont.size == fig.layout.yaxis.tickfont.size == 14


def test_a_long_legend_of_long_names_is_one_entry_a_row_at_every_width():
    """The Review page's 17 topics took a row each on a phone, and the top margin is sized
    for that; on a desktop Plotly packed them two a row and left an empty band as tall as
    the other rows. A legend counted a row an entry is now vertical, at every width."""
    from ui.figures.common import figure, legend_rows

    names = ["All topics (mean)", "RLOO", "Dr. GRPO"] + [
        f"A long topic title {i}" for i in range(9)
    ]
    data = [{"type": "scatter", "name": n, "x": [0], "y": [0]} for n in names]
    assert legend_rows(data) == len(names), "two short names no longer count as one row"
    assert figure(data, "Recall", 400)["layout"]["legend"]["orientation"] == "v"
    short = [{"type": "bar", "name": n, "x": [0], "y": [1]} for n in ("up", "down", "zero")]
    assert legend_rows(short) == 1
    assert figure(short, "Signs", 300)["layout"]["legend"]["orientation"] == "h"


def test_the_conventions_legend_hangs_under_its_title_with_room_for_its_phone_rows():
    """On a 390 px phone the nine conventions' legend (five rows), anchored above the plot at
    the right, overprinted the chart's two-line title."""
    from grpo_core.compare import compare_conventions
    from ui.figures.common import LINE_PX, legend_rows
    from ui.figures.conventions import conventions_figure

    comparison = compare_conventions([[1, 0, 1, 1], [0.9, 0.2, 0.5, 0.7]])
    fig = conventions_figure(comparison.long(), comparison.refusals)
    layout = fig.layout
    rows = legend_rows([{"name": t.name} for t in fig.data])
    title_lines = layout.title.text.count("<br>") + 1
    assert rows >= 3 and title_lines == 1, "one line: a phone reads the title above the chart"
    assert layout.legend.yref == "container" and layout.legend.yanchor == "top"
    under_title = 14 + LINE_PX * title_lines
    assert layout.legend.y * layout.height <= layout.height - under_title
    assert layout.margin.t >= under_title + LINE_PX * rows


def test_the_critic_token_lines_legend_hangs_under_its_title():
    """ "Response #1 R=1 L=12: advantage per token" (two lines on a phone) was overprinted by
    its legend, placed at y = 1.02 of the plot."""
    from ui.figures.common import LINE_PX
    from ui.figures.critic import token_lines_figure

    series = {name: np.linspace(0.4, 0.0, 12) for name in ("PPO, perfect critic", "GRPO")}
    layout = token_lines_figure(series, title="Response #1 R=1 L=12: advantage per token").layout
    assert layout.legend.yref == "container" and layout.legend.yanchor == "top"
    title_lines = layout.title.text.count("<br>") + 1
    assert layout.legend.y * layout.height <= layout.height - (14 + title_lines * LINE_PX)


def test_a_title_is_one_line_where_a_desktop_has_room_and_html_above_it_for_a_phone():
    """Titles were set in lines of 40 characters at every width (two or three lines on a
    desktop with room for one); a phone reads the title in HTML above the chart, where it
    wraps at the screen's edge (ui/style.py hides the chart's own there)."""
    from streamlit.testing.v1 import AppTest

    from ui.figures.common import PHONE_TITLE_CLASS, figure

    title = "A right and a wrong answer's advantage, GRPO vs Dr. GRPO"
    assert figure([], title, 300)["layout"]["title"] == title
    assert "<br>" in figure([], "word " * 20, 300)["layout"]["title"]["text"]

    def page():
        import plotly.graph_objects as go

        from ui.figures.common import show

        show(go.Figure(layout={"title": "Pushes <b>&</b><br>pulls"}), key="t")

    at = AppTest.from_function(page).run()
    (shown,) = at.get("html")
    assert PHONE_TITLE_CLASS in shown.proto.body and ">Pushes &amp; pulls</p>" in shown.proto.body


def test_the_mean_line_is_named_in_the_legend_not_written_on_the_bars():
    """ "0 = the mean", written at the right end of the line, sat on the last bar (the
    walkthrough's step 4 on the projector); centred bars read −0.5 as the advantages do."""
    rewards = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    fig = group.rewards_figure(rewards - 0.5, 0.5, 0.5345, title="R − baseline", centred=True)
    assert not fig.layout.annotations
    assert [t.name for t in fig.data] == ["± 1 std (0.5345)", "R − mean", "0 = the mean"]
    assert fig.data[-1].line.dash == "dash"
    assert list(fig.data[1].text[:2]) == ["+0.5", "−0.5"]
    plain = group.rewards_figure(rewards, 0.5, None, title="R")
    assert [t.name for t in plain.data] == ["reward", "mean 0.5"]


def test_bars_are_labelled_by_the_answers_numbers():
    """A cell left out (answer 2 here) keeps the bars' labels on the grid's rows."""
    numbers = [1, 3, 4]
    rewards = group.rewards_figure(np.array([1.0, 0, 1]), 2 / 3, None, title="R", numbers=numbers)
    advantages = group.advantages_figure(np.array([0.5, -1.0, 0.5]), title="A", numbers=numbers)
    assert list(rewards.data[0].x) == list(advantages.data[0].x) == ["#1", "#3", "#4"]
    assert list(group.advantages_figure(np.array([0.5, -0.5]), title="A").data[0].x) == ["#1", "#2"]
    with pytest.raises(ValueError, match="2 answer numbers for 3 answers"):
        group.advantages_figure(np.array([0.5, -1.0, 0.5]), title="A", numbers=[1, 2])
