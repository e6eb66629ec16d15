"""The attacker's files against a real server in Chromium (issue 24): each upload ends in a
message on the page, no traceback, and the server stays up: its health endpoint answers
and its memory is back under a bound. The files are made by tests/hostile_files.py."""

import os
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests import hostile_files
from tests.core.test_rollouts_hostile import REFUSED
from tests.e2e.conftest import assert_healthy, open_path, settle, shot

pytestmark = pytest.mark.e2e

RSS_BOUND_MB = 1024
"""The server's resident memory after every hostile upload (it starts near 300 MB)."""


DONE = """() => document.body.innerText.includes('Read as ') || [
    ...document.querySelectorAll('[data-testid="stAlert"]')
].some(a => !a.innerText.includes('Choose CSV'))"""
"""The page has read the upload: its summary line, or a message other than the prompt."""


def server_pid(app_url: str) -> int:
    """The process listening on the app's port (from /proc/net/tcp and /proc/*/fd)."""
    port = urlparse(app_url).port
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "0A":  # LISTEN
            inodes.add(f"socket:[{fields[9]}]")
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd) in inodes for fd in fd_dir.iterdir()):
                return int(fd_dir.parent.name)
        except OSError:
            continue
    raise LookupError(f"nothing listens on port {port}")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError(pid)


def assert_server_alive(app_url: str) -> None:
    with urllib.request.urlopen(app_url + "/_stcore/health", timeout=30) as response:
        assert response.status == 200


def upload(page, app_url: str, tmp_path: Path, name: str, data: bytes) -> str:
    """Upload ``data`` as ``name`` on the training-log page; the page's alert text."""
    open_path(page, app_url, "/training-log")
    if page.get_by_role("dialog").count():
        page.keyboard.press("Escape")
    page.get_by_text("Upload your own", exact=True).click()
    settle(page)
    path = tmp_path / name
    path.write_bytes(data)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    page.wait_for_function(DONE, timeout=120_000)  # the upload and the rerun, on a busy machine
    settle(page, 500)
    return " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def test_a_line_nested_30000_deep_is_refused_and_the_server_lives(app_url, page, tmp_path):
    alerts = upload(page, app_url, tmp_path, "deep.jsonl", hostile_files.deep_json_line())
    assert_healthy(page)
    assert "nested more than 32 levels deep" in alerts
    shot(page, "hostile_deep_json")
    assert_server_alive(app_url)
    assert rss_mb(server_pid(app_url)) < RSS_BOUND_MB


@pytest.mark.parametrize("name", sorted(hostile_files.HOSTILE))
def test_every_hostile_file_gets_a_message_and_the_server_stays_well(app_url, page, tmp_path, name):
    alerts = upload(page, app_url, tmp_path, name, hostile_files.HOSTILE[name]())
    assert_healthy(page)
    assert REFUSED[name] in alerts
    assert page.locator("h1").first.inner_text() == "Inspect a training log"
    shot(page, f"hostile_{name.replace('.', '_')}")
    assert_server_alive(app_url)
    assert rss_mb(server_pid(app_url)) < RSS_BOUND_MB


def test_an_excel_csv_with_a_byte_order_mark_reads(app_url, page, tmp_path):
    upload(page, app_url, tmp_path, "excel.csv", hostile_files.excel_bom())
    assert_healthy(page)
    assert "Read as CSV: 4 answers in 2 groups over 1 step" in page.inner_text("body")
