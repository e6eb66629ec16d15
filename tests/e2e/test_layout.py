"""Layout in a real browser: every page on a 390 px phone, and the walkthrough as slides on a
1280×720 projector. Screenshots go to artifacts/screenshots/ (layout_*): look at them."""

import pytest

from tests.e2e.conftest import assert_healthy, open_path, settle, shot
from ui.nav import PAGES
from ui.present import BODY_PX

pytestmark = pytest.mark.e2e

URLS = [entry[3] for entries in PAGES.values() for entry in entries]
STEPS = 6

# What the page lays out, measured in the browser. Elements inside a box of the page's own
# that scrolls or hides overflow (a wide table, a code cell) may be wider than the phone:
# the box is what must fit. Formulas may never be cut, by the screen or by a box.
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const root = document.querySelector('[data-testid="stMainBlockContainer"]');
  const name = (el) => `${el.tagName.toLowerCase()}`
    + `[${el.getAttribute('data-testid') || el.className}] "${el.textContent.trim().slice(0, 40)}"`;
  const shown = (el) => {  // drawn, and not inside a closed box (a collapsed expander)
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (!(r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0'))
      return false;
    if (!el.checkVisibility({ contentVisibilityAuto: true })) return false;  // closed <details>
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.bottom <= b.top || r.top >= b.bottom) return false;
    }
    return true;
  };
  const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1;
  const clippers = (el) => {
    const out = [];
    for (let a = el.parentElement; a && a !== root; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') out.push(a);
    return out;
  };
  const screen = { left: 0, right: vw };
  const wide = [];
  for (const el of root.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (inside(r, screen)) continue;
    const box = clippers(el)[0];
    if (box && inside(box.getBoundingClientRect(), screen)) continue;
    wide.push(name(el));
  }
  const clipped = [];
  for (const el of root.querySelectorAll('.katex-display')) {
    if (!shown(el)) continue;
    const r = el.querySelector('.katex').getBoundingClientRect();
    const boxes = [screen, ...clippers(el).map((a) => a.getBoundingClientRect())];
    if (el.scrollWidth > el.clientWidth + 1 || !boxes.every((b) => inside(r, b)))
      clipped.push(`${el.innerText.replace(/\\s+/g, ' ').slice(0, 60)} (${r.left}..${r.right})`);
  }
  const parts = [...root.querySelectorAll(
    'h1, h2, h3, h4, [data-testid="stCaptionContainer"], [data-testid="stPlotlyChart"], '
    + 'button[data-testid^="stBaseButton"]:not([data-testid="stBaseButton-elementToolbar"])'
  )].filter(shown);
  const overlaps = [];
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const [a, b] = [parts[i], parts[j]];
    if (a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 2 && h > 2) overlaps.push(`${name(a)} / ${name(b)}`);
  }
  return { width: document.documentElement.scrollWidth, wide, clipped, overlaps };
}"""

CUT_FRAMES = """() => [...document.querySelectorAll('iframe')]
  .filter((f) => f.getBoundingClientRect().height > 0)
  .map((f) => f.getBoundingClientRect().height)"""


def whole_page_shot(page, name: str) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside the window, so the window is
    made as tall as the page for a moment."""
    size = page.viewport_size
    height = page.evaluate(
        "document.querySelector('[data-testid=\"stMainBlockContainer\"]').scrollHeight"
    )
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 120, 12_000)})
    page.wait_for_timeout(800)
    shot(page, name)
    page.set_viewport_size(size)
    settle(page, 400)


def phone_page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return context, page


def assert_fits_a_phone(page, where: str) -> None:
    settle(page, 1200)
    assert_healthy(page)
    found = page.evaluate(MEASURE)
    assert found["width"] <= 390, (where, found["width"], found["wide"][:5])
    assert not found["wide"], (where, found["wide"][:5])
    assert not found["clipped"], (where, found["clipped"])
    assert not found["overlaps"], (where, found["overlaps"][:5])
    for frame, height in zip(page.frames[1:], page.evaluate(CUT_FRAMES), strict=False):
        content = frame.evaluate("document.documentElement.scrollHeight")
        assert content <= height + 1, (where, "an iframe cuts its content", content, height)


def step_to(page, step: int) -> None:
    """Press Next → until the walkthrough shows ``step``."""
    page.get_by_role("button", name="Next →").click()
    page.get_by_text(f"Step {step} of {STEPS}").first.wait_for()
    settle(page, 800)


@pytest.mark.parametrize("url", URLS)
def test_every_page_fits_a_phone(browser, app_url, url):
    context, page = phone_page(browser)
    open_path(page, app_url, f"/{url}")
    assert_fits_a_phone(page, url)
    whole_page_shot(page, f"layout_phone_{url}")
    if url == "walkthrough":
        for step in range(2, STEPS + 1):
            step_to(page, step)
            assert_fits_a_phone(page, f"walkthrough step {step}")
            whole_page_shot(page, f"layout_phone_walkthrough_{step}")
    context.close()


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
              ? getComputedStyle(t).fill : null,
          ])"""
    )


def assert_room_reads_the_charts(page, where: str) -> None:
    ink = page.evaluate("getComputedStyle(document.querySelector('h1')).color")
    texts = chart_text(page)
    assert texts, where
    small = [t for t in texts if t[1] < BODY_PX]
    assert not small, (where, small[:5])
    faded = [t for t in texts if t[2] is not None and t[2] != ink]
    assert not faded, (where, ink, faded[:5])


def test_walkthrough_steps_are_slides_on_a_projector(browser, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_path(page, app_url, "/walkthrough?present=1")
    for step in range(1, STEPS + 1):
        if step > 1:
            page.keyboard.press("ArrowRight")
            page.get_by_text(f"Step {step} of {STEPS}").first.wait_for()
            settle(page, 1000)
        parts = slide_parts(page)
        assert parts["scrolled"] == 0, parts
        for part in ("title", "formula", "chart"):
            box = parts[part]
            assert box, (step, part)
            assert box["left"] >= 0 and box["right"] <= 1280, (step, part, box)
            assert box["top"] >= 0 and box["bottom"] <= 720, (step, part, box)
        assert_room_reads_the_charts(page, f"walkthrough step {step}")
        shot(page, f"layout_slide_{step}")  # the window: what the room sees
    context.close()


@pytest.mark.parametrize("url", ["epsilon", "critic", "conventions", "difficulty", "simulator"])
def test_chart_text_is_body_size_when_presenting(browser, app_url, url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(30_000)
    open_path(page, app_url, f"/{url}?present=1")
    page.wait_for_selector(".js-plotly-plot .main-svg")
    settle(page, 1000)
    assert_room_reads_the_charts(page, url)
    whole_page_shot(page, f"layout_present_{url}")
    context.close()
