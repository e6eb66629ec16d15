"""Numeric drills: fresh numbers for a question, the value to compute and its worked solution.

Contract: ``make_drill`` draws a drill from a ``DrillTemplate`` with the given
``numpy.random.Generator`` (same generator state, same drill). An advantage drill
(``quantity="advantage"``) draws a group of rewards, computes the expected advantage with
``grpo_core.group_advantages`` under the template's convention, and writes a worked
solution (one LaTeX line per step) whose numbers come from ``grpo_core.advantage_trace``,
so the solution and the grading cannot disagree. The conventions' parameters (ddof, eps,
clamp) are read from ``grpo_core.get_convention``, never restated here. A policy-loss
drill (a quantity of ``LOSS_QUANTITIES``) is drawn by ``practice.loss_drills``, its value
computed by ``grpo_core.loss.policy_loss``; both come back as the same ``Drill``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from grpo_core import advantage_trace, get_convention, group_advantages
from grpo_core.format import decimal_tex as num  # short names: worked solutions are dense LaTeX
from grpo_core.format import equals_sign as eq
from grpo_core.format import subscripted
from practice.loss_drills import draw_loss_drill
from practice.questions import DrillTemplate
from practice.variant_numbers import listed


@dataclass(frozen=True)
class Drill:
    """One numeric drill, drawn from a template: its numbers, the question and its solution.

    For an advantage drill, ``mean``, ``baseline``, ``centred``, ``std``, ``denominator``
    and ``expected`` are the numbers of the worked solution, taken from
    ``advantage_trace`` and ``group_advantages`` on ``rewards``; a loss drill leaves them
    None (and ``rewards`` empty).
    """

    convention: str
    """The advantage convention, or a loss drill's loss_type."""
    rewards: tuple[float, ...]
    """(group_size,) the rewards of one group; () for a loss drill."""
    ask: int
    """1-based index of the asked advantage (a loss drill: the template's, unused)."""
    expected: float
    """The value to type: A_ask from ``group_advantages(rewards, convention=convention)``,
    or a loss drill's value from ``grpo_core.loss.policy_loss``."""
    tol: float
    prompt: str
    """The numbers and the question, Markdown with LaTeX."""
    solution: tuple[str, ...]
    """The worked solution: one LaTeX line per step, with the numbers."""
    name: str
    """What is typed, for a label ("Your value of A₂", "Your value of the loss")."""
    name_tex: str
    """The same in LaTeX, for the answer line ("A_{2}", "\\mathcal{L}")."""
    mean: float | None = None
    baseline: float | None = None
    """What is subtracted from R_ask: the group mean, or the mean of the others (RLOO)."""
    centred: float | None = None
    """R_ask - baseline (times K/(K-1) for RLOO, which makes it the advantage)."""
    std: float | None = None
    """Group std with the convention's ddof; None when the convention does not divide."""
    denominator: float | None = None
    quantity: str = "advantage"
    """The template's quantity: "advantage" or a name in ``LOSS_QUANTITIES``."""
    params: tuple[tuple[str, object], ...] = field(default=(), repr=False)
    """The wording parameters a certification family formats its wordings with."""
    mistakes: tuple[tuple[float, str], ...] = field(default=(), repr=False)
    """(value, feedback) for answers that follow a classic mistake."""


