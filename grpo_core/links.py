"""Share links: compact, URL-safe text for the state a page shows.

Rewards are written as ``1_0_0.5~2_3``: answers joined by ``_``, prompts by
``~`` (characters a URL carries without escaping), each number in its
shortest exact form, so a link reproduces the rewards bit for bit. A prompt with no
rewards is an empty stretch (``1_0~~2_3``); at least one prompt has rewards. A cell left
out (blank, or not a number) is an empty answer (``1__1``), so every answer after it keeps
its number when the link is opened.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re

from grpo_core import _checks
from grpo_core.format import shortest
from grpo_core.parsing import parse_reward

MAX_LINK_CHARS = 4000
ANSWER_SEP, PROMPT_SEP = "_", "~"


def encode_rewards(groups, answers=None) -> str:
    """``[[1, 0], [0.5, 2]]`` -> ``"1_0~0.5_2"``; ``[[1], [], [2]]`` -> ``"1~~2"``.

    answers: as ``groups``, each reward's answer number (1-based, increasing, as
    ``ParsedRewards.answers``); an answer number missing before a reward is written as an
    empty answer: ``[[1, 1]]`` with ``[[1, 3]]`` -> ``"1__1"``. None: numbered 1..K.
    """
    if answers is None:
        return PROMPT_SEP.join(ANSWER_SEP.join(shortest(r) for r in g) for g in groups)
    try:
        groups, answers = list(groups), list(answers)
    except TypeError:
        raise ValueError("answers must hold one list of answer numbers per prompt.") from None
    if len(answers) != len(groups):
        raise ValueError(f"answers has {len(answers)} prompts, the rewards {len(groups)}.")
    rows = zip(groups, answers, strict=True)
    return PROMPT_SEP.join(ANSWER_SEP.join(_cells(g, numbers)) for g, numbers in rows)


def _cells(group, numbers) -> list[str]:
    """One prompt's cells: its rewards at their answer numbers, "" where one is left out.
    ValueError unless the numbers increase and stay within a link's length."""
    group = list(group)
    numbers = _checks.answer_numbers(numbers, len(group))
    rising = all(a < b for a, b in itertools.pairwise(numbers))
    if not rising or max(numbers, default=0) > MAX_LINK_CHARS:
        raise ValueError(f"answer numbers must increase, up to {MAX_LINK_CHARS}: {numbers[:8]}")
    cells = [""] * max(numbers, default=0)
    for reward, number in zip(group, numbers, strict=True):
        cells[number - 1] = shortest(reward)
    return cells


def decode_rewards(
    text, *, max_prompts: int, max_answers: int
) -> tuple[list[list[float | None]] | None, str | None]:
    """Rewards from a link, or (None, what is wrong in plain words). Never raises.

    Each prompt is a list of its cells, None for an empty answer (a cell left out).
    """
    if not isinstance(text, str) or not text:
        return None, "the link has no rewards"
    if len(text) > MAX_LINK_CHARS:
        return (
            None,
            f"the link's rewards are {len(text):,} characters long (at most {MAX_LINK_CHARS:,})",
        )
    rows = text.split(PROMPT_SEP)
    if len(rows) > max_prompts:
        return None, f"the link has {len(rows)} prompts; the playground shows at most {max_prompts}"
    groups = []
    for p, row in enumerate(rows, start=1):
        if not row:  # a prompt with no rewards
            groups.append([])
            continue
        cells = row.split(ANSWER_SEP)
        if len(cells) > max_answers:
            return None, f"prompt {p} in the link has {len(cells)} answers (at most {max_answers})"
        group = []
        for a, cell in enumerate(cells, start=1):
            try:
                value = parse_reward(cell)
            except ValueError as e:
                return None, f"prompt {p}, answer {a} in the link: {e}"
            group.append(value)
        groups.append(group)
    if all(value is None for group in groups for value in group):
        return None, "the link has no rewards"
    return groups, None


_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


def b64url_encode(raw: bytes) -> str:
    """Bytes as URL-safe base64 without padding (what certificates and progress links use)."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def b64url_decode(text: str) -> bytes | None:
    """Strict inverse of ``b64url_encode``: None unless re-encoding gives back ``text``."""
    if not isinstance(text, str) or not _B64URL.match(text) or len(text) % 4 == 1:
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if b64url_encode(raw) == text else None
