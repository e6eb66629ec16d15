"""Checks on untrusted TOML text before ``tomllib`` reads it.

``tomllib`` (Python 3.11) parses arrays and inline tables recursively, so 500 nested
``[`` raise RecursionError instead of TOMLDecodeError; and it checks every prefix of a
dotted key against the keys already defined, so one key of n dotted parts costs O(n²):
``a.a.a...`` of 40,000 parts, an 80 KB paste, held the server for 36 s of CPU.
``nesting_problem`` finds both with one linear scan of the text outside strings and
comments, naming the line.
"""

from __future__ import annotations

MAX_TOML_DEPTH = 16
"""Brackets and braces open at once; a question set needs 2 (``[[question.options]]``)."""
MAX_KEY_DOTS = 16
"""Dots outside strings and comments on one line: a dotted key's parts less one (and any
decimal points); a question set needs 1."""
_QUOTES = ('"""', "'''", '"', "'")


def nesting_problem(text: str) -> str | None:
    """The first place ``text`` nests deeper than ``MAX_TOML_DEPTH`` or has a line of more
    than ``MAX_KEY_DOTS`` dots outside strings, as "Line N: ..."; None when it has neither.
    Linear in the length of ``text``; reads strings as TOML does (basic strings with
    backslash escapes, literal strings without, both also triple-quoted over lines)."""
    line, depth, dots, i, n = 1, 0, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line, dots = line + 1, 0
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "\"'":
            quote = next(q for q in _QUOTES if text.startswith(q, i))
            end = _string_end(text, i + len(quote), quote)
            line += text.count("\n", i, end)
            i = end
            continue
        elif c in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return (
                    f"Line {line}: brackets are nested more than {MAX_TOML_DEPTH} deep; "
                    "a question set needs 2."
                )
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c == ".":
            dots += 1
            if dots > MAX_KEY_DOTS:
                return (
                    f"Line {line}: a key of more than {MAX_KEY_DOTS + 1} dotted parts; "
                    "a question set needs at most 2."
                )
        i += 1
    return None


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just past the string opened by ``quote`` (its body starts at ``start``);
    the end of ``text`` or, for a one-line string, of its line when it is not closed."""
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and quote[0] == '"':
            i += 2
            continue
        if c == "\n" and len(quote) == 1:
            return i
        if text.startswith(quote, i):
            return i + len(quote)
        i += 1
    return n
