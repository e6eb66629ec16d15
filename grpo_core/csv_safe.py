"""The formula guard: every CSV the app writes goes through here.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some,
a tab or carriage return) as a formula: ``=HYPERLINK("http://x")`` in a student's nickname
or a log's prompt becomes a live link in the lecturer's spreadsheet (OWASP, "CSV
Injection"). ``csv_cell`` puts an apostrophe before such text, which a spreadsheet shows as
text and hides; numbers are written as numbers, never guarded.
"""

from __future__ import annotations

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """``text`` with a leading apostrophe when a spreadsheet would read it as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def frame_csv(frame: pd.DataFrame) -> bytes:
    """``frame`` as UTF-8 CSV bytes (no index), every text cell through ``csv_cell``."""
    guarded = frame.copy()
    for column in guarded.columns:
        values = guarded[column]
        if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
            guarded[column] = values.map(lambda v: csv_cell(v) if isinstance(v, str) else v)
    guarded.columns = [csv_cell(str(c)) for c in guarded.columns]
    return guarded.to_csv(index=False).encode("utf-8")
