"""Conventions side by side: the same rewards through every trainer's rule.

``compare_conventions`` (every convention in ``CONVENTIONS``), ``conventions_table``
(the registry in words), ``numpy_snippet`` (a notebook cell per convention),
``scaling_comparison`` (TRL's scale_rewards group / batch / none) and
``sample_to_population_ratio`` (the ddof factor). Sources: each convention's
``source`` in ``grpo_core.conventions``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grpo_core import _checks
from grpo_core.advantages import advantage_trace, group_advantages
from grpo_core.conventions import CONVENTIONS, get_convention
from grpo_core.format import shortest


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


def compare_conventions(
    rewards, *, group_size=None, group_ids=None, answers=None
) -> ConventionComparison:
    """Advantages of ``rewards`` under every convention in CONVENTIONS, side by side.

    rewards: (K,) one group, (N,) cut into groups of ``group_size`` or grouped
    by ``group_ids`` (one label per reward, as verl's uid; sizes may differ), or
    (num_prompts, K). A convention that refuses the input (most refuse K = 1;
    verl passes a lone reward through, zscore gives it 0) gets a NaN column
    and its reason in ``refusals``. Bad rewards (NaN, text) raise ValueError.
    answers: per reward, its answer's number in the frame (``AdvantageTrace.to_frame``).
    """
    # zscore refuses nothing, so this validates the rewards themselves.
    grouping = {"group_size": group_size, "group_ids": group_ids}
    base = advantage_trace(rewards, convention="zscore", **grouping).to_frame(answers)
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
                "divides by": {
                    "group": "group std + eps",
                    "batch": "batch std + eps",
                    "leave-one-out": "std of the other K-1 + eps (none where 0)",
                    "whiten": "batch std of the centred values, at least eps",
                }.get(c.scale, "nothing"),
                "std": ("sample (ddof=1)" if c.ddof else "population (ddof=0)") if scaled else "–",
                "eps": f"{c.eps:g}" if scaled else "–",
                "clip (OpenRLHF: the reward, before KL)": f"±{c.clip:g}"
                if c.clip is not None
                else "none",
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
    r = _checks.float_rewards(rewards)
    r = r[None, :] if r.ndim == 1 else r
    if r.shape[1] < 2:
        raise ValueError("the one-liners need at least 2 answers per prompt (K >= 2).")
    rows = ",\n    ".join("[" + ", ".join(shortest(x) for x in row) + "]" for row in r)
    return (
        "import numpy as np\n\n"
        f"R = np.array([\n    {rows},\n])  # rewards: one row per prompt, K = {r.shape[1]}\n"
        f"{conv.code}\n"
        "print(A)\n"
    )


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


def scaling_comparison(
    rewards, *, group_size=None, group_ids=None, answers=None
) -> ScalingComparison:
    """Group scaling, batch scaling and none, side by side (TRL's scale_rewards).

    rewards: (num_prompts, K), or (N,) with ``group_size`` or ``group_ids``. Every mode
    subtracts the group mean; "group" divides by the group std + 1e-4,
    "batch" by the std of the whole batch + 1e-4, "none" (Dr. GRPO) by nothing.
    answers: per reward, its answer's number in the frame (``AdvantageTrace.to_frame``).
    """
    grouping = {"group_size": group_size, "group_ids": group_ids}
    trace = advantage_trace(rewards, convention="trl", **grouping)
    frame = trace.to_frame(answers)[["prompt", "answer", "reward"]].copy()
    for mode in SCALING_MODES:
        a = group_advantages(rewards, convention="trl", scale=mode, **grouping)
        frame[mode] = np.ravel(a)
    mean_abs = frame.groupby("prompt")[list(SCALING_MODES)].agg(lambda a: a.abs().mean())
    batch = advantage_trace(rewards, convention="trl-batch", **grouping)
    return ScalingComparison(
        frame=frame, mean_abs=mean_abs, group_std=trace.std, batch_std=float(batch.batch_std)
    )


def sample_to_population_ratio(group_size: int) -> float:
    """sqrt((K-1)/K): an advantage with the sample std (ddof=1) over one with the population std.

    (The sample std is larger by sqrt(K/(K-1)), so its advantages are smaller.)
    """
    group_size = _checks.whole(group_size, "group_size", minimum=1)
    return float(np.sqrt((group_size - 1) / group_size))
