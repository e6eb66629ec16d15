"""Accessibility in a real browser: the keyboard, and links with values a page cannot use.
The dark theme, the phone-width check and axe-core's WCAG scan of every page (light and dark)
are part of the one-load page sweep (tests/e2e/test_sweep.py)."""

import pytest

from tests.e2e.conftest import assert_healthy, open_path, shot

pytestmark = pytest.mark.e2e


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
    # The new prompt's heading (the grid's own hidden header cell may say "Prompt 3"
    # first: it is drawn once the Tabs above have been through the grid).
    main = page.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"]')
    main.get_by_text("Prompt 3", exact=True).first.wait_for()
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
