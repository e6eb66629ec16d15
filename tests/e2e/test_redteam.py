"""The red team's holes in a real browser: presentation mode, switched on with the app's own
button (which AppTest does not see), keeps a learner key out of the projected address bar and
the lecturer link's QR code out of the projected lecturer screen."""

from __future__ import annotations

from practice.store import open_store
from tests.e2e.conftest import assert_healthy, open_path, settle, shot

PROJECTOR = {"width": 1280, "height": 720}


def _present(page) -> None:
    page.get_by_role("button", name="Presentation mode").click()
    page.get_by_role("button", name="Exit presentation mode").wait_for()
    settle(page)


def _links(page) -> str:
    return " ".join(page.eval_on_selector_all("[href]", "els => els.map(e => e.href)"))


def test_presenting_keeps_the_learner_key_and_the_lecturer_link_off_the_projector(
    app_server, clean_page
):
    key = open_store(app_server.store_url).create_learner()
    page = clean_page(viewport=PROJECTOR)
    open_path(page, app_server.url, f"/review?learner={key}")
    assert key in page.url, "the learner's own screen keeps the link in the address bar"
    _present(page)
    assert key not in page.url and key not in _links(page)
    assert page.get_by_text("1 · Due today").count() == 1, "the review goes on, from the session"
    assert_healthy(page)
    page.get_by_role("button", name="Exit presentation mode").click()
    page.get_by_role("button", name="Presentation mode").wait_for()
    settle(page)
    assert key in page.url, "back on the learner's own screen, the link is the URL again"

    open_path(page, app_server.url, "/class")
    page.get_by_role("button", name="Start a class session").click()
    page.get_by_role("button", name="Control from your phone").wait_for()
    settle(page)
    _present(page)
    page.get_by_role("button", name="Control from your phone").click()
    popover = page.locator('[data-testid="stPopoverBody"]')
    popover.get_by_text("QR code that hands your controls to a phone is hidden").wait_for()
    assert popover.locator("img").count() == 0
    assert "lecturer=" not in page.url + _links(page)
    assert_healthy(page)
    shot(page, "redteam_lecturer_presenting_phone_popover")
