"""ui.text: user text shown verbatim in Markdown."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ui.text import markdown_safe


def test_markdown_safe_shows_markup_as_typed():
    shown = markdown_safe("<b>x</b> **y** [z](javascript:alert(1))")
    assert "<" not in shown and ">" not in shown
    assert "\\*\\*y\\*\\*" in shown and "\\[z\\]" in shown


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_markdown_safe_never_raises_and_leaves_no_tag(text):
    shown = markdown_safe(text)
    assert "<" not in shown and ">" not in shown
