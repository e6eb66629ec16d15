"""Which numeric columns of a log are rewards: the set whose aggregation gives its advantages.

TRL names a reward column after its reward function and puts the columns a reward function
logs with ``log_extra`` beside them (trl/trainer/grpo_trainer.py, the completions table;
TRL 1.16.0), so a name says little: ``is_right`` is a reward, ``num_digits`` may not be.
With an advantage column the evidence is the advantages themselves: every set of numeric
columns is summed (or normalised then summed, GDPO) and the set whose advantages match is
the reward set. Each column then has a role: "reward", "extra" (logged beside the rewards,
not one of them) or "ignored" (the user's choice: not read).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, pairwise

import numpy as np

from grpo_core.advantages import group_advantages
from grpo_core.conventions import CONVENTIONS
from grpo_core.format import fmt
from grpo_core.inference import GDPO_EPS, RELATIVE_TOLERANCE, printed_rounding
from grpo_core.log_grouping import (
    BY_POSITION,
    Grouping,
    positional_groups,
    size_candidates,
    step_starts,
    text_codes,
)

MAX_COLUMNS = 8
"""Numeric columns searched at most (2^8 - 1 sets); with more, names decide."""
SAMPLE_ROWS = 20_000
"""Rows of the log the search reads: whole steps from the start, at least one step."""
ROLES = ("reward", "extra", "ignored")
MAX_CHECKED_SIZE = 256
"""The largest K tried when checking a K chosen by hand against the advantages."""


@dataclass(frozen=True)
class RewardFit:
    """The reward set found (``choose_rewards``) and how close its advantages came."""

    rewards: tuple[str, ...]
    error: float
    """Largest |logged - recomputed advantage| of the best aggregation, on the sample."""
    matched: bool


def sample_rows(steps: np.ndarray, limit: int = SAMPLE_ROWS) -> int:
    """How many leading rows to search: whole steps up to ``limit`` rows (at least one)."""
    change = np.flatnonzero(steps[1:] != steps[:-1]) + 1
    ends = np.append(change, len(steps))
    inside = ends[ends <= limit]
    return int(inside[-1]) if inside.size else int(ends[0])


def advantage_errors(
    rewards: np.ndarray, codes: np.ndarray, steps: np.ndarray, logged, *, every: bool = False
):
    """The largest |logged - A| for each way of making A from the reward columns.

    rewards: (N, F) columns; codes: (N,) group of each row; steps: (N,). Ways: their sum
    normalised per group (mean, sample std + 1e-4), per step's batch std, or only centred
    (Dr. GRPO); with F >= 2, GDPO too; with ``every``, each of ``CONVENTIONS`` as well
    (verl, OpenRLHF, RLOO, NeMo-RL, REINFORCE++-baseline per step...). Returns the
    smallest error over the ways.
    """
    total = rewards.sum(axis=1)
    centred = total - _mean(total, codes)
    ways = [
        centred / (_std(total, codes) + 1e-4),
        centred / (_std(total, text_codes(steps, steps)) + 1e-4),
        centred,
    ]
    if rewards.shape[1] >= 2:
        per = sum(
            (rewards[:, f] - _mean(rewards[:, f], codes)) / (_std(rewards[:, f], codes) + 1e-4)
            for f in range(rewards.shape[1])
        )
        batch = text_codes(steps, steps)
        ways.append((per - _mean(per, batch)) / (_std(per, batch) + GDPO_EPS))
    if every:
        ways.extend(_convention_ways(total, codes, steps))
    return min(float(np.nanmax(np.abs(a - logged))) for a in ways)


def _convention_ways(total: np.ndarray, codes: np.ndarray, steps: np.ndarray) -> list:
    """(N,) advantages of ``total`` under each named convention, computed step by step (a
    batch-wide convention sees one generation batch); conventions that refuse a group of
    one are left out where such a group exists."""
    starts = step_starts(steps)
    ways = []
    for name in CONVENTIONS:
        try:
            ways.append(
                np.concatenate(
                    [
                        group_advantages(total[a:b], group_ids=codes[a:b], convention=name)
                        for a, b in pairwise(starts)
                    ]
                )
            )
        except ValueError:
            continue
    return ways


def choose_rewards(
    numeric: dict[str, np.ndarray],
    codes: np.ndarray,
    steps: np.ndarray,
    advantage: np.ndarray,
    named: tuple[str, ...],
    *,
    fixed: bool = False,
) -> RewardFit:
    """The set of ``numeric`` columns (name -> (N,) values) whose aggregation reproduces
    ``advantage`` on the first whole steps; among sets that match, the one closest to the
    columns ``named`` like rewards, then the smallest. No match: ``named`` unchanged."""
    columns = list(numeric)[:MAX_COLUMNS]
    n = sample_rows(steps)
    logged = np.asarray(advantage[:n], dtype=np.float64)
    tolerance = advantage_tolerance(logged)
    values = {c: np.asarray(numeric[c][:n], dtype=np.float64) for c in columns}
    found = []
    for size in [len(columns)] if fixed else range(1, len(columns) + 1):
        for chosen in combinations(columns, size):
            block = np.column_stack([values[c] for c in chosen])
            error = advantage_errors(block, codes[:n], steps[:n], logged)
            found.append((error > tolerance, len(set(chosen) ^ set(named)), size, error, chosen))
    if not found:
        return RewardFit(named, np.inf, False)
    missed, _, _, error, chosen = min(found, key=lambda f: f[:4])
    if missed:
        return RewardFit(named, error, False)
    return RewardFit(tuple(chosen), error, True)


def column_roles(columns, numeric, rewards, ignored, taken) -> dict[str, str]:
    """Each column's role: a role name for those ``taken`` (step, prompt, ...), "reward",
    "ignored", or "extra" for the rest (numbers or text the trainer logged beside)."""
    roles = {}
    for c in columns:
        if c in taken:
            roles[c] = taken[c]
        elif c in rewards:
            roles[c] = "reward"
        elif c in ignored:
            roles[c] = "ignored"
        else:
            roles[c] = "extra" if c in numeric else "extra (text)"
    return roles


def fit_rewards_and_size(frame, values, codes, grouping, mapping):
    """(codes, grouping, RewardFit): the reward set reproducing the advantages and, when K
    was inferred from runs of one prompt text, the divisor of K that reproduces them best
    (two groups of one prompt side by side make a run of 2K everywhere in a small file)."""
    steps, advantage = frame["step"].to_numpy(), frame["advantage"].to_numpy()

    def search(group_codes):
        return choose_rewards(
            values, group_codes, steps, advantage, mapping.rewards, fixed=mapping.chosen
        )

    if grouping.how != BY_POSITION:
        return codes, grouping, search(codes)
    if not grouping.inferred:
        fit = search(codes)
        return codes, check_size(frame, values, fit, grouping), fit
    n = sample_rows(steps)  # the search reads these rows only
    head = steps[:n], frame["prompt"].iloc[:n]
    tried = []
    for size in size_candidates(grouping.size):
        fit = search(codes if size == grouping.size else positional_groups(*head, size)[0])
        tried.append((not fit.matched, fit.error, -size, fit))
    _, _, size, fit = min(tried, key=lambda t: t[:3])
    if -size != grouping.size:
        codes, grouping = positional_groups(steps, frame["prompt"], -size, inferred=True)
    return codes, replace(grouping, reproduces=fit.matched), fit


def size_errors(frame, rewards: np.ndarray, sizes) -> dict[int, float]:
    """{K: largest |logged - recomputed advantage|} of blocks of K consecutive rows, for
    each K of ``sizes``, on the log's first whole steps (``sample_rows``).

    frame: the loaded table (step, prompt, advantage); rewards: (N, F) the reward columns.
    The aggregations tried are ``advantage_errors``'."""
    steps = frame["step"].to_numpy()
    n = sample_rows(steps)
    prompts, logged = frame["prompt"].iloc[:n], frame["advantage"].to_numpy()[:n]
    return {
        k: advantage_errors(
            rewards[:n], positional_groups(steps[:n], prompts, k)[0], steps[:n], logged, every=True
        )
        for k in sizes
    }


