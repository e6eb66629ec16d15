"""In a real browser: the critic page's heatmaps, metrics and calculator respond to their
widgets and links; the simulator draws its five charts and explains bad settings."""

import pytest

from tests.e2e.conftest import assert_healthy, chart_marks, open_path, settle, shot

pytestmark = pytest.mark.e2e


def alerts(page) -> str:
    return " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def test_critic_page_heatmaps_and_calculator(app_url, page):
    open_path(page, app_url, "/critic")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == 6
    assert chart_marks(page) > 0
    assert page.locator(".js-plotly-plot .heatmaplayer image, .js-plotly-plot .hm").count() >= 3
    assert metric(page, "Tokens pushed the wrong way").endswith("of 110")
    shot(page, "critic_default")

    # a perfect critic: no error, no sign flips; the link remembers it
    open_path(page, app_url, "/critic?cr.bias=0&cr.noise=0&cr.size=70B&cr.rm=false")
    assert_healthy(page)
    assert metric(page, "RMS error of advantages") == "0"
    assert metric(page, "Tokens pushed the wrong way") == "0 of 110"
    titles = " ".join(page.locator(".js-plotly-plot .gtitle").all_text_contents())
    assert "70B policy, bf16-mixed, adamw: GB held" in titles
    shot(page, "critic_perfect_70b")


def test_critic_bad_link_is_explained(app_url, page):
    open_path(page, app_url, "/critic?cr.g=12:1_0:0&cr.bias=abc")
    assert_healthy(page)
    assert "could not be used" in alerts(page)
    assert chart_marks(page) > 0
    shot(page, "critic_bad_link")


def test_simulator_draws_and_explains_bad_settings(app_url, page):
    open_path(page, app_url, "/simulator?sim.steps=60&sim.seeds=2")
    assert_healthy(page)
    # accuracy, cosine to the true gradient, zero spread, critic; raw variance in an expander
    assert page.locator(".js-plotly-plot").count() == 5
    assert chart_marks(page) > 0
    assert "effective learning-rate difference" in alerts(page)
    shot(page, "simulator_default")

    page.get_by_text("std", exact=True).click()
    settle(page, 800)
    assert_healthy(page)
    assert "sim.band=std" in page.url
    assert chart_marks(page) > 0

    open_path(page, app_url, "/simulator?sim.steps=60&sim.seeds=2&sim.k=1")
    assert_healthy(page)
    assert "need at least 2 samples per prompt" in alerts(page)
    shot(page, "simulator_bad_k")
