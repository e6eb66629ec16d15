"""A tiny rule-based verifier, as used in RL with verifiable rewards (RLVR).

The model must finish its reply with a last line ``Answer: <number>``. The verifier reads
the number on the last answer line, compares it with the reference as an exact decimal
("42.0" equals "42", "1,234" equals "1234") and turns the verdict into a scalar reward:

    reward = (1.0 if correct else 0.0) + (format_bonus if well_formatted else 0.0)

An accuracy reward plus a format reward, both computed by rules rather than by a learned
reward model, is the recipe of DeepSeek-R1 (arXiv 2501.12948).

Definitions:
- An *answer line* is a line that, stripped of surrounding whitespace, reads
  ``Answer: <number>`` with an optional trailing period ("answer" in any case), at most
  200 characters long. Anything else on the line ("Answer: 173 books", "**Answer:** 173",
  HTML tags) makes it prose.
- ``well_formatted``: the last non-blank line of the text is an answer line.
- ``strict=True`` (the default): only the number on the last answer line counts, so the
  right number stated in prose without an answer line is graded wrong. This is how a
  strict RLVR verifier behaves, and it is what teaches a model the format.
- ``strict=False``: when the text has no answer line, the last number anywhere in it is
  taken instead (a lenient, GSM8K-style fallback). An answer line, when present, wins.

Hostile text never raises: a non-string grades as "no answer", and only the last
``MAX_CHARS`` characters of a text are read, so the work is bounded whatever its size.
No numpy, no streamlit: strings in, a small dataclass out.
"""

from __future__ import annotations

import math
import numbers
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import content
from grpo_core import _checks

__all__ = [
    "DEFAULT_WORKED_EXAMPLE",
    "MAX_CHARS",
    "Grade",
    "SampledAnswer",
    "WorkedExample",
    "extract_final_answer",
    "grade",
    "load_worked_example",
    "parse_number",
]

MAX_CHARS = 20_000
"""Only the last MAX_CHARS characters of a text are read: a final answer lives at the end."""

_MAX_ANSWER_LINE = 200
"""An answer line longer than this (stripped) is treated as prose."""

DEFAULT_WORKED_EXAMPLE = content.path("worked_example.toml")
"""The walkthrough's real example, editable by teachers."""

# A number: optional sign (ASCII or Unicode minus), digits with optional thousands commas,
# optional decimal part. No exponents, no units. Every quantifier is linear: no backtracking
# blow-up on long runs of digits or spaces.
_NUMBER = r"(?P<sign>[-+\u2212])?(?P<int>\d{1,3}(?:,\d{3})+|\d+)?(?:\.(?P<frac>\d+))?"
_NUMBER_RE = re.compile(_NUMBER)
_ANSWER_LINE_RE = re.compile(r"answer\s*:\s*" + _NUMBER + r"\.?", re.IGNORECASE)
# In prose, a sign only counts when it is not glued to a word or a closing bracket
# ("240-60" is a subtraction, not the number -60).
_PROSE_NUMBER_RE = re.compile(
    r"(?:(?<![\w)\]])(?P<sign>[-+\u2212]))?"
    r"(?<![\d.,])(?P<int>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.(?P<frac>\d+))?"
)


@dataclass(frozen=True)
class Grade:
    """The verifier's verdict on one answer."""

    correct: bool
    """The number read from the answer equals the reference."""
    well_formatted: bool
    """The last non-blank line is ``Answer: <number>``."""
    reward: float
    """(1.0 if correct else 0.0) + (format_bonus if well_formatted else 0.0)."""
    extracted: str | None
    """The number the verifier read, canonical ("1,234.50" -> "1234.5"); None when none."""


