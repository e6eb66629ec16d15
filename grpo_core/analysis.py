"""The numbers behind the "Epsilon and variants lab": eps, conventions, difficulty, scaling.

Five topics, one section each, every advantage computed through
``group_advantages`` / ``advantage_trace`` (the one exception is
``float32_advantages``, which replays the formula in float32 on purpose):

- eps: ``eps_sweep``, ``eps_regime``, ``LIBRARY_EPS``, ``all_equal_outcomes``,
  ``float32_advantages``, ``precision_report``; ``eps_steps`` and ``eps_grid`` for a
  log slider and a log axis.
- conventions side by side: ``compare_conventions``, ``explain_differences``,
  ``conventions_table``, ``numpy_snippet``.
- difficulty bias and Dr. GRPO (binary rewards, pass rate p): ``binary_advantages``,
  ``dr_grpo_binary_advantages``, ``std_weight``, ``sampled_binary_groups``,
  ``difficulty_bias_frame``, ``explain_difficulty_bias``; ``pass_rate_grid`` and
  ``group_pass_rates`` for the p axis.
- zero-spread groups and DAPO's dynamic sampling: ``zero_spread_probability``,
  ``difficulty_pool``, ``simulate_dynamic_sampling``.
- batch vs group scaling: ``scaling_comparison``.

Sources: shared/GRPO_NOTES.md; Dr. GRPO (arXiv 2503.20783); DAPO (arXiv 2503.14476).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core.advantages import advantage_trace, group_advantages
from grpo_core.conventions import CONVENTIONS, get_convention
from grpo_core.links import format_number
from grpo_core.rewards import binary_verifier

# --- eps ------------------------------------------------------------------------------

EPS_RANGE: tuple[float, float] = (1e-12, 1.0)
"""Bounds of the page's log eps slider (eps = 0 is allowed too, with a warning)."""

MIN_POSITIVE_EPS = 1e-300
"""A positive eps below this is refused: 1 / eps would overflow (grpo_core divides
by multiplying with 1 / (std + eps), which turns 0 x inf into NaN on a tie)."""

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
    n = _whole(per_decade, "per_decade", minimum=1)
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
    eps = _eps_array(eps_values)
    r = _one_group(rewards)
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
    std = _non_negative(std, "std")
    eps = _non_negative(eps, "eps")
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
    std = _non_negative(std, "std")
    return std / REGIME_FACTOR, std * REGIME_FACTOR


def regime_tour(std: float) -> list[tuple[str, float]]:
    """One eps from the slider (``eps_steps``) inside each regime, for stepping through them.

    [("z-score", ~std/100), ("transition", ~std), ("damped", ~100 std)], each the slider
    value nearest on a log scale; a regime the slider's range cannot reach for this std
    (say "damped" when std > 0.1) is left out; empty when std = 0.
    """
    std = _non_negative(std, "std")
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


