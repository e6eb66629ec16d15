"""Named prose sections of a content file, for pages that show them one at a time."""

from __future__ import annotations

from ui import learn


def section(path: str, name: str) -> str:
    """The Markdown under ``## name`` in ``content/<path>`` (parsed by ``learn.load``)."""
    return {s.title: s.body for s in learn.load(path).sections}[name]
