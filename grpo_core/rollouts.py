"""A training run's completions log read into one normalised table.

``load(file)`` reads CSV, JSON lines or Parquet (told apart by their content, not a file
name) and returns a DataFrame with the columns the rest of the app reads:

- ``step`` (int): the optimiser step; 0 throughout when the log has no step column.
- ``prompt`` (str): the prompt text (or the group id when the log has only that).
- ``reward`` (float): the reward the advantage was computed from; with several reward
  columns (TRL logs one per reward function) their sum, as TRL sums them with weights 1.
- ``reward.<name>`` (float): each reward column, when there are several.
- ``completion`` (str), ``group`` (str), ``advantage`` (float): when the log has them.

Row numbers in messages count data rows from 1 (a CSV's header line is not a row).
TRL logs one column per reward function plus ``step``, ``prompt``, ``completion`` and
``advantage`` (trl/trainer/grpo_trainer.py, the completions table); verl and OpenRLHF
rollout dumps have no fixed layout, so the columns are detected by name and can be
mapped by hand (``ColumnMap``). Nothing is ever evaluated: text stays text.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from grpo_core import log_guards
from grpo_core.column_roles import RewardFit, column_roles, fit_rewards_and_size, left_out_notes
from grpo_core.groups import MAX_ABS_REWARD
from grpo_core.inference import fit_log
from grpo_core.log_grouping import BY_TEXT, Grouping, assign_groups
from grpo_core.log_summary import group_codes, group_size_notes
from grpo_core.log_text import excerpt, suspicious_text

MAX_BYTES = 100 * 2**20
"""The largest file read: 100 MB."""
SNIFF_ROWS = 200
"""Rows read to detect the columns of a CSV file before reading it whole."""

NAMES = {
    "step": ("step", "global_step", "train_step", "iteration", "training_step"),
    "prompt": ("prompt", "prompts", "query", "question", "input", "problem"),
    "completion": ("completion", "completions", "response", "output", "generation"),
    "group": ("group", "uid", "group_id", "prompt_id", "prompt_uid", "index"),
    "advantage": ("advantage", "advantages", "adv"),
}
"""Column names recognised for each role, lower case, best first."""
REWARD_NAME = re.compile(r"reward|score|correct|accuracy", re.IGNORECASE)
"""A numeric column whose name matches this is a reward function's output."""
FORMATS = ("csv", "jsonl", "parquet")


class LogError(ValueError):
    """A log that cannot be read, with a message naming the row and column at fault."""


@dataclass(frozen=True)
class ColumnMap:
    """Which column of the file plays which role (None: the file has none)."""

    prompt: str | None
    rewards: tuple[str, ...]
    """One or more reward columns; several are summed (weights 1)."""
    step: str | None = None
    completion: str | None = None
    group: str | None = None
    advantage: str | None = None
    group_size: int | None = None
    """K of blocks of consecutive rows chosen by the user; None: inferred."""
    ignored: tuple[str, ...] = ()
    """Columns the user chose not to read."""
    chosen: bool = False
    """True when the user chose the reward columns: they are not searched for."""

    def columns(self) -> list[str]:
        """Every column the map reads, once each, in a stable order."""
        named = [self.step, self.prompt, *self.rewards, self.completion, self.group, self.advantage]
        return list(dict.fromkeys(c for c in named if c))


@dataclass(frozen=True, eq=False)
class LoadedLog:
    """What ``load_log`` read: the normalised table and how it was made."""

    frame: pd.DataFrame
    format: str
    """"csv", "jsonl" or "parquet"."""
    columns: tuple[str, ...]
    """Every column of the file, in file order."""
    mapping: ColumnMap
    warnings: tuple[str, ...] = field(default=())
    """Plain-words notes: uneven groups, text that looks like a formula or HTML."""
    grouping: Grouping = field(default=Grouping(BY_TEXT))
    """How the rows were grouped (a group column, K consecutive rows, prompt text)."""
    roles: dict = field(default_factory=dict)
    """Each file column's role (``column_roles.column_roles``)."""
    reward_fit: RewardFit | None = None
    """The reward-set search, when the log has an advantage column (``choose_rewards``)."""


