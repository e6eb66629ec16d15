"""Accessibility in a real browser: the dark theme, a phone-width viewport, the keyboard."""

import os

import pytest

from tests.e2e.conftest import ROOT, assert_healthy, chart_marks, open_path, shot
from ui.nav import PAGES as PAGES_BY_SECTION

pytestmark = pytest.mark.e2e

PAGES = ["/playground", "/walkthrough", "/epsilon", "/critic", "/quiz", "/guide"]


def background_rgb(page) -> tuple[int, ...]:
    color = page.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor"
    )
    return tuple(int(c) for c in color[color.index("(") + 1 : -1].split(",")[:3])


@pytest.mark.parametrize("path", PAGES)
def test_dark_theme_follows_the_system_setting(browser, app_url, path):
    context = browser.new_context(viewport={"width": 1400, "height": 1800}, color_scheme="dark")
    page = context.new_page()
    open_path(page, app_url, path)
    assert_healthy(page)
    assert max(background_rgb(page)) < 40, "the app should be dark"
    if page.locator(".js-plotly-plot").count():
        assert chart_marks(page) > 0
    shot(page, f"dark{path.replace('/', '_')}")
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_phone_width_nothing_cut_off(browser, app_url, path):
    context = browser.new_context(viewport={"width": 390, "height": 2400}, is_mobile=True)
    page = context.new_page()
    open_path(page, app_url, path)
    assert_healthy(page)
    overflow = page.evaluate(
        """() => {
            const main = document.querySelector('[data-testid="stMain"]');
            return [document.documentElement.scrollWidth, main.scrollWidth, main.clientWidth];
        }"""
    )
    assert overflow[0] <= 391 and overflow[1] <= overflow[2] + 1, overflow
    shot(page, f"phone{path.replace('/', '_')}")
    context.close()


def test_keyboard_reaches_controls_with_a_visible_focus(app_url, page):
    open_path(page, app_url, "/playground")
    seen = []
    for _ in range(80):  # past the skip link and the navigation, into the page's controls
        page.keyboard.press("Tab")
        tag, label, ring = page.evaluate(
            """() => {
                const el = document.activeElement;
                let ring = false;
                for (let node = el, i = 0; node && i < 4; node = node.parentElement, i++) {
                    const style = getComputedStyle(node);
                    ring ||= style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
                    ring ||= style.boxShadow !== 'none';
                    ring ||= style.borderColor !== getComputedStyle(document.body).borderColor;
                }
                const label = el.getAttribute('aria-label') || el.innerText.slice(0, 30);
                return [el.tagName, label, ring];
            }"""
        )
        seen.append((tag, label, ring))
        if tag == "INPUT":
            break
    assert seen[-1][0] == "INPUT", seen  # the prompts / K inputs are reached by Tab
    assert seen[-1][2], f"no visible focus on {seen[-1]}"
    shot(page, "keyboard_focus")
    page.keyboard.press("ArrowUp")  # a focused number input answers to the keyboard
    page.keyboard.press("Enter")
    page.get_by_text("Prompt 3", exact=True).first.wait_for()
    assert_healthy(page)


@pytest.mark.parametrize(
    "query",
    [
        "/difficulty?dif.k=abc",
        "/dynamic-sampling?dyn.k=9999",
        "/epsilon?eps.value=%3Cscript%3Ealert(1)%3C/script%3E",
        "/length-normalisation?ln.len_a=inf",
        "/simulator?sim.k=-3",
    ],
)
def test_a_link_with_unusable_values_says_so(app_url, page, query):
    open_path(page, app_url, query)
    assert_healthy(page)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "had values this page cannot use" in alerts
    assert query.split("?")[1].split("=")[0] in alerts


def test_a_good_link_says_nothing(app_url, page):
    open_path(page, app_url, "/difficulty?dif.k=16")
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "cannot use" not in alerts


AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FRAMEWORK = {
    # Streamlit's sectioned sidebar navigation puts each section's <li> items inside a
    # <div> inside the <ul> (stSidebarNavItems): list markup the app cannot change.
    "list": '[data-testid="stSidebarNavItems"]',
    "listitem": '[data-testid="stSidebarNavItems"]',
}


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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_violation_in_the_apps_own_markup(browser, app_url, scheme):
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{AXE} is missing in CI: `python3 dev.py test` installs it")
        pytest.skip("axe-core not installed; `python3 dev.py test` installs it")
    context = browser.new_context(viewport={"width": 1400, "height": 1800}, color_scheme=scheme)
    page = context.new_page()
    found = {}
    urls = [entry[3] for entries in PAGES_BY_SECTION.values() for entry in entries]
    for path in ["/" if url == "home" else f"/{url}" for url in urls]:
        open_path(page, app_url, path)
        problems = own_violations(axe_violations(page))
        if problems:
            found[path] = problems
    context.close()
    assert not found, found
