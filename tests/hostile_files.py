"""Generators of the hostile training logs the red team uploaded (issue 24, issue 26).

Each generator returns the file's bytes, so the suites commit code, not files. Shared by
tests/core/test_rollouts_hostile.py (the loader and its worker) and
tests/e2e/test_hostile_files.py (a real server in Chromium).
"""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pandas as pd


def deep_json_line(depth: int = 30_000) -> bytes:
    """JSON lines, one row whose reward is nested ``depth`` arrays deep.

    At 30,000 (60 KB) pyarrow's JSON reader segfaulted the server; at 5,000 it spent ~9 s.
    """
    return b'{"prompt": "q", "reward": ' + b"[" * depth + b"]" * depth + b"}\n"


def parquet_dictionary_bomb(rows: int = 50, width: int = 10 * 2**20) -> bytes:
    """Parquet: one dictionary-encoded ``width``-byte string repeated ``rows`` times.

    About 1 KB on disk (the string is compressed once, every row points at it); reading it
    materialises rows x width bytes (500 MB for the defaults).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "prompt": _one_entry_dictionary("x" * width, rows),
            "reward": pa.array(np.arange(rows) % 2, type=pa.float64()),
        }
    )
    out = io.BytesIO()
    pq.write_table(table, out, compression="zstd", use_dictionary=True)
    return out.getvalue()


def csv(text: str, *, bom: bool = False) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode()


def one_answer_per_prompt() -> bytes:
    return csv("prompt,reward\na,1\nb,0\nc,1\n")


def huge_reward() -> bytes:
    return csv("prompt,reward\na,1e101\na,0\nb,1\nb,0\n")


def repeated_header() -> bytes:
    return csv("prompt,reward,reward\na,1,0\na,0,1\n")


def excel_bom() -> bytes:
    return csv("prompt,reward\r\na,1\r\na,0\r\nb,1\r\nb,0\r\n", bom=True)


def json_array_of_objects_and_numbers() -> bytes:
    return b'[{"prompt": "a", "reward": 1}, 3, {"prompt": "a", "reward": 0}]'


def parquet_binary_prompt() -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "prompt": pa.array([b"\xff\xfe\x00bad", b"\xc3\x28", b"ok", b"ok"], type=pa.binary()),
            "reward": pa.array([1.0, 0.0, 1.0, 0.0]),
        }
    )
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


def nested_600() -> bytes:
    return deep_json_line(600)


def zip_bomb(size: int = 2**30) -> bytes:
    """A zip holding one ``size``-byte file of zeros (about 1 MB compressed for 1 GB)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z,
        z.open("completions_1.csv", "w", force_zip64=True) as f,
    ):
        f.write(b"prompt,reward\n")
        chunk = b"0" * 2**20
        for _ in range(size // len(chunk)):
            f.write(chunk)
    return out.getvalue()


def zip_of_many(files: int = 10_000) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(files):
            z.writestr(f"completions/completions_{i}.csv", "prompt,reward\na,1\na,0\n")
    return out.getvalue()


def frame_csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def parquet_incompressible_dictionary(rows: int = 300, width: int = 10 * 2**20) -> bytes:
    """Parquet: one random ``width``-byte string in a dictionary, pointed at by ``rows`` rows.

    Random text does not compress, so the footer's sizes look honest (about ``width``
    bytes for ``width`` bytes): only the decoded size, rows x width, gives it away.
    """
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    text = os.urandom(width // 2).hex()
    table = pa.table(
        {
            "prompt": _one_entry_dictionary(text, rows),
            "reward": pa.array(np.arange(rows) % 2, type=pa.float64()),
        }
    )
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


def utf16_excel() -> bytes:
    """Excel's "Unicode text": UTF-16 with a byte-order mark, tab-separated."""
    return "prompt\treward\na\t1\na\t0\nb\t1\nb\t0\n".encode("utf-16")


HOSTILE = {
    "deep.jsonl": deep_json_line,
    "nested_600.jsonl": nested_600,
    "bomb.parquet": parquet_dictionary_bomb,
    "one_answer.csv": one_answer_per_prompt,
    "huge_reward.csv": huge_reward,
    "repeated_header.csv": repeated_header,
    "mixed_array.json": json_array_of_objects_and_numbers,
    "binary_prompt.parquet": parquet_binary_prompt,
}
"""Every file the red team uploaded: its name and generator."""


def _one_entry_dictionary(text: str, rows: int):
    """A dictionary array of ``rows`` rows all pointing at ``text`` (built once, not rows times)."""
    import pyarrow as pa

    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(rows, np.int32)), pa.array([text]))
