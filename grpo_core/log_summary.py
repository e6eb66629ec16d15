"""What a training log says about signal: per group, per step, and its worst groups.

Input is ``grpo_core.rollouts.load``'s table (columns ``step``, ``prompt``, ``reward``).
A group is one prompt's K answers at one step (``group_codes``). Everything is
vectorised over groups (bincount, reduceat), so a million rows take well under a second.

- zero spread: every reward of the group is equal: every advantage is 0, no signal.
- near tie: the rewards differ by at most ``NEAR_TIE_GAP`` × max(1, |mean|): the
  spread is rounding-sized, so eps, not the rewards, sets the advantages' size.
- effective batch: the answers of groups that carry signal (not zero spread), the
  answers DAPO's dynamic sampling keeps (arXiv 2503.14476).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core.advantages import group_advantages
from grpo_core.binary import std_weight
from grpo_core.format import plural
from grpo_core.log_grouping import text_codes

NEAR_TIE_GAP = 1e-3
"""Largest reward range, relative to max(1, |mean|), for a group to count as a near tie."""


def group_codes(frame: pd.DataFrame) -> np.ndarray:
    """(N,) int: the group of each row, numbered 0.. in order of first appearance.

    A group is one prompt's answers at one step: the ``group_no`` column when the loader
    grouped the rows (``log_grouping.assign_groups``: a group column, blocks of K
    consecutive rows, or the prompt text), else rows sharing (step, group id) or
    (step, prompt).
    """
    if "group_no" in frame:
        codes = frame["group_no"].to_numpy()
        if in_first_appearance_order(codes):
            return codes
        return pd.factorize(codes)[0]
    key = frame["group"] if "group" in frame else frame["prompt"]
    return text_codes(frame["step"].to_numpy(), key)


def in_first_appearance_order(codes: np.ndarray) -> bool:
    """True when ``codes`` (N,) int are numbered 0, 1, ... in order of first appearance
    and each group's rows are contiguous (blocks of consecutive rows are): no hashing."""
    steps = np.diff(codes)
    return bool(codes.size and codes[0] == 0 and ((steps == 0) | (steps == 1)).all())


def group_size_notes(frame: pd.DataFrame) -> list[str]:
    """A note when groups have different sizes, naming the first odd group and its rows."""
    codes = group_codes(frame)
    sizes = np.bincount(codes)
    common = int(np.bincount(sizes).argmax())
    odd = np.flatnonzero(sizes != common)
    if odd.size == 0:
        return []
    rows = np.flatnonzero(codes == odd[0]) + 1
    first = frame.iloc[rows[0] - 1]
    return [
        f"Mixed group sizes: {odd.size} of {plural(sizes.size, 'group')} "
        f"{'does' if odd.size == 1 else 'do'} not have {plural(common, 'answer')}. "
        f"The first, at step {first['step']} (rows {_row_span(rows)}), has {sizes[odd[0]]}. "
        "Each group is normalised on its own; check that the log is not cut mid-group."
    ]


def _row_span(rows: np.ndarray) -> str:
    return f"{rows[0]}–{rows[-1]}" if rows.size > 1 else str(rows[0])


@dataclass(frozen=True, eq=False)
class LogGroups:
    """The log's rows sorted so each group is contiguous, and per-group statistics.

    Per-row arrays have shape (N,) in sorted order (``order`` maps back: row
    ``order[i]`` of the log is position i); per-group arrays have shape (G,).
    """

    order: np.ndarray
    """(N,) log row of each sorted position."""
    codes: np.ndarray
    """(N,) group of each sorted position, non-decreasing."""
    starts: np.ndarray
    """(G,) first sorted position of each group."""
    sizes: np.ndarray
    """(G,) answers per group, K."""
    rewards: np.ndarray
    """(N,) rewards in sorted order."""
    table: pd.DataFrame
    """One row per group: step, prompt, first_row, size, mean, std (ddof 1), low, high,
    zero_spread, near_tie."""

    @property
    def uniform_size(self) -> int | None:
        """K when every group has K answers, else None."""
        uniform = self.sizes.size and np.all(self.sizes == self.sizes[0])
        return int(self.sizes[0]) if uniform else None

    def rewards_of(self, g: int) -> np.ndarray:
        """(K,) the rewards of group ``g``, in log order."""
        return self.rewards[self.starts[g] : self.starts[g] + self.sizes[g]]


