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
from grpo_core.log_summary import LogGroups
from grpo_core.precision import float32_advantages

RELATIVE_TOLERANCE = 2e-5
"""A match: the largest disagreement is at most this × max(1, max |logged advantage|)
(float32 keeps about 7 digits; a log printed with 6 significant digits, about 5)."""
FLOAT32 = " (float32)"
"""Suffix of a candidate recomputed in float32."""


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


def candidate_advantages(grouped: LogGroups, steps: np.ndarray) -> dict[str, np.ndarray]:
    """(N,) advantages in ``grouped``' sorted order under each candidate.

    steps: (N,) step of each sorted position (the batch of a "batch" scaling).
    A convention that refuses the log (a group of one answer) is left out, and so is the
    float32 candidate of a log with a reward beyond float32's range (no float32 run wrote it).
    """
    out = {}
    fits32 = np.abs(grouped.rewards).max() <= np.finfo(np.float32).max
    for name, conv in CONVENTIONS.items():
        try:
            out[name] = _float64(grouped, steps, conv)
        except ValueError:
            continue
        single = conv.scale == "group" and conv.baseline == "mean"
        if single and fits32 and grouped.sizes.min() > conv.ddof:
            out[name + FLOAT32] = _float32(grouped, conv)
    return out


def fit_conventions(grouped: LogGroups, steps: np.ndarray, advantages: np.ndarray) -> ConventionFit:
    """Rank the candidates by their largest disagreement with ``advantages``.

    steps, advantages: (N,) in ``grouped``' sorted order.
    """
    logged = np.asarray(advantages, dtype=np.float64)
    tolerance = max(
        RELATIVE_TOLERANCE * max(1.0, float(np.abs(logged).max())), printed_rounding(logged)
    )
    errors, per_group = {}, []
    for name, a in candidate_advantages(grouped, steps).items():
        gap = np.abs(a - logged)
        gap[np.isnan(gap)] = np.inf
        group_gap = np.maximum.reduceat(gap, grouped.starts)
        errors[name] = float(group_gap.max())
        per_group.append(group_gap)
    ranking = sorted(errors.items(), key=lambda item: item[1])
    best = ranking[0][1]
    limit = max(tolerance, 2 * best) if best <= tolerance else tolerance
    matches = [name for name, error in ranking if error <= limit]
    group_error = np.min(per_group, axis=0)
    return ConventionFit(ranking, tolerance, matches, group_error, group_error > tolerance)


def describe_fit(fit: ConventionFit) -> str:
    """The verdict in words: which convention, ddof, eps and scaling, or why it is unclear."""
    names = list(dict.fromkeys(base_name(m) for m in fit.matches))
    if not names:
        name, error = fit.ranking[0]
        return (
            f"No listed convention reproduces these advantages: the closest, {name}, is off "
            f"by up to {fmt(error)}. The groups below match none: look for a bug, an "
            "unlisted option (a clamp, a different eps), or rewards logged before a transform."
        )
    precision = _precision_words(fit.matches)
    if len(names) == 1:
        conv = CONVENTIONS[names[0]]
        text = f"This run matches **{conv.name}** ({conv.library}): {_settings(conv)}{precision}."
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


def _precision_words(matches: list[str]) -> str:
    in32 = any(m.endswith(FLOAT32) for m in matches)
    in64 = any(not m.endswith(FLOAT32) for m in matches)
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


def _float32(grouped: LogGroups, conv: Convention) -> np.ndarray:
    """Each size class of groups as a (G_s, K_s) array through float32_advantages."""
    out = np.empty_like(grouped.rewards)
    for size in np.unique(grouped.sizes):
        chosen = np.flatnonzero(grouped.sizes == size)
        rows = (grouped.starts[chosen][:, None] + np.arange(size)).ravel()
        block = grouped.rewards[rows].reshape(-1, size)
        a = float32_advantages(block, eps=conv.eps, ddof=conv.ddof)
        if conv.eps == 0:
            a = np.nan_to_num(a, nan=0.0)  # the textbook z-score defines 0/0 = 0
        if conv.clip is not None:
            a = np.clip(a, -conv.clip, conv.clip)
        out[rows] = a.ravel()
    return out
