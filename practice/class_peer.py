"""Peer instruction's numbers for the lecturer: what the first vote suggests doing, what
the re-vote changed, and how sure the right and the wrong students said they were.

After the first vote, the share of the room that is right suggests the next step (the
usual rule of thumb; the lecturer's screen shows it, never the projector): few right ->
teach it again; a middle band -> let neighbours convince each other and vote again;
most right -> explain briefly and move on. After the re-vote, every student who voted
both times moves one of four ways (right->right, wrong->right, right->wrong,
wrong->wrong), and the normalised gain is the share of the room's possible improvement
it made: g = (post - pre) / (1 - pre) (Hake 1998's normalised gain, claim
``normalised-gain``), with pre and post the shares right, undefined when everyone was
right already.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from practice.store.class_rules import CONFIDENCES

RETEACH_BELOW = 0.35
"""Fewer right than this share: the idea did not land; teach it again (Crouch & Mazur
2001's 35-70 % band for peer discussion, claim ``peer-instruction-rule``)."""
MOVE_ON_FROM = 0.70
"""This share right or more: explain briefly and move on."""


def next_step(right: int, voted: int) -> str:
    """The rule of thumb for a first vote where ``right`` of ``voted`` students were right."""
    if voted <= 0:
        return "Nobody has voted yet."
    share = right / voted
    percent = f"{round(100 * share)} % right"
    if share < RETEACH_BELOW:
        return f"{percent}: few got it. Teach the idea again, then ask a similar question."
    if share < MOVE_ON_FROM:
        return f"{percent}: the middle band. Let neighbours convince each other, then vote again."
    return f"{percent}: most got it. Explain the answer briefly and move on."


@dataclass(frozen=True)
class Transitions:
    """How the students who voted both times moved between the two votes."""

    right_right: int
    wrong_right: int
    right_wrong: int
    wrong_wrong: int

    @property
    def n(self) -> int:
        return self.right_right + self.wrong_right + self.right_wrong + self.wrong_wrong

    @property
    def pre(self) -> float:
        """Share right in the first vote (0 when nobody voted twice)."""
        return (self.right_right + self.right_wrong) / self.n if self.n else 0.0

    @property
    def post(self) -> float:
        """Share right in the second vote."""
        return (self.right_right + self.wrong_right) / self.n if self.n else 0.0

    @property
    def gain(self) -> float | None:
        """(post - pre) / (1 - pre); None when nobody voted twice or all were right."""
        if not self.n or self.pre >= 1.0:
            return None
        return (self.post - self.pre) / (1.0 - self.pre)


def transitions(first: Mapping[str, bool], second: Mapping[str, bool]) -> Transitions:
    """Student token -> right? in each vote; only students in both votes count."""
    both = first.keys() & second.keys()
    pairs = [(bool(first[t]), bool(second[t])) for t in both]
    return Transitions(
        pairs.count((True, True)),
        pairs.count((False, True)),
        pairs.count((True, False)),
        pairs.count((False, False)),
    )


NOT_SAID = "not said"
"""The row of students who gave no confidence with their vote."""


def confidence_split(votes: Iterable[tuple[str, bool]]) -> list[tuple[str, int, int]]:
    """(confidence, right, wrong) for each of ``CONFIDENCES`` and ``NOT_SAID``, from the
    votes' (confidence, right?) pairs; rows nobody is in are left out. Confidently wrong
    students are the ones a discussion most needs to reach."""
    counts = {level: [0, 0] for level in (*CONFIDENCES, NOT_SAID)}
    for level, right in votes:
        counts[level if level in CONFIDENCES else NOT_SAID][0 if right else 1] += 1
    return [(level, r, w) for level, (r, w) in counts.items() if r + w]
