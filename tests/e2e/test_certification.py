"""In a real browser, a certification attempt walked through: start, items with no feedback,
submit, the results with every answer, the certificate for a hostile name (issued once,
shown as text, its HTML with the ID once and a QR code of the short link), the retake
blocked; a second browser holding the progress link cannot issue; the verify page reads
the ID wrapped over lines and its short form, and the published check verifies it offline.
Screenshots at 1440 and 390 px."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from practice import certification as engine
from practice.certificates import OFFLINE_CHECK, short_id, verify
from practice.session import next_question, option_order
from practice.store import open_store
from practice.variants import load_families
from tests.e2e.conftest import (
    NEXT_FRAME,
    assert_healthy,
    download_of,
    free_port,
    open_path,
    settle,
    shot,
    start_streamlit,
)

pytestmark = pytest.mark.e2e

SECRET = "e2e-certification-secret-0123456789abcdef"
KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"  # Ed25519, base64url of bytes 0..31
NAME = 'Zoë "Ada" O\'Brien <script>alert(1)</script>'
FAMILIES = load_families()
DESKTOP, PHONE = {"width": 1440, "height": 1000}, {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def store_url(tmp_path_factory):
    return f"sqlite://{tmp_path_factory.mktemp('store')}/grpo.sqlite3"


@pytest.fixture(scope="module")
def cert_url(store_url):
    """The app with known keys and a store of its own; the retake wait is the default day."""
    port = free_port()
    env = {"GRPO_CERT_SECRET": SECRET, "GRPO_CERT_KEY": KEY, "GRPO_STORE": store_url}
    process = start_streamlit(port, env=env)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def the_attempt(page, store_url):
    """The attempt of the learner key in the page's URL, and its current item's variant."""
    store = open_store(store_url)
    learner = re.search(r"[?&]learner=([^&]+)", page.url)[1]
    attempt = store.latest_attempt(learner)
    quiz = engine.state(store, FAMILIES, attempt)
    item = next_question(quiz)
    variant = engine.items(store, FAMILIES, attempt)[item] if item else None
    return attempt, quiz, variant


def answer_right(page, quiz, variant) -> None:
    main = page.locator('[data-testid="stMain"]')
    q = variant.question
    main.locator(f".st-key-ct-check-{q.id}").wait_for()
    settle(page, 100)
    if variant.drill is not None:
        box = main.get_by_role("textbox", name=f"Your value of {variant.drill.name}")
        box.fill(f"{variant.drill.expected:.5f}")
    else:
        shown_at = option_order(q, quiz.seed).index(q.answer)
        main.locator('[data-testid="stRadio"] [role="radiogroup"] label').nth(shown_at).click()
    main.get_by_role("button", name="Save my answer").click()
    main.locator(f".st-key-ct-check-{q.id}").wait_for(state="detached")
    settle(page, 150)


def check_offline(keyring: str, cert_id: str) -> dict:
    """The verify page's published check, in a fresh Python with only the keyring beside it."""
    work = Path(tempfile.mkdtemp())
    (work / "grpo-certificate-keys.json").write_text(keyring, encoding="utf-8")
    code = OFFLINE_CHECK.replace('"GRPO2-..."', repr(cert_id)).replace(
        "print(claims)", "print(json.dumps(claims))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=work, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": ":".join(p for p in sys.path if "site-packages" in p)},
    )  # fmt: skip
    return json.loads(out.stdout)


SIDEBAR_AWAY = """() => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  return bar.dataset.collapsed === 'true' && bar.getBoundingClientRect().right <= 0;
}"""
"""The sidebar has folded away, as on a phone (a desktop window made narrow folds it)."""


