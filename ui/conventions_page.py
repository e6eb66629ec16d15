"""What the library conventions page computes besides its layout: the prompts it can
compare, each answer with the number it has where it was typed (a grid's row, or its place
in a typed list), and the cached comparisons."""

from __future__ import annotations

import streamlit as st

from grpo_core.compare import compare_conventions, scaling_comparison
from grpo_core.format import plural
from grpo_core.parsing import ParsedRewards
from grpo_core.sentences import explain_differences

Prompts = dict[int, tuple[tuple[int, float], ...]]
"""Prompts by number, each a tuple of its answers as (answer number, reward)."""


def numbered(parsed: ParsedRewards, prompts=None) -> Prompts:
    """The prompts of ``parsed`` that have rewards, each answer with its number; ``prompts``
    renumbers them (one prompt number per group of ``parsed``), 1..G by default."""
    prompts = range(1, len(parsed.groups) + 1) if prompts is None else prompts
    return {
        p: tuple(zip(numbers, group, strict=True))
        for p, group, numbers in zip(prompts, parsed.groups, parsed.answers, strict=True)
        if group
    }


def flat(prompts: Prompts) -> tuple[list[float], list[int], list[int]]:
    """Rewards in one list, each one's prompt number (for group_ids) and answer number."""
    rewards = [r for answers in prompts.values() for _, r in answers]
    ids = [p for p, answers in prompts.items() for _ in answers]
    numbers = [a for answers in prompts.values() for a, _ in answers]
    return rewards, ids, numbers


@st.cache_data(max_entries=64, show_spinner=False)
def compare(prompts: Prompts):
    rewards, ids, numbers = flat(prompts)
    return (
        compare_conventions(rewards, group_ids=ids, answers=numbers),
        explain_differences(rewards, group_ids=ids),
    )


@st.cache_data(max_entries=64, show_spinner=False)
def scale(prompts: Prompts):
    rewards, ids, numbers = flat(prompts)
    return scaling_comparison(rewards, group_ids=ids, answers=numbers)


def usable(parsed: ParsedRewards) -> tuple[Prompts, list[str]]:
    """Prompts to compare, by number, and what was left out: empty prompts, and lone
    rewards when other prompts have several (groups of one are compared on their own)."""
    prompts = numbered(parsed)
    notes = [f"Prompt {p} has no rewards." for p, g in enumerate(parsed.groups, 1) if not g]
    lone = [p for p, g in prompts.items() if len(g) == 1]
    if lone and len(lone) < len(prompts):
        notes.append(
            f"{plural(len(lone), 'Prompt', with_count=False)} {', '.join(map(str, lone))} "
            f"{'have' if len(lone) > 1 else 'has'} a single reward and "
            f"{'are' if len(lone) > 1 else 'is'} left out: most libraries refuse a group of "
            "one. Type one reward for every prompt (3; 5) to compare groups of one."
        )
        prompts = {p: g for p, g in prompts.items() if len(g) > 1}
    return prompts, notes


def rewards(prompts: Prompts) -> list[list[float]]:
    """Each prompt's rewards, without their answer numbers."""
    return [[r for _, r in answers] for answers in prompts.values()]


def pair(first: ParsedRewards, second: ParsedRewards) -> Prompts:
    """The scaling section's prompts 1 and 2 (each typed on its own), those with at least
    two rewards."""
    both = {**numbered(first, [1]), **numbered(second, [2])}
    return {p: answers for p, answers in both.items() if len(answers) > 1}
