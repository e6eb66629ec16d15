"""Rewards typed by a person: text cells to numbers, with messages that point at the cell.

The playground's grid holds text, so anything can be typed; these functions
turn it into numbers or say, per cell, what is wrong in plain words.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from grpo_core.groups import MAX_ABS_REWARD

MAX_CELL_CHARS = 40
_MINUS = str.maketrans({"−": "-", "–": "-", "﹣": "-", "－": "-"})
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")


def ascii_minus(text: str) -> str:
    """``text`` with every minus sign people paste or type ("−" as the app writes it, en
    dash, small and full-width hyphen-minus) as the ASCII "-" Python's float reads."""
    return text.translate(_MINUS)


def parse_reward(text) -> float | None:
    """One cell's reward: a float, None for a blank cell, ValueError otherwise.

    Accepts what people type: " 0.5 ", "-1", "1e-3", ".5", "+2", a unicode minus.
    """
    if text is None:
        return None
    if isinstance(text, bool):
        raise ValueError(f"{text} is not a number")
    if isinstance(text, (int, float)):
        value = float(text)
        if math.isnan(value):
            return None  # an empty numeric cell arrives as NaN
        return _checked(value, repr(text))
    s = ascii_minus(str(text).strip())
    if not s:
        return None
    if len(s) > MAX_CELL_CHARS:
        raise ValueError(f"is {len(s)} characters long; a reward is a number like 0.5")
    if _DECIMAL_COMMA.match(s):
        raise ValueError(f"'{s}' uses a decimal comma; write {s.replace(',', '.')}")
    try:
        value = float(s)
    except ValueError:
        raise ValueError(f"'{s}' is not a number") from None
    if math.isnan(value):
        raise ValueError("NaN is not a reward; type a number")
    return _checked(value, s)


def _checked(value: float, shown: str) -> float:
    if math.isinf(value):
        raise ValueError(f"{shown} is infinite (too large for a float); rewards must be finite")
    if abs(value) > MAX_ABS_REWARD:
        raise ValueError(f"{shown} is too large; rewards must lie within ±{MAX_ABS_REWARD:.0e}")
    return value


@dataclass(frozen=True)
class CellError:
    """A cell that is not a reward: prompt and answer are 1-based."""

    prompt: int
    answer: int
    message: str

    def __str__(self) -> str:
        return f"Prompt {self.prompt}, answer {self.answer}: {self.message}."


@dataclass(frozen=True)
class ParsedRewards:
    """Rewards of each prompt (blank cells left out) and the cells that failed.

    ``answers`` has the shape of ``groups``: each reward's answer number, 1-based, as the
    cell's row in the grid, so an answer keeps its number when a cell above it is left out.
    """

    groups: list[list[float]]
    errors: list[CellError]
    blanks: int
    answers: list[list[int]]


def parse_reward_grid(columns) -> ParsedRewards:
    """Parse a grid given as one list of cells per prompt.

    A blank cell is left out, so prompts may end up with different numbers
    of answers; a cell that is not a number is reported and left out.
    """
    groups, errors, blanks, answers = [], [], 0, []
    for p, cells in enumerate(columns, start=1):
        group, numbers = [], []
        for a, cell in enumerate(cells, start=1):
            try:
                value = parse_reward(cell)
            except ValueError as e:
                errors.append(CellError(p, a, str(e)))
                continue
            if value is None:
                blanks += 1
            else:
                group.append(value)
                numbers.append(a)
        groups.append(group)
        answers.append(numbers)
    return ParsedRewards(groups=groups, errors=errors, blanks=blanks, answers=answers)


MAX_TEXT_CHARS = 4000
_ANSWER_SEP = re.compile(r"[,\s]+")
_PROMPT_SEP = re.compile(r"[;\n]")


def parse_reward_text(text, *, max_prompts: int, max_answers: int) -> ParsedRewards:
    """Rewards typed on one line: ``"1, 0, 1; 0.5, 2"``.

    Answers are separated by commas or spaces, prompts by semicolons (or new
    lines); blank prompts are skipped. As in ``parse_reward_grid``, an item that
    is not a number is reported (prompt and answer 1-based) and left out. Too
    much text, more than ``max_prompts`` prompts or more than ``max_answers``
    answers in a prompt is a ValueError in plain words.
    """
    text = "" if text is None else str(text)
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(
            f"the rewards are {len(text):,} characters long (at most {MAX_TEXT_CHARS:,})"
        )
    prompts = [p for p in _PROMPT_SEP.split(text) if p.strip(" ,\t")]
    if len(prompts) > max_prompts:
        raise ValueError(f"{len(prompts)} prompts were typed; at most {max_prompts}")
    columns = []
    for p, prompt in enumerate(prompts, start=1):
        items = [item for item in _ANSWER_SEP.split(prompt) if item]
        if len(items) > max_answers:
            raise ValueError(f"prompt {p} has {len(items)} rewards; at most {max_answers}")
        columns.append(items)
    return parse_reward_grid(columns)
