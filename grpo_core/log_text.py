"""Text cells of an uploaded log: which look like HTML, and how a message quotes them.

A log's prompts and completions are shown as plain text and never run. A note still names
a cell holding an HTML tag that would run, load or draw something (``HTML``), so a user
knows what the file holds. Reasoning tags (``<think>``, ``<answer>``) are not HTML, and a
leading "=" or "+" matters only in a CSV: every CSV the app writes goes through
``grpo_core.csv_safe``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

HTML = re.compile(
    r"<\s*/?\s*(script|img|iframe|frame|svg|math|style|link|meta|base|object|embed|form|input"
    r"|button|a|video|audio|source|body|html|details|marquee|textarea|select)\b[^>]*>",
    re.IGNORECASE,
)
"""An HTML tag that would run, load or draw something."""


def excerpt(value, width: int = 40) -> str:
    """``value`` as quoted text for a message, cut to ``width`` characters with an ellipsis."""
    text = str(value)
    return repr(text if len(text) <= width else text[: width - 1] + "…")


def suspicious_text(frame: pd.DataFrame, *, limit: int = 3) -> list[str]:
    """Notes on text cells that hold an HTML tag (see HTML), by row and column.

    frame: ``rollouts.load``'s table (columns prompt, completion, group when present).
    At most ``limit`` cells a column are named.
    """
    notes = []
    for column in ("prompt", "completion", "group"):
        if column not in frame:
            continue
        codes, distinct = pd.factorize(frame[column])  # a prompt repeats K times: test it once
        odd = np.array([bool(HTML.search(str(t))) for t in distinct], dtype=bool)
        hits = np.flatnonzero(odd[codes]) if odd.any() else []
        for row in hits[:limit]:
            notes.append(
                f"Row {row + 1}, column {column}: the text looks like HTML "
                f"({excerpt(frame[column].iloc[row])}). It is shown as plain text and "
                "never run."
            )
    return notes