def infer_convention(frame: pd.DataFrame) -> list[tuple[str, float]]:
    """Conventions best first, each with its largest |logged - recomputed advantage|.

    frame: ``load``'s table with an ``advantage`` column. Candidates are every convention
    of ``CONVENTIONS`` in float64 and float32, and GDPO with several reward columns
    (see ``grpo_core.inference``).
    """
    if "advantage" not in frame:
        raise ValueError("the log has no advantage column to compare with.")
    return fit_log(frame).ranking


def load(file) -> pd.DataFrame:
    """The log in ``file`` (a path or a binary file object) as a normalised DataFrame."""
    return load_log(file).frame


def load_log(file, mapping: ColumnMap | None = None) -> LoadedLog:
    """Read one file, detect its columns (or use ``mapping``), normalise and group them.

    Rows are grouped as trainers order them (``from_table``: a group column, else blocks
    of K consecutive rows within a step); ``log_files.load_logs`` reads several files the
    same way. Raises LogError (a ValueError) for a file over MAX_BYTES, an unknown format,
    a missing or non-numeric reward column; the message names the row and column.
    """
    return from_table(*read_table(file, mapping))


def from_table(raw: pd.DataFrame, fmt: str, columns, mapping: ColumnMap) -> LoadedLog:
    """A LoadedLog from a raw table already read (one file, or several concatenated).

    Rows are grouped (``log_grouping.assign_groups``, column ``group_no``); with an
    advantage column and no reward set chosen by hand, the reward columns (and K, when
    inferred) are the ones that reproduce the advantages (``column_roles``). Each column's
    role and the notes (grouping, uneven groups, HTML, numbers left out) come with it.
    """
    frame = normalise(raw, mapping)
    try:
        codes, grouping = assign_groups(frame, mapping.group_size)
    except ValueError as e:
        raise LogError(str(e)) from None
    numeric = [c for c in numeric_columns(raw) if c in columns]
    kept = {mapping.step, mapping.group, mapping.advantage, *mapping.ignored}
    candidates = [c for c in numeric if c not in kept]
    fit = None
    if mapping.advantage and candidates:
        values = {c: raw[c].to_numpy(dtype=np.float64, na_value=np.nan) for c in candidates}
        if mapping.chosen:
            values = {c: v for c, v in values.items() if c in mapping.rewards}
        codes, grouping, fit = fit_rewards_and_size(frame, values, codes, grouping, mapping)
        if fit.rewards != mapping.rewards and not mapping.chosen:
            mapping = replace(mapping, rewards=fit.rewards)
            frame = normalise(raw, mapping)
    frame["group_no"] = codes
    check_groups(frame)
    taken = {getattr(mapping, r): r for r in NAMES if getattr(mapping, r)}
    roles = column_roles(columns, numeric, mapping.rewards, mapping.ignored, taken)
    notes = list(grouping.notes) + group_size_notes(frame) + suspicious_text(frame)
    notes += left_out_notes(roles, fit)
    return LoadedLog(frame, fmt, tuple(columns), mapping, tuple(notes), grouping, roles, fit)


def read_table(file, mapping: ColumnMap | None = None):
    """(raw table, format, file columns, mapping) of one file, before normalising."""
    try:
        data = log_guards.without_bom(_open(file))
        fmt = detect_format(data.read(1024))
        data.seek(0)
        reader = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}[fmt]
        raw, columns, mapping = reader(data, mapping)
    except log_guards.Refused as e:
        raise LogError(str(e)) from None
    return raw, fmt, columns, mapping