def parse_number(text: str) -> str | None:
    """The canonical form of ``text`` if it is exactly one number, else None.

    Canonical: no thousands commas, no leading zeros, no trailing fractional zeros,
    ASCII minus, "0" for any zero: "-1,234.50" -> "-1234.5", "42.0" -> "42".
    Two numbers are equal exactly when their canonical forms are equal.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    m = _NUMBER_RE.fullmatch(text.strip())
    return _canonical(m) if m else None


def extract_final_answer(text: str) -> str | None:
    """The number on the last ``Answer: <number>`` line of ``text``, canonical; None if absent.

    >>> extract_final_answer("work...\\nAnswer: 1,234.0")
    '1234'
    """
    lines = _tail_lines(text)
    for line in reversed(lines):
        number = _answer_line_number(line)
        if number is not None:
            return number
    return None


def grade(
    text: str,
    reference: str | int | float,
    *,
    format_bonus: float = 0.0,
    strict: bool = True,
) -> Grade:
    """Grade one answer against ``reference`` (see the module docstring for the rules).

    text: what the model wrote; any value is accepted and never raises.
    reference: the correct number, e.g. "173", 173 or "-2.5"; ValueError if not a number.
    format_bonus: added to the reward when the answer is well formatted (0 by default).
    strict: True reads only answer lines; False falls back to the last number in the text.
    """
    ref = _reference(reference)
    format_bonus = _checks.finite(format_bonus, "format_bonus")
    if not isinstance(strict, bool):
        raise ValueError(f"strict must be True or False, got {strict!r}.")

    lines = _tail_lines(text)
    last_nonblank = next((line for line in reversed(lines) if line.strip()), "")
    well_formatted = _answer_line_number(last_nonblank) is not None
    extracted = None
    for line in reversed(lines):
        extracted = _answer_line_number(line)
        if extracted is not None:
            break
    if extracted is None and not strict:
        extracted = _last_number_in_prose(lines)
    correct = extracted is not None and extracted == ref
    reward = verifier_reward(correct, well_formatted, format_bonus=format_bonus)
    return Grade(correct=correct, well_formatted=well_formatted, reward=reward, extracted=extracted)


def verifier_reward(correct: bool, well_formatted: bool, *, format_bonus: float = 0.0) -> float:
    """The reward rule: 1 for a correct answer, 0 otherwise, plus the bonus if well formatted.

    Used by ``grade`` and when a person regrades an answer by hand.
    """
    return (1.0 if correct else 0.0) + (format_bonus if well_formatted else 0.0)


# --- the worked example ------------------------------------------------------------------


@dataclass(frozen=True)
class SampledAnswer:
    """One answer a model might have written to the worked example's problem."""

    id: str
    """Short unique label, shown in tables and charts."""
    text: str
    """What the model wrote."""
    note: str = ""
    """For the teacher: what this answer illustrates (may be empty)."""


@dataclass(frozen=True)
class WorkedExample:
    """A problem, its reference answer and a group of sampled answers to grade."""

    problem: str
    reference: str
    """The correct number, as written in the file."""
    answers: tuple[SampledAnswer, ...]
    """The group, K = len(answers) >= 2, in file order."""


_TOP_KEYS = ("problem", "reference", "answers")
_ANSWER_KEYS = ("id", "text", "note")


