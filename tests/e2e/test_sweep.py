"""Every page, opened once per viewport and theme, with every check that load serves:

- desktop (1400×1800), light: it renders (a title, no traceback, no empty chart, no broken
  formula; screenshot page_*), axe-core finds no WCAG 2 A/AA violation in the app's own
  markup, and a listen control says so when there are no speech voices; then the
  system's scheme turns dark under the open page (Streamlit follows it live): the same
  render checks, the app is dark (screenshot dark_*), and axe-core finds no
  violation; back to light, markup typed into every text field never runs (last: it
  changes the page);
- phone (390 px): the same render checks, nothing is wider than the phone or cut off,
  formulas fit, titles, captions, charts and buttons do not overlap, no frame cuts its
  content, the main area does not scroll sideways (screenshot layout_phone_*); the
  walkthrough is checked at each of its steps, and its one Next comes after the step's
  chart (test_learner_loop's check, with two loads of its own until session 11).

These were five sweeps with a load each (test_core_pages, test_xss, test_layout and the
light and dark passes of test_accessibility, plus its phone pass of six pages); the light
and dark passes were two loads until session 7. The listen control's check had a load for
each of four pages in test_classroom until session 11; it is now made on every page.
"""

import contextlib
import os

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import (
    ROOT,
    assert_healthy,
    chart_marks,
    follow_path,
    settle,
    shot,
    whole_page_shot,
)
from tests.e2e.test_xss import assert_nothing_ran, type_markup_into_every_field, watch
from ui.nav import PAGES

pytestmark = pytest.mark.e2e

URLS = [entry[3] for entries in PAGES.values() for entry in entries]
STEPS = 6
DESKTOP = {"width": 1400, "height": 1800}


def path_of(url: str) -> str:
    return "/" if url == "home" else f"/{url}"


VIEWS = {
    "light": {"viewport": DESKTOP},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True},
}


@pytest.fixture(scope="session")
def views(browser):
    """One page per view, shared by the sweep's tests on this worker: the first test loads
    its URL, the others follow the app's navigation to theirs (``follow_path``: the same
    Streamlit session, no reload of the app's scripts, a third of a load's Chromium CPU).
    The sweep's pages are read, and markup typed into them, by one visitor who clicks
    through the app, so a page is also checked after the others have left their state
    behind. (Session-scoped, not module-scoped, so that the sweep is not one xdist group.)"""
    pages = {}

    def page_for(view: str):
        if view not in pages or pages[view][0].is_closed():
            page = browser.new_context(**VIEWS[view]).new_page()
            page.set_default_timeout(30_000)
            pages[view] = page, watch(page)
        return pages[view]

    yield page_for
    for page, _ in pages.values():
        page.context.close()


def open_page(views, app_url: str, url: str, view: str):
    """``view``'s page on /``url``, with the dialogs it opens from now on. The first URL a
    view opens is a fresh load; the view follows the app's navigation to the others (one
    Streamlit session a view and worker, as a reader clicking through the pages)."""
    page, dialogs = views(view)
    dialogs.clear()
    follow_path(page, app_url, path_of(url))
    return page, dialogs


def restore(page, view: str) -> None:
    """Put ``view``'s window size back (a whole-page screenshot cut short leaves it tall)."""
    if not page.is_closed() and page.viewport_size != VIEWS[view]["viewport"]:
        page.set_viewport_size(VIEWS[view]["viewport"])


def assert_renders(page, where: str) -> None:
    """A title, no traceback, no empty chart, no formula that failed to render."""
    assert_healthy(page)
    assert page.locator("h1").count() >= 1, where
    if page.locator(".js-plotly-plot").count():
        assert chart_marks(page) > 0, f"{where}: a chart rendered empty"
    assert page.locator(".katex-error").count() == 0, f"{where}: a formula failed to render"


# --- accessibility: axe-core --------------------------------------------------------------

AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FRAMEWORK = {
    # Streamlit's sectioned sidebar navigation puts each section's <li> items inside a
    # <div> inside the <ul> (stSidebarNavItems): list markup the app cannot change.
    "list": '[data-testid="stSidebarNavItems"]',
    "listitem": '[data-testid="stSidebarNavItems"]',
}


def axe_installed() -> bool:
    if AXE.exists():
        return True
    if os.environ.get("CI"):
        pytest.fail(f"{AXE} is missing in CI: `python3 dev.py test` installs it")
    return False


def axe_violations(page) -> list[dict]:
    """axe-core's WCAG 2 A/AA violations on the page, each node with its HTML."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))
            .violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => ({
                html: n.html.slice(0, 160), target: n.target.join(' '),
                inFramework: n.target.some(t => document.querySelector(t)?.closest(
                    '[data-testid="stSidebarNavItems"]')),
            }))}))""",
        WCAG_TAGS,
    )


def own_violations(violations: list[dict]) -> list[str]:
    """The violations in the app's own markup: the framework's listed in FRAMEWORK are not."""
    return [
        f"{v['id']} ({v['help']}): {node['html']}"
        for v in violations
        for node in v["nodes"]
        if not (v["id"] in FRAMEWORK and node["inFramework"])
    ]


def background_rgb(page) -> tuple[int, ...]:
    color = page.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor"
    )
    return tuple(int(c) for c in color[color.index("(") + 1 : -1].split(",")[:3])


# --- layout on a phone ---------------------------------------------------------------------

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
  const main = document.querySelector('[data-testid="stMain"]');
  return { width: document.documentElement.scrollWidth, wide, clipped, overlaps,
           main: [main.scrollWidth, main.clientWidth] };
}"""

CUT_FRAMES = """() => [...document.querySelectorAll('iframe')]
  .filter((f) => f.getBoundingClientRect().height > 0)
  .map((f) => f.getBoundingClientRect().height)"""

FRAMES_FIT = """() => [...document.querySelectorAll('iframe')]
  .filter((f) => f.getBoundingClientRect().height > 0)
  .every((f) => {
    try { return f.contentDocument.documentElement.scrollHeight
                 <= f.getBoundingClientRect().height + 1; }
    catch (e) { return true; }
  })"""


def assert_fits_a_phone(page, where: str) -> None:
    settle(page)
    assert_healthy(page)
    found = page.evaluate(MEASURE)
    assert found["width"] <= 390, (where, found["width"], found["wide"][:5])
    assert not found["wide"], (where, found["wide"][:5])
    assert not found["clipped"], (where, found["clipped"])
    assert not found["overlaps"], (where, found["overlaps"][:5])
    scroll_width, client_width = found["main"]  # the main area does not scroll sideways
    assert scroll_width <= client_width + 1, (where, found["main"])
    # A frame sets its height from its content once that has loaded: wait for it (if it
    # never does, the assertion below says which frame).
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(FRAMES_FIT, timeout=5_000)
    for frame, height in zip(page.frames[1:], page.evaluate(CUT_FRAMES), strict=False):
        content = frame.evaluate("document.documentElement.scrollHeight")
        assert content <= height + 1, (where, "an iframe cuts its content", content, height)


def visible_nexts(page) -> list:
    """The walkthrough's Next buttons a reader sees (Streamlit draws a hidden twin)."""
    nexts = page.locator('[data-testid="stMain"]').get_by_role("button", name="Next →")
    return [b for b in nexts.all() if b.is_visible()]


def assert_next_follows_the_step(page) -> None:
    """On a phone the walkthrough's one Next comes after the step's chart, so a reader
    steps on without scrolling back up."""
    visible = visible_nexts(page)
    assert len(visible) == 1, visible
    chart = page.locator('[data-testid="stMain"] .js-plotly-plot').first
    assert visible[0].bounding_box()["y"] > chart.bounding_box()["y"], "after the step's chart"


def step_to(page, step: int) -> None:
    """Press Next → until the walkthrough shows ``step``."""
    page.get_by_role("button", name="Next →").click()
    page.get_by_text(f"Step {step} of {STEPS}").first.wait_for()
    settle(page)


