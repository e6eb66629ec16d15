"""Citations and quoted figures: how content Markdown becomes what a reader sees.

- ``[text](claim:ID)`` becomes a link to the claim's source: every library or paper fact in
  content/ carries the id of an entry of content/claims.toml (its source file or paper
  section, a URL at a release tag, the versions it holds for, how it was checked). An
  unknown claim id keeps its text, unlinked.
- ``{{name}}`` becomes the number grpo_core computes for it (the registry is
  ``content.figures``); an unknown name is left as typed, so a typo shows on the page (and
  tests/content fails on it) instead of breaking the page.

``cite`` does both: pages apply it to content before ``st.markdown``, and the Anki deck
before it turns Markdown into HTML.
"""

from __future__ import annotations

import functools
import re

import content
from content import figures

CLAIM_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\(claim:(?P<id>[a-z0-9-]+)\)")
"""``[TRL ≥ 0.22](claim:trl-scale-rewards)``: Markdown link text, then ``claim:`` and an id."""
PLACEHOLDER = re.compile(r"\{\{\s*([a-z0-9_.]+)\s*\}\}")
"""``{{near_tie.float32.trl}}``: lowercase letters, digits, "_" and "." between double braces."""


def fill(markdown: str) -> str:
    """``markdown`` with every ``{{name}}`` replaced by its figure's text."""
    known = figures.figures()

    def number(match: re.Match) -> str:
        name = match[1]
        return known[name].text if name in known else match[0]

    return PLACEHOLDER.sub(number, markdown)


@functools.cache
def claims() -> dict[str, dict]:
    """The entries of content/claims.toml by id."""
    return {entry["id"]: entry for entry in content.read_toml("claims.toml")["claim"]}


def link_title(claim: dict) -> str:
    """The hover text of a claim link: its source and the versions it holds for.

    Without parentheses or double quotes, so simple link patterns (``\\[..\\]\\([^)]*\\)``,
    as the narrator uses) still see one link.
    """
    title = f"{claim['source']} · {claim['version']}"
    return re.sub(r"[()]", "", title).replace('"', "'")


def cite(markdown: str) -> str:
    """``markdown`` with claim links pointing at their sources and figures filled in."""
    known = claims()

    def link(match: re.Match) -> str:
        claim = known.get(match["id"])
        if claim is None:
            return match["text"]
        return f'[{match["text"]}]({claim["url"]} "{link_title(claim)}")'

    return CLAIM_LINK.sub(link, fill(markdown))
