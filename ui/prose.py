"""Named prose sections of a content file, for pages that show them one at a time."""

from __future__ import annotations

import functools

import content
from ui import learn


@functools.lru_cache(maxsize=16)
def _sections(path: str, mtime_ns: int) -> dict[str, str]:
    return {s.title: s.body for s in learn.parse(content.read_text(path)).sections}


def section(path: str, name: str) -> str:
    """The Markdown under ``## name`` in ``content/<path>`` (parsed as ``learn.parse`` does),
    re-read when the file is edited."""
    return _sections(path, content.path(path).stat().st_mtime_ns)[name]
