"""eps, the number added to the std: how it bends (R - mean) / (std + eps).

The eps slider's steps and a log grid (``eps_steps``, ``eps_grid``), a group's
advantages across eps (``eps_sweep``, ``eps_sweep_frame``), the three regimes
(``eps_regime``, ``regime_bounds``, ``regime_tour``), each library's eps
(``LIBRARY_EPS``) and what an all-equal group gets (``all_equal_outcomes``).
Every advantage is computed through ``group_advantages`` / ``advantage_trace``.

Sources: the eps of each library in ``grpo_core.conventions`` (TRL
trl/trainer/grpo_trainer.py 1e-4, verl verl/trainer/ppo/core_algos.py 1e-6,
OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py 1e-9).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import advantage_trace, group_advantages
from grpo_core.conventions import CONVENTIONS
from grpo_core.precision import float32_advantages

EPS_RANGE: tuple[float, float] = (1e-12, 1.0)
"""Bounds of the page's log eps slider (eps = 0 is allowed too, with a warning)."""

REGIME_FACTOR = 10.0
"""std >= 10 eps: "z-score"; std <= eps / 10: "damped"; in between: "transition"."""

_LIBRARY_NAMES = {"trl": "TRL", "verl": "verl", "openrlhf": "OpenRLHF"}

LIBRARY_EPS: dict[str, float] = {
    library: CONVENTIONS[name].eps for name, library in _LIBRARY_NAMES.items()
}
"""The eps each library adds to the std, read from CONVENTIONS: TRL 1e-4, verl 1e-6,
OpenRLHF 1e-9."""


def eps_steps() -> np.ndarray:
    """The eps values of the page's log slider: 1, 2 and 5 times each power of ten in
    EPS_RANGE, ascending (1e-12, 2e-12, 5e-12, ..., 0.5, 1): shape (37,).

    Each value is the float its decimal literal gives, so 1e-4 is exactly TRL's eps.
    """
    low, high = _decades()
    steps = [float(f"{m}e{d}") for d in range(low, high) for m in (1, 2, 5)]
    return np.array([*steps, float(f"1e{high}")])


