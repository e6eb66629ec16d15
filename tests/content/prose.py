"""Read content/ as a reviewer does: the prose units, the claim links, the numbers quoted.

A unit is what one citation must cover: a paragraph, a list item or a table of a Markdown
file, one string of a TOML file, or one question of the quiz bank (all its strings; its
explanation is where the citation goes, the only text the quiz renders through ``cite``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import content

MARKDOWN = (
    "guide.md",
    "cheatsheet.md",
    "critic.md",
    "home.md",
    "length_normalisation.md",
    "policy_loss.md",
)
TOML = ("lab.toml", "walkthrough.toml", "worked_example.toml", "training_log.toml")
QUIZ = "questions.toml"

CLAIM = re.compile(r"\]\(claim:([^)\s]*)\)")
LIBRARY = re.compile(
    r"(?<![A-Za-z])(TRL|verl|OpenRLHF|DeepSeekMath|DeepSeek-R1|DAPO|Dr\. GRPO|RLOO|"
    r"REINFORCE\+\+|InstructGPT)(?![A-Za-z])"
)
PLACEHOLDER = re.compile(r"\{\{\s*([a-z0-9_.]+)\s*\}\}")
# Numbers that are labels, not figures: arXiv ids, versions, paper sections and equations.
_LABELS = re.compile(
    r"arXiv \d{4}\.\d{4,5}|\bv\d+(?:\.\d+)+|\bsections? \d+(?:\.\d+)*(?: (?:to|and) \d+(?:\.\d+)*)?"
    r"|\bequation \d+"
)
DECIMAL = re.compile(r"(?<![\w.])\d*\.\d+(?:e[-+]?\d+)?(?!\w|\.\d)")


@dataclass(frozen=True)
class Unit:
    file: str
    where: str
    """A heading, a TOML key path or a question id: enough to find the text."""
    text: str


def _markdown_units(name: str) -> Iterator[Unit]:
    heading, in_math, in_comment = "(top)", False, False
    block: list[str] = []

    def flush() -> Iterator[Unit]:
        if not block:
            return
        items: list[list[str]] = []
        for line in block:
            if re.match(r"^(- |\d+\. )", line) or not items:
                items.append([line])
            else:
                items[-1].append(line)
        if block[0].startswith("|"):
            items = [block[:]]
        for item in items:
            yield Unit(name, heading, "\n".join(item))
        block.clear()

    for line in content.read_text(name).splitlines():
        if in_comment:
            in_comment = "-->" not in line
            continue
        if line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if line.strip() == "$$":
            in_math = not in_math
            continue
        if in_math:
            continue
        if line.startswith("#"):
            yield from flush()
            heading = line.lstrip("# ").strip()
            continue
        if not line.strip() or line.startswith("Try it: "):
            yield from flush()
            continue
        block.append(line)
    yield from flush()


MATCHER_KEYS = frozenset({"needs", "or_needs", "actor", "rivals", "or_actor"})
"""A follow-up key point's matching vocabulary (practice.followup): phrasings a candidate
might type ("std 0.1"), never shown as prose, so neither a claim nor a quoted figure."""


def _strings(value, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, v in value.items():
            if key not in MATCHER_KEYS:
                yield from _strings(v, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{where}[{i}]")


def units() -> Iterator[Unit]:
    """Every prose unit of content/ except the quiz bank."""
    for name in MARKDOWN:
        yield from _markdown_units(name)
    for name in TOML:
        for where, text in _strings(content.read_toml(name), ""):
            yield Unit(name, where, text)


def questions() -> list[dict]:
    return content.read_toml(QUIZ)["question"]


def quiz_strings() -> Iterator[Unit]:
    for q in questions():
        for where, text in _strings(q, q["id"]):
            yield Unit(QUIZ, where, text)


def all_text() -> Iterator[Unit]:
    yield from units()
    yield from quiz_strings()


def cited(text: str) -> list[str]:
    return CLAIM.findall(text)


def decimals(text: str) -> list[str]:
    """The decimal numbers typed in ``text``: placeholders and labels left out."""
    return DECIMAL.findall(_LABELS.sub(" ", PLACEHOLDER.sub(" ", text)))
