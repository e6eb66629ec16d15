"""No user text is ever run as HTML or script: markup in links and in the rewards grid is
shown as text. Typing markup into every text field of every page is part of the one-load
page sweep (tests/e2e/test_sweep.py), which uses this module's payloads and checks."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.e2e.conftest import assert_healthy, edit_cell, open_path, settle, shot

pytestmark = pytest.mark.e2e

PAYLOADS = [
    '<img src=x id=xss-img onerror="window.__xss=(window.__xss||0)+1">',
    "<script>window.__xss=(window.__xss||0)+1</script>",
    '"><svg id=xss-svg onload="window.__xss=(window.__xss||0)+1">',
    "[link](javascript:window.__xss=1) <a id=xss-a href=javascript:alert(1)>a</a>",
]


BOUNDED_ON_THE_SERVER = ("quiz", "interview", "verify")


def watch(page) -> list:
    """Collect any alert/confirm dialog the page opens."""
    dialogs = []

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def assert_nothing_ran(page, dialogs, where: str) -> None:
    ran = page.evaluate("() => window.__xss || 0")
    injected = page.locator("#xss-img, #xss-svg, #xss-a, img[src='x']").count()
    js_links = page.locator("[data-testid='stMain'] a[href^='javascript:']").count()
    assert (ran, injected, js_links, dialogs) == (0, 0, 0, []), where


FIELDS = (
    "[data-testid='stMain'] input[type='text']:visible:enabled, "
    "[data-testid='stMain'] textarea:visible:enabled"
)


def type_markup_into_every_field(page, url: str) -> None:
    """Type a payload into each of the page's first six text fields (Enter, then Check
    where there is one). The page (at /``url``) must be open, with ``watch`` on it."""
    fields = page.locator(FIELDS)
    for i in range(min(fields.count(), 6)):
        field = fields.nth(i)
        payload = PAYLOADS[i % len(PAYLOADS)]
        limit = field.get_attribute("maxlength")
        if url in BOUNDED_ON_THE_SERVER:  # no browser limit: a long paste reaches us
            assert limit is None, f"/{url}: a maxlength drops a long paste silently"
            payload = payload * 40
        field.fill(payload[: int(limit or 10_000)])
        field.press("Enter" if field.evaluate("e => e.tagName") == "INPUT" else "Control+Enter")
        settle(page)
        if page.locator("[data-testid='stMain'] button:has-text('Check'):enabled").count():
            page.locator("[data-testid='stMain'] button:has-text('Check'):enabled").first.click()
            settle(page)
        fields = page.locator(FIELDS)
    settle(page)


def test_markup_in_links_and_the_rewards_grid_is_text(app_url, page):
    dialogs = watch(page)
    payload = quote(PAYLOADS[0])
    for path in (f"/verify?id={payload}", f"/playground?c={payload}&eps={payload}"):
        open_path(page, app_url, path)
        assert_healthy(page)
        assert_nothing_ran(page, dialogs, path)
    open_path(page, app_url, "/playground")
    edit_cell(page, column=0, row=0, text=PAYLOADS[1][:40])
    assert_healthy(page)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "<script>" in alerts, "the bad cell must be named, as text"
    assert_nothing_ran(page, dialogs, "playground grid")
    shot(page, "xss_playground_grid")
