"""Plain words and worked LaTeX generated from the numbers of an AdvantageTrace.

Every sentence and formula here is computed from the trace, so what a page
says always matches what it shows.
"""

from __future__ import annotations

import numpy as np

from grpo_core.advantages import AdvantageTrace


def fmt(x: float, digits: int = 4) -> str:
    """A number as a person writes it: 4 significant digits, no '-0', sci for tiny/huge."""
    x = float(x)
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e5:
        text = f"{x:.{digits}g}"
        return text
    mantissa, exp = f"{x:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exp)}"


def tex(x: float, digits: int = 4) -> str:
    """A number for LaTeX: 1.2e-07 becomes 1.2 \\times 10^{-7}; negatives in parentheses
    are the caller's choice."""
    text = fmt(x, digits)
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa} \\times 10^{{{int(exp)}}}"
    return text


def group_members(trace: AdvantageTrace, g: int) -> np.ndarray:
    """Flat indices of the rewards of group ``g`` in the trace's arrays."""
    return np.flatnonzero(trace.group_index.ravel() == g)


def describe_group(trace: AdvantageTrace, g: int) -> str:
    """One sentence on what the update does with prompt ``g``'s answers."""
    idx = group_members(trace, g)
    adv = trace.advantages.ravel()[idx]
    rewards = trace.rewards.ravel()[idx]
    if trace.singleton[g]:
        if trace.convention.singleton == "pass-through":
            return (
                "Only one answer: verl uses mean 0 and std 1, so the raw reward "
                f"{fmt(rewards[0])} passes through as the advantage {fmt(adv[0])}."
            )
        return "Only one answer: there is nothing to compare it with, so its advantage is 0."
    if trace.zero_spread[g]:
        return (
            f"All {len(idx)} answers scored {fmt(rewards[0])}: no answer beats its group, "
            "every advantage is 0, and this prompt teaches nothing this step."
        )
    top = np.flatnonzero(adv == adv.max())
    bottom = np.flatnonzero(adv == adv.min())
    n_up, n_down = int((adv > 0).sum()), int((adv < 0).sum())
    centred = trace.centred.ravel()[idx][top[0]]
    baseline = "leave-one-out baseline" if trace.convention.baseline != "mean" else "mean"
    if trace.convention.scale == "group" and trace.std[g] > 0:
        how_far = f"{fmt(centred / trace.std[g], 3)} std above its group's {baseline}"
    else:
        how_far = f"{fmt(centred, 3)} above its group's {baseline}"
    sentence = (
        f"{_answers(top)} scored {how_far}: pushed up most (A = {fmt(adv[top[0]])}); "
        f"{_answers(bottom).lower()} pushed down most (A = {fmt(adv[bottom[0]])}). "
        f"{n_up} of {len(idx)} answers go up, {n_down} go down."
    )
    if trace.damped[g]:
        sentence += (
            f" The spread ({fmt(trace.std[g])}) is below eps ({fmt(trace.convention.eps)}), "
            "so eps damps these advantages toward 0."
        )
    if trace.clamped.ravel()[idx].any():
        sentence += f" Clamped to ±{fmt(trace.convention.clip)}."
    return sentence


def _answers(indices: np.ndarray) -> str:
    """ "Answer 3" or "Answers 1, 3 and 4" (1-based), "5 answers" when many."""
    numbers = [str(i + 1) for i in indices]
    if len(numbers) == 1:
        return f"Answer {numbers[0]}"
    if len(numbers) > 4:
        return f"{len(numbers)} answers"
    return f"Answers {', '.join(numbers[:-1])} and {numbers[-1]}"


def digits_to_tell_apart(values) -> int:
    """Significant digits (4 to 15) at which distinct values also print differently."""
    values = np.unique(np.asarray(values, dtype=float))
    for digits in range(4, 16):
        if len({fmt(v, digits) for v in values}) == len(values):
            return digits
    return 16


def sample_to_population_ratio(k: int) -> float:
    """sqrt((K-1)/K): an advantage with the sample std (ddof=1) over one with the population std.

    (The sample std is larger by sqrt(K/(K-1)), so its advantages are smaller.)
    """
    return float(np.sqrt((k - 1) / k))


