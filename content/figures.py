"""The numbers the prose quotes, each computed by grpo_core: nothing in content/ is typed.

A Markdown or TOML text of content/ writes ``{{name}}`` where a figure goes; the renderer
(``content.citations.fill``, applied by ``content.citations.cite``) puts ``text(name)`` there. Each
``Figure`` keeps its value and how many decimals the prose shows, so tests can check a
number quoted literally (the quiz bank) against the same registry.

>>> text("worked.trl.correct"), text("near_tie.float32.openrlhf")
('1.4997', '1.707')
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from grpo_core import advantage_trace, group_advantages
from grpo_core.binary import binary_advantages, std_weight, zero_spread_probability
from grpo_core.conventions import get_convention
from grpo_core.kl import kl_estimate
from grpo_core.lengthnorm import per_sequence_push, per_token_push
from grpo_core.memory import memory_comparison
from grpo_core.multi_reward import normalise_then_sum, sum_then_normalise
from grpo_core.precision import float32_advantages
from grpo_core.verifier import grade, load_worked_example, verifier_reward


@dataclass(frozen=True)
class Figure:
    """One quoted number: ``value`` as grpo_core computes it, shown with ``decimals``."""

    value: float
    decimals: int
    percent: bool = False
    """Shown as a percentage (value 0.72 -> "72")."""
    trim: bool = False
    """Drop trailing zeros (0.2500 -> "0.25")."""

    @property
    def text(self) -> str:
        """The number as the prose shows it: fixed decimals, "-" for a negative value."""
        x = 100 * self.value if self.percent else self.value
        shown = f"{x:.{self.decimals}f}"
        if self.trim and "." in shown:
            shown = shown.rstrip("0").rstrip(".")
        return "0" if shown in ("-0", "") else shown


NEAR_TIE = (1.0, 1.0 + 1.2e-7, 1.0, 1.0)
"""Four rewards that tie up to rounding noise: answer 2 is ahead by 1.2e-7."""

ONE_OF_FOUR = (1.0, 0.0, 0.0, 0.0)
"""The guide's worked example: K = 4, one right answer."""

LIBRARY_CONVENTIONS = ("trl", "verl", "openrlhf")

BATCH_EXAMPLE = ((0.0, 1.0), (0.0, 100.0))
"""Two prompts on different reward scales (a verifier and a 0-100 judge)."""

NOISY_JUDGE = (0.71, 0.70, 0.70, 0.69)
"""A reward model's scores for four equally good answers, differing by noise."""

LENGTHS, ADVANTAGES, L_MAX = (2, 8), (1.0, -1.0), 8
"""The length page's example: a short right answer and a long wrong one."""

FORMAT_BONUS = 0.1

ALMOST_ALL_RIGHT = (0.9, 1.0, 1.0, 1.0)
"""The quiz's group where 0.9 out of 1 is below the mean."""

LOG_RATIO = 0.5
"""log pi - log pi_ref of one sampled token: the policy gives it e^0.5 = 1.65 times the
reference's probability."""

TWO_REWARDS = ((1.0, 0.0), (0.0, 1.0), (0.0, 1.0), (0.0, 0.0))
"""One prompt, four answers, two reward functions (correct, formatted): the only correct
answer is unformatted; two formatted answers are wrong."""


def _near_tie(figures: dict[str, Figure]) -> None:
    for name in LIBRARY_CONVENTIONS:
        eps = get_convention(name).eps
        a64 = float(group_advantages([NEAR_TIE], convention=name)[0, 1])
        a32 = float32_advantages(NEAR_TIE, eps=eps)
        figures[f"near_tie.float64.{name}"] = Figure(a64, _decimals(a64))
        figures[f"near_tie.float32.{name}"] = Figure(float(a32[1]), _decimals(float(a32[1])))
    others = float32_advantages(NEAR_TIE, eps=get_convention("trl").eps)[0]
    figures["near_tie.float32.trl.others"] = Figure(float(others), 0)


def _decimals(x: float) -> int:
    """Two significant digits below 0.01 (0.0009), three above (0.085, 1.707)."""
    return 4 if abs(x) < 0.01 else 3