def make_drill(template: DrillTemplate, rng: np.random.Generator) -> Drill:
    """Fresh rewards for ``template``, the asked advantage and its worked solution.

    The group size K is drawn from ``min_group_size..max_group_size``; binary rewards
    have at least one 0 and one 1, continuous ones (one decimal in [0, 1]) are not all
    equal, a tie repeats one value. The expected value is ``group_advantages`` on those rewards.
    A loss quantity is drawn by ``practice.loss_drills.draw_loss_drill``.
    """
    if template.quantity != "advantage":
        return _loss_drill(template, rng)
    group_size = int(rng.integers(template.min_group_size, template.max_group_size + 1))
    while True:
        if template.rewards == "binary":
            rewards = rng.integers(0, 2, size=group_size).astype(float)
        elif template.rewards == "continuous":
            rewards = rng.integers(0, 11, size=group_size) / 10
        else:
            rewards = np.full(group_size, rng.integers(0, 11) / 10)
        if template.rewards == "tie" or np.ptp(rewards) > 0:
            break
    conv = get_convention(template.convention)
    i = template.ask - 1
    expected = float(group_advantages(rewards, convention=conv.name)[i])
    trace = advantage_trace(rewards, convention=conv.name)
    divides = conv.scale != "none"
    drill = Drill(
        convention=conv.name,
        rewards=tuple(float(r) for r in rewards),
        ask=template.ask,
        expected=expected,
        tol=template.tol,
        prompt=_drill_prompt(rewards, template.ask, conv.name),
        solution=(),
        name=subscripted("A", template.ask),
        name_tex=f"A_{{{template.ask}}}",
        mean=float(trace.mean[0]),
        baseline=float(trace.baseline[i]),
        centred=float(trace.centred[i]),
        std=float(trace.std[0]) if divides else None,
        denominator=float(trace.denominator[0]) if divides else None,
        params=(("k", group_size), ("rewards", listed(rewards)), ("ask", template.ask)),
    )
    return _with_solution(drill, bool(trace.zero_spread[0]), bool(trace.clamped[i]))


_CONVENTION_WORDS = {  # {ddof}, {eps} and {clip} are read from grpo_core.conventions
    "trl": "TRL's default convention (group mean, sample std with ddof = {ddof}, eps = ${eps}$)",
    "verl": "verl's convention (group mean, sample std with ddof = {ddof}, eps = ${eps}$)",
    "openrlhf": "OpenRLHF's group_norm (group mean, sample std with ddof = {ddof}, "
    "eps = ${eps}$; the result clipped to ±{clip} as OpenRLHF clips its reward, "
    "its later per-token KL penalty left out)",
    "dr-grpo": "Dr. GRPO (centre on the group mean, no division)",
    "rloo": "RLOO (baseline: the mean of the other K - 1 rewards, no division; KL weight beta = 0)",
    "zscore": "the textbook z-score (population std with ddof = {ddof}, no eps)",
}


def _convention_words(convention: str) -> str:
    """How a drill's prompt names ``convention``, with its ddof, eps and clamp from the registry."""
    conv = get_convention(convention)
    clip = "" if conv.clip is None else num(conv.clip)
    return _CONVENTION_WORDS[conv.name].format(ddof=conv.ddof, eps=num(conv.eps), clip=clip)


def _drill_prompt(rewards: np.ndarray, ask: int, convention: str) -> str:
    shown = ", ".join(num(r) for r in rewards)
    return (
        f"The K = {len(rewards)} rewards of one prompt are $R = ({shown})$. "
        f"Compute $A_{{{ask}}}$ under {_convention_words(convention)}."
    )


