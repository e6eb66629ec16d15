"""Worked LaTeX generated from the numbers of an AdvantageTrace.

Each formula is written out with the trace's own numbers (the group mean, the
std with its ddof, R_i - baseline, A_i), so what a page typesets always matches
what it computed. The same steps in plain words are in ``grpo_core.sentences``.
"""

from __future__ import annotations

import numpy as np

from grpo_core import _checks
from grpo_core.advantages import AdvantageTrace
from grpo_core.format import digits_to_tell_apart, tex, tex_term


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


def centring_latex(trace: AdvantageTrace, g: int, answer: int, numbers=None) -> str:
    """R_i - baseline with the numbers: the group mean, or RLOO's mean of the others.

    answer: the position in ``trace.members(g)``; numbers: the group's answers' numbers as
    the reader sees them, one per member (a grid's rows, kept when a cell above is left
    out), 1..K if None: i is ``numbers[answer]``.
    """
    idx = trace.members(g)[answer]
    r, base = trace.rewards.ravel()[idx], trace.baseline.ravel()[idx]
    d = digits_to_tell_apart([*trace.rewards.ravel()[trace.members(g)], base])
    i = _checks.answer_numbers(numbers, len(trace.members(g)))[answer]
    label = r"\bar R" if trace.convention.baseline == "mean" else rf"\bar R_{{-{i}}}"
    centred = trace.centred.ravel()[idx]
    return rf"R_{{{i}}} - {label} = {tex(r, d)} - {tex_term(base, d)} = {tex(centred)}"


def mean_latex(trace: AdvantageTrace, g: int) -> str:
    """\\bar R = (R_1 + ... + R_K) / K = value, with the rewards written out."""
    idx = trace.members(g)
    rewards = trace.rewards.ravel()[idx]
    d = digits_to_tell_apart([*rewards, trace.mean[g]])
    terms = " + ".join(_signed_term(r, i == 0, d) for i, r in enumerate(_shown(rewards)))
    if trace.singleton[g] and trace.convention.singleton == "pass-through":
        return r"\bar R = 0 \quad \text{(verl: a group of one has mean 0)}"
    return rf"\bar R = \frac{{{terms}}}{{{len(idx)}}} = {tex(trace.mean[g], d)}"


def std_latex(trace: AdvantageTrace, g: int) -> str:
    """The group std with its ddof, the centred rewards squared and summed."""
    idx = trace.members(g)
    group_size, ddof = len(idx), trace.convention.ddof
    centred = trace.rewards.ravel()[idx] - trace.mean[g]
    if trace.singleton[g]:
        return rf"\sigma = {tex(trace.std[g])} \quad \text{{(a group of one)}}"
    squares = " + ".join(r"\dots" if c is None else f"({tex(c)})^2" for c in _shown(centred))
    dof = f"{group_size} - 1" if ddof == 1 else f"{group_size}"
    return rf"\sigma = \sqrt{{\frac{{{squares}}}{{{dof}}}}} = {tex(trace.std[g])}"


def std_sum_latex(trace: AdvantageTrace, g: int) -> str:
    """The group std in a form that wraps on a narrow screen: the sum of squares written out
    at the top level (a line may break after any +), then its root.

    The same numbers as ``std_latex``, which keeps the squares under the root sign.
    """
    idx = trace.members(g)
    group_size, ddof = len(idx), trace.convention.ddof
    if trace.singleton[g]:
        return std_latex(trace, g)
    centred = trace.rewards.ravel()[idx] - trace.mean[g]
    squares = " + ".join(r"\dots" if c is None else f"({tex(c)})^2" for c in _shown(centred))
    total = float(np.sum(centred**2))
    dof = f"({group_size} - 1)" if ddof == 1 else f"{group_size}"
    return (
        rf"S = {squares} = {tex(total)}, \quad "
        rf"\sigma = \sqrt{{S / {dof}}} = {tex(trace.std[g])}"
    )


def scale_std_latex(
    trace: AdvantageTrace, g: int, answer: int, narrow: bool = False, numbers=None
) -> str:
    """The std that answer ``answer`` of group ``g`` is divided by, written out (``numbers``
    as in ``centring_latex``).

    The group's own std (``std_latex``, or ``std_sum_latex`` when ``narrow``) for group
    and unscaled conventions; the std of the other K-1 rewards for leave-one-out scaling
    (NeMo-RL); the one batch std for batch scaling and whitening (TRL "batch",
    REINFORCE++-baseline), over every value of the batch.
    """
    conv = trace.convention
    if conv.scale == "leave-one-out" and not trace.singleton[g]:
        i = _checks.answer_numbers(numbers, len(trace.members(g)))[answer]
        return _others_std_latex(trace, g, answer, i)
    if conv.scale in ("batch", "whiten"):
        return _batch_std_latex(trace)
    return std_sum_latex(trace, g) if narrow else std_latex(trace, g)


