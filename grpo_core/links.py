"""Share links: compact, URL-safe text for the state a page shows.

Rewards are written as ``1_0_0.5~2_3``: answers joined by ``_``, prompts by
``~`` (characters a URL carries without escaping), each number in its
shortest exact form, so a link reproduces the rewards bit for bit. A prompt with no
rewards is an empty stretch (``1_0~~2_3``); at least one prompt has rewards.
"""

from __future__ import annotations

import base64
import binascii
import re

from grpo_core.format import shortest
from grpo_core.parsing import parse_reward

MAX_LINK_CHARS = 4000
ANSWER_SEP, PROMPT_SEP = "_", "~"


def encode_rewards(groups) -> str:
    """``[[1, 0], [0.5, 2]]`` -> ``"1_0~0.5_2"``; ``[[1], [], [2]]`` -> ``"1~~2"``."""
    return PROMPT_SEP.join(ANSWER_SEP.join(shortest(r) for r in g) for g in groups)


def decode_rewards(
    text, *, max_prompts: int, max_answers: int
) -> tuple[list[list[float]] | None, str | None]:
    """Rewards from a link, or (None, what is wrong in plain words). Never raises."""
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
            if value is None:
                return None, f"prompt {p}, answer {a} in the link is empty"
            group.append(value)
        groups.append(group)
    if not any(groups):
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
