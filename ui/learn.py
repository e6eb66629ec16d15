"""Learn pages: a Markdown content file shown section by section, with its Try-it links.

A content file (content/guide.md, content/length_normalisation.md) is a ``# Title``,
an introduction, then ``## Section`` blocks. A section may end with the line
``Try it: [Page title](url-path)``; it becomes a link to the page ui/nav.py serves at
that URL path, or plain text while that page does not exist yet.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import streamlit as st

import content
from content.citations import cite
from ui import nav

_TRY_IT = re.compile(r"^Try it: \[(?P<title>[^\]]+)\]\((?P<slug>[a-z0-9-]+)\)\s*$")


@dataclass(frozen=True)
class Section:
    title: str
    anchor: str
    """The section's id on the page, for ``#anchor`` links."""
    body: str
    try_title: str | None = None
    try_slug: str | None = None


@dataclass(frozen=True)
class Document:
    title: str
    intro: str
    sections: tuple[Section, ...]


def anchor(title: str) -> str:
    """'The idea: grade several answers' -> 'the-idea-grade-several-answers'."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def parse(text: str) -> Document:
    """Split a content file into its title, introduction and sections."""
    title, intro, sections, current = "", [], [], None
    for line in text.splitlines():
        if line.startswith("# ") and not title:
            title = line[2:].strip()
        elif line.startswith("## "):
            current = [line[3:].strip(), []]
            sections.append(current)
        else:
            (current[1] if current else intro).append(line)
    parsed = []
    for name, lines in sections:
        body = "\n".join(lines).strip()
        last = body.splitlines()[-1] if body else ""
        match = _TRY_IT.match(last)
        if match:
            body = body[: -len(last)].rstrip()
        parsed.append(
            Section(
                title=name,
                anchor=anchor(name),
                body=body,
                try_title=match["title"] if match else None,
                try_slug=match["slug"] if match else None,
            )
        )
    return Document(title, "\n".join(intro).strip(), tuple(parsed))


@st.cache_data(show_spinner=False)
def _load(path: str, mtime_ns: int) -> Document:
    return parse(cite(content.read_text(path)))


def load(path: str) -> Document:
    """The parsed file ``content/<path>``, re-read when edited, its claim links and
    figures rendered (``ui.citations.cite``): intro and sections are ready to show."""
    return _load(path, content.path(path).stat().st_mtime_ns)


def try_it(section: Section) -> None:
    """The section's Try-it line: a link to the page with that URL path."""
    if not section.try_slug:
        return
    file = nav.by_url(section.try_slug)
    if file is None:
        st.markdown(f"Try it: **{section.try_title}** (this page is coming soon).")
        return
    nav.link(file, f"Try it: {section.try_title}")


def contents(entries: list[tuple[str, str]]) -> None:
    """A numbered table of contents: (title, anchor) pairs linked to ``#anchor``."""
    st.markdown(
        "\n".join(f"{i}. [{title}](#{slug})" for i, (title, slug) in enumerate(entries, start=1))
    )


def section(item: Section) -> None:
    """One section: its heading (with its anchor), its Markdown, its Try-it link."""
    st.header(item.title, anchor=item.anchor)
    st.markdown(item.body)
    try_it(item)


_TO_SECTION = """<script>
document.activeElement?.blur();  // the pressed Next, which the window would follow
setTimeout(() => {  // once the run has drawn the section
  const main = document.querySelector('[data-testid="stMain"]');
  const heading = document.getElementById(__ANCHOR__);
  if (!main || !heading) return;
  const below = heading.getBoundingClientRect().top - main.getBoundingClientRect().top;
  main.scrollTo({top: main.scrollTop + below - 80});  // under a top bar
}, 150);
</script>"""


def scroll_to_section(anchor: str) -> None:
    """Bring a section's heading up to the top of the window when the one-section view
    shows another section: Previous and Next stand at a section's end, and the next
    section was shown from its end, where they were (a projected section began off
    screen). Once per section shown, so a rerun leaves the reader where they scrolled."""
    if st.session_state.get("learn.scrolled_to") != anchor:
        st.session_state["learn.scrolled_to"] = anchor
        script = _TO_SECTION.replace("__ANCHOR__", json.dumps(anchor))
        st.html(script, unsafe_allow_javascript=True, width="content")
