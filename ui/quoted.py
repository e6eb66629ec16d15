"""Quoted figures: ``{{name}}`` in content Markdown becomes the number grpo_core computes.

The registry is ``content.figures``; an unknown name is left as typed, so a typo shows on
the page (and tests/content fails on it) instead of breaking the page.
"""

from __future__ import annotations

import re

from content import figures

PLACEHOLDER = re.compile(r"\{\{\s*([a-z0-9_.]+)\s*\}\}")
"""``{{near_tie.float32.trl}}``: lowercase letters, digits, "_" and "." between double braces."""


def fill(markdown: str) -> str:
    """``markdown`` with every ``{{name}}`` replaced by ``content.figures.text(name)``."""
    known = figures.figures()

    def number(match: re.Match) -> str:
        name = match[1]
        return known[name].text if name in known else match[0]

    return PLACEHOLDER.sub(number, markdown)