def detect_format(head: bytes) -> str:
    """ "parquet" (magic bytes PAR1), "jsonl" (starts with { or [) or "csv" (other text).

    head: the file's first bytes (1 KB is plenty); NUL bytes mean a binary file.
    """
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"PK\x03\x04"):  # nothing is unpacked: a zip may be a bomb
        raise LogError(
            "This is a zip archive, which is not unpacked here. Upload the log files "
            "themselves (CSV, JSON lines or Parquet)."
        )
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if b"\x00" in head:
        raise LogError(
            "This file is not a CSV, JSON lines or Parquet table (it holds binary data)."
        )
    if text[:1] in (b"{", b"["):
        return "jsonl"
    return "csv"


def detect_columns(columns, numeric) -> ColumnMap:
    """The role of each column, from its name and whether it holds numbers.

    columns: the file's column names; numeric: those holding only numbers. The reward
    columns are the numeric ones named like a reward ("reward", "score", "accuracy",
    "correct", case-insensitive), or else every numeric column left over, or else the
    first column named like a reward even if it holds text (so its bad row is named).
    """
    columns, numeric = list(columns), set(numeric)
    roles: dict[str, str | None] = {}
    for role, names in NAMES.items():
        lower = {str(c).lower(): c for c in columns if c not in roles.values()}
        roles[role] = next((lower[n] for n in names if n in lower), None)
    taken = set(roles.values())
    named = [c for c in columns if c not in taken and REWARD_NAME.search(str(c))]
    rewards = [c for c in named if c in numeric]
    if not rewards:  # a reward column of text is still the reward: normalise names the bad row
        rewards = [c for c in columns if c in numeric and c not in taken] or named[:1]
    return ColumnMap(rewards=tuple(rewards), **roles)


def check_mapping(mapping: ColumnMap, columns) -> None:
    """LogError unless ``mapping`` names a reward column and a prompt (or group) column,
    all among ``columns`` (the file's column names)."""
    if not mapping.rewards:
        raise LogError(
            "No reward column: the file has no column of numbers named like a reward "
            f"(columns found: {column_names(columns)}). Choose the reward column by hand."
        )
    if mapping.prompt is None and mapping.group is None:
        raise LogError(
            "No prompt column: answers are grouped by their prompt (or a group id such as "
            f"verl's uid), and neither was found (columns found: {column_names(columns)})."
        )
    missing = [c for c in mapping.columns() if c not in set(columns)]
    if missing:
        raise LogError(f"Column {column_names(missing)} is not in the file.")


def normalise(raw: pd.DataFrame, mapping: ColumnMap) -> pd.DataFrame:
    """The columns of ``raw`` renamed to their roles, typed and checked (see the module)."""
    if len(raw) == 0:
        raise LogError("The file has a header but no rows.")
    check_mapping(mapping, raw.columns)
    out = {}
    out["step"] = _whole_numbers(raw[mapping.step], mapping.step) if mapping.step else 0
    key = mapping.prompt if mapping.prompt else mapping.group
    out["prompt"] = _text(raw[key])
    rewards = {name: _numbers(raw[name], name) for name in mapping.rewards}
    out["reward"] = sum(rewards.values()) if len(rewards) > 1 else rewards[mapping.rewards[0]]
    if len(rewards) > 1:
        out |= {f"reward.{name}": values for name, values in rewards.items()}
    if mapping.completion:
        out["completion"] = _text(raw[mapping.completion])
    if mapping.group:
        out["group"] = _text(raw[mapping.group])
    if mapping.advantage:
        out["advantage"] = _numbers(raw[mapping.advantage], mapping.advantage)
    frame = pd.DataFrame(out, index=pd.RangeIndex(len(raw)))
    frame["step"] = frame["step"].astype(np.int64)
    return frame


# --- readers: each returns (raw table, file columns, mapping) ------------------------------


def _open(file):
    """A seekable binary stream over ``file``, after checking its size."""
    if isinstance(file, str | os.PathLike):
        size = os.path.getsize(file)
        _check_size(size)
        with open(file, "rb") as f:
            return io.BytesIO(f.read())
    file.seek(0, io.SEEK_END)
    _check_size(file.tell())
    file.seek(0)
    return file


