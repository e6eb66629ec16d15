"""What uploads may hold in the server's memory: at most ``SESSION_BYTES`` a session and
``PROCESS_BYTES`` in all.

Streamlit 1.67 keeps every uploaded file in the server process's memory
(``MemoryUploadedFileManager``) until its session ends, and its upload endpoint checks one
file against ``server.maxUploadSize`` (100 MB here) and nothing more: no count, no total,
and the file id is the client's to choose, so any open session, with or without an
uploader on its page, could PUT file after file. Four 95 MB files picked at once on the
training-log page took the server from 238 MB to 694 MB; a script sending more would take
the whole machine. ``guard`` wraps the manager's ``add_file`` so that a file past either
bound is refused with HTTP 413 (the uploader shows it as an error) and never stored.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from streamlit.runtime import Runtime

MB = 1024 * 1024
SESSION_BYTES = 256 * MB
"""One session's uploads: the training log's 100 MB in all, twice, and room to spare."""
PROCESS_BYTES = 1024 * MB
"""Every session's uploads together, in one server process."""


def refusal(session_bytes: int, process_bytes: int, size: int) -> str | None:
    """Why a file of ``size`` bytes may not be kept when its session already holds
    ``session_bytes`` and the process ``process_bytes`` (a replaced file not counted), or
    None when it may."""
    if session_bytes + size > SESSION_BYTES:
        return f"This page holds {SESSION_BYTES / MB:g} MB of uploads at most: remove a file first."
    if process_bytes + size > PROCESS_BYTES:
        return "The server holds too many uploads right now: try again in a few minutes."
    return None


def guard(manager) -> None:
    """Wrap ``manager.add_file`` (a ``MemoryUploadedFileManager``) with ``refusal``; a second
    call changes nothing."""
    if getattr(manager, "_grpo_quota", False):
        return
    add_file = manager.add_file

    def add_within_quota(session_id: str, file) -> None:
        with manager._lock:
            held = manager.file_storage.get(session_id, {})
            old = held.get(file.file_id)
            replaced = len(old.data) if old is not None else 0
            session = sum(len(f.data) for f in held.values()) - replaced
            problem = refusal(session, manager._total_bytes - replaced, len(file.data))
        if problem:
            raise HTTPException(status_code=413, detail=problem)
        add_file(session_id, file)

    manager.add_file = add_within_quota
    manager._grpo_quota = True


def install() -> None:
    """Guard this server's upload manager (once; app.py calls it on every run)."""
    if Runtime.exists():
        manager = Runtime.instance().uploaded_file_mgr
        if hasattr(manager, "file_storage"):  # the memory manager Streamlit 1.67 runs
            guard(manager)
