"""Layout in a real browser: the walkthrough as slides on a 1280×720 projector, and chart text
at body size when presenting, in the theme's text colour also after the system turns dark.
Every page on a 390 px phone is part of the one-load page sweep (tests/e2e/test_sweep.py).
Screenshots go to artifacts/screenshots/ (layout_*): look at them."""

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot, whole_page_shot
from ui.present import BODY_PX

pytestmark = pytest.mark.e2e

STEPS = 6


def slide_parts(page) -> dict:
    """Where the slide's title, formula and chart are, and how far the page has scrolled."""
    return page.evaluate(
        """() => {
          const main = document.querySelector('[data-testid="stMain"]');
          const box = (el) => el && el.getBoundingClientRect().toJSON();
          const title = [...main.querySelectorAll('h3')].find((h) => /^\\d · /.test(h.innerText));
          return {
            title: box(title), formula: box(main.querySelector('.katex-display .katex')),
            chart: box(main.querySelector('[data-testid="stPlotlyChart"]')),
            scrolled: main.scrollTop,
          };
        }"""
    )


def chart_text(page) -> list:
    """Every text drawn on the page's charts: its words, size in px and colour."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot .main-svg text')]
          .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
          .map((t) => [
            t.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(t).fontSize),
            t.closest('.annotation, .xtick, .ytick, .g-xtitle, .g-ytitle, .legend, .gtitle')
              || t.matches('.bartext-outside')
              ? getComputedStyle(t).fill : null,
          ])"""
    )


TEXT_IS_LIGHT = """() => {
  const ink = getComputedStyle(document.querySelector('h1')).color;
  return Math.min(...ink.match(/\\d+/g).slice(0, 3).map(Number)) > 200;
}"""


def assert_room_reads_the_charts(page, where: str) -> None:
    ink = page.evaluate("getComputedStyle(document.querySelector('h1')).color")
    texts = chart_text(page)
    assert texts, where
    small = [t for t in texts if t[1] < BODY_PX]
    assert not small, (where, small[:5])
    faded = [t for t in texts if t[2] is not None and t[2] != ink]
    assert not faded, (where, ink, faded[:5])


def assert_step_buttons_show_each_arrow_once(page) -> None:
    """The step buttons read "← Previous ←" and "Next → →" on the projector: the label's
    arrow and Streamlit's shortcut badge. The badge is hidden; the arrow keys still step."""
    for key in ("wt-prev", "wt-next"):
        button = page.locator(f".st-key-{key} button").first  # (Streamlit draws a hidden twin)
        assert button.locator("kbd").count() == 1  # the shortcut is still declared
        assert not button.locator("kbd").is_visible()
        shown = button.evaluate("b => b.innerText")
        assert shown.count("←") + shown.count("→") == 1, shown
    shot(page, "qa-walkthrough-projector-step-buttons")


def assert_slide_steps_after_choosing_the_rewards(page) -> None:
    """Presenting, the rewards to follow are chosen under the slide: the choice kept the
    focus, so → did not step, and the slide stayed scrolled out of sight."""
    page.get_by_text("A real math problem", exact=True).click()
    settle(page)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stMain\"]').scrollTop < 5"
    )  # back at the slide
    page.keyboard.press("ArrowRight")
    settle(page)
    assert "2 · The group mean" in page.locator('[data-testid="stMain"] h3').first.inner_text()
    assert "0.375" in page.locator('[data-testid="stMain"]').inner_text()  # 3 of 8 right
    assert_healthy(page)
    shot(page, "qa-walkthrough-projector-after-choosing-rewards")


def step_with_the_keyboard(page, key: str, step: int) -> None:
    page.keyboard.press(key)
    page.get_by_text(f"Step {step} of {STEPS}").first.wait_for()
    settle(page)


def test_walkthrough_steps_are_slides_on_a_projector(clean_page, app_url):
    """One load at 1280x720, presenting: each step buttons' arrow shows once; every step is
    a slide (title, formula and chart in the window, charts readable by the room), stepped
    with →; back at step 1 (←), choosing other rewards under the slide leaves → stepping
    and the slide in view. (Three tests with a load each until session 11: the last two
    were test_qa_learn's.)"""
    page = clean_page({"width": 1280, "height": 720})
    open_path(page, app_url, "/walkthrough?present=1")
    assert_step_buttons_show_each_arrow_once(page)
    for step in range(1, STEPS + 1):
        if step > 1:
            step_with_the_keyboard(page, "ArrowRight", step)
        if step == 2:
            assert (
                "2 · The group mean" in page.locator('[data-testid="stMain"] h3').first.inner_text()
            )
        parts = slide_parts(page)
        assert parts["scrolled"] == 0, parts
        for part in ("title", "formula", "chart"):
            box = parts[part]
            assert box, (step, part)
            assert box["left"] >= 0 and box["right"] <= 1280, (step, part, box)
            assert box["top"] >= 0 and box["bottom"] <= 720, (step, part, box)
        assert_room_reads_the_charts(page, f"walkthrough step {step}")
        shot(page, f"layout_slide_{step}")  # the window: what the room sees
    for step in range(STEPS - 1, 0, -1):
        step_with_the_keyboard(page, "ArrowLeft", step)
    assert_slide_steps_after_choosing_the_rewards(page)


@pytest.mark.parametrize("url", ["epsilon", "critic", "conventions", "difficulty", "simulator"])
def test_chart_text_is_body_size_when_presenting(clean_page, app_url, url):
    page = clean_page({"width": 1280, "height": 720})
    open_path(page, app_url, f"/{url}?present=1")
    page.wait_for_selector(".js-plotly-plot .main-svg")
    settle(page)
    assert_room_reads_the_charts(page, url)
    whole_page_shot(page, f"layout_present_{url}")
    page.emulate_media(color_scheme="dark")  # the system turns dark at dusk: Streamlit does not
    page.wait_for_function(TEXT_IS_LIGHT)  # rerun, so what the server coloured must follow
    assert_room_reads_the_charts(page, f"{url} (dark)")
    whole_page_shot(page, f"layout_present_dark_{url}")
