"""Verifiable tasks for a small real model, and the verifier that grades its answers.

Three kinds of check, each a rule (no learned reward model), as in RL with verifiable
rewards:
- ``number``: the last number in the answer equals the expected one (``verifier.grade``
  with ``strict=False``: an ``Answer: <n>`` line wins, else the last number in the prose);
- ``word``: the expected word appears in the answer as a whole word, ignoring case
  (the first such word is what the verifier read);
- ``exact``: the whole answer, stripped of surrounding whitespace and one trailing period,
  is exactly the expected text (case counts): a format task.

The reward is 1.0 for a pass and 0.0 for a fail. Strings in, a small dataclass out; hostile
text never raises, and only the first ``MAX_ANSWER_CHARS`` characters are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grpo_core import verifier

KINDS = ("number", "word", "exact")
MAX_PROMPT_CHARS = 200
"""The longest prompt a learner may type."""
MAX_ANSWER_CHARS = 2_000
_WORD_RE = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:[-'][A-Za-z\u00c0-\u024f]+)*")


@dataclass(frozen=True)
class Task:
    """A prompt with the answer its verifier expects."""

    prompt: str
    expected: str
    kind: str
    label: str = ""


@dataclass(frozen=True)
class Verdict:
    """The verifier's verdict on one answer, with its reason in words."""

    reward: float
    extracted: str | None
    reason: str


TASKS = (
    Task("What is 3 + 4? Answer with a number.", "7", "number", "Arithmetic: 3 + 4"),
    Task("What is 6 + 7? Answer with a number.", "13", "number", "Arithmetic: 6 + 7"),
    Task(
        "Which planet is the largest in the solar system? Answer with one word.",
        "Jupiter",
        "word",
        "One word: the largest planet",
    ),
    Task(
        "Write the word cat in capital letters. Reply with that word only.",
        "CAT",
        "exact",
        "Format: CAT in capitals",
    ),
)
"""The page's preset tasks, ones SmolLM2-135M gets right some of the time."""


def checked_task(prompt: object, expected: object, kind: object) -> Task:
    """A learner's own task; ValueError with a plain message when a field is unusable."""
    if kind not in KINDS:
        raise ValueError(f"The check must be one of {', '.join(KINDS)}.")
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("Type a prompt for the model.")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise ValueError(f"The prompt has {len(prompt)} characters; {MAX_PROMPT_CHARS} at most.")
    if not isinstance(expected, str) or not expected.strip():
        raise ValueError("Type the answer the verifier should expect.")
    expected = expected.strip()
    if kind == "number" and verifier.parse_number(expected) is None:
        raise ValueError(f"The expected answer {expected[:40]!r} is not a number.")
    if kind == "word" and not _WORD_RE.fullmatch(expected):
        raise ValueError("The expected answer of a one-word check must be one word.")
    return Task(prompt.strip(), expected, kind)


def grade(task: Task, answer: object) -> Verdict:
    """Grade ``answer`` against ``task`` (see the module doc); never raises on the answer."""
    text = answer[:MAX_ANSWER_CHARS] if isinstance(answer, str) else ""
    if task.kind == "number":
        g = verifier.grade(text, task.expected, strict=False)
        return _verdict(g.correct, g.extracted, task.expected, "the last number")
    if task.kind == "word":
        words = _WORD_RE.findall(text)
        got = next((w for w in words if w.casefold() == task.expected.casefold()), None)
        return _verdict(got is not None, got, task.expected, "the expected word")
    got = text.strip().removesuffix(".").strip()
    return _verdict(got == task.expected, got or None, task.expected, "the whole answer")


def _verdict(ok: bool, got: str | None, expected: str, what: str) -> Verdict:
    shown = "nothing" if got is None else repr(got if len(got) <= 40 else got[:39] + "…")
    mark = "matches" if ok else "does not match"
    return Verdict(1.0 if ok else 0.0, got, f"read {what}: {shown}, {mark} {expected!r}")
