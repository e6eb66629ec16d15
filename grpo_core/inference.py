"""Which convention did a run use? Recompute its logged advantages under each and compare.

For every convention of ``grpo_core.conventions.CONVENTIONS`` (in float64 through
``group_advantages``, and in float32 through ``precision.float32_advantages`` for those
that divide by the group std, as torch computes), the advantages of the log's rewards
are recomputed and compared with its ``advantage`` column. A "batch" scaling divides
by the std of every reward at the same step (the batch the trainer saw).

Two conventions whose advantages differ by less than the log's own rounding cannot be
told apart: TRL (eps 1e-4) and verl (eps 1e-6) differ by a factor (std + 1e-4) /
(std + 1e-6), visible only when a group's spread is small or the log keeps enough digits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core.advantages import group_advantages
from grpo_core.conventions import CONVENTIONS, HISTORICAL_CONVENTIONS, Convention
from grpo_core.format import fmt
from grpo_core.log_summary import LogGroups, log_groups

RELATIVE_TOLERANCE = 2e-5
"""A match: the largest disagreement is at most this × max(1, max |logged advantage|)
(float32 keeps about 7 digits; a log printed with 6 significant digits, about 5)."""
FLOAT32 = " (float32)"
"""Suffix of a candidate recomputed in float32."""
GDPO = "gdpo"
"""The candidate that normalises each reward column per group before summing."""
SCREEN_ROWS = 50_000
"""A log longer than twice this is first compared on its first steps (``fit_conventions``)."""
GDPO_EPS = 1e-4
"""TRL 1.16's eps in both of GDPO's normalisations."""


@dataclass(frozen=True, eq=False)
class ConventionFit:
    """How well each candidate reproduces a log's advantages (``fit_conventions``)."""

    ranking: list[tuple[str, float]]
    """(candidate, largest |A_log - A_candidate|), best first; inf if it refuses the log."""
    tolerance: float
    """Disagreements up to this count as a match."""
    matches: list[str]
    """Candidates within the tolerance, or within twice the best (indistinguishable)."""
    group_error: np.ndarray
    """(G,) per group: the smallest, over candidates, of its largest disagreement."""
    unmatched: np.ndarray
    """(G,) bool: no candidate reproduces this group within the tolerance."""
    float32_logged: bool = False
    """Every logged reward and advantage is exactly a float32 number (``float32_evidence``)."""
    screened: tuple[str, ...] = ()
    """Candidates compared on the log's first steps only (far off there); their error in
    ``ranking`` is the error on those steps, a lower bound."""

    @property
    def best(self) -> str:
        return self.ranking[0][0]


