"""Checks on an uploaded log made before its data is parsed or decoded.

A log is untrusted bytes, and the parsers (pyarrow's JSON, CSV and Parquet readers) are fast
C++ that some inputs hurt:

- JSON: pyarrow's reader recurses once per nesting level; it segfaults at about 30,000
  levels (a 60 KB line) and spends seconds at 5,000. ``json_nesting`` refuses JSON nested
  past ``MAX_JSON_DEPTH`` with a cheap scan of the bytes, naming the line.
- Parquet: a 1 KB file can promise gigabytes: one 10 MB string stored once in a dictionary
  page and pointed at by every row. ``parquet_metadata`` refuses too many rows, too large a
  promised size and a column chunk that unpacks more than ``MAX_COMPRESSION_RATIO`` times,
  all from the footer, before any page is read; ``dictionary_text`` then measures text
  columns read as dictionaries (entries once, plus one index a row) before they are
  decoded into one string a row, and names a cell that is not UTF-8.
- Text: ``without_bom`` reads Excel's byte-order marks (UTF-8, and UTF-16 re-encoded);
  ``unique_names`` refuses a header that names a column twice.

Each refusal is a ``Refused`` (a ValueError) in plain words. The upload worker
(workers/upload.py) is the second wall: a parse that crashes or balloons anyway dies in a
child process with a memory limit.
"""

from __future__ import annotations

import io

import numpy as np

MAX_JSON_DEPTH = 32
"""Deepest nesting of brackets read in a JSON log (TRL's conversational prompts use 3)."""
MAX_ROWS = 5_000_000
"""The most rows a Parquet log may promise."""
MAX_UNCOMPRESSED_BYTES = 1 * 2**30
"""The most a Parquet file may promise to decompress to (its row groups' total size)."""
MAX_COMPRESSION_RATIO = 200
"""Largest uncompressed / compressed size of a column chunk over ``RATIO_FLOOR_BYTES``
(a trainer's log compresses a few times; the dictionary bomb, 25,000 times)."""
RATIO_FLOOR_BYTES = 2**20
"""Column chunks that unpack to less than this are not held to the ratio."""
MAX_CELL_BYTES = 4 * 2**20
"""The longest text cell read: 4 MB (a 32k-token completion is about 130 KB)."""
MAX_TEXT_BYTES = 1 * 2**30
"""The most text the log's text columns may decode to, one string a row."""

_NOT_MARKS = bytes(b for b in set(range(256)) - set(b'"[]{}\n'))
"""Every byte but quotes, brackets and newlines: deleted before the scan."""
_STEP = np.zeros(256, np.int8)
_STEP[list(b"[{")], _STEP[list(b"]}")] = 1, -1
"""The change in depth each byte makes (outside strings)."""


class Refused(ValueError):
    """A file refused before parsing, in plain words naming the line, row or column."""