def _others_std_latex(trace: AdvantageTrace, g: int, answer: int, i: int) -> str:
    """sigma_-i: the std of the other K-1 rewards around their own mean, Bessel over K-1."""
    members = trace.members(g)
    idx = members[answer]
    others = np.delete(trace.rewards.ravel()[members], answer)
    base = trace.baseline.ravel()[idx]
    divisor, ddof = trace.divisor.ravel()[idx], trace.convention.ddof
    dof = len(others) - ddof
    if dof <= 0:
        return rf"\sigma_{{-{i}}} = 0 \quad \text{{(one other reward: NeMo-RL sets it to 0)}}"
    value = 0.0 if divisor == 1.0 else divisor - trace.convention.eps
    d = digits_to_tell_apart([*others, base])
    squares = " + ".join(
        r"\dots" if r is None else f"({tex(r, d)} - {tex(base, d)})^2" for r in _shown(others, 6)
    )
    return rf"\sigma_{{-{i}}} = \sqrt{{\frac{{{squares}}}{{{dof}}}}} = {tex(value)}"


def _batch_std_latex(trace: AdvantageTrace) -> str:
    """sigma_batch over all N values of the batch (rewards, or clipped centred rewards)."""
    count, conv = trace.rewards.size, trace.convention
    what = r"R_n - \bar R_{\text{batch}}" if conv.scale == "batch" else r"c_n - \bar c"
    values = (
        r"\text{every reward}"
        if conv.scale == "batch"
        else r"c_n = \operatorname{clip}(R_n - \bar R_{\text{prompt}})"
    )
    dof = f"{count} - 1" if conv.ddof == 1 else f"{count}"
    return (
        rf"\sigma_{{\text{{batch}}}} = \sqrt{{\frac{{\sum_n ({what})^2}}{{{dof}}}}}"
        rf" = {tex(trace.batch_std)} \quad ({values},\ N = {count})"
    )


def breakable(latex: str) -> str:
    r"""``latex`` with a line break allowed after each comma outside braces (``,\allowbreak``).

    KaTeX breaks a display formula only after a relation or a binary operator; a long
    vector ``A = (a, b, ...)`` has neither, so on a narrow screen it could only shrink.
    """
    out, depth = [], 0
    for char in latex:
        depth += (char == "{") - (char == "}")
        out.append(r",\allowbreak" if char == "," and depth == 0 else char)
    return "".join(out)


def advantage_latex(trace: AdvantageTrace, g: int, answer: int, numbers=None) -> str:
    """A_i with the actual numbers: (R_i - baseline) / (std + eps) = value (``numbers`` as
    in ``centring_latex``)."""
    idx = trace.members(g)[answer]
    conv = trace.convention
    r = trace.rewards.ravel()[idx]
    base = trace.baseline.ravel()[idx]
    a = trace.advantages.ravel()[idx]
    d = digits_to_tell_apart([*trace.rewards.ravel()[trace.members(g)], base])
    numerator = rf"{tex(r, d)} - {tex_term(base, d)}"
    i = _checks.answer_numbers(numbers, len(trace.members(g)))[answer]
    if conv.scale == "none":
        scale = conv.baseline == "leave-one-out"
        return rf"A_{{{i}}} = {numerator} = {tex(a)}" + (
            r" \quad \text{(leave-one-out baseline)}" if scale else ""
        )
    if conv.scale == "leave-one-out":
        divisor = trace.divisor.ravel()[idx]
        if divisor == 1.0:
            undivided = r"\quad \text{(the others agree: undivided)}"
            return rf"A_{{{i}}} = {numerator} = {tex(a)} {undivided}"
        return (
            rf"A_{{{i}}} = \frac{{R_{{{i}}} - \bar R_{{-{i}}}}}{{\sigma_{{-{i}}} + \varepsilon}}"
            rf" = \frac{{{numerator}}}{{{tex(divisor - conv.eps)} + {tex(conv.eps)}}} = {tex(a)}"
        )
    if conv.scale == "whiten":
        return (
            rf"A_{{{i}}} = \frac{{\operatorname{{clip}}(R_{{{i}}} - \bar R)"
            rf" - m_{{\text{{batch}}}}}}"
            rf"{{\max(\sigma_{{\text{{batch}}}}, \varepsilon)}} = {tex(a)}"
            rf" \quad (\sigma_{{\text{{batch}}}} = {tex(trace.batch_std)})"
        )
    std = trace.batch_std if conv.scale == "batch" else trace.std[g]
    label = r"\sigma_{\text{batch}}" if conv.scale == "batch" else r"\sigma"
    formula = rf"A_{{{i}}} = \frac{{R_{{{i}}} - \bar R}}{{{label} + \varepsilon}}"
    value = rf"\frac{{{numerator}}}{{{tex(std)} + {tex(conv.eps)}}} = {tex(a)}"
    if trace.clamped.ravel()[idx]:
        value += (
            rf" \quad \text{{(clipped to }}\pm{tex(conv.clip)}\text{{: OpenRLHF\'s reward clip)}}"
        )
    return f"{formula} = {value}"


def _shown(values: np.ndarray, limit: int = 8) -> list[float]:
    """The values to write out in a formula; long groups are elided in the middle."""
    values = list(values)
    return values if len(values) <= limit else [*values[:3], None, *values[-2:]]


def _signed_term(x, first: bool, digits: int = 4) -> str:
    """A term of a sum: the first as is, later negatives in parentheses, None as a dots."""
    if x is None:
        return r"\dots"
    return tex(x, digits) if first else tex_term(x, digits)
