"""The shared-code fixes the load test led to: cached chart figures are the same figures,
and a copy handed to a page cannot change the cache."""

import numpy as np

from ui import charts


def test_cached_figures_equal_freshly_built_ones():
    rewards = np.array([1, 0, 1, 1, 0, 0, 1, 0.5])
    for args, kwargs in [
        ((rewards, 0.5625, 0.42), {"title": "R"}),
        ((rewards - 0.5, 0.5, None), {"title": "c", "centred": True}),
    ]:
        cached = charts.rewards_figure(*args, **kwargs)
        assert cached.to_dict() == charts.rewards_figure.__wrapped__(*args, **kwargs).to_dict()
    for clip in (None, 10.0):
        got = charts.advantages_figure(rewards - 0.5, title="A", clip=clip)
        want = charts.advantages_figure.__wrapped__(rewards - 0.5, title="A", clip=clip)
        assert got.to_dict() == want.to_dict()


def test_a_page_changing_its_figure_does_not_change_the_cache():
    rewards = np.array([0.25, 0.75, -0.0, 0.0])
    first = charts.advantages_figure(rewards, title="A")
    first.update_layout(title="changed", height=999)
    first.data[0].text = ["x"] * 4
    again = charts.advantages_figure(rewards, title="A")
    assert again.layout.title.text == "A" and again.layout.height == 320
    assert list(again.data[0].text) != ["x"] * 4
    assert charts.advantages_figure.cache_info().hits >= 1


def test_distinct_values_get_distinct_figures():
    a = charts.advantages_figure(np.array([0.0, 1.0]), title="A")
    c = charts.advantages_figure(np.array([0.0, 2.0]), title="A")
    assert a.to_dict()["data"][0]["y"] != c.to_dict()["data"][0]["y"]
