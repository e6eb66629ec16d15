"""In a real browser: the concept guide's formulas render, its contents and Try-it links
work, one section can be projected alone; the length normalisation page draws its charts,
follows its inputs and its links."""

import re

import pytest

from tests.e2e.conftest import (
    NEXT_FRAME,
    SHOTS,
    assert_healthy,
    chart_marks,
    follow_path,
    open_path,
    settle,
    shot,
)

pytestmark = pytest.mark.e2e

RAW_DOLLARS = """() => {
    const main = document.querySelector('[data-testid="stMain"]').cloneNode(true);
    main.querySelectorAll('.katex, pre, code').forEach(e => e.remove());
    return (main.textContent.match(/\\$[^$]*\\$/g) || []).slice(0, 5);
}"""


def shot_at(page, selector: str, name: str) -> None:
    """A viewport screenshot with ``selector`` at the top (the app scrolls inside stMain,
    so a full-page shot shows only the top of a long page)."""
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.evaluate(NEXT_FRAME)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def assert_formulas_render(page, at_least: int) -> None:
    assert page.locator(".katex").count() >= at_least
    assert page.locator(".katex-error").count() == 0, "a formula failed to render"
    assert page.evaluate(RAW_DOLLARS) == [], "raw $...$ LaTeX is visible"


def assert_guide_renders_every_formula_and_section(page) -> None:
    assert_healthy(page)
    assert page.locator("h1").first.inner_text().startswith("GRPO advantage normalization")
    assert page.locator("h2").count() >= 11
    assert_formulas_render(page, at_least=40)
    assert page.locator(".katex-display").count() >= 3  # the display formulas
    assert page.get_by_role("link", name="Try it: Reward playground").count() == 2  # + GDPO
    shot(page, "guide_full")
    shot_at(page, "#the-formula", "guide_formula")
    shot_at(page, "#a-worked-example-by-hand", "guide_worked_example")
    shot_at(page, "#primary-sources", "guide_sources")


def assert_guide_contents_jump_to_a_section(page) -> None:
    page.locator('[data-testid="stMain"] a[href="#the-formula"]').first.click()
    settle(page)
    assert page.url.endswith("#the-formula")
    heading = page.locator("#the-formula")
    assert heading.is_visible()
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 400, "the contents link did not scroll"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "guide_jump.png"))  # the viewport, after the jump


def assert_length_page_charts_and_formulas(page) -> None:
    assert_healthy(page)
    assert_formulas_render(page, at_least=20)
    assert page.locator(".js-plotly-plot").count() == 2
    assert chart_marks(page) >= 4 * 10 + 8  # 10 token bars in each of 4 panels, 8 totals
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert '"grpo" A +0.25, B −0.0625' in main
    assert "A +0.2, B −0.8" in main  # the token-level total push
    shot(page, "length_default")
    shot_at(page, "#your-own-two-answers", "length_default_example")
    shot_at(page, '[data-testid="stPlotlyChart"] >> nth=1', "length_default_totals")


def assert_length_page_follows_an_input_and_keeps_it_in_the_link(page) -> None:
    box = page.get_by_label("Answer B: length (tokens)")
    box.fill("100")
    box.press("Enter")
    settle(page, 1000)
    assert_healthy(page)
    assert "ln.len_b=100" in page.url
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "max_completion_length 8 is shorter than a completion of 100 tokens" in alerts
    assert chart_marks(page) >= 4 * 102
    shot_at(page, "#your-own-two-answers", "length_long_b")

    limit = page.get_by_role("spinbutton", name="max_completion_length")
    limit.fill("128")
    limit.press("Enter")
    settle(page, 1000)
    assert not page.locator('[data-testid="stAlert"]').count()
    assert "ln.lmax=128" in page.url
    assert "-0.3906" in page.locator('[data-testid="stMain"]').inner_text() or (
        "−0.3906" in page.locator('[data-testid="stMain"]').inner_text()
    )  # dr_grpo total on B: 100 / (2 × 128)


def test_a_reader_of_the_guide_follows_its_contents_and_try_it_links(app_url, page):
    """One reader, one load: the guide renders every formula and section, its contents
    jump to a section, its Try-it link opens the length page (which draws its charts and
    formulas, and follows an input into its link), and back on the guide the other Try-it
    link opens the playground. (Four tests with five loads until session 11.)"""
    open_path(page, app_url, "/guide")
    assert_guide_renders_every_formula_and_section(page)
    assert_guide_contents_jump_to_a_section(page)

    page.get_by_role("link", name="Try it: Length normalisation").click()
    page.wait_for_url(re.compile(r"/length-normalisation"))
    page.wait_for_selector('[data-testid="stMain"] h1')
    settle(page, 800)
    assert page.locator("h1").first.inner_text().startswith("Length normalisation")
    assert_length_page_charts_and_formulas(page)
    assert_length_page_follows_an_input_and_keeps_it_in_the_link(page)

    follow_path(page, app_url, "/guide")
    page.get_by_role("link", name="Try it: Reward playground").first.click()
    page.wait_for_url(re.compile(r"/playground"))
    page.get_by_role("heading", name="Reward playground").wait_for()
    assert_healthy(page)


def test_guide_one_section_for_a_class(app_url, page):
    open_path(page, app_url, "/guide")
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="The formula").click()
    settle(page, 800)
    assert "s=the-formula" in page.url
    assert page.locator("h2").count() == 1
    assert_formulas_render(page, at_least=10)
    shot(page, "guide_one_section")
    page.get_by_role("button", name="Next →").click()
    page.get_by_role("heading", name="A worked example, by hand").wait_for()
    settle(page)
    assert "s=a-worked-example-by-hand" in page.url

    fresh = page.context.new_page()  # the link opens the same section
    open_path(fresh, "", page.url)
    assert fresh.locator("h2").all_inner_texts() == ["A worked example, by hand"]
    fresh.close()


def test_length_link_reproduces_and_a_bad_link_falls_back(app_url, page):
    open_path(page, app_url, "/length-normalisation?ln.len_a=5&ln.adv_a=0.5&ln.len_b=40&ln.lmax=64")
    assert_healthy(page)
    assert page.get_by_label("Answer A: length (tokens)").input_value() == "5"
    assert page.get_by_label("Answer B: length (tokens)").input_value() == "40"
    assert chart_marks(page) > 0

    open_path(page, app_url, "/length-normalisation?ln.len_a=inf&ln.len_b=abc&ln.lmax=1e400")
    assert_healthy(page)
    assert page.get_by_label("Answer A: length (tokens)").input_value() == "2"
    assert page.get_by_label("Answer B: length (tokens)").input_value() == "8"
    assert chart_marks(page) > 0
    shot(page, "length_bad_link")
