"""Every page's share link, opened in a fresh browser, shows the numbers of the view it was
copied from (after a few inputs were changed); and /home opens the home page.

The views are copied by one reader per worker who clicks through the app (``copier``: the
same Streamlit session, each page reached by the app's navigation, not a load), so a view
is also copied after other pages have left their state in the session: the link must
carry whatever the view shows. Each link is opened by a new visitor (a load in a clean
page), since the app reads a link's values once per session.

Every page of ``ui.nav.PAGES`` is either driven by a scenario here or listed in
``WITHOUT_SHARE_LINK`` with the reason, so a new page must be added to one of them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import (
    DESKTOP,
    assert_healthy,
    edit_cell,
    follow_path,
    settle,
    share_link_of,
    shot,
)
from ui.nav import PAGES

WITHOUT_SHARE_LINK = {
    "home": "no inputs: the same page for everyone",
    "cheatsheet": "no inputs",
    "quiz": "its URL is the learner's own progress, which is private (state.PRIVATE_PARAMS)",
    "interview": "a personal mock round against a clock: the reader's progress, not a view",
    "verify": "its URL is the certificate ID itself (?id=), shared as the ID",
    "review": "a learner's own cards, behind their private learner key",
    "class": "a live session: its join link is the thing to share, never the lecturer link",
    "training-log": "the view is an uploaded file, which no link can carry",
    "trainer-bugs": "no inputs: each preset opens in the playground, whose link is shared",
}
URLS = {file: url for entries in PAGES.values() for file, _, _, url in entries}
# What carries a view's numbers: captions, metrics, formulas (their TeX source), prose
# and alerts. Tables are drawn on a canvas; their numbers are in the captions too.
VIEW = (
    '[data-testid="stMain"] [data-testid="stCaptionContainer"], '
    '[data-testid="stMain"] [data-testid="stMetric"], '
    '[data-testid="stMain"] .katex-mathml annotation, '
    '[data-testid="stMain"] [data-testid="stMarkdownContainer"], '
    '[data-testid="stMain"] [data-testid="stAlert"]'
)


def fill(page, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Enter")
    settle(page, 800)


def choose(page, label: str, option: str | re.Pattern) -> None:
    """Pick ``option`` in the selectbox labelled ``label``, clicking the box again if its list
    has not opened after 5 s (a fresh clone's run saw the guide's list never open after the
    previous page's "Link to this view" popover was read and closed, session 18)."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    choice = page.get_by_role("option", name=option).first
    for attempt in range(3):
        box.click()
        try:
            choice.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
            settle(page)
    choice.click()
    settle(page, 800)


def click(page, role: str, name: str) -> None:
    """Click a button or radio option by its name, or a checkbox or switch by its label."""
    if role in ("checkbox", "switch"):
        page.get_by_text(name, exact=True).first.click()
    else:
        page.get_by_role(role, name=name).first.click()
    settle(page, 800)


def go_to(page, title: str) -> None:
    """Follow the navigation to another page in the same session."""
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
    page.get_by_role("heading", name=title).first.wait_for()
    settle(page, 800)


def edit_playground(page) -> None:
    edit_cell(page, 0, 1, "0.25")
    edit_cell(page, 1, 0, "3")


def walkthrough_whiteboard(page):
    click(page, "radio", "Whiteboard example")
    click(page, "button", "Next →")
    click(page, "button", "Next →")
    choose(page, "Answer to follow", "answer 4 (reward 4)")


def walkthrough_yours(page):
    follow_path(page, page.base, "/playground")
    edit_playground(page)
    go_to(page, "Step-by-step walkthrough")
    choose(page, "Prompt", "Prompt 2")
    for _ in range(4):  # the whiteboard scenario may have left the session a few steps in
        if page.get_by_role("button", name="Next →").first.is_enabled():
            click(page, "button", "Next →")


def playground(page):
    edit_playground(page)
    choose(page, "Convention", re.compile(r"^verl"))


def conventions(page):
    follow_path(page, page.base, "/playground")
    edit_playground(page)
    go_to(page, "Library conventions")
    fill(page, "Prompt 2 (graded 0 to 100)", "0, 10, 50, 100")


A_SECTION = re.compile("^(?!No: every)")  # the first section, not "every section"
SCENARIOS = {  # name: (page file, how to change its inputs; None: change them on the page)
    "walkthrough-whiteboard": ("walkthrough", walkthrough_whiteboard),
    "walkthrough-yours": ("walkthrough", walkthrough_yours),
    "guide": ("guide", lambda p: choose(p, "Show one section at a time", A_SECTION)),
    "length": ("length-normalisation", lambda p: fill(p, "Answer B: length (tokens)", "100")),
    "playground": ("playground", playground),
    "epsilon": ("epsilon", lambda p: (fill(p, "Answers in the group (K)", "6"),
                                      click(p, "checkbox", "eps = 0"))),
    "conventions": ("conventions", conventions),
    "difficulty": ("difficulty", lambda p: (fill(p, "Answers (K)", "8"),
                                            click(p, "radio", "K (ddof=0)"))),
    "dynamic-sampling": ("dynamic-sampling", lambda p: (fill(p, "Answers (K)", "4"),
                                                        fill(p, "Prompts per batch", "128"))),
    "critic": ("critic", lambda p: (fill(p, "Seed (critic noise, KL)", "3"),
                                    click(p, "switch", "Per-token KL penalty"))),
    "simulator": ("simulator", lambda p: (fill(p, "Training steps", "50"), fill(p, "Seeds", "2"),
                                          choose(p, "Reward", "partial"))),
    "policy-loss": ("policy-loss", lambda p: (fill(p, "Seed (token probabilities)", "3"),
                                              choose(p, "loss_type", "grpo"),
                                              click(p, "switch", "Two-sided cap δ"))),
    "real-model": ("real-model", lambda p: choose(p, "Task", "Arithmetic: 6 + 7")),
}  # fmt: skip


def test_every_page_has_a_scenario_or_says_why_not():
    covered = {file for file, _ in SCENARIOS.values()}
    assert covered.isdisjoint(WITHOUT_SHARE_LINK)
    assert covered | set(WITHOUT_SHARE_LINK) == set(URLS), "add the new page to one of them"


def view(page) -> list[str]:
    """The texts that carry the view's numbers, the share link's own box left out."""
    texts = page.locator(VIEW).all_text_contents()
    return [" ".join(t.split()) for t in texts if t and t.strip()]


@pytest.fixture(scope="session")
def copier(browser, app_url):
    """The worker's reader who copies the views: one page for every scenario, whose first
    page is a load and who follows the app's navigation to the others (a third of a
    load's Chromium CPU)."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.base = app_url
    yield page
    page.context.close()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_share_link_reproduces_the_view_in_a_fresh_browser(app_url, clean_page, copier, name):
    file, change = SCENARIOS[name]
    page = copier
    follow_path(page, app_url, f"/{URLS[file]}")
    change(page)
    settle(page, 1200)
    assert_healthy(page)
    before, link = view(page), share_link_of(page)
    assert link.startswith(f"{app_url}/{URLS[file]}?"), link
    shot(page, f"share_{name}_original")

    other = clean_page()  # a fresh browser: no cookie, no storage, no session
    other.goto(link)
    other.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    settle(other, 1500)
    assert_healthy(other)
    shot(other, f"share_{name}_opened")
    after = view(other)
    assert share_link_of(other) == link
    assert after == before


def test_home_path_opens_the_home_page_without_a_dialog(app_url, page):
    page.goto(f"{app_url}/home?present=1")
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    settle(page, 1500)
    assert_healthy(page)
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator('[role="dialog"]').count() == 0
    assert page.get_by_role("button", name="Exit presentation mode").count() == 1
    assert page.url.split("?")[0] in (app_url, f"{app_url}/")
    shot(page, "home_path")