def vector_latex(name: str, values, digits: int = 4) -> str:
    """LaTeX for ``name = (v1, v2, ...)``, elided after 12 values; ValueError for non-numbers."""
    try:
        values = np.asarray(values, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError("values must be a list of numbers.") from None
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 17:
        raise ValueError(f"digits must be a whole number from 1 to 17, got {digits!r}.")
    shown = [tex(v, digits) for v in values[:12]] + ([r"\dots"] if len(values) > 12 else [])
    return rf"{name} = ({', '.join(shown)})"


def group_sums(trace: AdvantageTrace, g: int) -> tuple[float, float]:
    """(sum of R - baseline, sum of advantages) over group ``g``: both 0 up to rounding."""
    idx = group_members(trace, g)
    return float(trace.centred.ravel()[idx].sum()), float(trace.advantages.ravel()[idx].sum())


def centring_latex(trace: AdvantageTrace, g: int, answer: int) -> str:
    """R_i - baseline with the numbers: the group mean, or RLOO's mean of the others."""
    idx = group_members(trace, g)[answer]
    r, base = trace.rewards.ravel()[idx], trace.baseline.ravel()[idx]
    d = digits_to_tell_apart([*trace.rewards.ravel()[group_members(trace, g)], base])
    i = answer + 1
    label = r"\bar R" if trace.convention.baseline == "mean" else rf"\bar R_{{-{i}}}"
    centred = trace.centred.ravel()[idx]
    return rf"R_{{{i}}} - {label} = {tex(r, d)} - {_paren(base, d)} = {tex(centred)}"


def mean_latex(trace: AdvantageTrace, g: int) -> str:
    """\\bar R = (R_1 + ... + R_K) / K = value, with the rewards written out."""
    idx = group_members(trace, g)
    rewards = trace.rewards.ravel()[idx]
    d = digits_to_tell_apart([*rewards, trace.mean[g]])
    terms = " + ".join(_signed_term(r, i == 0, d) for i, r in enumerate(_shown(rewards)))
    if trace.singleton[g] and trace.convention.singleton == "pass-through":
        return r"\bar R = 0 \quad \text{(verl: a group of one has mean 0)}"
    return rf"\bar R = \frac{{{terms}}}{{{len(idx)}}} = {tex(trace.mean[g], d)}"


def std_latex(trace: AdvantageTrace, g: int) -> str:
    """The group std with its ddof, the centred rewards squared and summed."""
    idx = group_members(trace, g)
    k, ddof = len(idx), trace.convention.ddof
    centred = trace.rewards.ravel()[idx] - trace.mean[g]
    if trace.singleton[g]:
        return rf"\sigma = {tex(trace.std[g])} \quad \text{{(a group of one)}}"
    squares = " + ".join(r"\dots" if c is None else f"({tex(c)})^2" for c in _shown(centred))
    dof = f"{k} - 1" if ddof == 1 else f"{k}"
    return rf"\sigma = \sqrt{{\frac{{{squares}}}{{{dof}}}}} = {tex(trace.std[g])}"


def advantage_latex(trace: AdvantageTrace, g: int, answer: int) -> str:
    """A_i with the actual numbers: (R_i - baseline) / (std + eps) = value."""
    idx = group_members(trace, g)[answer]
    conv = trace.convention
    r = trace.rewards.ravel()[idx]
    base = trace.baseline.ravel()[idx]
    a = trace.advantages.ravel()[idx]
    d = digits_to_tell_apart([*trace.rewards.ravel()[group_members(trace, g)], base])
    numerator = rf"{tex(r, d)} - {_paren(base, d)}"
    i = answer + 1
    if conv.scale == "none":
        scale = conv.baseline == "leave-one-out"
        return rf"A_{{{i}}} = {numerator} = {tex(a)}" + (
            r" \quad \text{(leave-one-out baseline)}" if scale else ""
        )
    std = trace.batch_std if conv.scale == "batch" else trace.std[g]
    label = r"\sigma_{\text{batch}}" if conv.scale == "batch" else r"\sigma"
    formula = rf"A_{{{i}}} = \frac{{R_{{{i}}} - \bar R}}{{{label} + \varepsilon}}"
    value = rf"\frac{{{numerator}}}{{{tex(std)} + {tex(conv.eps)}}} = {tex(a)}"
    if trace.clamped.ravel()[idx]:
        value += rf" \quad \text{{(clamped to }}\pm{tex(conv.clip)}\text{{)}}"
    return f"{formula} = {value}"


def _shown(values: np.ndarray, limit: int = 8) -> list[float]:
    """The values to write out in a formula; long groups are elided in the middle."""
    values = list(values)
    return values if len(values) <= limit else [*values[:3], None, *values[-2:]]


def _signed_term(x, first: bool, digits: int = 4) -> str:
    if x is None:
        return r"\dots"
    return tex(x, digits) if first or x >= 0 else f"({tex(x, digits)})"


def _paren(x: float, digits: int = 4) -> str:
    return f"({tex(x, digits)})" if x < 0 else tex(x, digits)