def log_groups(frame: pd.DataFrame) -> LogGroups:
    """Group the log's rows (see LogGroups)."""
    codes = group_codes(frame)
    if np.all(codes[1:] >= codes[:-1]):  # already grouped (blocks of K rows): no sort
        order = np.arange(len(codes))
    else:
        order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    sizes = np.bincount(sorted_codes)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    rewards = frame["reward"].to_numpy(dtype=np.float64)[order]
    total = np.add.reduceat(rewards, starts)
    mean = total / sizes
    centred = rewards - mean[sorted_codes]
    sum_squares = np.add.reduceat(centred * centred, starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.where(sizes > 1, np.sqrt(sum_squares / np.maximum(sizes - 1, 1)), 0.0)
    low = np.minimum.reduceat(rewards, starts)
    high = np.maximum.reduceat(rewards, starts)
    zero_spread = (high == low) & (sizes > 1)
    std[zero_spread] = 0.0  # not the rounding of R - mean(R) (about 1e-16 for 1.1)
    near_tie = ~zero_spread & (high - low <= NEAR_TIE_GAP * np.maximum(1.0, np.abs(mean)))
    first_row = order[starts]
    table = pd.DataFrame(
        {
            "step": frame["step"].to_numpy()[first_row],
            "prompt": frame["prompt"].take(first_row).to_numpy(),  # G strings, not N
            "first_row": first_row + 1,
            "size": sizes,
            "mean": mean,
            "std": std,
            "low": low,
            "high": high,
            "zero_spread": zero_spread,
            "near_tie": near_tie & (sizes > 1),
        }
    )
    return LogGroups(order, sorted_codes, starts, sizes, rewards, table)


def step_summary(grouped: LogGroups) -> pd.DataFrame:
    """One row per step: groups, K (smallest and largest), the fraction of zero-spread
    and near-tie groups, the effective batch (answers in groups with signal, and that
    as a fraction), the mean and std (ddof 1) of every reward at the step."""
    t = grouped.table
    answers = t["size"].to_numpy()
    signal = np.where(t["zero_spread"], 0, answers)
    by_step = t.assign(
        signal=signal,
        reward_sum=t["mean"] * answers,
        square_sum=(t["std"] ** 2) * (answers - 1) + answers * t["mean"] ** 2,
    ).groupby("step", sort=True)
    out = by_step.agg(
        groups=("size", "size"),
        k_min=("size", "min"),
        k_max=("size", "max"),
        zero_spread=("zero_spread", "mean"),
        near_tie=("near_tie", "mean"),
        answers=("size", "sum"),
        effective_batch=("signal", "sum"),
        reward_sum=("reward_sum", "sum"),
        square_sum=("square_sum", "sum"),
    )
    n = out["answers"].to_numpy(dtype=np.float64)
    out["effective_fraction"] = out["effective_batch"] / n
    out["reward_mean"] = out["reward_sum"] / n
    variance = (out["square_sum"] - n * out["reward_mean"] ** 2) / np.maximum(n - 1, 1)
    out["reward_std"] = np.sqrt(np.maximum(variance, 0.0))
    return out.drop(columns=["reward_sum", "square_sum"]).reset_index()


def log_totals(grouped: LogGroups) -> dict[str, float]:
    """Whole-log figures: steps, groups, answers, fractions of zero-spread and near-tie
    groups, the fraction of answers in groups with signal, and how many prompts DAPO's
    dynamic sampling draws per prompt kept (1 / (1 - zero-spread fraction))."""
    t = grouped.table
    answers = float(t["size"].sum())
    return {
        "steps": int(t["step"].nunique()),
        "groups": len(t),
        "answers": int(answers),
        "zero_spread": float(t["zero_spread"].mean()),
        "near_tie": float(t["near_tie"].mean()),
        "effective_fraction": float(t.loc[~t["zero_spread"], "size"].sum() / answers),
        "dapo_sampling_factor": 1.0 / max(1.0 - float(t["zero_spread"].mean()), 1e-12),
    }


def worst_groups(grouped: LogGroups, count: int = 10) -> pd.DataFrame:
    """The ``count`` groups most likely to mislead the update, worst first.

    Near ties first (the smallest spread first: eps decides their advantages, and
    rounding noise is amplified), then zero-spread groups (no signal, but a KL term
    still pulls on them when beta > 0). Columns of ``LogGroups.table`` plus ``problem``
    and ``group`` (the group's index for ``LogGroups.rewards_of``).
    """
    t = grouped.table.assign(group=np.arange(len(grouped.table)))
    flagged = t[t["near_tie"] | t["zero_spread"]]
    rank = flagged.assign(_order=np.where(flagged["near_tie"], 0, 1))
    rank = rank.sort_values(["_order", "std", "first_row"], kind="stable").head(count)
    problem = np.where(rank["near_tie"], "near tie", "zero spread")
    return rank.drop(columns="_order").assign(problem=problem)


def method_effects(grouped: LogGroups) -> pd.DataFrame:
    """One row per group of 2 or more answers: what the app's other lessons do to it.

    Columns: ``mean`` (the pass rate for 0/1 rewards), ``grpo_push`` and ``dr_grpo_push``
    (the mean |advantage| under conventions "trl" and "dr-grpo": the size of the group's
    update), ``kept_by_dapo`` (not zero spread: dynamic sampling keeps it), and, when every
    reward is 0 or 1, ``difficulty_weight`` = 1 / std(p) (``binary.std_weight``, ddof 1):
    the factor the std division gives a group of pass rate p.
    """
    keep = grouped.sizes > 1
    rows = keep[grouped.codes]
    codes = grouped.codes[rows]
    rewards = grouped.rewards[rows]
    sizes = grouped.sizes[keep]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    push = {}
    for name in ("trl", "dr-grpo"):
        a = group_advantages(rewards, group_ids=codes, convention=name)
        push[name] = np.add.reduceat(np.abs(a), starts) / sizes
    t = grouped.table[keep]
    out = pd.DataFrame(
        {
            "step": t["step"].to_numpy(),
            "mean": t["mean"].to_numpy(),
            "size": sizes,
            "grpo_push": push["trl"],
            "dr_grpo_push": push["dr-grpo"],
            "kept_by_dapo": ~t["zero_spread"].to_numpy(),
        }
    )
    if np.isin(grouped.rewards, (0.0, 1.0)).all():
        weight = np.empty(len(out))
        for k in np.unique(sizes):  # one call per group size K
            chosen = sizes == k
            weight[chosen] = std_weight(out["mean"].to_numpy()[chosen], ddof=1, group_size=int(k))
        out["difficulty_weight"] = weight
    return out