def check_size(frame, values: dict, fit: RewardFit, grouping: Grouping) -> Grouping:
    """``grouping`` (K chosen by hand) with ``reproduces`` set and, when its K does not
    reproduce the logged advantages, a note in plain words naming the K that do.

    values: name -> (N,) numeric columns; fit.rewards are the reward columns used. The K
    tried are the chosen one and every divisor from 2 to MAX_CHECKED_SIZE of the first
    step's row count."""
    if not fit.rewards or any(c not in values for c in fit.rewards):
        return grouping
    k = grouping.size
    steps = frame["step"].to_numpy()
    rows = int(step_starts(steps)[1])
    rewards = np.column_stack([values[c] for c in fit.rewards])
    errors = size_errors(
        frame, rewards, dict.fromkeys([k, *size_candidates(min(rows, MAX_CHECKED_SIZE), rows)])
    )
    tolerance = advantage_tolerance(frame["advantage"].to_numpy()[: sample_rows(steps)])
    good = sorted(size for size, error in errors.items() if error <= tolerance)
    if k in good:
        return replace(grouping, reproduces=True)
    columns = ", ".join(repr(c) for c in fit.rewards)
    off = (
        f"K = {k}, chosen by hand, does not reproduce the logged advantages (off by up to "
        f"{fmt(errors[k])})"
    )
    if good:
        note = f"{off}; K = {_join_numbers(good)} does. Set K to {good[0]} under Columns."
    else:
        note = (
            f"{off}, and no other K does with the reward columns {columns} (tried K = "
            f"{_join_numbers(sorted(errors))}): check the reward columns."
        )
    return replace(grouping, reproduces=False, notes=(note, *grouping.notes))


def advantage_tolerance(logged: np.ndarray) -> float:
    """The largest disagreement that still counts as a match with ``logged`` (N,):
    ``RELATIVE_TOLERANCE`` × max(1, max |A|), or the log's printed rounding if larger."""
    return max(RELATIVE_TOLERANCE * max(1.0, float(np.abs(logged).max())), printed_rounding(logged))


def _join_numbers(values) -> str:
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " or " + text[-1]


def left_out_notes(roles: dict, fit: RewardFit | None) -> list[str]:
    """A note per numeric column left out of the rewards (role "extra")."""
    extra = [c for c, role in roles.items() if role == "extra"]
    if not extra:
        return []
    why = (
        "the logged advantages are reproduced without"
        if fit is not None and fit.matched
        else "its name is not a reward's, and the log has no advantage column to check"
    )
    return [
        f"Column {c!r} holds numbers but is not counted as a reward: {why} it. "
        "If it is a reward, give it the role reward under Columns."
        for c in extra
    ]


def _mean(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.bincount(codes, x) / np.bincount(codes))[codes]


def _std(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    count = np.bincount(codes)
    centred = x - _mean(x, codes)
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.sqrt(np.bincount(codes, centred * centred) / (count - 1))
    return np.nan_to_num(std, nan=0.0)[codes]
