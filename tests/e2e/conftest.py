"""End-to-end fixtures: a real `streamlit run app.py` on a free loopback port, driven by
Playwright in Debian's headless Chromium. Screenshots go to artifacts/screenshots/.

Locally, a machine without /usr/bin/chromium skips these tests with a message;
in CI (CI=true) a missing browser is a failure, never a skip.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = ROOT / "artifacts" / "screenshots"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_streamlit(port: int, env: dict | None = None, script: str = "app.py") -> subprocess.Popen:
    """Start the app as the README does, on ``port``; returns once it is healthy."""
    process = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", script,
            "--server.port", str(port), "--server.address", "127.0.0.1",
            "--server.headless", "true", "--browser.gatherUsageStats", "false",
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited: {process.stderr.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("streamlit did not become healthy within 90 s")


@pytest.fixture(scope="session")
def app_url():
    port = free_port()
    process = start_streamlit(port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI: browser tests must run, not skip")
        pytest.skip(f"{CHROMIUM} not installed; run `python3 dev.py test` as root to install it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1800})
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def settle(page, extra_ms: int = 400) -> None:
    """Wait until Streamlit has finished running the script and painted."""
    page.wait_for_selector('[data-testid="stApp"]')
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            return app && app.getAttribute('data-test-script-state') !== 'running'
                && !document.querySelector('[data-testid="stSkeleton"]');
        }"""
    )
    page.wait_for_timeout(extra_ms)


def open_path(page, base: str, path: str) -> None:
    """Open a URL and wait until its page has drawn its title and finished running."""
    page.goto(base + path)
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    settle(page, 800)


def assert_healthy(page) -> None:
    """No traceback box on the page."""
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator(
        '[data-testid="stException"]'
    ).first.inner_text()


def chart_marks(page) -> int:
    """Plotted marks (bars, points, line paths) across every Plotly chart on the page."""
    page.wait_for_selector(".js-plotly-plot .main-svg")
    return page.locator(
        ".js-plotly-plot .trace path, .js-plotly-plot .trace .point, .js-plotly-plot .js-line"
    ).count()


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def edit_cell(page, column: int, row: int, text: str) -> None:
    """Type ``text`` into the data editor's cell (0-based column after the index, row).

    The grid is drawn on a canvas: select the cell by position (header and rows are
    35 px high), open its editor with Enter, replace the text, commit with Enter.
    """
    grid = page.locator('[data-testid="stDataFrame"]').first
    box = grid.bounding_box()
    header = row_height = 35
    index_width = 64
    headers = grid.locator("[role=columnheader]").count()
    width = (box["width"] - index_width) / max(headers - 1, 1)
    x = box["x"] + index_width + width * (column + 0.5)
    y = box["y"] + header + row_height * (row + 0.5)
    page.mouse.click(x, y)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")  # open the cell's editor
    page.wait_for_timeout(300)
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=20)
    page.keyboard.press("Enter")
    settle(page, 800)
