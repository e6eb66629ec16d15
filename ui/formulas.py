"""Display formulas that fit the screen: a long one may come with a narrow form for phones.

Both forms are on the page; the CSS in ``ui.style`` shows the narrow one on a screen at
most 640 px wide (where Streamlit stacks columns) and the wide one elsewhere. (Any formula
still too wide for its column is set smaller until it fits, by ``style.FIT_FORMULAS``.)
"""

import zlib

import streamlit as st


def show(latex: str, *, narrow: str | None = None, container=None) -> None:
    """``latex`` as a display formula, or ``narrow`` instead of it on a phone."""
    where = container or st
    if narrow is None or narrow == latex:
        where.latex(latex)
        return
    key = zlib.crc32(latex.encode())
    where.container(key=f"formula-wide-{key}").latex(latex)
    where.container(key=f"formula-narrow-{key}").latex(narrow)
