"""Cheat sheet: the bullets to scan in the minute before a call; printable and downloadable."""

import streamlit as st

import content
from content.citations import cite
from ui import page

SHEET = cite(content.read_text("cheatsheet.md"))
TITLE, _, BODY = SHEET.partition("\n")

# Printing: leave out the app's sidebar, header and buttons (a fixed style, no user text).
PRINT_STYLE = """<style>@media print {
  [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stDownloadButton"],
  [data-testid="stSidebarCollapsedControl"] { display: none !important; }
}</style>"""

# A phone: the tables fit the screen (smaller type, long code names broken anywhere), so
# nobody scrolls sideways to reach the eps or clip column.
PHONE_STYLE = """<style>@media (max-width: 640px) {
  [data-testid="stMarkdownContainer"] table { font-size: 0.8rem; }
  [data-testid="stMarkdownContainer"] :is(th, td) { padding: 0.3rem 0.35rem; }
  [data-testid="stMarkdownContainer"] :is(th, td) code { word-break: break-all; }
}</style>"""

page.start()
st.html(PRINT_STYLE + PHONE_STYLE)
st.title(TITLE.lstrip("# ").strip() or "Cheat sheet")
left, right = st.columns([3, 1], vertical_alignment="center")
left.caption(
    ":material/print: To print it, use your browser's Print (Ctrl+P, or ⌘P on a Mac): "
    "the sidebar and buttons are left out of the printout."
)
right.download_button(
    "Download (Markdown)",
    data=SHEET,
    file_name="grpo-advantage-cheatsheet.md",
    mime="text/markdown",
    key="cs.download",
    icon=":material/download:",
)
st.markdown(BODY)
