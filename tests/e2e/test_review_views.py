"""In a real browser, Review with a learner's history at 390 and 1440 px: the mastery
chart's legend covers neither the plot nor the axis titles, a stored flag is listed, and
the FSRS section says how many reviews the optimizer still needs.
Screenshots: artifacts/screenshots/review_views_*."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from practice.bank import load_bank
from practice.flags import flag
from practice.review import record_attempt
from practice.store import open_store
from tests.e2e.conftest import assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e

BANK = load_bank()
VIEWS = [{"width": 390, "height": 844}, {"width": 1440, "height": 1000}]


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes (x, y, width, height) intersect."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.fixture
def learner(app_server):
    """A learner with three days of attempts over several topics, and one flag."""
    store = open_store(app_server.store_url)
    key = store.create_learner()
    start = datetime.now(UTC) - timedelta(days=3)
    by_topic = {}
    for q in BANK:
        if q.kind in ("choice", "redflag"):
            by_topic.setdefault(q.topic, q)
    for day in range(3):
        for n, q in enumerate(list(by_topic.values())[:6]):
            when = start + timedelta(days=day, minutes=n)
            right = (n + day) % 3 != 0
            record_attempt(store, key, q.id, correct=right, seconds=20, kind=q.kind, when=when)
    store.set_flag(key, flag("followup-why-std", "Dividing rescales it.", [False] * 4, [2]))
    return app_server.url, key


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: str(v["width"]))
def test_the_mastery_chart_and_the_flags_read_at_phone_and_desktop(clean_page, learner, view):
    url, key = learner
    page = clean_page(view)
    open_path(page, url, f"/review?learner={key}")
    assert_healthy(page)
    main = page.locator('[data-testid="stMain"]')
    chart = main.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    settle(page, 400)
    legend = chart.locator(".legend").first.bounding_box()
    plot = chart.locator(".nsewdrag").first.bounding_box()
    assert legend and plot and not overlap(legend, plot), "the legend covers the plot"
    chart_box = chart.bounding_box()
    for tick in chart.locator(".xtick text").all():
        box = tick.bounding_box()
        assert box["x"] >= chart_box["x"] - 1, "a date is cut at the left"
        assert box["x"] + box["width"] <= chart_box["x"] + chart_box["width"] + 1, "cut at right"
    for title in chart.locator(".g-xtitle, .g-ytitle").all():
        box = title.bounding_box()
        assert box is None or not overlap(legend, box), "the legend covers an axis title"
    cut = main.locator('[data-testid="stPageLink-NavLink"] span').evaluate_all(
        "spans => spans.filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.innerText)"
    )
    assert cut == [], f"a weakest topic's link is cut off: {cut}"
    shot(page, f"review_views_mastery_{view['width']}")
    heading = main.get_by_role("heading", name="3 · Points you flagged")
    heading.evaluate("element => element.scrollIntoView()")  # to the top of the view
    assert main.get_by_text("Dividing rescales it.").count() == 1
    assert main.get_by_text("of the 512 reviews FSRS's optimizer needs").count() == 1
    settle(page, 200)
    shot(page, f"review_views_flags_{view['width']}")