def check_groups(frame: pd.DataFrame) -> None:
    """LogError when no prompt has two answers: GRPO has nothing to compare."""
    sizes = np.bincount(group_codes(frame))
    if sizes.max() < 2:
        raise LogError(
            f"Every prompt has one answer (rows 1–{len(frame)}, column prompt): GRPO "
            "compares the answers to one prompt, so a group needs at least 2. If the log "
            "has a group id column, choose it as the group under Columns."
        )


def _check_size(size: int) -> None:
    if size > MAX_BYTES:
        raise LogError(
            f"The file is {size / 2**20:.0f} MB; the limit is {MAX_BYTES / 2**20:.0f} MB. "
            "Upload a few steps of the log (its rows are independent)."
        )
    if size == 0:
        raise LogError("The file is empty.")


def _read_csv(data, mapping):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    try:
        sample = pd.read_csv(data, nrows=SNIFF_ROWS, sep=None, engine="python")
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError, csv.Error) as e:
        # csv.Error: the sniffer finds no delimiter (binary or one-column text)
        raise LogError(f"This file is not a readable CSV table: {_first_line(e)}") from None
    if sample.empty:
        raise LogError("The file has a header but no rows.")
    data.seek(0)
    delimiter = _delimiter(data)
    data.seek(0)
    header = data.readline(65536).decode("utf-8", "replace").splitlines()[:1]  # a lone \r too
    log_guards.unique_names(next(csv.reader(header, delimiter=delimiter), []))
    columns = [str(c) for c in sample.columns]
    numeric = numeric_columns(sample)
    mapping = mapping or detect_columns(columns, numeric)
    check_mapping(mapping, columns)
    data.seek(0)
    wanted = _wanted(mapping, columns, numeric)
    text_types = {c: pa.string() for c in (mapping.prompt, mapping.completion, mapping.group) if c}
    try:
        table = pacsv.read_csv(
            data,
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(include_columns=wanted, column_types=text_types),
        )
    except (pa.ArrowInvalid, UnicodeDecodeError) as e:
        raise LogError(f"This CSV table cannot be read: {_first_line(e)}") from None
    return _to_pandas(table), columns, mapping


def _read_jsonl(data, mapping):
    import pyarrow as pa
    import pyarrow.json as pajson

    text = data.getvalue() if isinstance(data, io.BytesIO) else data.read()
    log_guards.json_nesting(text)  # before any parser: deep nesting crashes pyarrow's
    try:
        if text.lstrip(b" \t\r\n").startswith(b"["):
            raw = _json_array(text)
        else:
            raw = _to_pandas(pajson.read_json(io.BytesIO(text)))
    except LogError:
        raise
    except (pa.ArrowInvalid, ValueError, UnicodeDecodeError) as e:
        raise LogError(
            f"This JSON lines file cannot be read (one JSON object per line): {_first_line(e)}"
        ) from None
    raw.columns = [str(c) for c in raw.columns]
    numeric = numeric_columns(raw)
    mapping = mapping or detect_columns(raw.columns, numeric)
    return raw, list(raw.columns), mapping


def _json_array(text: bytes) -> pd.DataFrame:
    """A JSON document holding one array of row objects (already checked for nesting)."""
    rows = json.loads(text)
    if not isinstance(rows, list):
        raise LogError("This JSON file holds one value, not a list of rows.")
    bad = next((i for i, row in enumerate(rows) if not isinstance(row, dict)), None)
    if bad is not None:
        raise LogError(
            f"Row {bad + 1}: the JSON array holds {excerpt(json.dumps(rows[bad]))}, not an "
            'object with named fields such as {"prompt": …, "reward": …}.'
        )
    return pd.DataFrame.from_records(rows)