def printed_rounding(values: np.ndarray) -> float:
    """Half the last printed digit when every value has at most 8 decimals, else 0.

    values: (N,). A log written with 3 decimals (0.707) can be off by 0.0005 from the
    trainer's number; no convention can be asked to agree more closely than that.
    """
    try:
        x = np.asarray(values, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError("values must be numbers.") from None
    sample = x[np.isfinite(x)][:10_000]
    for decimals in range(1, 9):
        scaled = sample * 10.0**decimals
        if np.all(np.abs(scaled - np.round(scaled)) < 1e-6):
            return 0.5 * 10.0**-decimals * (1 + 1e-6)
    return 0.0


def base_name(candidate: str) -> str:
    """The convention a candidate recomputes ("trl (float32)" -> "trl")."""
    return candidate.removesuffix(FLOAT32)


def candidate_advantages(
    grouped: LogGroups,
    steps: np.ndarray,
    per_function: np.ndarray | None = None,
    only: set[str] | None = None,
) -> dict[str, np.ndarray]:
    """(N,) advantages in ``grouped``' sorted order under each candidate.

    steps: (N,) step of each sorted position (a step's rows are the batch of a "batch"
    scaling and of GDPO's last normalisation: TRL writes one generation batch a step).
    per_function: (N, F) each reward column in sorted order; with F >= 2, GDPO
    (``GDPO``) is a candidate too. Every candidate also comes in float32 (as torch
    computes) when every group has at least 2 answers and every reward is within float32's
    range (no float32 run wrote it otherwise). A convention that refuses the log (a group
    of one answer) is left out. only: the candidates to compute (default all).
    """
    out = {}
    fits32 = np.abs(grouped.rewards).max() <= np.finfo(np.float32).max
    whole = grouped.sizes.min() >= 2 and fits32
    wanted = (lambda name: True) if only is None else only.__contains__
    for name, conv in CONVENTIONS.items():
        try:
            if wanted(name):
                out[name] = _float64(grouped, steps, conv)
        except ValueError:
            continue
        if whole and wanted(name + FLOAT32):
            out[name + FLOAT32] = _float32(grouped, steps, conv)
    if per_function is not None and per_function.ndim == 2 and per_function.shape[1] >= 2 and whole:
        for dtype, suffix in ((np.float64, ""), (np.float32, FLOAT32)):
            if wanted(GDPO + suffix):
                out[GDPO + suffix] = gdpo_advantages(grouped, steps, per_function, dtype)
    return out


def float32_evidence(*arrays: np.ndarray) -> bool:
    """True when every value of every array is exactly a float32 number (what a trainer
    computing in float32 logs), and at least one is not a short decimal such as 0.5."""
    values = [np.asarray(a, dtype=np.float64).ravel() for a in arrays]
    with np.errstate(over="ignore"):  # beyond float32's range: inf, so not float32's own
        exact = all(np.array_equal(v.astype(np.float32).astype(np.float64), v) for v in values)
    return exact and printed_rounding(np.concatenate(values)) == 0.0


def gdpo_advantages(grouped: LogGroups, steps: np.ndarray, per_function: np.ndarray, dtype):
    """(N,) GDPO as TRL 1.16 computes it (``multi_objective_aggregation="normalize_then_sum"``
    in trl/trainer/grpo_trainer.py): each reward column normalised per group (mean, sample
    std + 1e-4), summed with weights 1, then normalised over the step's batch (mean,
    sample std + 1e-4). dtype: np.float64 or np.float32 (every operation in it)."""
    r = np.asarray(per_function, dtype=np.float64).astype(dtype)
    eps = dtype(GDPO_EPS)
    total = np.zeros(len(r), dtype=dtype)
    for f in range(r.shape[1]):
        mean, std = _group_mean_std(r[:, f], grouped, ddof=1)
        total += (r[:, f] - mean) / (std + eps)
    mean, std = _step_mean_std(total, steps, ddof=1)
    return ((total - mean) / (std + eps)).astype(np.float64)


def fit_conventions(
    grouped: LogGroups,
    steps: np.ndarray,
    advantages: np.ndarray,
    per_function: np.ndarray | None = None,
) -> ConventionFit:
    """Rank the candidates by their largest disagreement with ``advantages``.

    steps, advantages: (N,) in ``grouped``' sorted order; per_function: (N, F) the
    reward columns in that order (GDPO is a candidate when F >= 2).
    """
    logged = np.asarray(advantages, dtype=np.float64)
    tolerance = max(
        RELATIVE_TOLERANCE * max(1.0, float(np.abs(logged).max())), printed_rounding(logged)
    )
    only, errors = _first_steps_screen(grouped, steps, logged, per_function, tolerance)
    per_group = []
    for name, a in candidate_advantages(grouped, steps, per_function, only).items():
        gap = np.abs(a - logged)
        gap[np.isnan(gap)] = np.inf
        group_gap = np.maximum.reduceat(gap, grouped.starts)
        errors[name] = float(group_gap.max())
        per_group.append(group_gap)
    evidence = float32_evidence(logged, grouped.rewards if per_function is None else per_function)
    prefer = (lambda name: not name.endswith(FLOAT32)) if evidence else (lambda name: False)
    ranking = sorted(errors.items(), key=lambda item: (item[1], prefer(item[0])))
    best = ranking[0][1]
    limit = max(tolerance, 2 * best) if best <= tolerance else tolerance
    matches = [name for name, error in ranking if error <= limit]
    group_error = np.min(per_group, axis=0)
    unmatched = group_error > tolerance
    screened = tuple(name for name, _ in ranking if only is not None and name not in only)
    return ConventionFit(ranking, tolerance, matches, group_error, unmatched, evidence, screened)


def _first_steps_screen(grouped, steps, logged, per_function, tolerance):
    """(candidates to check on every row or None for all, {candidate: error on the first
    steps} for the others). A log of more than SCREEN_ROWS rows is first compared on
    its first whole steps (about SCREEN_ROWS rows); a candidate off there by more than ten
    times the best (and the tolerance) is not recomputed on every row: its error there,
    a lower bound, stands in the ranking."""
    n = _whole_steps(steps, SCREEN_ROWS)
    if len(logged) <= 2 * SCREEN_ROWS or n > len(logged) // 2:
        return None, {}
    g = int(np.searchsorted(grouped.starts, n))
    head = LogGroups(
        grouped.order[:n],
        grouped.codes[:n],
        grouped.starts[:g],
        grouped.sizes[:g],
        grouped.rewards[:n],
        grouped.table.iloc[:g],
    )
    part = None if per_function is None else per_function[:n]
    screened = {
        name: float(np.nan_to_num(np.abs(a - logged[:n]), nan=np.inf).max())
        for name, a in candidate_advantages(head, steps[:n], part).items()
    }
    cut = 10 * max(min(screened.values(), default=0.0), tolerance)
    kept = {name for name, error in screened.items() if error <= cut}
    return kept, {name: e for name, e in screened.items() if name not in kept}


def _whole_steps(steps: np.ndarray, limit: int) -> int:
    """How many leading positions hold whole steps, up to ``limit`` (at least one step)."""
    ends = np.append(np.flatnonzero(steps[1:] != steps[:-1]) + 1, len(steps))
    inside = ends[ends <= limit]
    return int(inside[-1]) if inside.size else int(ends[0])


def fit_log(frame: pd.DataFrame):
    """``fit_conventions`` on ``rollouts.load``'s table (it must have ``advantage``)."""
    groups = log_groups(frame)
    steps = frame["step"].to_numpy()[groups.order]
    columns = [c for c in frame.columns if c.startswith("reward.")]
    per_function = frame[columns].to_numpy(dtype=np.float64)[groups.order] if columns else None
    advantages = frame["advantage"].to_numpy()[groups.order]
    return fit_conventions(groups, steps, advantages, per_function)


def describe_fit(fit: ConventionFit, rewards: tuple[str, ...] = ()) -> str:
    """The verdict in words: which convention, ddof, eps and scaling, how the reward
    columns ``rewards`` were combined, in which precision, or why it is unclear."""
    names = list(dict.fromkeys(base_name(m) for m in fit.matches))
    if not names:
        name, error = fit.ranking[0]
        return (
            f"No listed convention reproduces these advantages: the closest, {name}, is off "
            f"by up to {fmt(error)}. The groups below match none: look for a bug, an "
            "unlisted option (a clamp, a different eps), a reward column counted or left "
            "out by mistake (see Columns), or rewards logged before a transform."
        )
    precision = _precision_words(fit.matches, fit.float32_logged)
    if names == [GDPO]:
        return (
            f"This run matches **GDPO** (TRL's `multi_objective_aggregation="
            f'"normalize_then_sum"`): {_gdpo_words(rewards)}{precision}.'
        )
    names = [n for n in names if n != GDPO]
    summed = _sum_words(rewards)
    if len(names) == 1:
        conv = CONVENTIONS[names[0]]
        text = (
            f"This run matches **{conv.name}** ({conv.library}): {summed}{_settings(conv)}"
            f"{precision}."
        )
    else:
        differ = _differences([CONVENTIONS[n] for n in names])
        text = (
            f"The log cannot tell apart {_join(names)}: on these rewards their advantages "
            f"agree to within the log's rounding{precision}. They differ only in {differ}; "
            "a group whose spread is about the size of eps would separate them."
        )
    if "dr-grpo" in names:
        old = HISTORICAL_CONVENTIONS["trl-0.22.1-group"]
        text += f" Dividing by nothing is also what {old.library} did by mistake."
    return text


def _sum_words(rewards: tuple[str, ...]) -> str:
    if len(rewards) < 2:
        return ""
    return f"the reward columns {_join(list(rewards))} summed (weights 1), then "


def _gdpo_words(rewards: tuple[str, ...]) -> str:
    columns = f"each reward column ({_join(list(rewards))})" if rewards else "each reward column"
    return (
        f"{columns} normalised per group (group mean, sample std + eps {fmt(GDPO_EPS)}), "
        "summed with weights 1, then normalised over the step's batch (mean, sample std "
        f"+ eps {fmt(GDPO_EPS)})"
    )


def _settings(conv: Convention) -> str:
    baseline = "the group mean" if conv.baseline == "mean" else "the leave-one-out mean"
    divide = {
        "group": f"divided by the group std (ddof {conv.ddof}) + eps {fmt(conv.eps)}",
        "batch": f"divided by the batch std (ddof {conv.ddof}) + eps {fmt(conv.eps)}",
        "none": "not divided by any std",
        "whiten": f"clipped to ±{fmt(conv.clip or 0)} and whitened over the batch (std floored "
        f"at {fmt(conv.eps)})",
        "leave-one-out": f"divided by the std of the other answers (ddof {conv.ddof}) + eps "
        f"{fmt(conv.eps)}, undivided where it is 0",
    }[conv.scale]
    clip = f", clamped to ±{fmt(conv.clip)}" if conv.clip is not None else ""
    return f"baseline {baseline}, {divide}{clip}"


def _precision_words(matches: list[str], float32_logged: bool) -> str:
    in32 = any(m.endswith(FLOAT32) for m in matches)
    in64 = any(not m.endswith(FLOAT32) for m in matches)
    if in32 and float32_logged:
        return "; computed in float32 (every logged value is a float32 number)"
    if in32 and in64:
        return "; float32 and float64 give the same digits here"
    return "; computed in float32 (as torch does)" if in32 else "; in float64"


def _differences(convs: list[Convention]) -> str:
    fields = [
        ("eps", lambda c: fmt(c.eps)),
        ("ddof", lambda c: str(c.ddof)),
        ("scaling", lambda c: c.scale),
        ("baseline", lambda c: c.baseline),
        ("clamp", lambda c: "none" if c.clip is None else f"±{fmt(c.clip)}"),
        ("what a group of one gets", lambda c: c.singleton),
    ]
    parts = []
    for label, value in fields:
        values = [value(c) for c in convs]
        if len(set(values)) > 1:
            parts.append(f"{label} ({' vs '.join(values)})")
    return _join(parts) if parts else "their names"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _float64(grouped: LogGroups, steps: np.ndarray, conv: Convention) -> np.ndarray:
    k = grouped.uniform_size
    shape = {"group_size": k} if k else {"group_ids": grouped.codes}
    if conv.scale == "whiten":  # whitened over each step's batch
        out = np.empty_like(grouped.rewards)
        for step in np.unique(steps):
            rows = steps == step
            out[rows] = group_advantages(
                grouped.rewards[rows], convention=conv.name, group_ids=grouped.codes[rows]
            )
        return out
    if conv.scale != "batch":
        return group_advantages(grouped.rewards, convention=conv.name, **shape)
    centred = group_advantages(grouped.rewards, convention=conv.name, scale="none", **shape)
    step_std = pd.Series(grouped.rewards).groupby(steps).transform("std", ddof=conv.ddof)
    return centred / (step_std.fillna(0.0).to_numpy() + conv.eps)


def _group_mean_std(x: np.ndarray, grouped: LogGroups, *, ddof: int):
    """(N,) each position's group mean and std (ddof), in x's dtype (equal groups are
    summed as numpy sums rows, pairwise; others in order)."""
    size = grouped.sizes.astype(x.dtype)
    k = grouped.uniform_size
    total = x.reshape(-1, k).sum(axis=1) if k else np.add.reduceat(x, grouped.starts)
    mean = (total / size)[grouped.codes]
    centred = x - mean
    squares = centred * centred
    square = squares.reshape(-1, k).sum(axis=1) if k else np.add.reduceat(squares, grouped.starts)
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.sqrt(square / (size - x.dtype.type(ddof)))
    return mean, std[grouped.codes]


def _step_mean_std(x: np.ndarray, steps: np.ndarray, *, ddof: int):
    """(N,) the mean and std (ddof) of x over each position's step, in x's dtype."""
    codes = _step_codes(steps)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_codes[1:] != sorted_codes[:-1])))
    size = np.diff(np.append(starts, len(x))).astype(x.dtype)
    mean = np.add.reduceat(x[order], starts) / size
    centred = x - mean[codes]
    square = np.add.reduceat((centred * centred)[order], starts)
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.sqrt(square / (size - x.dtype.type(ddof)))
    return mean[codes], std[codes]


