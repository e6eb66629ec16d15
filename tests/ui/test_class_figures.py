"""ui.class_figures: nicknames are escaped once, so quotes show as typed on the projector
(issue 24, item 9: quotes in names showed as &quot;) and markup stays text."""

from __future__ import annotations

from practice.class_round import Bar
from ui.class_figures import distribution_figure

NAME = 'Zoë "Ada" O\'Brien <b>x</b> & Co'


def test_quotes_show_as_typed_and_markup_stays_text():
    fig = distribution_figure.__wrapped__((Bar(NAME, 3, True),), "Answers", True)
    label = fig["data"][0]["x"][0]
    assert '"Ada"' in label and "O'Brien" in label
    assert "&quot;" not in label and "&#x27;" not in label
    assert "<b>" not in label and "&lt;b&gt;" in label and "&amp; Co" in label


def test_the_count_over_the_tallest_bar_is_never_cut():
    from practice.class_round import Bar
    from ui.class_figures import distribution_figure

    fig = distribution_figure.__wrapped__(
        (Bar("A", 2, True), Bar("B", 0, False)), "Second vote", True
    )
    bars = fig["data"][0]
    assert bars["cliponaxis"] is False and bars["textposition"] == "outside"
    assert fig["layout"]["yaxis"]["range"][1] >= 2 * 1.25