# --- the sweep: one load per page, viewport and theme ----------------------------------------


def assert_no_violations(page, url: str) -> bool:
    """axe-core finds nothing in the app's own markup; False when axe is not installed."""
    if not axe_installed():
        return False
    problems = own_violations(axe_violations(page))
    assert not problems, (url, problems)
    return True


IS_DARK = """(dark) => {
  const colour = getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor;
  return (Math.max(...colour.match(/\\d+/g).slice(0, 3).map(Number)) < 40) === dark;
}"""


PLAYERS_FOLLOW = """(dark) => [...document.querySelectorAll('iframe')].every((f) => {
  const doc = f.contentDocument;
  if (!doc || !doc.querySelector('#play')) return true;  // not a listen control
  const ink = Math.max(...getComputedStyle(doc.body).color.match(/\\d+/g).slice(0, 3).map(Number));
  return (ink > 150) === dark;
})"""


VOICES_KNOWN = """() => speechSynthesis.getVoices().length > 0 || [...document.querySelectorAll(
    'iframe')].some((f) => f.contentDocument?.getElementById('play')?.disabled)"""


def assert_listen_control_honest(page, url: str) -> None:
    """Where the page has a listen control: it is there, and with no speech voices (headless
    Chromium here has none) it says so and its button is disabled. The control gives voices
    1.5 s to appear before it decides."""
    players = [f for f in page.frames[1:] if f.query_selector("#play")]
    if not players:
        return
    page.wait_for_function(VOICES_KNOWN)
    player = players[0]
    assert player.get_by_role("button", name="Listen: read this page aloud").count() == 1, url
    if page.evaluate("speechSynthesis.getVoices().length") == 0:
        assert "no speech voices" in player.locator("#status").inner_text(), url
        assert player.get_by_role("button", name="Listen: read this page aloud").is_disabled()


def to_theme(page, scheme: str) -> None:
    """Switch the system's colour scheme under the open page, as a reader's OS does at
    dusk. Streamlit's own elements follow at once; the page does not rerun (st.context.theme
    changes on its next run), so what the server drew for one theme must follow by itself:
    the listen control's text takes the app's colour within a second."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function(IS_DARK, arg=scheme == "dark")
    page.wait_for_function(PLAYERS_FOLLOW, arg=scheme == "dark", timeout=5_000)
    settle(page)


@pytest.mark.parametrize("url", URLS)
def test_page_on_a_desktop_in_the_light_and_the_dark_theme(views, app_url, url):
    page, dialogs = open_page(views, app_url, url, "light")
    try:
        assert_renders(page, url)
        assert url != "walkthrough" or len(visible_nexts(page)) == 1  # one Next, as on a phone
        shot(page, f"page_{url}")
        axe = assert_no_violations(page, url)
        assert_listen_control_honest(page, url)
        to_theme(page, "dark")
        assert_renders(page, url)
        assert max(background_rgb(page)) < 40, f"{url}: the app should be dark"
        shot(page, f"dark_{url}")
        assert_no_violations(page, f"{url} (dark)")
        to_theme(page, "light")
        type_markup_into_every_field(page, url)
        assert_healthy(page)
        assert_nothing_ran(page, dialogs, path_of(url))
    finally:
        page.emulate_media(color_scheme="light")
        restore(page, "light")
    if not axe:
        pytest.skip(
            "axe-core not installed (`python3 dev.py test` installs it): the other checks passed"
        )


@pytest.mark.parametrize("url", URLS)
def test_page_on_a_phone(views, app_url, url):
    page, _ = open_page(views, app_url, url, "phone")
    try:
        assert_renders(page, url)
        assert_fits_a_phone(page, url)
        whole_page_shot(page, f"layout_phone_{url}")
        if url == "walkthrough":
            assert_next_follows_the_step(page)
            for step in range(2, STEPS + 1):
                step_to(page, step)
                assert_fits_a_phone(page, f"walkthrough step {step}")
                whole_page_shot(page, f"layout_phone_walkthrough_{step}")
    finally:
        restore(page, "phone")
