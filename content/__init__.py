"""The app's editable content: Markdown, TOML and HTML a teacher changes without Python.

Every module that reads a file under ``content/`` goes through these three functions, so
the folder is found in one place and a missing file names itself.

>>> sorted(read_toml("walkthrough.toml"))[:1]
['step']
"""

from __future__ import annotations

import tomllib
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """The file ``content/<name>`` (``name`` relative to the folder, e.g. ``"guide.md"``)."""
    return FOLDER / name


def read_text(name: str) -> str:
    """The text of ``content/<name>`` (UTF-8)."""
    return path(name).read_text(encoding="utf-8")


def read_toml(name: str) -> dict:
    """``content/<name>`` parsed as TOML."""
    return tomllib.loads(read_text(name))
