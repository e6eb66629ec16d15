"""Class mode's two screens in a real browser: the projector (1280x720, presenting) shows
the room and nothing private; the lecturer's screen holds the controls.

Every URL the projector shows (its own address, every link, every QR code, read back by
zbarimg from a screenshot) is opened in a browser with no cookie or storage and must show
no control and no trace of the lecturer's tag: the projector's stages are those of the
class round tests/e2e/test_class_mode.py runs (``shown_urls`` at each, then
``open_each_without_control``), and the phone that takes control from the private QR
code is tests/e2e/test_class_phone.py's first step (``take_control_from_the_private_qr``).
Here: forged lecturer links. Screenshots: artifacts/screenshots/class_screens_*.png."""

from __future__ import annotations

import re
import shutil
import subprocess
from urllib.parse import parse_qs, urljoin, urlparse

import pytest

from practice.store import open_store
from tests.e2e.conftest import CLEAR_STORAGE, assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CONTROL = re.compile(
    r"Reveal|End the session|Yes, end it|CSV|Open this round|show the distribution|vote again",
    re.IGNORECASE,
)


def controls(page) -> list[str]:
    """The names of the lecturer's controls on the page (buttons and links)."""
    names = page.locator("button, a, [role=button]").all_inner_texts()
    return [n.strip() for n in names if CONTROL.search(n)]


def qr_links(page, name: str) -> list[str]:
    """Every QR code on the page's screenshot, decoded by zbarimg."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg not installed; run `python3 dev.py test` as root to install it")
    path = shot(page, name)
    out = subprocess.run(
        [zbarimg, "--quiet", "--raw", str(path)], capture_output=True, text=True, timeout=30
    )
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def shown_urls(page, name: str) -> set[str]:
    """The projector's address, its links and its QR codes, as absolute URLs."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    found = {page.url, *(urljoin(page.url, h) for h in hrefs), *qr_links(page, name)}
    return {u.split("#")[0] for u in found if u.startswith("http")}


def tag_of(context, code: str) -> str:
    (cookie,) = [c for c in context.cookies() if c["name"] == f"grpo_lecturer_{code}"]
    return cookie["value"]


def start_session(clean_page, app_url):
    """A lecturer starts a session on a 1280x720 window (a clean page of its own, see
    tests/e2e/conftest.py): the lecturer screen."""
    page = clean_page(PROJECTOR)
    open_path(page, app_url, "/class?present=1")
    page.get_by_role("button", name="Start a class session").click()
    page.get_by_role("heading", name=re.compile("^Lecturer screen")).wait_for()
    settle(page, 800)
    return page


def open_each_without_control(fresh, urls: set[str], tag: str) -> None:
    """Open each URL the projector showed in a browser that has seen none of the others:
    one page whose cookies and storage are cleared before each URL (as a fresh context
    would have none), so control that one URL gave could not carry over to the next. Each
    must show no control and no trace of the lecturer's tag, and no traceback."""
    for url in sorted(urls):
        fresh.context.clear_cookies()
        fresh.evaluate(CLEAR_STORAGE)
        fresh.goto(url)
        fresh.wait_for_selector('[data-testid="stMain"]', timeout=60_000)
        settle(fresh, 800)
        assert not controls(fresh), (url, controls(fresh))
        assert tag not in fresh.content() and tag not in fresh.url, url
        assert_healthy(fresh)
    fresh.goto("about:blank")  # checked: its Streamlit session ends, it polls no more


def take_control_from_the_private_qr(lect, phone) -> None:
    """The lecturer's private QR code (behind "Control from your phone") gives ``phone``, a
    clean browser, the lecturer's screen; the tag leaves the phone's URL at once, the
    control stays across a reload, and ending the session asks first (cancelled here)."""
    code = parse_qs(urlparse(lect.url).query)["class"][0]
    tag = tag_of(lect.context, code)
    presenting = lect.get_by_role("button", name="Exit presentation mode").count() > 0
    if presenting:  # presenting, the popover hides the QR code (tests/e2e/test_redteam.py)
        lect.get_by_role("button", name="Exit presentation mode").click()
        lect.get_by_role("button", name="Presentation mode").wait_for()
        settle(lect)
    lect.get_by_text("Control from your phone").click()
    lect.get_by_text("never show this on the projector").wait_for()
    settle(lect, 600)
    (link,) = [u for u in qr_links(lect, "class_screens_handoff") if "lecturer=" in u]
    assert parse_qs(urlparse(link).query)["lecturer"] == [tag]
    lect.keyboard.press("Escape")
    if presenting:
        lect.get_by_role("button", name="Presentation mode").click()
        lect.get_by_role("button", name="Exit presentation mode").wait_for()
        settle(lect)
    open_path(phone, "", link)
    phone.get_by_role("button", name="Open this round").wait_for()
    phone.wait_for_function("!location.search.includes('lecturer=')", timeout=10_000)
    assert "screen=lecturer" in phone.url and tag not in phone.url
    phone.reload()
    phone.get_by_role("button", name="Open this round").wait_for()
    settle(phone)
    assert_healthy(phone)
    shot(phone, "class_screens_phone_lecturer")
    phone.get_by_role("button", name="End the session…").click()
    phone.get_by_text("End the session for everyone?").wait_for()
    phone.get_by_role("button", name="Cancel").click()
    phone.get_by_role("button", name="End the session…").wait_for()
    phone.goto("about:blank")  # checked: its Streamlit session ends, it polls no more


@pytest.mark.parametrize("value", ["%C3%A9%E2%82%AC%E2%9C%93", "%E2%80%AE" * 8, "A" * 22])
def test_a_forged_or_non_ascii_lecturer_link_shows_no_control_and_no_traceback(
    app_server, clean_page, value
):
    # a session made in the app's store, as the lecturer's button makes one (the tests
    # above start theirs in the browser); the forged link is opened by a clean browser
    code = open_store(app_server.store_url).create_session().code
    page = clean_page(PROJECTOR)
    open_path(page, app_server.url, f"/class?class={code}&lecturer={value}")
    assert_healthy(page)
    assert not controls(page)
    assert page.get_by_text("open your lecturer link").count() == 1


def shown_options(page) -> dict[str, str]:
    """The options a screen shows, by letter: {"A": "The K rewards ...", ...}."""
    texts = page.locator('[data-testid="stMarkdownContainer"] p').all_inner_texts()
    found = (re.match(r"^([A-J])\.\s+(.*)$", t, re.S) for t in texts)
    return {m.group(1): m.group(2) for m in found if m}


def plain_part(text: str) -> str:
    """The longest run of an option's text outside $...$ math (as a page shows it)."""
    return max(re.split(r"\$[^$]*\$", text), key=len).strip()


def ask(lect, question_id: str, *, first: bool = True) -> None:
    """On the lecturer's screen: pick the bank's question by typing its id, open the round."""
    if not first:
        lect.get_by_text("Ask the next question").click()
    lect.locator('[data-testid="stSelectbox"]').first.click()
    lect.keyboard.type(question_id)
    lect.keyboard.press("Enter")
    lect.get_by_role("button", name="Open this round").click()


def right_letter(page, question_id: str) -> str:
    """The letter the page shows the bank's right option with."""
    from practice.bank import load_bank

    (question,) = [q for q in load_bank() if q.id == question_id]
    right = plain_part(question.options[question.answer].text)
    (letter,) = [x for x, text in shown_options(page).items() if right in text]
    return letter
