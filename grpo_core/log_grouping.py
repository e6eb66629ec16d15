"""Which rows of a training log form one group (one prompt's K answers at one step).

TRL writes no group column: its RepeatSampler puts each prompt's K answers on K
consecutive rows, and a dataset may hold the same prompt text twice in one step
(trl/trainer/grpo_trainer.py, ``RepeatSampler``; TRL 1.16.0). So a group is found by
position, not by text:

- a group column (verl's ``uid``): rows sharing (step, group id);
- else blocks of K consecutive rows within each step, K inferred as the greatest common
  divisor of the runs of equal prompt text (a prompt repeated in two adjacent groups makes
  a run of 2K, not a run of K + 1), or given by the user. The prompt text is then only a
  consistency check: a block holding two prompt texts is reported;
- else, when the rows of one prompt are not consecutive (no K >= 2 divides the runs),
  rows sharing (step, prompt text).

Rows of one step need not be contiguous in the file: they are read in step order, each
step's rows in file order.

``assign_groups`` writes the result as a ``group_no`` column (int, numbered in order of
first appearance), which ``log_summary.group_codes`` reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from grpo_core.format import plural

BY_COLUMN, BY_POSITION, BY_TEXT = "group column", "consecutive rows", "prompt text"


@dataclass(frozen=True)
class Grouping:
    """How the rows were grouped: ``how`` (one of the three above), K for blocks, notes."""

    how: str
    size: int | None = None
    """K of the consecutive blocks (None unless ``how`` is BY_POSITION)."""
    inferred: bool = True
    """False when the user chose K."""
    notes: tuple[str, ...] = field(default=())
    reproduces: bool | None = None
    """Whether blocks of K reproduce the logged advantages (None: not checked)."""


def step_starts(steps: np.ndarray) -> np.ndarray:
    """(S + 1,) row where each run of equal step values starts, and N at the end."""
    change = np.flatnonzero(steps[1:] != steps[:-1]) + 1
    return np.concatenate(([0], change, [len(steps)]))


def prompt_runs(steps: np.ndarray, prompts: pd.Series) -> np.ndarray:
    """(R,) lengths of the runs of rows with equal (step, prompt text)."""
    codes, _ = pd.factorize(prompts)
    change = (codes[1:] != codes[:-1]) | (steps[1:] != steps[:-1])
    starts = np.concatenate(([0], np.flatnonzero(change) + 1, [len(codes)]))
    return np.diff(starts)


def consecutive_size(steps: np.ndarray, prompts: pd.Series) -> int | None:
    """K when every step's rows split into runs of one prompt text whose lengths share a
    divisor K >= 2 that also divides every step's row count; else None."""
    runs = prompt_runs(steps, prompts)
    k = int(np.gcd.reduce(runs)) if runs.size else 0
    per_step = np.diff(step_starts(steps))
    if k < 2 or any(n % k for n in per_step):
        return None
    return k


def size_candidates(k: int, rows: int | None = None) -> list[int]:
    """The divisors of ``rows`` (default K) from 2 to K, largest first (K itself when it
    divides, then K/2, ...)."""
    rows = k if rows is None else rows
    return [d for d in range(k, 1, -1) if rows % d == 0]


def block_codes(steps: np.ndarray, k: int) -> np.ndarray:
    """(N,) group number of each row: blocks of k consecutive rows, restarting each step
    (a step's last block may be short when its rows are not a multiple of k)."""
    bounds = step_starts(steps)
    counts = np.diff(bounds)
    step_of_row = np.repeat(np.arange(counts.size), counts)
    position = np.arange(len(steps)) - bounds[:-1][step_of_row]
    offsets = np.concatenate(([0], np.cumsum(-(-counts // k))[:-1]))
    return offsets[step_of_row] + position // k


def mixed_blocks(codes: np.ndarray, prompts: pd.Series) -> np.ndarray:
    """(B,) the groups whose rows hold more than one prompt text."""
    text, _ = pd.factorize(prompts)
    first = np.concatenate(([True], codes[1:] != codes[:-1]))
    start_text = text[np.flatnonzero(first)][np.cumsum(first) - 1]
    return np.unique(codes[text != start_text])


def text_codes(steps: np.ndarray, keys: pd.Series) -> np.ndarray:
    """(N,) group number of each row from (step, key), in order of first appearance."""
    step_codes, _ = pd.factorize(steps)
    key_codes, distinct = pd.factorize(keys)
    codes, _ = pd.factorize(step_codes.astype(np.int64) * max(len(distinct), 1) + key_codes)
    return codes.astype(np.int64)


def sorted_by_step(steps: np.ndarray) -> bool:
    """True when the rows of each step are contiguous (each step value is one run)."""
    return len(step_starts(steps)) - 1 == len(np.unique(steps))


def assign_groups(frame: pd.DataFrame, size: int | None = None) -> tuple[np.ndarray, Grouping]:
    """(N,) group number of each row of ``load``'s table, and how they were found.

    size: K chosen by the user (blocks of K consecutive rows), or None to infer it.
    """
    steps = frame["step"].to_numpy()
    if "group" in frame:
        return text_codes(steps, frame["group"]), Grouping(BY_COLUMN)
    prompts = frame["prompt"]
    if size is not None:
        return positional_groups(steps, prompts, int(size), inferred=False)
    if sorted_by_step(steps):
        k = consecutive_size(steps, prompts)
    else:  # each step's rows in file order
        order = np.argsort(steps, kind="stable")
        k = consecutive_size(steps[order], prompts.iloc[order])
    if k is None:
        return text_codes(steps, prompts), Grouping(BY_TEXT)
    return positional_groups(steps, prompts, k, inferred=True)


def positional_groups(
    steps, prompts, k: int, *, inferred: bool = True
) -> tuple[np.ndarray, Grouping]:
    """(N,) group of each row: blocks of k consecutive rows of each step (a step's rows in
    file order), and the Grouping, with a note when a block holds two prompt texts.

    steps: (N,) int; prompts: (N,) text; inferred: False when the user chose k.
    ValueError for k < 1."""
    if k < 1:
        raise ValueError("K, the answers per group, must be at least 1.")
    if sorted_by_step(steps):
        codes = block_codes(steps, k)
        mixed = mixed_blocks(codes, prompts)
    else:
        order = np.argsort(steps, kind="stable")
        codes = np.empty(len(steps), dtype=np.int64)
        codes[order] = block_codes(steps[order], k)
        mixed = mixed_blocks(codes[order], prompts.iloc[order])
    notes = []
    if mixed.size:
        row = int(np.flatnonzero(codes == mixed[0])[0]) + 1
        notes.append(
            f"{mixed.size} of {plural(int(codes.max()) + 1, 'block')} of {k} rows "
            f"{'holds' if mixed.size == 1 else 'hold'} more than one prompt text (the first "
            f"starts at row {row}): K may be wrong, or the rows of a "
            "group are not consecutive."
        )
    return codes, Grouping(BY_POSITION, k, inferred, tuple(notes))