def eps_grid(per_decade: int = 10) -> np.ndarray:
    """Log-spaced eps across EPS_RANGE for a curve: ``per_decade`` points per decade,
    shape (12 per_decade + 1,), each power of ten exact (1e-4 is TRL's eps)."""
    n = _checks.whole(per_decade, "per_decade", minimum=1)
    low, high = _decades()
    j = np.arange(low * n, high * n + 1)
    grid = 10.0 ** (j / n)
    decade = j % n == 0
    grid[decade] = [float(f"1e{d}") for d in j[decade] // n]
    return grid


def _decades() -> tuple[int, int]:
    """EPS_RANGE as powers of ten: (-12, 0)."""
    return round(math.log10(EPS_RANGE[0])), round(math.log10(EPS_RANGE[1]))


def eps_sweep(rewards, eps_values, *, ddof: int = 1) -> np.ndarray:
    """Advantages of one group for every eps: shape (len(eps_values), K).

    rewards: (K,) one group; eps_values: (E,), each 0 or in [1e-300, inf).
    Row e is (R - mean) / (std + eps_values[e]) with
    ``ddof`` (1: sample std, as every trainer; 0: population std), no clamp;
    an all-equal group gives 0 for every eps, eps = 0 included.
    """
    eps = _checks.eps_values(eps_values)
    r = _checks.one_group(rewards)
    return np.stack(
        [group_advantages(r, convention="zscore", ddof=ddof, eps=float(e)) for e in eps]
    )


def eps_regime(std: float, eps: float) -> str:
    """Which regime (R - mean) / (std + eps) is in, with factor ``REGIME_FACTOR`` = 10.

    "no spread" (std = 0: all rewards equal, advantages 0), "z-score"
    (std >= 10 eps: eps changes the advantages by under 10%), "damped"
    (std <= eps / 10: the advantages are about (R - mean) / eps, shrunk over
    10 times), else "transition".
    """
    std = _checks.non_negative(std, "std")
    eps = _checks.non_negative(eps, "eps")
    if std == 0:
        return "no spread"
    if std >= REGIME_FACTOR * eps:
        return "z-score"
    if std * REGIME_FACTOR <= eps:
        return "damped"
    return "transition"


def regime_bounds(std: float) -> tuple[float, float]:
    """The eps where the regimes change for a group of spread ``std``.

    Returns (std / 10, 10 std): below the first eps the group is in the
    "z-score" regime, above the second "damped".
    """
    std = _checks.non_negative(std, "std")
    return std / REGIME_FACTOR, std * REGIME_FACTOR


def regime_tour(std: float) -> list[tuple[str, float]]:
    """One eps from the slider (``eps_steps``) inside each regime, for stepping through them.

    [("z-score", ~std/100), ("transition", ~std), ("damped", ~100 std)], each the slider
    value nearest on a log scale; a regime the slider's range cannot reach for this std
    (say "damped" when std > 0.1) is left out; empty when std = 0.
    """
    std = _checks.non_negative(std, "std")
    if std == 0:
        return []
    steps = eps_steps()
    targets = {
        "z-score": std / REGIME_FACTOR**2,
        "transition": std,
        "damped": std * REGIME_FACTOR**2,
    }
    tour = []
    for regime, target in targets.items():
        nearest = float(steps[np.argmin(np.abs(np.log10(steps) - math.log10(target)))])
        if eps_regime(std, nearest) == regime:
            tour.append((regime, nearest))
    return tour


def eps_sweep_frame(rewards, eps_values, *, ddof: int = 1, answers=None) -> pd.DataFrame:
    """``eps_sweep`` as a long table for a chart with a log eps axis.

    One row per (eps, answer): eps, answer (its number in ``answers``, one per reward, as
    typed where an item left out keeps the later numbers; 1..K if None), reward, advantage,
    regime, std (the group's, with ``ddof``), z_score (the eps = 0 value) and
    damped_limit ((R - mean) / eps, what a large eps tends to; inf at eps = 0).
    """
    eps = _checks.eps_values(eps_values)
    r = _checks.one_group(rewards)
    numbers = _checks.answer_numbers(answers, r.size)
    advantages = eps_sweep(r, eps, ddof=ddof)
    trace = advantage_trace(r, convention="zscore", ddof=ddof, eps=0.0)
    std = float(trace.std[0])
    group_size = r.size
    with np.errstate(divide="ignore", invalid="ignore"):
        damped = trace.centred[None, :] / eps[:, None]
    damped[:, trace.centred == 0] = 0.0
    return pd.DataFrame(
        {
            "eps": np.repeat(eps, group_size),
            "answer": np.tile(numbers, eps.size),
            "reward": np.tile(r, eps.size),
            "advantage": advantages.ravel(),
            "regime": np.repeat([eps_regime(std, float(e)) for e in eps], group_size),
            "std": std,
            "z_score": np.tile(trace.advantages, eps.size),
            "damped_limit": damped.ravel(),
        }
    )


def all_equal_outcomes(value: float, group_size: int) -> pd.DataFrame:
    """What a group of ``group_size`` equal rewards gets, convention by convention.

    One row per convention in CONVENTIONS (advantage exactly 0: no learning
    signal; grpo_core defines 0/0 as 0 when eps = 0), then two rows for a
    trainer computing in float32 (``float32_advantages``): with eps = 0, where
    0/0 is NaN, or float32 rounding of the mean leaves tiny equal residues that
    the division blows up to full-size advantages of one sign; and with TRL's
    eps 1e-4, which keeps them near 0. Columns: setting, eps, advantage (the
    first answer's; every answer gets the same), why.
    """
    group_size = _checks.whole(group_size, "group_size", minimum=2)
    rewards = np.full(group_size, _checks.finite(value, "value"))
    rows = []
    for name, conv in CONVENTIONS.items():
        a = group_advantages(rewards, convention=name)
        if conv.scale == "none":
            why = "R - baseline = 0 exactly: nothing to push up or down, no learning signal."
        elif conv.eps > 0:
            why = f"R - mean = 0 and std = 0, so 0 / (0 + {conv.eps:g}) = 0: no learning signal."
        else:
            why = (
                "eps = 0 makes this 0/0; grpo_core defines it as 0 (as np.nan_to_num "
                "does): no learning signal."
            )
        rows.append((name, conv.eps, float(a[0]), why))
    for eps in (0.0, CONVENTIONS["trl"].eps):
        a = float32_advantages(rewards, eps=eps)[0]
        if math.isnan(a):
            why = "0/0 is NaN in floating point: one NaN advantage makes the whole loss NaN."
        elif a == 0:
            why = f"the float32 mean is exact here, so 0 / (0 + {eps:g}) = 0."
        elif eps == 0:
            why = (
                f"float32 rounding left every R - mean equal to the same tiny residue, "
                f"and dividing by their std makes them all {a:.3g}: noise turned into "
                "full-size advantages of one sign."
            )
        else:
            why = f"float32 rounding left a tiny residue; eps {eps:g} keeps it near 0 ({a:.2g})."
        rows.append((f"float32, eps = {eps:g}", eps, a, why))
    return pd.DataFrame(rows, columns=["setting", "eps", "advantage", "why"])
