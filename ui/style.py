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
  .katex-display > .katex > .katex-html {
    display: flex; flex-wrap: wrap; justify-content: center; align-items: baseline;
    row-gap: 0.25em;
  }
  /* ui.formulas: a formula's narrow form on a phone, its wide form elsewhere */
  [class*="st-key-formula-narrow-"] { display: none; }
  @media (max-width: 640px) {
    [class*="st-key-formula-wide-"] { display: none; }
    [class*="st-key-formula-narrow-"] { display: block; }
  }
  [data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }
  /* A chart's title: the chart's own on a wide screen, the HTML one above it on a phone,
     where it wraps (ui.figures.common.show) */
  [data-testid="stElementContainer"]:has(.chart-title-phone) { display: none; }
  .chart-title-phone { font-weight: 700; font-size: 1.05rem; margin: 0; }
  @media (max-width: 640px) {
    [data-testid="stElementContainer"]:has(.chart-title-phone) { display: block; }
    [data-testid="stPlotlyChart"] .gtitle { display: none; }
  }
  /* A table's toolbar (show columns, search, full screen) stands 44 px above the table, over
     the line before it once a tap shows it; on a phone, where a tap shows it, the table
     keeps that room (the toolbar's 8 px of padding hang in the gap between elements). */
  @media (max-width: 640px) {
    [data-testid="stElementContainer"]:has(> * > [data-testid="stDataFrame"]) {
      margin-top: 36px;
    }
  }
  [data-testid="stCaptionContainer"] code { color: inherit; }
  /* Chart ticks and axis titles (a colour bar's too): Streamlit's chart theme draws them in a
     faded grey (#808495, 3.7:1 on white); here in the theme's text colour */
  [data-testid="stPlotlyChart"] :is(.xtick text, .ytick text, .xtitle, .ytitle, .cbaxis text,
    .cbtitle text) {
    fill: currentColor !important;
  }
  [data-testid="stSliderThumbValue"] { color: inherit; }
  [data-testid="stButtonGroup"] button { color: inherit !important; }
  kbd { color: inherit !important; opacity: 1 !important; }
  [data-testid="stWidgetLabel"], button:disabled p { color: inherit; }
  button .stMarkdownEllipsis, button .stMarkdownEllipsis p {
    white-space: normal; overflow: visible; text-overflow: clip;
  }
  /* a page link's label wraps on a phone instead of ending in "…" (Streamlit sets nowrap) */
  [data-testid="stPageLink-NavLink"] span, [data-testid="stPageLink-NavLink"] p {
    white-space: normal; overflow: visible; text-overflow: clip;
  }
  button [data-has-shortcut] { flex-wrap: wrap; justify-content: center; }
  button:disabled, label:has(input:disabled), [data-testid="stWidgetLabel"]:has(+ * [disabled]) {
    opacity: 0.75;
  }
</style>
"""


FIT_FORMULAS = """
<script>
/* A display formula wider than its column (a phone) is set smaller until it fits, instead
   of being cut at the right edge; it is measured again whenever the page changes. */
(() => {
  if (window.grpoFitFormulas) return;
  window.grpoFitFormulas = true;
  const fit = () => {
    for (const formula of document.querySelectorAll(".katex-display > .katex")) {
      const box = formula.parentElement;
      formula.style.fontSize = "";
      for (let tries = 0; tries < 4 && box.scrollWidth > box.clientWidth + 1; tries++) {
        const px = parseFloat(getComputedStyle(formula).fontSize);
        const shrink = (box.clientWidth * 0.98) / box.scrollWidth;
        formula.style.fontSize = `${Math.floor(px * shrink * 10) / 10}px`;
      }
    }
  };
  let pending = 0;
  const later = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(fit); };
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
  addEventListener("resize", later);
  document.fonts.addEventListener("loadingdone", later);  // KaTeX's fonts change widths
  later();
})();
</script>
"""


def apply() -> None:
    """Add the app's CSS and the formula fitting to this run's page (they take no space)."""
    st.html(CSS)
    st.html(FIT_FORMULAS, unsafe_allow_javascript=True)
