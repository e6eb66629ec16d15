"""Symbols in content/'s Markdown: a page that renders its formulas in LaTeX writes every
subscripted symbol in LaTeX (or as Unicode, A₂), never as a raw "A_i" beside a rendered $A_i$."""

from __future__ import annotations

import re

import pytest

import content
from practice.bank import load_bank
from tests.content.prose import MARKDOWN

RAW_SUBSCRIPT = re.compile(r"(?<![\w\\])([A-Za-z]|mean|std|pi|sum)_(\{[^}]*\}|\([^)]*\)|\w+)")
"""A symbol and its subscript written for a plain-text reader: R_i, pi_ref, delta_(t+l)."""
NOT_PROSE = re.compile(
    r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`]*`|\]\([^)]*\)|\{\{[^}]*\}\}", re.DOTALL
)  # math, code, link targets and figure placeholders


def raw_subscripts(markdown: str) -> list[str]:
    return [m.group(0) for m in RAW_SUBSCRIPT.finditer(NOT_PROSE.sub(" ", markdown))]


def test_raw_subscripts_are_found_outside_math_and_code_only():
    assert raw_subscripts(r"with r = p / p_old and $p_{\text{old}}$") == ["p_old"]
    assert raw_subscripts(r"`loss_type` and [x](claim:trl-loss_type) and {{a.b_c}}") == []


@pytest.mark.parametrize("name", [n for n in MARKDOWN if "$" in content.read_text(n)])
def test_a_page_with_latex_writes_no_raw_subscript(name):
    """The cheat sheet's RLOO row, GAE and KL estimator lines and the length page's L_max
    were plain "R_i", "V(s_(t+1))", "pi_ref", "L_max" under a rendered formula."""
    assert raw_subscripts(content.read_text(name)) == []


def test_the_quizs_feedback_writes_no_raw_subscript():
    """The quiz renders its prompts and options in LaTeX; an option's why, an explanation or
    a blank's mistake feedback said "A_i = R_i - mean(R)" and "1/|o_i|" beside them. (A
    follow-up's key points and model answer are written as a candidate types them.)"""
    shown = []
    for q in load_bank():
        shown.append(q.explanation or "")
        shown += [t for o in q.options for t in (o.text, o.why)]
        shown += [feedback for b in q.blanks for _, feedback in b.mistakes]
    assert [s for s in shown if raw_subscripts(s)] == []


DEFINED_IN_WORDS = re.compile(r"\\qquad[^$]*?\\text\{[^}]*\s[^}]*\}")
"""A display formula that goes on, after a \\qquad, to define a symbol in words."""


@pytest.mark.parametrize("name", MARKDOWN)
def test_a_display_formula_leaves_definitions_in_words_to_the_prose(name):
    """The cheat sheet's formula went on "μ = mean of the K rewards, σ = their std (same
    prompt only)" in display math: on a phone it broke as "μ =" at a line's end and its
    words on the next. The words now follow the formula as a sentence."""
    blocks = re.findall(r"\$\$(.*?)\$\$", content.read_text(name), re.DOTALL)
    assert [b for b in blocks if DEFINED_IN_WORDS.search(b)] == []