def _worked(figures: dict[str, Figure]) -> None:
    trace = advantage_trace([ONE_OF_FOUR], convention="trl")
    mean, std = float(trace.mean[0]), float(trace.std[0])
    centred = trace.centred.ravel()
    k = len(ONE_OF_FOUR)
    figures["worked.mean"] = Figure(mean, 2)
    figures["worked.centred.correct"] = Figure(float(centred[0]), 2)
    figures["worked.centred.wrong"] = Figure(float(centred[1]), 2)
    figures["worked.square.correct"] = Figure(float(centred[0] ** 2), 4)
    figures["worked.square.wrong"] = Figure(float(centred[1] ** 2), 4)
    figures["worked.sum_squares"] = Figure(float((centred**2).sum()), 2)
    figures["worked.variance"] = Figure(std**2, 2)
    figures["worked.std"] = Figure(std, 1)
    figures["worked.denominator"] = Figure(float(trace.denominator[0]), 4)
    a = trace.advantages.ravel()
    figures["worked.trl.correct"] = Figure(float(a[0]), 4)
    figures["worked.trl.wrong"] = Figure(float(a[1]), 4)
    exact = group_advantages([ONE_OF_FOUR], convention="trl", eps=0.0).ravel()
    figures["worked.exact.correct"] = Figure(float(exact[0]), 1)
    figures["worked.exact.wrong"] = Figure(float(exact[1]), 1)
    figures["worked.exact.square.correct"] = Figure(float(exact[0] ** 2), 2)
    figures["worked.exact.square.wrong"] = Figure(float(exact[1] ** 2), 2)
    population = group_advantages([ONE_OF_FOUR], convention="zscore").ravel()
    figures["worked.population.std"] = Figure(float(np.std(ONE_OF_FOUR)), 4)
    figures["worked.population.correct"] = Figure(float(population[0]), 4)
    figures["worked.population.wrong"] = Figure(float(population[1]), 4)
    figures["worked.population.ratio"] = Figure(math.sqrt(k / (k - 1)), 4)
    scaled = [10 * r for r in ONE_OF_FOUR]
    figures["worked.scaled.std"] = Figure(float(np.std(scaled, ddof=1)), 0)
    a10 = group_advantages([scaled], convention="trl").ravel()
    figures["worked.scaled.correct"] = Figure(float(a10[0]), 4)
    figures["worked.scaled.wrong"] = Figure(float(a10[1]), 4)
    dr = group_advantages([ONE_OF_FOUR], convention="dr-grpo").ravel()
    figures["worked.dr_grpo.correct"] = Figure(float(dr[0]), 2)
    figures["worked.dr_grpo.wrong"] = Figure(float(dr[1]), 2)
    rloo = group_advantages([ONE_OF_FOUR], convention="rloo").ravel()
    figures["worked.rloo.correct"] = Figure(float(rloo[0]), 4)
    figures["worked.rloo.wrong"] = Figure(float(rloo[1]), 4)


def _walkthrough(figures: dict[str, Figure]) -> None:
    example = load_worked_example()
    for name, strict, bonus in (
        ("strict", True, 0.0),
        ("lenient", False, 0.0),
        ("bonus", True, FORMAT_BONUS),
    ):
        grades = [grade(a.text, example.reference, strict=strict) for a in example.answers]
        rewards = [verifier_reward(g.correct, g.well_formatted, format_bonus=bonus) for g in grades]
        a = group_advantages([rewards], convention="trl").ravel()
        by_reward = {}
        for r, x in zip(rewards, a, strict=True):
            by_reward[r] = float(x)
        top = max(by_reward)
        figures[f"walkthrough.{name}.best"] = Figure(by_reward[top], 4)
        if name != "lenient":
            figures[f"walkthrough.{name}.worst"] = Figure(min(by_reward.values()), 4)
        if name == "bonus":
            figures["walkthrough.bonus.reward"] = Figure(top, 1)
            figures["walkthrough.bonus.formatted_wrong"] = Figure(
                by_reward[verifier_reward(False, True, format_bonus=bonus)], 4
            )