def eps_sweep_frame(rewards, eps_values, *, ddof: int = 1) -> pd.DataFrame:
    """``eps_sweep`` as a long table for a chart with a log eps axis.

    One row per (eps, answer): eps, answer (1..K), reward, advantage, regime,
    std (the group's, with ``ddof``), z_score (the eps = 0 value) and
    damped_limit ((R - mean) / eps, what a large eps tends to; inf at eps = 0).
    """
    eps = _eps_array(eps_values)
    r = _one_group(rewards)
    advantages = eps_sweep(r, eps, ddof=ddof)
    trace = advantage_trace(r, convention="zscore", ddof=ddof, eps=0.0)
    std = float(trace.std[0])
    k = r.size
    with np.errstate(divide="ignore", invalid="ignore"):
        damped = trace.centred[None, :] / eps[:, None]
    damped[:, trace.centred == 0] = 0.0
    return pd.DataFrame(
        {
            "eps": np.repeat(eps, k),
            "answer": np.tile(np.arange(1, k + 1), eps.size),
            "reward": np.tile(r, eps.size),
            "advantage": advantages.ravel(),
            "regime": np.repeat([eps_regime(std, float(e)) for e in eps], k),
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
    k = _whole(group_size, "group_size", minimum=2)
    rewards = np.full(k, _finite(value, "value"))
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


def float32_advantages(rewards, *, eps: float, ddof: int = 1) -> np.ndarray:
    """What a trainer computing in float32 (torch's default) gets, as float64.

    rewards: (K,) one group or (G, K) one group per row. Emulates torch's
    order of operations, every step in float32: cast the rewards, mean,
    centre (R - mean), std = sqrt(sum(centred²) / (K - ddof)), add eps,
    divide. No special case for ties: eps = 0 on an exact tie gives NaN (0/0).
    torch may add in a different order, so the last digit can differ; the
    digits lost to the float32 cast and to cancellation are the same.
    Returns an array of the shape of ``rewards``.
    """
    x = _float_rewards(rewards)
    eps = _non_negative(eps, "eps")
    ddof = _ddof(ddof)
    k = x.shape[-1]
    if k - ddof < 1:
        raise ValueError(
            f"a group of {k} reward(s) has no sample std (ddof=1 divides by K-1 = 0); "
            "give at least 2 rewards or use ddof=0."
        )
    if np.abs(x).max() > np.finfo(np.float32).max:
        raise ValueError("a reward is beyond float32's range (about ±3.4e38).")
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True, dtype=np.float32)
    centred = x32 - mean
    sum_squares = (centred * centred).sum(axis=-1, keepdims=True, dtype=np.float32)
    std = np.sqrt(sum_squares / np.float32(k - ddof))
    with np.errstate(divide="ignore", invalid="ignore"):
        advantages = centred / (std + np.float32(eps))
    return advantages.astype(np.float64)


@dataclass(frozen=True, eq=False)
class PrecisionReport:
    """One group computed in float64 and in float32 (see ``precision_report``).

    Arrays have shape (K,).
    """

    rewards: np.ndarray
    rewards_float32: np.ndarray
    """The rewards as float32 stores them (shown as float64)."""
    advantages_float64: np.ndarray
    advantages_float32: np.ndarray
    eps: float
    ddof: int
    float32_spacing: float
    """Gap between neighbouring float32 numbers at the largest |reward| (0.0625 near 1e6)."""
    distinct_float64: int
    distinct_float32: int
    """How many different values the rewards still have after the float32 cast."""
    max_abs_error: float
    """max |A_float32 - A_float64| (NaN if float32 gave NaN)."""
    relative_error: float
    """max_abs_error / max |A_float64|: 0 if both are all 0, inf if only float64 is."""

    def to_frame(self) -> pd.DataFrame:
        """One row per answer: reward, its float32 value, both advantages and the error."""
        return pd.DataFrame(
            {
                "answer": np.arange(1, self.rewards.size + 1),
                "reward": self.rewards,
                "reward_float32": self.rewards_float32,
                "advantage_float64": self.advantages_float64,
                "advantage_float32": self.advantages_float32,
                "error": self.advantages_float32 - self.advantages_float64,
            }
        )

    def summary(self) -> str:
        """One plain-words sentence of what float32 did to this group."""
        head = (
            f"Near {np.abs(self.rewards).max():.6g}, float32 numbers are "
            f"{self.float32_spacing:.3g} apart"
        )
        if self.distinct_float32 < self.distinct_float64:
            n = self.distinct_float32
            head += (
                f": the {self.distinct_float64} different rewards become "
                f"{'one value' if n == 1 else f'{n} different values'} in float32"
            )
        largest = int(np.argmax(np.abs(self.advantages_float64)))
        a64 = self.advantages_float64[largest]
        a32 = self.advantages_float32[largest]
        if math.isnan(self.relative_error):
            tail = f"the float32 advantages are NaN (0/0) where float64 gives {a64:.4g}"
        else:
            tail = (
                f"answer {largest + 1}'s advantage is {a32:.4g} in float32 and {a64:.4g} "
                f"in float64 (relative error {self.relative_error:.2g})"
            )
        return f"{head}; {tail}."


def precision_report(rewards, *, eps: float, ddof: int = 1) -> PrecisionReport:
    """One group's advantages in float64 (``group_advantages``) and float32, compared.

    rewards: (K,). Both use (R - mean) / (std + eps) with ``ddof`` and no clamp.
    Rewards around 1e6 with a spread of 1e-3 lose every digit of the spread in
    float32 (its spacing there is 0.0625); modest rewards agree to about 1e-6.
    """
    r = _one_group(rewards)
    _eps_array([_non_negative(eps, "eps")])
    a32 = float32_advantages(r, eps=eps, ddof=ddof)
    a64 = group_advantages(r, convention="zscore", eps=eps, ddof=ddof)
    r32 = r.astype(np.float32)
    error = float(np.abs(a32 - a64).max())
    scale = float(np.abs(a64).max())
    if math.isnan(error):
        relative = math.nan
    elif scale == 0:
        relative = 0.0 if error == 0 else math.inf
    else:
        relative = error / scale
    return PrecisionReport(
        rewards=r,
        rewards_float32=r32.astype(np.float64),
        advantages_float64=a64,
        advantages_float32=a32,
        eps=float(eps),
        ddof=int(ddof),
        float32_spacing=float(np.spacing(np.abs(r32).max())),
        distinct_float64=int(np.unique(r).size),
        distinct_float32=int(np.unique(r32).size),
        max_abs_error=error,
        relative_error=relative,
    )


# --- conventions side by side ------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ConventionComparison:
    """The same rewards through every convention (see ``compare_conventions``)."""

    frame: pd.DataFrame
    """One row per reward: prompt, answer, reward, then one column of advantages per
    convention in CONVENTIONS (NaN where the convention refused the input)."""
    refusals: dict[str, str]
    """Convention name -> why it refused these rewards (e.g. a group of one)."""

    def long(self) -> pd.DataFrame:
        """Columns prompt, answer, reward, convention, advantage: for a grouped bar chart."""
        return self.frame.melt(
            id_vars=["prompt", "answer", "reward"],
            var_name="convention",
            value_name="advantage",
        )


def compare_conventions(rewards, *, group_size=None, group_ids=None) -> ConventionComparison:
    """Advantages of ``rewards`` under every convention in CONVENTIONS, side by side.

    rewards: (K,) one group, (N,) cut into groups of ``group_size`` or grouped
    by ``group_ids`` (one label per reward, as verl's uid; sizes may differ), or
    (num_prompts, K). A convention that refuses the input (most refuse K = 1;
    verl passes a lone reward through, zscore gives it 0) gets a NaN column
    and its reason in ``refusals``. Bad rewards (NaN, text) raise ValueError.
    """
    # zscore refuses nothing, so this validates the rewards themselves.
    grouping = {"group_size": group_size, "group_ids": group_ids}
    base = advantage_trace(rewards, convention="zscore", **grouping).to_frame()
    frame = base[["prompt", "answer", "reward"]].copy()
    refusals: dict[str, str] = {}
    for name in CONVENTIONS:
        try:
            a = group_advantages(rewards, convention=name, **grouping)
        except ValueError as e:
            refusals[name] = str(e)
            frame[name] = np.nan
        else:
            frame[name] = np.ravel(a)
    return ConventionComparison(frame=frame, refusals=refusals)


def explain_differences(rewards, *, group_size=None, group_ids=None) -> list[str]:
    """Plain-words sentences, computed from these rewards, on why the conventions differ.

    Covers what applies: groups of one (verl's pass-through), all-equal groups,
    the ddof factor sqrt(K/(K-1)), eps size, batch vs group scaling,
    OpenRLHF's clamp, Dr. GRPO's and RLOO's unscaled advantages. Each sentence
    ends with its library source from CONVENTIONS. Groups (``group_size`` or
    ``group_ids``, as in ``compare_conventions``) may differ in size, but either
    every group has one reward or every group has at least two (ValueError else).
    """
    grouping = {"group_size": group_size, "group_ids": group_ids}
    comparison = compare_conventions(rewards, **grouping)
    frame = comparison.frame
    zs = advantage_trace(rewards, convention="zscore", **grouping)
    src = {name: f" Source: {c.source}." for name, c in CONVENTIONS.items()}
    # Prompts are named 1..G in order, or by their group id when ids were given.
    names = [str(g + 1) for g in range(len(zs.labels))] if group_ids is None else zs.labels
    sentences: list[str] = []
    lone = zs.sizes == 1
    if lone.any() and not lone.all():
        raise ValueError(
            "some prompts have one reward and others several: compare groups of one "
            "on their own (most trainers refuse them), or give those prompts more answers."
        )

    if lone.all():
        refused = ", ".join(comparison.refusals)
        sentences.append(
            f"Groups of one (K=1): verl passes each lone reward through as R / (1 + "
            f"{CONVENTIONS['verl'].eps:g}) (mean 0, std 1), zscore gives 0, and {refused} "
            "refuse it: with one answer there is nothing to compare." + src["verl"]
        )
        return sentences

    tied = np.flatnonzero(zs.zero_spread)
    if tied.size:
        which = _prompt_list(tied, names)
        sentences.append(
            f"{which} all-equal rewards: every convention gives exactly 0 there, "
            "no learning signal."
        )
    if tied.size == len(zs.labels):
        return sentences

    trl = advantage_trace(rewards, convention="trl", **grouping)
    spread = np.where(zs.zero_spread, -np.inf, trl.std)
    widest = int(np.argmax(spread))  # the group where eps matters least
    k = int(zs.sizes[widest])
    in_widest = np.ravel(zs.group_index) == widest
    i = int(np.flatnonzero(in_widest)[np.argmax(np.abs(np.ravel(zs.advantages)[in_widest]))])
    ratio = frame["zscore"].iloc[i] / frame["verl"].iloc[i]
    factor = math.sqrt(k / (k - 1))
    note = ""
    if abs(ratio / factor - 1) > 1e-3:
        note = (
            f" (here verl's eps {CONVENTIONS['verl'].eps:g} is not small against the std, "
            f"which pulls the ratio to {ratio:.4g}; eps aside it is exactly {factor:.4g})"
        )
    sentences.append(
        f"zscore's numbers are {ratio:.4g} times verl's: zscore divides by the population "
        f"std (ddof=0), verl, TRL and OpenRLHF by the sample std (ddof=1, torch.std), "
        f"which is larger; at K={k} that scales every advantage by sqrt({k}/{k - 1}) = "
        f"{factor:.4g}{note}{_other_sizes(zs.sizes, k)}." + src["verl"]
    )

    narrowest = int(np.argmin(np.where(zs.zero_spread, np.inf, trl.std)))
    std_min = float(trl.std[narrowest])
    in_narrow = np.ravel(zs.group_index) == narrowest
    largest = {
        name: float(np.abs(frame[name].to_numpy()[in_narrow]).max())
        for name in ("trl", "verl", "openrlhf")
    }
    eps_text = ", ".join(f"{lib} {LIBRARY_EPS[lib]:g}" for lib in LIBRARY_EPS)
    if std_min < REGIME_FACTOR * CONVENTIONS["trl"].eps:
        sentences.append(
            f"eps decides the numbers here: {_prompt_name(narrowest, names)} "
            f"has std {std_min:.3g}, not far above the eps values ({eps_text}). "
            f"Its largest |advantage| is {largest['trl']:.3g} in TRL, {largest['verl']:.3g} "
            f"in verl and {largest['openrlhf']:.3g} in OpenRLHF." + src["trl"]
        )
    else:
        change = np.abs(frame["trl"] - frame["verl"]).max() / np.abs(frame["verl"]).max()
        sentences.append(
            f"eps hardly matters here: every group's std (smallest {std_min:.3g}) is far above "
            f"the eps values ({eps_text}), so TRL's and verl's advantages differ by "
            f"{100 * change:.2g}% at most." + src["trl"]
        )

    batch = advantage_trace(rewards, convention="trl-batch", **grouping)
    if len(zs.labels) == 1:
        sentences.append(
            "With one prompt the batch is the group, so trl-batch equals trl." + src["trl-batch"]
        )
    else:
        live = np.flatnonzero(~zs.zero_spread)
        stds = ", ".join(f"{s:.3g}" for s in trl.std[live[:6]]) + (", ..." if live.size > 6 else "")
        factor = (trl.std[live] + CONVENTIONS["trl"].eps) / (
            batch.batch_std + CONVENTIONS["trl"].eps
        )
        sentences.append(
            f"trl-batch divides every group by the batch std {batch.batch_std:.3g} instead of "
            f"each group's own ({stds}): its advantages are {_span(factor)} times trl's, "
            "so prompts on a wider reward scale push harder." + src["trl-batch"]
        )

    clamp = CONVENTIONS["openrlhf"].clip
    ort = advantage_trace(rewards, convention="openrlhf", **grouping)
    n_clamped = int(ort.clamped.sum())
    if n_clamped:
        free = group_advantages(rewards, convention="openrlhf", clip=math.inf, **grouping)
        biggest = float(np.abs(np.ravel(free)).max())
        sentences.append(
            f"OpenRLHF clamped {n_clamped} advantage{'s' * (n_clamped > 1)} to ±{clamp:g} "
            f"(the largest would have been {biggest:.3g})." + src["openrlhf"]
        )
    else:
        sentences.append(
            f"OpenRLHF's clamp to ±{clamp:g} did not bite: its largest |advantage| is "
            f"{np.abs(frame['openrlhf']).max():.3g}." + src["openrlhf"]
        )

    centred_max = np.abs(frame["dr-grpo"]).max()
    sentences.append(
        'dr-grpo (TRL scale_rewards="none", Dr. GRPO) does not divide by a std: its '
        f"advantages are R - mean in reward units (largest |A| {centred_max:.3g}), "
        "so groups with a wider spread push harder." + src["dr-grpo"]
    )
    nonzero = frame["dr-grpo"].to_numpy() != 0
    loo_ratio = frame["rloo"].to_numpy()[nonzero] / frame["dr-grpo"].to_numpy()[nonzero]
    sizes = np.ravel(zs.sizes[zs.group_index])[nonzero]
    factors = [(int(s), loo_ratio[sizes == s].mean()) for s in np.unique(sizes)]
    if len(factors) == 1:
        ((s, loo),) = factors
        factor_text = f"K/(K-1) = {s}/{s - 1} = {loo:.4g}"
    else:
        shown = ", ".join(f"{s}/{s - 1} = {loo:.4g} at K={s}" for s, loo in factors)
        factor_text = f"K/(K-1) for its prompt's K ({shown})"
    sentences.append(
        "rloo subtracts the mean of the other K-1 answers, which makes every advantage "
        f"{factor_text} times dr-grpo's R - mean." + src["rloo"]
    )
    return sentences


def _other_sizes(sizes: np.ndarray, k: int) -> str:
    """ "; prompts with K=3, 5 get sqrt(3/2) = 1.225, ..." when group sizes differ."""
    others = [int(s) for s in np.unique(sizes) if s != k]
    if not others:
        return ""
    shown = ", ".join(f"sqrt({s}/{s - 1}) = {math.sqrt(s / (s - 1)):.4g} at K={s}" for s in others)
    return f"; prompts with another K get {shown}"


def conventions_table() -> pd.DataFrame:
    """The registry in words, one row per convention in CONVENTIONS: convention,
    library, baseline, divides by, std, eps, clamp, K = 1 (what a group of one
    gets) and source."""
    rows = []
    for name, c in CONVENTIONS.items():
        scaled = c.scale != "none"
        rows.append(
            {
                "convention": name,
                "library": c.library,
                "baseline": "group mean" if c.baseline == "mean" else "mean of the other K-1",
                "divides by": {"group": "group std + eps", "batch": "batch std + eps"}.get(
                    c.scale, "nothing"
                ),
                "std": ("sample (ddof=1)" if c.ddof else "population (ddof=0)") if scaled else "–",
                "eps": f"{c.eps:g}" if scaled else "–",
                "clamp": f"±{c.clip:g}" if c.clip is not None else "none",
                "K = 1": {
                    "refuse": "refused",
                    "pass-through": f"A = R / (1 + {c.eps:g})",
                    "zero": "A = 0",
                }[c.singleton],
                "source": c.source,
            }
        )
    return pd.DataFrame(rows)


def numpy_snippet(name: str, rewards) -> str:
    """A notebook cell computing convention ``name``'s advantages with numpy alone.

    rewards: (num_prompts, K), or (K,) for one prompt, K >= 2. The cell sets R
    (shape (num_prompts, K), each number written exactly), runs
    CONVENTIONS[name].code and prints A: the same numbers as
    ``group_advantages(rewards, convention=name)``, up to the last digit.
    """
    conv = get_convention(name)
    r = _float_rewards(rewards)
    r = r[None, :] if r.ndim == 1 else r
    if r.shape[1] < 2:
        raise ValueError("the one-liners need at least 2 answers per prompt (K >= 2).")
    rows = ",\n    ".join("[" + ", ".join(format_number(x) for x in row) + "]" for row in r)
    return (
        "import numpy as np\n\n"
        f"R = np.array([\n    {rows},\n])  # rewards: one row per prompt, K = {r.shape[1]}\n"
        f"{conv.code}\n"
        "print(A)\n"
    )


# --- difficulty bias and Dr. GRPO (binary rewards) ------------------------------------


def binary_advantages(p, *, ddof: int = 0, K=None, eps: float = 0.0):
    """GRPO advantages of a correct (reward 1) and a wrong (0) answer at pass rate p.

    p: the fraction of the group's answers that are correct, any shape.
    With std = sqrt(p(1-p)) (ddof=0) or sqrt(p(1-p) K/(K-1)) (ddof=1, needs K):
        correct = (1-p) / (std + eps)     = sqrt((1-p)/p)   at eps = 0, ddof = 0
        wrong   =   -p  / (std + eps)     = -sqrt(p/(1-p))
    ddof=1 multiplies both by sqrt((K-1)/K) (at eps = 0). At p = 0 or 1 every
    answer is equal and gets 0; the answer that does not exist there (correct
    at p = 0, wrong at p = 1) is NaN. Returns (correct, wrong), each of p's shape.
    """
    p = _probabilities(p)
    std = np.sqrt(p * (1 - p) * _ddof_factor(ddof, K))
    eps = _non_negative(eps, "eps")
    with np.errstate(divide="ignore", invalid="ignore"):
        correct = (1 - p) / (std + eps)
        wrong = -p / (std + eps)
    return _binary_edges(p, correct, wrong)


def dr_grpo_binary_advantages(p):
    """Dr. GRPO's advantages at pass rate p: correct 1 - p, wrong -p (R - mean, no std).

    Edges as in ``binary_advantages``. Returns (correct, wrong), each of p's shape.
    Source: Dr. GRPO, arXiv 2503.20783 (TRL scale_rewards="none").
    """
    p = _probabilities(p)
    return _binary_edges(p, 1 - p, -p)


def std_weight(p, *, ddof: int = 0, K=None):
    """The weight GRPO's std division gives a binary group at pass rate p: 1 / std.

    1 / sqrt(p(1-p)) for ddof=0, times sqrt((K-1)/K) for ddof=1 (needs K).
    2 at p = 0.5, growing without bound as p nears 0 or 1 (inf there: the
    group then has no spread and gets no signal at all). Dr. GRPO's weight is 1.
    Returns p's shape.
    """
    p = _probabilities(p)
    with np.errstate(divide="ignore"):
        return _scalar_or_array(1 / np.sqrt(p * (1 - p) * _ddof_factor(ddof, K)))


def difficulty_bias_frame(p, *, ddof: int = 0, K=None, eps: float = 0.0) -> pd.DataFrame:
    """GRPO vs Dr. GRPO on binary rewards, as a long table for charts.

    p: (P,) pass rates. One row per (p, method, answer) with method "GRPO" or
    "Dr. GRPO", answer "correct" or "wrong", the advantage, and weight (1 / std
    for GRPO, 1 for Dr. GRPO).
    """
    p = np.atleast_1d(_probabilities(p)).ravel()
    grpo = binary_advantages(p, ddof=ddof, K=K, eps=eps)
    dr = dr_grpo_binary_advantages(p)
    weight = np.atleast_1d(std_weight(p, ddof=ddof, K=K))
    parts = []
    for method, (correct, wrong), w in (
        ("GRPO", grpo, weight),
        ("Dr. GRPO", dr, np.ones_like(p)),
    ):
        for answer, a in (("correct", correct), ("wrong", wrong)):
            parts.append(
                pd.DataFrame(
                    {"p": p, "method": method, "answer": answer, "advantage": a, "weight": w}
                )
            )
    return pd.concat(parts, ignore_index=True)


def explain_difficulty_bias(p_values=(0.05, 0.5, 0.95), *, ddof: int = 0, K=None) -> list[str]:
    """Plain-words sentences, with numbers, on GRPO's bias toward too-easy and too-hard prompts.

    ddof, K: as in ``std_weight`` (ddof=1 needs K). With K, one more sentence gives
    the largest weight a group of K answers can get (one right or one wrong answer).
    """
    p = np.atleast_1d(_probabilities(p_values)).ravel()
    mid = float(std_weight(0.5, ddof=ddof, K=K))
    if _ddof(ddof) == 0:
        std_text, weight_text = "sqrt(p(1-p))", "1/sqrt(p(1-p))"
    else:
        k = _whole(K, "K", minimum=2)
        std_text = f"sqrt(p(1-p) K/(K-1)) (sample std, ddof=1, K/(K-1) = {k}/{k - 1})"
        weight_text = "1/std"
    sentences = [
        f"With right/wrong rewards a group's std is {std_text}, where p is its pass rate. "
        f"GRPO divides by it, so each prompt's push is weighted by {weight_text}: "
        f"{mid:.3g} at p = 0.5, and without bound as p nears 0 (too hard) or 1 (too easy)."
    ]
    for q in p:
        if q in (0.0, 1.0):
            sentences.append(
                f"At p = {q:g} every answer is {'wrong' if q == 0 else 'right'}: "
                "no spread, advantages 0, no learning signal."
            )
            continue
        w = float(std_weight(q, ddof=ddof, K=K))
        correct, wrong = binary_advantages(q, ddof=ddof, K=K)
        dr_correct, dr_wrong = dr_grpo_binary_advantages(q)
        sentences.append(
            f"At p = {q:g} GRPO gives a right answer {correct:.3g} and a wrong one {wrong:.3g} "
            f"(weight {w:.3g}, {w / mid:.3g} times the weight at p = 0.5); Dr. GRPO gives "
            f"{dr_correct:.3g} and {dr_wrong:.3g}."
        )
    if K is not None:
        k = _whole(K, "K", minimum=2)
        top = float(std_weight(1 / k, ddof=ddof, K=k))
        sentences.append(
            f"A group of K = {k} answers with any spread has p between 1/{k} and {k - 1}/{k}, "
            f"so the largest weight GRPO gives a group is {top:.3g} (one right or one wrong "
            f"answer), {top / mid:.3g} times the weight at p = 0.5."
        )
    sentences.append(
        "Dr. GRPO (arXiv 2503.20783) drops the std: every prompt's push is just R - mean, "
        "so prompts the model almost always or almost never solves are no longer up-weighted."
    )
    return sentences


def pass_rate_grid(points: int = 99) -> np.ndarray:
    """``points`` evenly spaced pass rates strictly inside (0, 1), for a curve:
    j / (points + 1) for j = 1..points (99 points: 0.01, 0.02, ..., 0.99)."""
    n = _whole(points, "points", minimum=1)
    return np.arange(1, n + 1) / (n + 1)


def group_pass_rates(K: int) -> np.ndarray:
    """The pass rates a group of K right/wrong answers can have: j / K for j = 0..K,
    shape (K + 1,). Only j = 1..K-1 have spread (and a learning signal)."""
    k = _whole(K, "K", minimum=1)
    return np.arange(k + 1) / k


@dataclass(frozen=True, eq=False)
class SampledBinaryGroups:
    """Sampled groups of binary rewards (see ``sampled_binary_groups``)."""

    groups: pd.DataFrame
    """One row per sampled group WITH spread: p (true pass rate), p_hat (the
    group's fraction correct), std (the group's, with ddof) and weight = 1 / std."""
    summary: pd.DataFrame
    """One row per p: p, zero_spread_fraction (sampled), zero_spread_probability
    (p^K + (1-p)^K), mean_weight (over groups with spread, NaN if none) and
    analytic_weight (``std_weight``)."""


def sampled_binary_groups(
    p_values, K: int, rng: np.random.Generator, groups_per_p: int, *, ddof: int = 0
) -> SampledBinaryGroups:
    """Sample ``groups_per_p`` groups of K right/wrong answers at each pass rate.

    p_values: (P,). Each group's std comes from ``advantage_trace`` (zscore with
    ``ddof``); all-equal groups have no std to divide by and are left out of
    ``groups``, their fraction reported in ``summary``. A group with spread has
    p_hat between 1/K and 1 - 1/K, so its weight is at most 1 / sqrt((1/K)(1 - 1/K))
    (ddof=0): near p = 0 or 1 the sampled weights stay below the analytic curve
    at p, while lying exactly on it at p_hat.
    """
    p = np.atleast_1d(_probabilities(p_values)).ravel()
    k = _whole(K, "K", minimum=2)
    n = _whole(groups_per_p, "groups_per_p", minimum=1)
    pass_rate = np.repeat(p, n)
    rewards = binary_verifier(rng, pass_rate.size, k, pass_rate)
    trace = advantage_trace(rewards, convention="zscore", ddof=ddof)
    live = ~trace.zero_spread
    groups = pd.DataFrame(
        {
            "p": pass_rate[live],
            "p_hat": rewards[live].mean(axis=1),
            "std": trace.std[live],
            "weight": 1 / trace.std[live],
        }
    )
    mean_weight = groups.groupby("p")["weight"].mean().reindex(p).to_numpy()
    summary = pd.DataFrame(
        {
            "p": p,
            "zero_spread_fraction": trace.zero_spread.reshape(p.size, n).mean(axis=1),
            "zero_spread_probability": zero_spread_probability(p, k),
            "mean_weight": mean_weight,
            "analytic_weight": std_weight(p, ddof=ddof, K=k),
        }
    )
    return SampledBinaryGroups(groups=groups, summary=summary)


# --- zero-spread groups and DAPO's dynamic sampling ----------------------------------


def zero_spread_probability(p, K):
    """Chance that K independent right/wrong answers at pass rate p are all equal.

    p^K + (1-p)^K (all right or all wrong). p in [0, 1] and whole K >= 1
    broadcast against each other (K = 1 always gives 1). Such a group has zero
    std and zero advantages: it carries no learning signal.
    """
    p = _probabilities(p)
    k = np.asarray(K)
    if k.dtype.kind not in "iu" or (k.size and k.min() < 1):
        raise ValueError(f"K must be a whole number >= 1 (or an array of them), got {K!r}.")
    try:
        out = np.power(p, k) + np.power(1 - p, k)
    except ValueError:
        raise ValueError(
            f"p of shape {np.shape(p)} and K of shape {k.shape} do not broadcast together."
        ) from None
    return _scalar_or_array(out)


@dataclass(frozen=True)
class DifficultyPool:
    """A shape for the pass rates of a pool of prompts: Beta(a, b)."""

    title: str
    lesson: str
    a: float
    b: float


DIFFICULTY_POOLS: dict[str, DifficultyPool] = {
    "spread": DifficultyPool(
        "Evenly spread", "Pass rates spread evenly between 0 and 1 (Beta(1, 1)).", 1.0, 1.0
    ),
    "polarised": DifficultyPool(
        "Mostly solved or unsolved",
        "Most prompts are solved almost always or almost never (Beta(0.3, 0.3)), "
        "as on many math sets.",
        0.3,
        0.3,
    ),
    "easy": DifficultyPool(
        "Mostly easy (late in training)",
        "The model solves most prompts most of the time (Beta(4, 1)).",
        4.0,
        1.0,
    ),
    "hard": DifficultyPool(
        "Mostly hard (early in training)",
        "The model rarely solves most prompts (Beta(1, 4)).",
        1.0,
        4.0,
    ),
}


def difficulty_pool(kind: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """Pass rates of ``size`` prompts drawn from DIFFICULTY_POOLS[kind]: shape (size,)."""
    if kind not in DIFFICULTY_POOLS:
        raise ValueError(f"kind must be one of {', '.join(DIFFICULTY_POOLS)}, got {kind!r}.")
    n = _whole(size, "size", minimum=1)
    pool = DIFFICULTY_POOLS[kind]
    return rng.beta(pool.a, pool.b, size=n)


@dataclass(frozen=True, eq=False)
class DynamicSampling:
    """One batch before and after DAPO's dynamic sampling (``simulate_dynamic_sampling``)."""

    group_size: int
    batch_size: int
    batch_pass_rates: np.ndarray
    """(batch_size,) pass rates of the first batch's prompts."""
    batch_signal: np.ndarray
    """(batch_size,) bool: the group's rewards are not all equal."""
    final_pass_rates: np.ndarray
    """(after_resample,) pass rates of the prompts in the refilled batch."""
    resample_rounds: int
    """Extra batches of batch_size prompts generated to refill."""
    expected_signal_fraction: float
    """1 - mean over the pool of p^K + (1-p)^K: the chance a drawn group carries signal."""

    @property
    def signal_before(self) -> int:
        """Groups with signal in the first batch, before filtering (out of batch_size)."""
        return int(self.batch_signal.sum())

    @property
    def signal_fraction(self) -> float:
        """signal_before / batch_size: the first batch's share of groups with signal."""
        return self.signal_before / self.batch_size

    @property
    def after_filter(self) -> int:
        """Groups left after dropping the all-equal ones: the batch shrinks to this."""
        return self.signal_before

    @property
    def after_resample(self) -> int:
        """Groups in the refilled batch, all with signal; batch_size unless rounds ran out."""
        return int(self.final_pass_rates.size)

    @property
    def extra_samples(self) -> int:
        """Answers generated beyond the first batch: resample_rounds x batch_size x K."""
        return self.resample_rounds * self.batch_size * self.group_size

    def summary(self) -> pd.DataFrame:
        """One row per stage: groups in the batch, groups with signal, groups without
        (all-equal rewards) and answers generated so far."""
        first = self.batch_size * self.group_size
        return pd.DataFrame(
            {
                "stage": ["before filtering", "after filtering", "after resampling"],
                "groups": [self.batch_size, self.after_filter, self.after_resample],
                "with_signal": [self.signal_before, self.after_filter, self.after_resample],
                "without_signal": [self.batch_size - self.signal_before, 0, 0],
                "answers_generated": [first, first, first + self.extra_samples],
            }
        )


def simulate_dynamic_sampling(
    pass_rates,
    K: int,
    batch_size: int,
    rng: np.random.Generator,
    *,
    max_resample_rounds: int = 10,
) -> DynamicSampling:
    """DAPO's dynamic sampling (arXiv 2503.14476) on simulated right/wrong rewards.

    pass_rates: (P,) the pool of prompts' pass rates (a spread of difficulties).
    A batch is ``batch_size`` prompts drawn from the pool with replacement, K
    answers each. Filtering drops the groups whose K rewards are all equal;
    resampling generates further batches, keeping only groups with signal,
    until ``batch_size`` are collected (extras are cut off, as in the DAPO
    recipe) or ``max_resample_rounds`` extra batches were spent.
    """
    pool = np.atleast_1d(_probabilities(pass_rates)).ravel()
    if pool.size == 0:
        raise ValueError("pass_rates is empty: give at least one prompt's pass rate.")
    k = _whole(K, "K", minimum=2)
    b = _whole(batch_size, "batch_size", minimum=1)
    rounds_allowed = _whole(max_resample_rounds, "max_resample_rounds", minimum=0)

    def generate():
        p = rng.choice(pool, size=b)
        rewards = binary_verifier(rng, b, k, p)
        return p, rewards.min(axis=1) != rewards.max(axis=1)

    first_p, first_signal = generate()
    kept = [first_p[first_signal]]
    collected = int(first_signal.sum())
    rounds = 0
    while collected < b and rounds < rounds_allowed:
        p, signal = generate()
        kept.append(p[signal])
        collected += int(signal.sum())
        rounds += 1
    return DynamicSampling(
        group_size=k,
        batch_size=b,
        batch_pass_rates=first_p,
        batch_signal=first_signal,
        final_pass_rates=np.concatenate(kept)[:b],
        resample_rounds=rounds,
        expected_signal_fraction=float(1 - np.mean(zero_spread_probability(pool, k))),
    )


# --- batch vs group scaling ------------------------------------------------------------

SCALING_MODES: tuple[str, ...] = ("group", "batch", "none")


@dataclass(frozen=True, eq=False)
class ScalingComparison:
    """TRL's three scale_rewards modes on the same rewards (see ``scaling_comparison``)."""

    frame: pd.DataFrame
    """One row per reward: prompt, answer, reward, and the advantage under each
    mode: group, batch, none."""
    mean_abs: pd.DataFrame
    """Index prompt, columns group, batch, none: mean |advantage| of each prompt."""
    group_std: np.ndarray
    """(G,) each prompt's std (ddof=1)."""
    batch_std: float
    """The std of every reward in the batch (ddof=1)."""

    def long(self) -> pd.DataFrame:
        """Columns prompt, answer, reward, scale, advantage: for side-by-side charts."""
        return self.frame.melt(
            id_vars=["prompt", "answer", "reward"], var_name="scale", value_name="advantage"
        )


def scaling_comparison(rewards, *, group_size=None, group_ids=None) -> ScalingComparison:
    """Group scaling, batch scaling and none, side by side (TRL's scale_rewards).

    rewards: (num_prompts, K), or (N,) with ``group_size`` or ``group_ids``. Every mode
    subtracts the group mean; "group" divides by the group std + 1e-4,
    "batch" by the std of the whole batch + 1e-4, "none" (Dr. GRPO) by nothing.
    """
    grouping = {"group_size": group_size, "group_ids": group_ids}
    trace = advantage_trace(rewards, convention="trl", **grouping)
    frame = trace.to_frame()[["prompt", "answer", "reward"]].copy()
    for mode in SCALING_MODES:
        a = group_advantages(rewards, convention="trl", scale=mode, **grouping)
        frame[mode] = np.ravel(a)
    mean_abs = frame.groupby("prompt")[list(SCALING_MODES)].agg(lambda a: a.abs().mean())
    batch = advantage_trace(rewards, convention="trl-batch", **grouping)
    return ScalingComparison(
        frame=frame, mean_abs=mean_abs, group_std=trace.std, batch_std=float(batch.batch_std)
    )


# --- validation ----------------------------------------------------------------------------


def _is_real(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _finite(x, name: str) -> float:
    if not _is_real(x) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}.")
    return float(x)


def _non_negative(x, name: str) -> float:
    if not _is_real(x) or not math.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {x!r}.")
    return float(x)


def _whole(x, name: str, *, minimum: int) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {x!r}.")
    return int(x)


def _ddof(ddof) -> int:
    if isinstance(ddof, bool) or ddof not in (0, 1):
        raise ValueError(
            f"ddof must be 0 (population std, divide by K) or 1 "
            f"(sample std, divide by K-1), got {ddof!r}."
        )
    return int(ddof)


def _ddof_factor(ddof, K) -> float:
    """std² / (p(1-p)): 1 for ddof=0, K/(K-1) for ddof=1."""
    if _ddof(ddof) == 0:
        return 1.0
    if K is None:
        raise ValueError("ddof=1 needs the group size K (the sample std divides by K-1).")
    k = _whole(K, "K", minimum=2)
    return k / (k - 1)


def _eps_array(eps_values) -> np.ndarray:
    try:
        eps = np.asarray(eps_values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("eps_values must be a list of numbers.") from None
    if eps.ndim != 1 or eps.size == 0:
        raise ValueError("eps_values must be a non-empty list of numbers.")
    if not np.all(np.isfinite(eps) & (eps >= 0)):
        bad = eps[~(np.isfinite(eps) & (eps >= 0))][0]
        raise ValueError(f"every eps must be a finite number >= 0, got {bad!r}.")
    tiny = (eps > 0) & (eps < MIN_POSITIVE_EPS)
    if tiny.any():
        raise ValueError(
            f"eps must be 0 or at least {MIN_POSITIVE_EPS:g}, got {eps[tiny][0]!r}: "
            "a smaller eps makes 1/eps overflow."
        )
    return eps


def _float_rewards(rewards) -> np.ndarray:
    """float64 (K,) or (G, K), finite and non-empty."""
    if isinstance(rewards, (str, bytes)):
        raise ValueError("rewards must be numbers, not text.")
    try:
        x = np.asarray(rewards, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            "rewards must be a list of numbers (or equal-length rows of them)."
        ) from None
    if x.ndim not in (1, 2):
        raise ValueError(f"rewards must be 1-D or 2-D (prompts x answers), got {x.ndim}-D.")
    if x.size == 0:
        raise ValueError("no rewards given: a group needs at least one reward.")
    if not np.all(np.isfinite(x)):
        raise ValueError("every reward must be a finite number (no NaN or infinity).")
    return x


def _one_group(rewards) -> np.ndarray:
    x = _float_rewards(rewards)
    if x.ndim != 1:
        raise ValueError("give one group: a flat list of rewards (K,), not a table.")
    return x


def _probabilities(p) -> np.ndarray:
    try:
        arr = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"p must be a probability or an array of them, got {p!r}.") from None
    if not np.all((arr >= 0) & (arr <= 1)):
        raise ValueError("a pass rate p must lie between 0 and 1.")
    return arr


def _binary_edges(p: np.ndarray, correct, wrong):
    """At p = 0 or 1 every answer is equal (advantage 0); the missing answer is NaN."""
    correct = np.where(p == 1, 0.0, np.where(p == 0, np.nan, correct))
    wrong = np.where(p == 0, 0.0, np.where(p == 1, np.nan, wrong))
    return _scalar_or_array(correct), _scalar_or_array(wrong)


def _scalar_or_array(x: np.ndarray):
    """A float for 0-d results, else the array."""
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def _span(x: np.ndarray) -> str:
    """ "a" or "a to b" for the range of ``x``, 3 significant digits."""
    low, high = f"{x.min():.3g}", f"{x.max():.3g}"
    return low if low == high else f"{low} to {high}"


def _prompt_name(g: int, names) -> str:
    return "the group" if len(names) == 1 else f"prompt {names[g]}"


def _prompt_list(groups: np.ndarray, names) -> str:
    if len(names) == 1:
        return "The group has"
    shown = [f"{names[g]}" for g in groups[:6]] + (["..."] if groups.size > 6 else [])
    return (
        f"Prompt{'s' * (groups.size > 1)} {', '.join(shown)} {'have' if groups.size > 1 else 'has'}"
    )