def json_nesting(data: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings in JSON text ``data``.

    A byte scan, not a parse: escapes are dropped, then only quotes, brackets and newlines
    are kept (C-speed ``bytes.replace`` and ``bytes.translate``), and the depth is a cumulative sum
    over the brackets outside strings. JSON has no raw newline inside a string, so every
    line must hold an even number of quotes (else Refused naming the line). Unbalanced
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
        raise Refused(
            f"Line {unclosed[0] + 1}: a text value opened with a quote is not closed on "
            "that line, so the line is not valid JSON."
        )
    outside = np.cumsum(quote, dtype=np.int64) % 2 == 0
    depth = np.cumsum(_STEP[marks] * outside, dtype=np.int32)
    depth -= np.minimum(np.minimum.accumulate(depth), 0)
    deepest = int(depth.max())
    if deepest > MAX_JSON_DEPTH:
        first = int(line[np.argmax(depth > MAX_JSON_DEPTH)])
        raise Refused(
            f"Line {first + 1}: the JSON is nested more than {MAX_JSON_DEPTH} levels deep "
            f"(brackets inside brackets), so it was not read. A trainer's log is a few levels "
            "deep; this file is malformed or hostile."
        )
    return deepest


BOMS = {b"\xef\xbb\xbf": "utf-8", b"\xff\xfe": "utf-16", b"\xfe\xff": "utf-16"}
"""Byte-order marks a spreadsheet writes first (Excel's "CSV UTF-8" and "Unicode text")."""


def without_bom(data):
    """``data`` without a leading byte-order mark, UTF-16 text re-encoded as UTF-8."""
    head = data.read(3)
    data.seek(0)
    for mark, encoding in BOMS.items():
        if head.startswith(mark):
            raw = data.read()
            try:
                return io.BytesIO(raw.decode(encoding).lstrip("\ufeff").encode("utf-8"))
            except UnicodeDecodeError as e:
                raise Refused(
                    f"The file starts with a {encoding.upper()} byte-order mark but byte "
                    f"{e.start + 1:,} is not {encoding.upper()} text."
                ) from None
    return data


def unique_names(columns) -> None:
    """Refused naming a column name the header holds twice."""
    names = [str(c) for c in columns]
    twice = next((c for i, c in enumerate(names) if c in names[:i]), None)
    if twice is not None:
        where = [i + 1 for i, c in enumerate(names) if c == twice]
        raise Refused(
            f"The header names column {twice!r} twice (columns {where[0]} and {where[1]}): "
            "rename one, so each column has its own name."
        )


def is_text(arrow_type) -> bool:
    """Whether a pyarrow type holds text or bytes (a dictionary of them, too)."""
    import pyarrow as pa

    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type

    return any(
        is_type(arrow_type)
        for is_type in (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary,
                        pa.types.is_large_binary)
    )  # fmt: skip


def parquet_metadata(meta) -> None:
    """Refused unless a Parquet footer (``pyarrow.parquet.FileMetaData``) promises at most
    MAX_ROWS rows, MAX_UNCOMPRESSED_BYTES in all, and no column chunk over
    RATIO_FLOOR_BYTES unpacking more than MAX_COMPRESSION_RATIO times. Reads no data."""
    chunks = [meta.row_group(i) for i in range(meta.num_row_groups)]
    promised = sum(group.total_byte_size for group in chunks)
    if meta.num_rows > MAX_ROWS or promised > MAX_UNCOMPRESSED_BYTES:
        raise Refused(
            f"This Parquet file promises {meta.num_rows:,} rows and {promised / 2**20:,.0f} MB "
            f"once decompressed; the limits are {MAX_ROWS:,} rows and "
            f"{MAX_UNCOMPRESSED_BYTES / 2**20:,.0f} MB. Nothing was read."
        )
    for g, group in enumerate(chunks):
        for c in range(group.num_columns):
            chunk = group.column(c)
            packed, unpacked = chunk.total_compressed_size, chunk.total_uncompressed_size
            if unpacked > RATIO_FLOOR_BYTES and unpacked > MAX_COMPRESSION_RATIO * packed:
                raise Refused(
                    f"Column {chunk.path_in_schema!r} (row group {g + 1}) unpacks from "
                    f"{packed:,} bytes to {unpacked / 2**20:,.1f} MB, {unpacked / packed:,.0f} "
                    f"times; a log compresses a few times at most ({MAX_COMPRESSION_RATIO} "
                    "is the limit). This looks like a decompression bomb. Nothing was read."
                )


def dictionary_text(table, columns):
    """``table`` (a pyarrow Table) with ``columns`` (read as dictionaries) decoded to text.

    Before decoding, Refused if a dictionary entry that a row uses is longer than
    MAX_CELL_BYTES, if the decoded text would exceed MAX_TEXT_BYTES, or if an entry is not
    UTF-8 (naming the first row and column). Sizes: entries' lengths taken at each row's
    index, summed, so a 10 MB entry × 50 rows counts 500 MB without being built.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    total = 0
    for name in columns:
        column = table.column(name)
        if not pa.types.is_dictionary(column.type):
            continue
        row = 0
        for chunk in column.chunks:
            lengths = pc.take(pc.binary_length(chunk.dictionary), chunk.indices)
            longest = pc.max(lengths).as_py() or 0
            if longest > MAX_CELL_BYTES:
                at = row + int(pc.index(lengths, longest).as_py())
                raise Refused(
                    f"Row {at + 1}, column {name!r}: one text cell is {longest / 2**20:,.1f} "
                    f"MB; the limit is {MAX_CELL_BYTES / 2**20:,.0f} MB a cell."
                )
            total += pc.sum(lengths).as_py() or 0
            _check_utf8(chunk, name, row)
            row += len(chunk)
        if total > MAX_TEXT_BYTES:
            raise Refused(
                f"Column {name!r}: the text columns would take {total / 2**20:,.0f} MB once "
                f"decoded; the limit is {MAX_TEXT_BYTES / 2**20:,.0f} MB. Nothing was decoded."
            )
        table = table.set_column(table.schema.get_field_index(name), name, column.cast(pa.string()))
    return table


def _check_utf8(chunk, name: str, row: int) -> None:
    """Refused naming the first row whose dictionary entry is bytes that are not UTF-8."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_binary(chunk.dictionary.type) and not pa.types.is_large_binary(
        chunk.dictionary.type
    ):
        return
    bad = [i for i, v in enumerate(chunk.dictionary.to_pylist()) if not _is_utf8(v)]
    if bad:
        at = row + int(pc.index(chunk.indices, bad[0]).as_py())
        raise Refused(
            f"Row {at + 1}, column {name!r}: the cell holds bytes that are not UTF-8 text "
            "(a binary column). Save the text as UTF-8 strings."
        )


def _is_utf8(value: bytes | None) -> bool:
    try:
        (value or b"").decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