def _step_codes(steps: np.ndarray) -> np.ndarray:
    """(N,) 0.. per distinct step; steps already in non-decreasing runs need no hashing."""
    if steps.size and np.all(steps[1:] >= steps[:-1]):
        return np.concatenate(([0], np.cumsum(steps[1:] != steps[:-1])))
    return pd.factorize(steps)[0]


def _float32(grouped: LogGroups, steps: np.ndarray, conv: Convention) -> np.ndarray:
    """(N,) the convention with every operation in float32, as torch computes: the group
    mean (or leave-one-out mean), then the group's, the step's, the other answers' or no
    std, plus eps; REINFORCE++'s whitening over each step's batch."""
    if np.abs(grouped.rewards).max() > np.finfo(np.float32).max:
        raise ValueError("a reward is beyond float32's range.")
    x = grouped.rewards.astype(np.float32)
    mean, std = _group_mean_std(x, grouped, ddof=conv.ddof)
    if conv.baseline == "mean":
        centred = x - mean
    else:
        size = grouped.sizes.astype(np.float32)[grouped.codes]
        centred = x - (mean * size - x) / (size - np.float32(1))
    if conv.scale == "whiten":
        return _whitened32(centred, steps, conv).astype(np.float64)
    if conv.scale == "batch":
        std = _step_mean_std(x, steps, ddof=conv.ddof)[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        if conv.scale == "leave-one-out":
            others = _others_std32(x, mean, grouped, conv.ddof)
            a = np.where(others > 0, centred / (others + np.float32(conv.eps)), centred)
        else:
            a = centred if conv.scale == "none" else centred / (std + np.float32(conv.eps))
    if conv.eps == 0:
        a = np.nan_to_num(a, nan=0.0)  # the textbook z-score defines 0/0 = 0
    if conv.clip is not None:
        a = np.clip(a, -conv.clip, conv.clip)
    return a.astype(np.float64)


def _whitened32(centred: np.ndarray, steps: np.ndarray, conv: Convention) -> np.ndarray:
    """(N,) float32 REINFORCE++-baseline (OpenRLHF): the centred rewards clipped to ±clip,
    re-centred on their step's mean when a clip bit, over max(step std (ddof), eps)."""
    c = centred if conv.clip is None else np.clip(centred, -conv.clip, conv.clip)
    if conv.clip is not None:
        hit = np.abs(c) == np.float32(conv.clip)
        codes = _step_codes(steps)
        bit = (np.bincount(codes, hit) > 0)[codes]
        c = np.where(bit, c - _step_mean_std(c, steps, ddof=conv.ddof)[0], c)
    std = _step_mean_std(c, steps, ddof=conv.ddof)[1]
    return c / np.maximum(std, np.float32(conv.eps))


def _others_std32(x: np.ndarray, mean: np.ndarray, grouped: LogGroups, ddof: int):
    """(N,) float32 std (ddof) of the other K-1 rewards of each answer's group (NeMo-RL):
    sqrt((SS - K/(K-1) (x - mean)^2) / (K-1-ddof)); 0 where the others are all equal or
    K-1-ddof <= 0 (``advantages._leave_one_out_std`` in float64)."""
    k = grouped.sizes.astype(np.float32)[grouped.codes]
    centred = x - mean
    squares = np.add.reduceat(centred * centred, grouped.starts)[grouped.codes]
    dof = k - np.float32(1 + ddof)
    with np.errstate(divide="ignore", invalid="ignore"):
        others = squares - centred * centred * (k / (k - np.float32(1)))
        std = np.sqrt(np.maximum(others, np.float32(0)) / np.maximum(dof, np.float32(1)))
    low = np.minimum.reduceat(x, grouped.starts)[grouped.codes]
    high = np.maximum.reduceat(x, grouped.starts)[grouped.codes]
    n_low = np.bincount(grouped.codes, x == low)[grouped.codes]
    n_high = np.bincount(grouped.codes, x == high)[grouped.codes]
    alone = ((x == low) & (n_low == 1) & (n_high == k - 1)) | (
        (x == high) & (n_high == 1) & (n_low == k - 1)
    )
    return np.where((dof > 0) & (low != high) & ~alone, std, np.float32(0))
