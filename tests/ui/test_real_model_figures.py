"""ui.figures.real_model: the Δ log p scatter keeps every answer's number readable."""

import numpy as np

from ui.figures.real_model import delta_figure


def test_answers_sharing_an_advantage_sit_side_by_side_inside_the_axes():
    a = np.array([-0.54, -0.54, 1.62, 1.62, -0.54, -0.54, -0.54, -0.54])
    d = np.array([-0.02, -0.03, 0.06, 0.01, -0.05, -0.06, -0.07, -0.075])
    fig = delta_figure.__wrapped__(a, d)
    points = fig["data"][0]
    x = np.asarray(points["x"])
    assert len(set(np.round(x, 9))) == len(a)  # no two answers on one spot
    assert np.allclose(points["customdata"], a)  # the hover gives the exact advantage
    for value in (-0.54, 1.62):  # centred on their advantage
        assert np.isclose(x[a == value].mean(), value)
    low, high = fig["layout"]["yaxis"]["range"]
    assert low < d.min() and high > d.max()  # the top label is not cut at the edge
    xlow, xhigh = fig["layout"]["xaxis"]["range"]
    assert xlow < x.min() and x.max() < xhigh
    for value in (-0.54, 1.62):  # far enough apart for a marker and its number at 390 px
        gaps = np.diff(np.sort(x[a == value]))
        assert gaps.min() >= 0.05 * (xhigh - xlow)
