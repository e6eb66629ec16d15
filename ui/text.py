"""User text on a page: escaped so that Markdown and HTML show it verbatim, never as markup."""

from __future__ import annotations

import re


def markdown_safe(text: str) -> str:
    """``text`` escaped for Markdown and HTML, so a page can show it verbatim in st.markdown."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~$])", r"\\\1", escaped)