def _with_solution(d: Drill, tied: bool, clamped: bool) -> Drill:
    conv = get_convention(d.convention)
    r = np.array(d.rewards)
    group_size, i = len(r), d.ask
    lines = [rf"R = ({', '.join(num(x) for x in r)}),\quad K = {group_size}"]
    total = " + ".join(num(x) for x in r)
    lines.append(rf"\bar R = \frac{{{total}}}{{{group_size}}} {eq(d.mean)} {num(d.mean)}")
    if conv.baseline == "leave-one-out":
        others = float(r.sum() - r[i - 1])
        lines.append(
            rf"b_{{{i}}} = \frac{{\sum_{{j \ne {i}}} R_j}}{{K - 1}} = \frac{{{num(others)}}}"
            rf"{{{group_size - 1}}} {eq(d.baseline)} {num(d.baseline)}"
        )
        lines.append(
            rf"A_{{{i}}} = R_{{{i}}} - b_{{{i}}} = {num(r[i - 1])} - {num(d.baseline)} "
            rf"{eq(d.expected)} {num(d.expected)}"
        )
        return _finish(d, lines, conv)
    lines.append(
        rf"R_{{{i}}} - \bar R = {num(r[i - 1])} - {num(d.mean)} {eq(d.centred)} "
        rf"{num(d.centred)}"
    )
    if conv.scale == "none":
        lines.append(
            rf"A_{{{i}}} = R_{{{i}}} - \bar R {eq(d.expected)} {num(d.expected)}"
            r"\quad\text{(no division by the std)}"
        )
        return _finish(d, lines, conv)
    if tied:
        lines.append(
            r"\text{every reward equals } \bar R\text{: the spread is 0 and every centred "
            rf"reward is 0, so }} A_{{{i}}} = 0"
        )
        return _finish(d, lines, conv)
    squares = float(np.sum((r - d.mean) ** 2))
    n = group_size - conv.ddof
    which = "K - 1" if conv.ddof == 1 else "K"
    lines.append(
        rf"\sigma = \sqrt{{\frac{{\sum_j (R_j - \bar R)^2}}{{{which}}}}} = "
        rf"\sqrt{{\frac{{{num(squares)}}}{{{n}}}}} {eq(d.std)} {num(d.std)}"
        rf"\quad\text{{(ddof = {conv.ddof})}}"
    )
    if conv.eps > 0:
        lines.append(
            rf"\sigma + \varepsilon = {num(d.std)} + {num(conv.eps)} {eq(d.denominator)} "
            rf"{num(d.denominator)}"
        )
    unclamped = d.centred / d.denominator
    lines.append(
        rf"A_{{{i}}} = \frac{{{num(d.centred)}}}{{{num(d.denominator)}}} "
        rf"{eq(unclamped)} {num(unclamped)}"
    )
    if clamped:
        lines.append(
            rf"\text{{clamped to }} \pm {num(conv.clip)}\text{{: }} A_{{{i}}} = "
            rf"{num(d.expected)}"
        )
    return _finish(d, lines, conv)


def _finish(d: Drill, lines: list[str], conv) -> Drill:
    """The drill with its solution and the values of classic mistakes."""
    r = np.array(d.rewards)
    i = d.ask - 1
    candidates: list[tuple[float, str]] = [
        (
            -d.expected,
            "The sign is flipped: an answer above the group's mean gets a positive advantage.",
        ),
    ]
    if conv.scale != "none" and d.std:
        other = 1 - conv.ddof
        candidates.append(
            (
                float(group_advantages(r, convention=conv.name, ddof=other)[i]),
                f"That uses ddof = {other} ({'population' if other == 0 else 'sample'} std); this "
                f"convention uses ddof = {conv.ddof}.",
            )
        )
        candidates.append(
            (
                float(group_advantages(r, convention=conv.name, scale="none")[i]),
                "That is only the centred reward: this convention also divides by the std + eps.",
            )
        )
        candidates.append(
            (
                d.centred / (d.std**2 + conv.eps),
                "That divides by the variance; the formula divides by the standard deviation.",
            )
        )
    if conv.baseline == "leave-one-out":
        candidates.append(
            (
                float(group_advantages(r, convention="dr-grpo")[i]),
                "That subtracts the mean of all K rewards; RLOO leaves answer i out of its "
                "baseline.",
            )
        )
    return replace(d, solution=tuple(lines), mistakes=_told_apart(candidates, d.expected, d.tol))


def _told_apart(candidates, expected: float, tol: float) -> tuple[tuple[float, str], ...]:
    """The (value, feedback) mistakes a grader can tell from ``expected`` at ``tol``."""
    return tuple(
        (v, text) for v, text in candidates if math.isfinite(v) and abs(v - expected) > tol
    )


def _loss_drill(template: DrillTemplate, rng: np.random.Generator) -> Drill:
    drawn = draw_loss_drill(template, rng)
    return Drill(
        convention=template.convention,
        rewards=(),
        ask=template.ask,
        expected=drawn.expected,
        tol=template.tol,
        prompt=drawn.prompt,
        solution=drawn.solution,
        name=drawn.name,
        name_tex=drawn.name_tex,
        quantity=template.quantity,
        params=drawn.params,
        mistakes=_told_apart(drawn.mistakes, drawn.expected, template.tol),
    )