def _ddof(figures: dict[str, Figure]) -> None:
    for k in (2, 4, 8):
        figures[f"ddof_factor.k{k}"] = Figure(math.sqrt(k / (k - 1)), 3)
    for k in (4, 8):
        figures[f"ddof_shrink.k{k}"] = Figure(math.sqrt((k - 1) / k), 3)
    two = group_advantages([[0.0, 1.0]], convention="trl", eps=0.0).ravel()
    figures["k2.advantage"] = Figure(float(two[1]), 4)
    figures["k2.trl"] = Figure(float(group_advantages([[0.0, 1.0]], convention="trl")[0, 1]), 4)


def _binary(figures: dict[str, Figure]) -> None:
    k = 16
    p = 1 / k
    correct, wrong = binary_advantages(p, ddof=0)
    figures["binary.one_in_16.population"] = Figure(float(correct), 2)
    figures["binary.one_in_16.population.wrong"] = Figure(float(wrong), 2)
    figures["binary.one_in_16.sample"] = Figure(
        float(binary_advantages(p, ddof=1, group_size=k)[0]), 2
    )
    one = [1.0] + [0.0] * (k - 1)
    figures["binary.one_in_16.trl"] = Figure(
        float(group_advantages([one], convention="trl")[0, 0]), 4
    )
    figures["binary.weight.half"] = Figure(float(std_weight(0.5)), 0)
    figures["binary.weight.one_in_16"] = Figure(float(std_weight(p)), 2)
    # total |A| of a group of K binary answers: K (p |A_correct| + (1-p) |A_wrong|)
    for name, q in (("one_in_16", p), ("half", 0.5)):
        c, w = binary_advantages(q, ddof=0)
        figures[f"binary.total.{name}"] = Figure(float(k * (q * c - (1 - q) * w)), 1, trim=True)
    big = 128
    winner = [1.0] + [0.0] * (big - 1)
    figures["binary.k128.openrlhf"] = Figure(
        float(group_advantages([winner], convention="openrlhf")[0, 0]), 0
    )
    figures["binary.k128.unclipped"] = Figure(
        float(group_advantages([winner], convention="openrlhf", clip=math.inf)[0, 0]), 1
    )
    figures["zero_spread.k16.p2"] = Figure(float(zero_spread_probability(0.02, k)), 0, True)
    figures["zero_spread.k16.p95"] = Figure(float(zero_spread_probability(0.95, k)), 0, True)


def _scaling(figures: dict[str, Figure]) -> None:
    rewards = np.array(BATCH_EXAMPLE)
    trl_batch = group_advantages(rewards, convention="trl-batch")
    centred = group_advantages(rewards, convention="dr-grpo")
    # TRL "batch": group-centred rewards over the std of the raw batch rewards (+ 1e-4)
    divisor = float(centred[1, 1] / trl_batch[1, 1]) - get_convention("trl-batch").eps
    figures["batch.trl.divisor"] = Figure(divisor, 1)
    # REINFORCE++-baseline as OpenRLHF computes it: centre per group, clip to its reward
    # clip (±10), whiten over the batch (population std), one token per answer
    figures["batch.centred.small"] = Figure(float(centred[0, 1]), 1)
    figures["batch.centred.large"] = Figure(float(centred[1, 1]), 0)
    whitened = advantage_trace(rewards, convention="reinforce-pp")
    figures["batch.reinforce_pp.clip"] = Figure(float(whitened.convention.clip), 0)
    figures["batch.reinforce_pp.divisor"] = Figure(float(whitened.batch_std), 2)
    unclipped = advantage_trace(rewards, convention="reinforce-pp", clip=math.inf)
    figures["batch.reinforce_pp.unclipped"] = Figure(float(unclipped.batch_std), 1)
    group = group_advantages(rewards, convention="trl")
    figures["batch.group.both"] = Figure(float(group[0, 1]), 2)


def _nemo(figures: dict[str, Figure]) -> None:
    a = group_advantages([ONE_OF_FOUR], convention="nemo-rl").ravel()
    figures["nemo.one_of_four.correct"] = Figure(float(a[0]), 0)
    figures["nemo.one_of_four.wrong"] = Figure(float(a[1]), 4)