def load_worked_example(path: str | Path | None = None) -> WorkedExample:
    """Read and validate a worked example TOML (``content/worked_example.toml`` by default).

    Raises ValueError naming the file and the bad field (invalid TOML, a missing or
    empty field, a reference that is not a number, fewer than 2 answers, a duplicate
    id, an unknown key); FileNotFoundError if the file does not exist.
    """
    path = Path(DEFAULT_WORKED_EXAMPLE if path is None else path)
    with path.open("rb") as f:
        try:
            data = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"{path}: not valid TOML: {e}") from None

    def bad(message: str) -> ValueError:
        return ValueError(f"{path}: {message}")

    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise bad(f"unknown field {unknown[0]!r} (expected {', '.join(_TOP_KEYS)}).")
    problem = data.get("problem")
    if not isinstance(problem, str) or not problem.strip():
        raise bad("'problem' must be a non-empty string.")
    reference = data.get("reference")
    if isinstance(reference, bool) or not isinstance(reference, str | int):
        raise bad(
            f"'reference' must be a number written as a string, e.g. \"173\"; got {reference!r}."
        )
    reference = str(reference).strip()
    if parse_number(reference) is None:
        raise bad(f'\'reference\' must be a number such as "173" or "-2.5"; got {reference!r}.')

    raw = data.get("answers")
    if not isinstance(raw, list) or len(raw) < 2:
        raise bad(
            "'answers' must be a list of at least 2 [[answers]] tables (a group needs K >= 2)."
        )
    answers = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        where = f"answer #{i + 1}"
        if not isinstance(entry, dict):
            raise bad(f"{where} must be a table with 'id' and 'text'.")
        extra = sorted(set(entry) - set(_ANSWER_KEYS))
        if extra:
            raise bad(f"{where}: unknown field {extra[0]!r} (expected {', '.join(_ANSWER_KEYS)}).")
        for key in ("id", "text"):
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise bad(f"{where}.{key} must be a non-empty string.")
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise bad(f"{where}.note must be a string.")
        answer_id = entry["id"].strip()
        if answer_id in seen:
            raise bad(f"{where}.id {answer_id!r} is used twice; ids must be unique.")
        seen.add(answer_id)
        answers.append(SampledAnswer(id=answer_id, text=entry["text"].strip("\n"), note=note))
    return WorkedExample(problem=problem.strip(), reference=reference, answers=tuple(answers))


# --- helpers -------------------------------------------------------------------------------


def _canonical(m: re.Match) -> str | None:
    """Canonical string of a matched number; None when the match holds no digit."""
    int_digits, frac = m.group("int"), m.group("frac")
    if int_digits is None and frac is None:
        return None
    whole = (int_digits or "").replace(",", "").lstrip("0") or "0"
    frac = (frac or "").rstrip("0")
    value = whole + ("." + frac if frac else "")
    if value == "0":
        return "0"
    return ("-" if m.group("sign") in ("-", "\u2212") else "") + value


def _tail_lines(text: object) -> list[str]:
    """The lines of the last MAX_CHARS characters of ``text`` ([] for a non-string)."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text[-MAX_CHARS:]).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        return []
    if len(text) <= MAX_CHARS:
        return text.splitlines()
    lines = text[-MAX_CHARS:].splitlines()
    return lines[1:]  # the first line was cut in the middle: it might read as an answer line


def _answer_line_number(line: str) -> str | None:
    stripped = line.strip()
    if len(stripped) > _MAX_ANSWER_LINE or stripped[:6].lower() != "answer":
        return None  # cheap test first: an answer line is short and starts with "Answer"
    m = _ANSWER_LINE_RE.fullmatch(stripped)
    return _canonical(m) if m else None


def _last_number_in_prose(lines: list[str]) -> str | None:
    for line in reversed(lines):
        matches = list(_PROSE_NUMBER_RE.finditer(line))
        if matches:
            return _canonical(matches[-1])
    return None


def _reference(reference: object) -> str:
    """Canonical reference; ValueError when it is not a number."""
    if isinstance(reference, bool):
        raise ValueError(f"reference must be a number such as '173' or '-2.5', got {reference!r}.")
    if isinstance(reference, numbers.Integral):
        return parse_number(str(int(reference))) or "0"
    if isinstance(reference, numbers.Real):
        if not math.isfinite(reference):
            raise ValueError(f"reference must be a finite number, got {reference!r}.")
        # The shortest repr, written out without an exponent: 2.5 -> "2.5", 1e20 -> "1000...0".
        reference = format(Decimal(repr(float(reference))), "f")
    canonical = parse_number(reference) if isinstance(reference, str) else None
    if canonical is None:
        raise ValueError(f"reference must be a number such as '173' or '-2.5', got {reference!r}.")
    return canonical
