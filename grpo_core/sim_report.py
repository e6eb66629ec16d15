"""Reading a simulator run: long tables for its charts and plain sentences for its page.

Every number comes from a ``SimResult`` of ``grpo_core.simulate``; E estimators,
S seeds, ``steps`` training steps.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from grpo_core.conventions import get_convention
from grpo_core.estimators import ESTIMATORS
from grpo_core.simulate import SimResult


def step_curves(result: SimResult) -> pd.DataFrame:
    """Long table, one row per estimator and training step 0..steps-1: ``estimator``,
    ``step``, ``zero_spread`` and ``solved`` (means over seeds of the fractions of
    prompts), ``grad_variance`` (already averaged over seeds), ``gradient_cosine`` (mean
    over seeds of the step's cosine to the exact gradient)."""
    e, _, t = result.zero_spread_fraction.shape
    return pd.DataFrame(
        {
            "estimator": np.repeat(result.estimators, t),
            "step": np.tile(np.arange(t), e),
            "zero_spread": result.zero_spread_fraction.mean(1).ravel(),
            "solved": result.solved_fraction.mean(1).ravel(),
            "grad_variance": result.grad_variance.ravel(),
            "gradient_cosine": result.gradient_cosine.mean(1).ravel(),
        }
    )


def critic_error_bands(result: SimResult) -> pd.DataFrame | None:
    """The critic's value error per step over seeds: ``step``, ``mean``, ``min``, ``max``;
    None when "ppo-critic" was not run."""
    err = result.critic_value_error
    if err is None:
        return None
    return pd.DataFrame(
        {
            "step": np.arange(err.shape[1]),
            "mean": err.mean(0),
            "min": err.min(0),
            "max": err.max(0),
        }
    )


def estimator_table(result: SimResult) -> pd.DataFrame:
    """One row per estimator: ``estimator``, ``final_accuracy`` (mean over seeds),
    ``final_min``, ``final_max`` (over seeds), ``grad_variance`` (mean over training;
    NaN when K = 1), ``gradient_cosine`` (mean over seeds and training of the step's cosine
    to the exact gradient), ``zero_spread_first``, ``zero_spread_last`` (mean over seeds,
    at the first and last step)."""
    final = result.accuracy[:, :, -1]
    zs = result.zero_spread_fraction.mean(1)
    with np.errstate(invalid="ignore"):
        noise = result.grad_variance.mean(1)
    return pd.DataFrame(
        {
            "estimator": list(result.estimators),
            "final_accuracy": final.mean(1),
            "final_min": final.min(1),
            "final_max": final.max(1),
            "grad_variance": noise,
            "gradient_cosine": result.gradient_cosine.mean((1, 2)),
            "zero_spread_first": zs[:, 0],
            "zero_spread_last": zs[:, -1],
        }
    )


BANDS = ("min-max", "std")


def accuracy_band_limits(result: SimResult, band: str = "min-max") -> pd.DataFrame:
    """``accuracy_bands`` with the band to shade: ``lower``/``upper`` are min and max over
    seeds ("min-max") or mean -/+ one std over seeds ("std")."""
    if band not in BANDS:
        raise ValueError(f"unknown band {band!r}; choose one of: {', '.join(BANDS)}.")
    frame = result.accuracy_bands()
    if band == "min-max":
        frame["lower"], frame["upper"] = frame["min"], frame["max"]
    else:
        frame["lower"], frame["upper"] = frame["mean"] - frame["std"], frame["mean"] + frame["std"]
    return frame


def summary_sentences(result: SimResult) -> list[str]:
    """A few plain sentences reading ``result``, every figure taken from its arrays."""
    cfg = result.config
    names = result.estimators
    label = [ESTIMATORS[x].reading for x in names]
    final = result.accuracy[:, :, -1]  # (E, S)
    start = float(result.accuracy[0, :, 0].mean())
    order = np.argsort(-final.mean(1), kind="stable")
    best = order[0]
    seeds = _plural(cfg.num_seeds, "seed")
    lead = (
        f"{label[best]} reached the highest accuracy"
        if len(names) > 1
        else f"{label[best]} reached an accuracy"
    )
    spread = (
        f" (from {final[best].min():.0%} to {final[best].max():.0%})" if cfg.num_seeds > 1 else ""
    )
    direction = "up" if final[best].mean() >= start else "down"
    out = [
        f"After {_plural(cfg.steps, 'step')} with {_plural(cfg.group_size, 'sample')} per "
        f"prompt, {lead} of {final[best].mean():.0%} on average over {seeds}{spread}, "
        f"{direction} from {start:.0%} before training."
    ]
    if len(names) > 1:
        ranking = ", ".join(f"{label[i]} {final[i].mean():.0%}" for i in order)
        out.append(f"Final accuracy, best first: {ranking}.")
    half = (start + 1) / 2
    reach = []
    for i in range(len(names)):
        hit = np.flatnonzero(result.accuracy[i].mean(0) >= half)
        if hit.size:
            reach.append((int(hit[0]), label[i]))
    if reach:
        reach.sort()
        missing = len(names) - len(reach)
        out.append(
            f"Halfway from {start:.0%} to 100% ({half:.0%}, mean over seeds) was reached by "
            + ", ".join(f"{lab} after {_plural(st, 'step')}" for st, lab in reach)
            + (f"; {_plural(missing, 'other')} never got there" if missing else "")
            + "."
        )

    if "grpo" in names and cfg.group_size > 1:
        i = names.index("grpo")
        zs = result.zero_spread_fraction[i].mean(0)
        sv = result.solved_fraction[i].mean(0)
        trend = "rose" if zs[-1] > zs[0] + 0.05 else "fell" if zs[-1] < zs[0] - 0.05 else "stayed"
        # the rest of the all-equal share, from the percentages as printed, so they add up
        rest = max(round(zs[-1] * 100) - round(sv[-1] * 100), 0)
        out.append(
            f"For GRPO the share of prompts whose {cfg.group_size} rewards were all equal "
            f"(zero spread: advantage 0, no learning signal) {trend} from {zs[0]:.0%} at the "
            f"first step to {zs[-1]:.0%} at the last. Prompts answered correctly by every "
            f"sample went from {sv[0]:.0%} to {sv[-1]:.0%}; the other "
            f"{rest}% at the end were prompts whose samples all earned "
            f"the same lower reward."
        )

    if len(names) > 1:
        out += _alignment_sentences(result, label)

    if cfg.group_size > 1 and len(names) > 1:
        noise = result.grad_variance.mean(1)
        lo, hi = int(np.argmin(noise)), int(np.argmax(noise))
        sentence = (
            f"The raw variance of the per-sample gradient terms, averaged over training, was "
            f"lowest for {label[lo]} ({noise[lo]:.3g}) and highest for {label[hi]} "
            f"({noise[hi]:.3g}); it is not comparable between estimators (see the note "
            "under the charts)"
        )
        if "grpo" in names and get_convention(cfg.convention).scale != "none":
            sentence += (
                "; GRPO divides by the std of the rewards, which enlarges its advantages "
                "when the spread is small, so its noise is not on the same scale as the others'"
            )
        out.append(sentence + ".")

    if result.critic_value_error is not None:
        err = result.critic_value_error.mean(0)
        out.append(
            f"The critic's value error (RMS over prompts) was {err[0]:.2f} at the first step "
            f"and {err[-1]:.2f} at the last; while it is off, every advantage R - V of a "
            f"prompt is shifted by that error."
        )
    return out


def _alignment_sentences(result: SimResult, label: list[str]) -> list[str]:
    """How well each estimator's steps pointed uphill: the cosine to the exact gradient."""
    cosine = result.gradient_cosine.mean((1, 2))  # (E,)
    order = np.argsort(-cosine, kind="stable")
    best = int(order[0])
    out = [
        "How nearly each step pointed uphill, as its cosine to the true gradient averaged "
        "over training (1: straight uphill), best first: "
        + ", ".join(f"{label[i]} {cosine[i]:.2f}" for i in order)
        + "."
    ]
    cfg = result.config
    if result.estimators[best] == "reinforce" and cfg.reward == "binary" and cfg.num_correct == 1:
        out.append(
            f"{label[best]} leads here because every rewarded sample is the one right answer: "
            "its step is always parallel to the true gradient, only its length is noisy, "
            "while a baseline adds a push away from each sampled wrong answer."
        )
    return out


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