def test_a_certification_attempt_walked_through(cert_url, store_url, clean_page):
    page = clean_page(DESKTOP)  # the holder's browser
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    main = page.locator('[data-testid="stMain"]')

    open_path(page, cert_url, "/quiz")
    main.locator('[data-testid="stButtonGroup"]').get_by_text("Certification").click()
    main.get_by_role("button", name="Start my certification attempt").wait_for()
    settle(page)
    assert main.get_by_label("Seed (blank = random)").count() == 0  # no seed can be typed
    shot(page, "cert_intro_1440")
    main.get_by_role("button", name="Start my certification attempt").click()
    main.get_by_text(re.compile(r"Item 1 of \d+")).wait_for()
    settle(page)
    attempt, quiz, variant = the_attempt(page, store_url)
    assert "token" not in page.url and attempt.submitted is None
    shot(page, "cert_item_1440")
    page.set_viewport_size(PHONE)
    settle(page)
    shot(page, "cert_item_390")
    page.set_viewport_size(DESKTOP)

    while variant is not None:
        answer_right(page, quiz, variant)
        text = main.inner_text()
        assert "Right:" not in text and "Missed" not in text  # no feedback before submitting
        assert_healthy(page)
        attempt, quiz, variant = the_attempt(page, store_url)
    main.get_by_role("button", name="Submit my attempt").wait_for()
    link = re.search(r"[?&]p=([^&]+)", page.url)[1]

    # a second browser holding the progress link, before the holder issues: no way to issue
    other = clean_page(PHONE)  # another browser: no cookie or storage of the holder's
    open_path(other, cert_url, f"/quiz?p={link}")
    other.get_by_text("being taken in another browser").wait_for()
    assert other.get_by_role("button", name="Submit my attempt").count() == 0
    shot(other, "cert_second_browser_open_390")

    main.get_by_role("button", name="Submit my attempt").click()
    main.get_by_text("Every item, with its answer").wait_for()
    settle(page)
    total = len(FAMILIES)
    assert f"{total} of {total} points (100.0%)" in main.inner_text()
    right = re.compile(r"^Right · ")
    assert main.locator('[data-testid="stCaptionContainer"]', has_text=right).count() == total
    shot(page, "cert_results_1440")

    other.reload()
    other.get_by_text("Only the browser that took this attempt can issue").wait_for()
    assert other.get_by_label("Name on the certificate").count() == 0
    assert other.get_by_text("Every item, with its answer").count() == 0
    shot(other, "cert_second_browser_submitted_390")

    main.get_by_label("Name on the certificate").fill(NAME)
    main.get_by_role("button", name="Get my certificate").click()
    main.locator('[data-testid="stCode"]').wait_for()
    settle(page)
    cert_id = main.locator('[data-testid="stCode"] code').inner_text().strip()
    issued = main.locator('[data-testid="stAlert"]', has_text="Certificate issued to")
    assert NAME in issued.inner_text() and "&quot;" not in issued.inner_text()
    assert verify(cert_id, public_key=_public())["name"] == NAME
    assert short_id(cert_id) in main.inner_text()
    shot(page, "cert_certificate_1440")
    button = main.get_by_role("button", name="Download the certificate (HTML)")
    html_file = download_of(page, button).read_text(encoding="utf-8")
    assert html_file.count(cert_id) == 1 and "<script>alert" not in html_file
    assert f"{cert_url}/verify?id={short_id(cert_id)}" in html_file and "<svg" in html_file
    sheet = page.context.new_page()
    sheet.set_content(html_file)
    sheet.emulate_media(media="print")
    sheet.evaluate("() => document.fonts.ready.then(() => {})")  # its fonts, then a frame
    sheet.evaluate(NEXT_FRAME)  # drawn for print
    shot(sheet, "cert_html")
    sheet.close()

    # the second browser now sees the certificate that stands, and still cannot issue
    other.reload()
    other.get_by_text("Certificate issued to").wait_for()
    assert other.get_by_label("Name on the certificate").count() == 0
    settle(other)
    shot(other, "cert_second_browser_issued_390")

    # a second visit by the holder (a reload forgets the session; the learner link stays)
    page.reload()
    page.get_by_text("Certificate issued to").wait_for()
    settle(page)
    assert main.locator('[data-testid="stCode"] code').inner_text().strip() == cert_id
    assert main.get_by_label("Name on the certificate").count() == 0
    # the retake is blocked for a day
    assert main.get_by_text("A retake opens at").count() == 1
    assert main.get_by_role("button", name="Start a new attempt").count() == 0
    assert_healthy(page)
    shot(page, "cert_retake_blocked_1440")
    page.set_viewport_size(PHONE)
    settle(page)
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth,
                  document.querySelector('[data-testid="stMain"]').scrollWidth]"""
    )
    assert max(widths) <= PHONE["width"] + 1, widths  # the long ID wraps, nothing cut off
    shot(page, "cert_retake_blocked_390")
    page.set_viewport_size(DESKTOP)

    # the verify page: the ID wrapped over lines, then the short form
    wrapped = "\n".join(cert_id[i : i + 64] for i in range(0, len(cert_id), 64))
    open_path(page, cert_url, "/verify")
    box = main.get_by_role("textbox", name="Certificate ID")
    box.fill(wrapped)
    box.press("Control+Enter")
    page.get_by_text("Valid certificate").wait_for()
    settle(page)
    assert NAME in main.inner_text()
    shot(page, "cert_verify_wrapped_1440")
    box.fill(short_id(cert_id))
    box.press("Control+Enter")
    main.get_by_text("The short form you pasted names this full ID").wait_for()
    settle(page)
    page.set_viewport_size(PHONE)
    page.wait_for_function(SIDEBAR_AWAY)  # it folds itself, sliding out: the shot waits for it
    settle(page)
    shot(page, "cert_verify_short_390")
    main.get_by_text("Check a certificate offline, with the public key").click()
    keys = download_of(page, main.get_by_role("button", name="Download the public keys (JSON)"))
    keyring = keys.read_text(encoding="utf-8")
    claims = check_offline(keyring, wrapped)
    assert claims["name"] == NAME and claims["correct"] == claims["total"] == total
    with pytest.raises(subprocess.CalledProcessError):
        check_offline(keyring, cert_id[:-1] + ("B" if cert_id[-1] == "A" else "A"))
    assert dialogs == [], "a name must never run as a script"


def _public():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from grpo_core.links import b64url_decode

    return Ed25519PrivateKey.from_private_bytes(b64url_decode(KEY)).public_key()