def _kl(figures: dict[str, Figure]) -> None:
    figures["kl.ratio"] = Figure(math.exp(LOG_RATIO), 2)
    for name in ("k1", "k2", "k3"):
        figures[f"kl.{name}"] = Figure(float(kl_estimate([LOG_RATIO], name)[0]), 3)
        figures[f"kl.{name}.negative"] = Figure(float(kl_estimate([-LOG_RATIO], name)[0]), 3)


def _multi_reward(figures: dict[str, Figure]) -> None:
    ids = [0] * len(TWO_REWARDS)
    summed = sum_then_normalise(TWO_REWARDS, ids)
    split = normalise_then_sum(TWO_REWARDS, ids)
    figures["gdpo.sum.tied"] = Figure(float(summed[0]), 3)
    figures["gdpo.sum.worst"] = Figure(float(summed[3]), 3)
    figures["gdpo.split.correct"] = Figure(float(split[0]), 3)
    figures["gdpo.split.formatted"] = Figure(float(split[1]), 3)
    figures["gdpo.split.worst"] = Figure(float(split[3]), 3)


def _quiz(figures: dict[str, Figure]) -> None:
    trace = advantage_trace([ALMOST_ALL_RIGHT], convention="trl")
    figures["quiz.mean_almost_all_right"] = Figure(float(trace.mean[0]), 3)


def _noise(figures: dict[str, Figure]) -> None:
    a = group_advantages([NOISY_JUDGE], convention="trl").ravel()
    figures["noisy_judge.outer"] = Figure(float(a[0]), 1)


def _float32(figures: dict[str, Figure]) -> None:
    figures["float32.spacing_1e6"] = Figure(float(np.spacing(np.float32(1e6))), 4)


def _critic(figures: dict[str, Figure]) -> None:
    memory = memory_comparison(7.0)
    figures["critic.memory_7b_gb"] = Figure(memory.saved_gb, 0)
    figures["critic.bytes_per_param"] = Figure(memory.saved_gb / 7.0, 0)


def _length(figures: dict[str, Figure]) -> None:
    for loss in ("grpo", "dapo", "dr_grpo"):
        options = {"max_completion_length": L_MAX} if loss == "dr_grpo" else {}
        token = per_token_push(LENGTHS, ADVANTAGES, loss, **options)
        total = per_sequence_push(LENGTHS, ADVANTAGES, loss, **options)
        name = loss.replace("_", "")
        figures[f"length.{name}.token.short"] = Figure(float(token[0]), 4, trim=True)
        figures[f"length.{name}.token.long"] = Figure(float(token[1]), 4, trim=True)
        figures[f"length.{name}.total.short"] = Figure(float(total[0]), 4, trim=True)
        figures[f"length.{name}.total.long"] = Figure(float(total[1]), 4, trim=True)
        if loss == "grpo":  # "pushed down by" quotes the size of the push
            figures["length.grpo.token.long.size"] = Figure(abs(float(token[1])), 4, trim=True)
    # The example's +1 and -1 are the z-scores of rewards 1 and 0 (population std); TRL's
    # sample std gives a smaller pair, and every push scales with it.
    if tuple(group_advantages([1.0, 0.0], convention="zscore")) != ADVANTAGES:
        raise ValueError("the length example's advantages are no longer the z-scores of 1, 0")
    figures["length.k2.trl"] = Figure(float(group_advantages([1.0, 0.0], convention="trl")[0]), 4)


@functools.cache
def figures() -> dict[str, Figure]:
    """Every figure the content quotes, by name (computed once)."""
    out: dict[str, Figure] = {}
    for part in (
        _near_tie,
        _worked,
        _walkthrough,
        _ddof,
        _binary,
        _scaling,
        _nemo,
        _kl,
        _multi_reward,
        _noise,
        _quiz,
        _float32,
        _critic,
        _length,
    ):
        part(out)
    return out


def text(name: str) -> str:
    """The figure called ``name`` as the prose shows it; KeyError names unknown ones."""
    return figures()[name].text
