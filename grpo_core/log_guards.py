"""Checks on an uploaded log made before any parser reads it.

A log is untrusted bytes. The parsers (pyarrow's JSON, CSV and Parquet readers) are fast C++,
and some inputs hurt them: pyarrow's JSON reader recurses once per nesting level and
segfaults at about 30,000 levels (a 60 KB line), and spends seconds at 5,000. These checks
are cheap scans of the bytes that refuse such files with a message naming the line.
(The upload worker, workers/upload.py, is the second wall: a parse that crashes anyway
dies in a child process.)
"""

from __future__ import annotations

import numpy as np

MAX_JSON_DEPTH = 32
"""Deepest nesting of brackets read in a JSON log (TRL's conversational prompts use 3)."""

_NOT_MARKS = bytes(b for b in set(range(256)) - set(b'"[]{}\n'))
"""Every byte but quotes, brackets and newlines: deleted before the scan."""
_STEP = np.zeros(256, np.int8)
_STEP[list(b"[{")], _STEP[list(b"]}")] = 1, -1
"""The change in depth each byte makes (outside strings)."""


class NestingError(ValueError):
    """JSON nested deeper than the bound, or with a string left open; names the line."""


def json_nesting(data: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings in JSON text ``data``.

    A byte scan, not a parse: escapes are dropped, then only quotes, brackets and newlines
    are kept (C-speed ``bytes.replace`` and ``bytes.translate``), and the depth is a cumulative sum
    over the brackets outside strings. JSON has no raw newline inside a string, so every
    line must hold an even number of quotes (else NestingError naming the line). Unbalanced
    brackets count from the lowest depth reached so far, so a file of many unclosed lines
    counts as deep, too.
    """
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # \\ first: \\" ends a string
    marks = np.frombuffer(unescaped.translate(None, _NOT_MARKS), np.uint8)
    if marks.size == 0:
        return 0
    line = np.cumsum(marks == ord("\n"), dtype=np.int64)
    quote = marks == ord('"')
    unclosed = np.flatnonzero(np.bincount(line[quote], minlength=int(line[-1]) + 1) % 2)
    if unclosed.size:
        raise NestingError(
            f"Line {unclosed[0] + 1}: a text value opened with a quote is not closed on "
            "that line, so the line is not valid JSON."
        )
    outside = np.cumsum(quote, dtype=np.int64) % 2 == 0
    depth = np.cumsum(_STEP[marks] * outside, dtype=np.int32)
    depth -= np.minimum(np.minimum.accumulate(depth), 0)
    deepest = int(depth.max())
    if deepest > MAX_JSON_DEPTH:
        first = int(line[np.argmax(depth > MAX_JSON_DEPTH)])
        raise NestingError(
            f"Line {first + 1}: the JSON is nested more than {MAX_JSON_DEPTH} levels deep "
            f"(brackets inside brackets), so it was not read. A trainer's log is a few levels "
            "deep; this file is malformed or hostile."
        )
    return deepest
