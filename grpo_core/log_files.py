"""A training log in several files: TRL's completions folder, uploaded as files or a .zip.

TRL 1.16 with ``log_completions=True`` writes one Parquet file per logging step,
``output_dir/completions/completions_<step>.parquet`` (``<step>`` zero-padded to 5 digits),
each holding that step's generation batch (trl/trainer/grpo_trainer.py, ``GRPOTrainer.log``).
``load_logs`` reads every file, checks they share their columns, puts them in step order and
reads them as one log. A file without a step column takes its step from its name's last
number. A .zip is opened here, within limits that refuse zip bombs and zips of thousands
of files before anything is decompressed.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import replace

import pandas as pd

from grpo_core import rollouts
from grpo_core.rollouts import ColumnMap, LoadedLog, LogError

MAX_FILES = 1_000
"""The most files one upload (or one zip) may hold: four years of daily logging steps."""
MAX_TOTAL_BYTES = rollouts.MAX_BYTES
"""The most bytes all files together may hold, once unzipped."""
STEP_IN_NAME = re.compile(r"(\d+)(?!.*\d)")
"""The last number in a file name: completions_00012.parquet is step 12."""
TABLES = (".parquet", ".csv", ".tsv", ".jsonl", ".json")


def step_from_name(name: str) -> int | None:
    """The step a file's name gives (its last number), or None."""
    found = STEP_IN_NAME.search(name.rsplit("/", 1)[-1])
    return int(found.group(1)) if found else None


def unzip(data: bytes) -> list[tuple[str, bytes]]:
    """(name, bytes) of each table in a zip, in name order; LogError for a zip bomb, a zip
    of more than MAX_FILES files, or one that unpacks past MAX_TOTAL_BYTES."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as e:
        raise LogError(f"This .zip file cannot be opened: {e}.") from None
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) > MAX_FILES:
        raise LogError(
            f"The .zip holds {len(members):,} files; at most {MAX_FILES:,} are read. "
            "Zip the completions folder of one run (one file per logging step)."
        )
    tables = [m for m in members if m.filename.lower().endswith(TABLES)]
    if not tables:
        raise LogError("The .zip holds no .parquet, .csv or .jsonl file.")
    promised = sum(m.file_size for m in tables)
    if promised > MAX_TOTAL_BYTES:
        raise LogError(_too_large(promised))
    out, total = [], 0
    for member in sorted(tables, key=lambda m: m.filename):
        try:
            with archive.open(member) as f:
                chunk = f.read(MAX_TOTAL_BYTES - total + 1)  # never more than the limit
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
            raise LogError(f"{member.filename} in the .zip is damaged ({e}).") from None
        total += len(chunk)
        if total > MAX_TOTAL_BYTES:
            raise LogError(_too_large(total))
        out.append((member.filename, chunk))
    return out


def expand(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The uploaded files with each .zip replaced by the tables it holds."""
    out = []
    for name, data in files:
        out.extend(unzip(data) if data[:4] == b"PK\x03\x04" else [(name, data)])
    if len(out) > MAX_FILES:
        raise LogError(f"{len(out):,} files were uploaded; at most {MAX_FILES:,} are read.")
    total = sum(len(d) for _, d in out)
    if total > MAX_TOTAL_BYTES:
        raise LogError(_too_large(total))
    return out


def load_logs(files: list[tuple[str, bytes]], mapping: ColumnMap | None = None) -> LoadedLog:
    """Several files (name, bytes) of one run read as one log (see the module)."""
    files = one_run(expand(files))
    if not files:
        raise LogError("No file was given: choose one or more log files, or a .zip of them.")
    tables, first = [], None
    for name, data in files:
        try:
            raw, fmt, columns, found = rollouts.read_table(io.BytesIO(data), mapping)
        except LogError as e:
            raise LogError(f"{name}: {e}" if len(files) > 1 else str(e)) from None
        if first is None:
            first = (name, fmt, columns, found)
        elif set(columns) != set(first[2]):
            raise LogError(different_columns(first[0], first[2], name, columns))
        if found.step is None and len(files) > 1:
            raw = raw.assign(step=_named_step(name))
        tables.append(raw)
    name, fmt, columns, found = first
    if found.step is None and len(files) > 1:
        found = _with_step(found)
        columns = [*columns, "step"]
    raw = pd.concat(tables, ignore_index=True)
    if found.step:
        raw = raw.iloc[_step_order(raw[found.step])].reset_index(drop=True)
    return rollouts.from_table(raw, fmt, columns, found)


def one_run(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """``files`` with a file given twice read once; two different files of one name refused.

    TRL names every run's files alike (completions_00001.parquet, ...), and an upload box
    keeps adding files: the folders of two runs arrive as pairs of namesakes. Read together
    they made one log of twice the groups (or a column mismatch "completions_00001.parquet
    adds ..., compared with completions_00001.parquet")."""
    seen: dict[str, bytes] = {}
    for name, data in files:
        if name in seen and seen[name] != data:
            raise LogError(
                f"Two different files are named {name}: these look like the files of two runs. "
                "Remove one run's files (the × beside each) and read one run at a time."
            )
        seen.setdefault(name, data)
    return list(seen.items())


def different_columns(first: str, first_columns, name: str, columns) -> str:
    """The message for two files of one upload whose columns differ."""
    missing = [c for c in first_columns if c not in set(columns)]
    added = [c for c in columns if c not in set(first_columns)]
    parts = []
    if missing:
        parts.append(f"lacks {rollouts.column_names(missing)}")
    if added:
        parts.append(f"adds {rollouts.column_names(added)}")
    return (
        f"The files do not have the same columns: {name} {' and '.join(parts)}, compared "
        f"with {first}. Upload the files of one run (one reward function set) together."
    )


def _named_step(name: str) -> int:
    step = step_from_name(name)
    if step is None:
        raise LogError(
            f"{name} has no step column and no step number in its name (TRL names its "
            "files completions_<step>.parquet)."
        )
    return step


def _with_step(mapping: ColumnMap) -> ColumnMap:
    return replace(mapping, step="step")


def _step_order(steps: pd.Series):
    """Row order putting the steps in increasing order, rows of a step kept in file order."""
    return steps.to_numpy().argsort(kind="stable")


def _too_large(size: int) -> str:
    return (
        f"The files unpack to {size / 2**20:,.0f} MB; the limit is "
        f"{MAX_TOTAL_BYTES / 2**20:,.0f} MB. Upload fewer steps of the log."
    )
