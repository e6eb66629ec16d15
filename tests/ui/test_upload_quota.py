"""The upload quota on Streamlit's own in-memory upload manager: a session's files and the
process's are bounded, a replaced file is not counted twice, and a refused file is never
stored."""

from __future__ import annotations

import pytest
from starlette.exceptions import HTTPException
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from ui import upload_quota
from ui.upload_quota import PROCESS_BYTES, SESSION_BYTES, guard, refusal

KB = 1024


def upload(manager, session: str, file_id: str, size: int) -> None:
    manager.add_file(session, UploadedFileRec(file_id, f"{file_id}.csv", "text/csv", b"x" * size))


@pytest.fixture
def manager(monkeypatch):
    """A real manager, with the bounds scaled down a thousandfold (KB for MB)."""
    monkeypatch.setattr(upload_quota, "SESSION_BYTES", SESSION_BYTES // 1024)
    monkeypatch.setattr(upload_quota, "PROCESS_BYTES", PROCESS_BYTES // 1024)
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    guard(manager)
    guard(manager)  # idempotent: app.py calls it on every run
    return manager


def test_one_session_cannot_pile_up_files_past_its_quota(manager):
    """Red team: Streamlit checks each file against maxUploadSize and nothing more, and the
    file id is the client's: file after file of 95 MB went into the server's memory."""
    size = 95 * KB
    for n in range(upload_quota.SESSION_BYTES // size):
        upload(manager, "s1", f"f{n}", size)
    with pytest.raises(HTTPException) as refused:
        upload(manager, "s1", "one-more", size)
    assert refused.value.status_code == 413 and "0.25 MB of uploads at most" in refused.value.detail
    assert "one-more" not in manager.file_storage["s1"], "a refused file is not kept"
    upload(manager, "s1", "f0", size)  # a file sent again replaces itself: not counted twice
    upload(manager, "s2", "f0", size)  # another session has its own quota


def test_every_session_together_is_bounded_too(manager):
    size = 100 * KB
    sessions = upload_quota.PROCESS_BYTES // size
    for n in range(sessions):
        upload(manager, f"s{n}", "f", size)
    with pytest.raises(HTTPException, match="413"):
        upload(manager, "late", "f", size)
    manager.remove_session_files("s0")  # a session that ends frees its share
    upload(manager, "late", "f", size)


def test_refusal_reads_the_bounds():
    assert refusal(0, 0, SESSION_BYTES) is None
    assert "at most" in refusal(1, 1, SESSION_BYTES)
    assert "too many uploads" in refusal(0, PROCESS_BYTES, 1)