def _read_parquet(data, mapping):
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(data)
    except (pa.ArrowInvalid, OSError) as e:
        raise LogError(f"This Parquet file cannot be read: {_first_line(e)}") from None
    log_guards.parquet_metadata(parquet.metadata)
    schema = parquet.schema_arrow
    columns = list(schema.names)
    log_guards.unique_names(columns)
    number_types = (pa.types.is_integer, pa.types.is_floating, pa.types.is_boolean)
    numeric = [f.name for f in schema if any(is_type(f.type) for is_type in number_types)]
    mapping = mapping or detect_columns(columns, numeric)
    check_mapping(mapping, columns)
    wanted = _wanted(mapping, columns, numeric)
    text = [f.name for f in schema if f.name in wanted and log_guards.is_text(f.type)]
    try:
        data.seek(0)  # opened again so the text columns stay dictionaries: no row decoded
        table = pq.ParquetFile(data, read_dictionary=text).read(columns=wanted)
        table = log_guards.dictionary_text(table, text)  # sized before one string a row
    except (pa.ArrowInvalid, OSError) as e:
        raise LogError(f"This Parquet file cannot be read: {_first_line(e)}") from None
    return _to_pandas(table), columns, mapping


def _wanted(mapping: ColumnMap, columns, numeric) -> list[str]:
    """The columns to read: the mapping's, and every numeric one not ignored."""
    keep = set(mapping.columns()) | (set(numeric) - set(mapping.ignored))
    return [c for c in columns if c in keep]


def _to_pandas(table) -> pd.DataFrame:
    frame = table.to_pandas()
    frame.columns = [str(c) for c in frame.columns]
    return frame


def _delimiter(data) -> str:
    first = data.readline(65536).decode("utf-8", errors="replace")
    counts = {d: first.count(d) for d in (",", "\t", ";", "|")}
    return max(counts, key=counts.get)


def numeric_columns(frame: pd.DataFrame) -> list[str]:
    """The columns of ``frame`` holding numbers (or booleans)."""
    return [str(c) for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c].dtype)]


def _numbers(values: pd.Series, column: str) -> np.ndarray:
    """(N,) float64 of a column that must hold finite numbers within ±MAX_ABS_REWARD (the
    app's bound on a reward); LogError naming the row."""
    if pd.api.types.is_bool_dtype(values.dtype):
        values = values.astype(np.float64)
    if pd.api.types.is_numeric_dtype(values.dtype):
        x = values.to_numpy(dtype=np.float64, na_value=np.nan)
        bad = ~(np.abs(x) <= MAX_ABS_REWARD)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            what = (
                "not a finite number"
                if not np.isfinite(x[row])
                else (f"too large: values must lie within ±{MAX_ABS_REWARD:.0e}")
            )
            raise LogError(
                f"Row {row + 1}, column {column}: the value is {excerpt(values.iloc[row])}, {what}."
            )
        return x
    parsed = pd.to_numeric(values, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(parsed)
    row = int(np.flatnonzero(bad)[0]) if bad.any() else 0
    raise LogError(
        f"Row {row + 1}, column {column}: {excerpt(values.iloc[row])} is not a number. "
        f"Every value of a reward or advantage column must be a number."
    )


def _whole_numbers(values: pd.Series, column: str) -> np.ndarray:
    x = values
    if not pd.api.types.is_numeric_dtype(x.dtype):
        x = pd.to_numeric(values.astype(str), errors="coerce")
    x = x.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(x) | (x != np.round(x))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise LogError(
            f"Row {row + 1}, column {column}: {excerpt(values.iloc[row])} is not a whole "
            "step number."
        )
    return x.astype(np.int64)


def _text(values: pd.Series) -> pd.Series:
    return values.astype("string").fillna("").reset_index(drop=True)


def column_names(columns) -> str:
    """'a', 'b', … : up to 12 column names quoted, for a message."""
    names = [str(c) for c in columns]
    return ", ".join(repr(n) for n in names[:12]) + (" …" if len(names) > 12 else "")


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
