"""The app's own CSS on top of the theme, applied on every run by the navigation.

Contrast: Streamlit draws captions, code in captions, keyboard hints and disabled labels in
a faded grey (about 4.4:1 on white, 3:1 for code, 2.5:1 for disabled labels), under the
4.5:1 that WCAG 2 AA asks of body text, and this app puts a chart's key numbers in its
caption. Here they take the theme's text colour, a little faded (at least 6:1 in both
themes, checked by axe-core in tests/e2e/test_accessibility.py). Slider values and the
selected segment, drawn in the primary colour, take the text colour too: the dark theme's
primary (#0072B2, dark enough under white button text) reads 3.6:1 on its background.
"""

import streamlit as st

CSS = """
<style>
  [data-testid="stCaptionContainer"] { color: inherit; opacity: 0.82; }
  [data-testid="stCaptionContainer"] code { color: inherit; }
  [data-testid="stSliderThumbValue"] { color: inherit; }
  [data-testid="stButtonGroup"] button { color: inherit !important; }
  kbd { color: inherit !important; opacity: 1 !important; }
  [data-testid="stWidgetLabel"], button:disabled p { color: inherit; }
  button:disabled, label:has(input:disabled), [data-testid="stWidgetLabel"]:has(+ * [disabled]) {
    opacity: 0.75;
  }
</style>
"""


def apply() -> None:
    """Add the app's CSS to this run's page (it takes no space)."""
    st.html(CSS)
