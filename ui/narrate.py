"""A "Listen" control: the browser's own speech synthesis reads a page's explanation aloud.

Nothing is fetched: the Web Speech API speaks with the voices the reader's system
has. Where the browser has none, the control says so instead of failing silently.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import streamlit as st

from ui.theme import TEXT

_MATH_BLOCK = re.compile(r"\$\$.*?\$\$", re.S)
_MATH_INLINE = re.compile(r"(?<!\\)\$(?!\s)([^$\n]{1,200}?)(?<!\s)\$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[*_`#>|]+")
MAX_SPOKEN_CHARS = 20_000
HEIGHT_PX = 66
"""The controls' row and the status line under it; the row fits a 390 px phone. (A sandboxed
player cannot be measured: ``height="content"`` falls back to 150 px.)"""
_PLAYER = (Path(__file__).parent / "narrate.html").read_text()  # buttons and the Web Speech API

# Words for the symbols an explanation uses, so "R_i - mean" is read sensibly.
_SAY = {
    r"\varepsilon": " epsilon ",
    r"\epsilon": " epsilon ",
    r"\sigma": " sigma ",
    r"\mu": " mu ",
    r"\bar R": " R bar ",
    r"\sqrt": " square root of ",
    r"\frac": " fraction ",
    r"\pm": " plus or minus ",
    r"\times": " times ",
    r"\le": " at most ",
    r"\ge": " at least ",
    "_": " sub ",
    "^": " to the ",
    "=": " equals ",
    "−": " minus ",
    "±": " plus or minus ",
}


def speakable(markdown: str) -> str:
    """Markdown with LaTeX as plain sentences a speech engine can read."""
    text = _MATH_BLOCK.sub(" (a formula, shown on screen) ", markdown)
    text = _MATH_INLINE.sub(lambda m: _say_math(m.group(1)), text)
    text = _LINK.sub(r"\1", text)
    text = _MARKUP.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text[:MAX_SPOKEN_CHARS]


def _say_math(tex: str) -> str:
    for symbol, words in _SAY.items():
        tex = tex.replace(symbol, words)
    tex = re.sub(r"[{}\\]", " ", tex)
    return re.sub(r"\s+", " ", tex).strip()


def listen(markdown: str) -> None:
    """Play, pause and speed controls that read ``markdown`` aloud in the browser."""
    text = json.dumps(speakable(markdown)).replace("</", "<\\/")
    theme = "dark" if st.context.theme.type == "dark" else "light"
    edge = {"dark": "#56B4E9", "light": "#0072B2"}[theme]
    colours = {"__INK__": TEXT[theme], "__EDGE__": edge}
    player = _PLAYER
    for placeholder, colour in colours.items():
        player = player.replace(placeholder, colour)
    alt = "Listen: read this page aloud"
    st.iframe(player.replace("__TEXT__", text), height=HEIGHT_PX, alt=alt)
