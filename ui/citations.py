"""Citations: ``[text](claim:ID)`` in content Markdown becomes a link to the claim's source.

Every library or paper fact in content/ carries the id of an entry of content/claims.toml
(its source file or paper section, a URL at a release tag, the versions it holds for, how
it was checked). ``cite`` is what pages apply to content before ``st.markdown``: it turns
each claim link into ``[text](url "source · versions")`` and fills the quoted figures
(``{{name}}``, see ui/quoted.py). An unknown claim id keeps its text, unlinked.
"""

from __future__ import annotations

import functools
import re

import content
from ui import quoted

CLAIM_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\(claim:(?P<id>[a-z0-9-]+)\)")
"""``[TRL ≥ 0.22](claim:trl-scale-rewards)``: Markdown link text, then ``claim:`` and an id."""


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

    return CLAIM_LINK.sub(link, quoted.fill(markdown))
