"""The records of the question bank: what a question, an option, a blank and a drill hold.

Every record is frozen; ``practice.bank.load_bank`` builds them from
``content/questions.toml`` and checks the fields each kind needs. The constants name
the valid values of the fields a teacher writes (kinds, topics, graders, conventions).
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS: tuple[str, ...] = ("blanks", "choice", "numeric", "redflag", "followup")
"""blanks: fill in a formula. choice: multiple choice. numeric: a drill with fresh
rewards. redflag: pick the wrong snippet or claim. followup: an interviewer's
follow-up, answered in writing and graded point by point (``practice.followup``)."""

TOPICS: dict[str, str] = {
    "formula": "The GRPO advantage formula",
    "mean": "Subtracting the group mean",
    "std": "Dividing by the group std",
    "eps": "eps and zero-spread groups",
    "ddof": "ddof and the conventions of TRL, verl and OpenRLHF",
    "binary": "Binary rewards and pass rates",
    "dr-grpo": "Dr. GRPO",
    "dapo": "DAPO dynamic sampling",
    "rloo": "RLOO",
    "batch": "Batch vs group scaling",
    "critic": "The PPO critic, GAE and memory",
    "length": "Length normalisation",
    "float32": "float32 precision",
    "kl": "The KL penalty: loss or reward, k1/k2/k3, beta",
    "multi-reward": "Several rewards: sum first or normalise first (GDPO)",
    "loss": "The policy loss: ratio, clip, aggregation and KL",
}
"""Topic slug -> title: every part of the app a question can be about."""

BLANK_GRADERS: tuple[str, ...] = ("group-mean", "group-std")
"""Named graders a blank can use instead of a list of accepted answers."""

DRILL_CONVENTIONS: tuple[str, ...] = ("trl", "verl", "openrlhf", "dr-grpo", "rloo", "zscore")
"""Conventions a drill can ask about (one group, so batch scaling is left out)."""

REWARD_KINDS: tuple[str, ...] = ("binary", "continuous", "tie")
"""binary: 0/1 with at least one of each. continuous: one decimal in [0, 1], not
all equal. tie: one value repeated K times (the zero-spread case)."""

MAX_DRILL_GROUP_SIZE = 16
"""The largest group a drill may draw (its rewards are written out in the prompt)."""

LOSS_QUANTITIES: tuple[str, ...] = (
    "ratio",
    "sequence-ratio",
    "clip-fraction",
    "loss",
    "token-gradient",
    "kl-k3",
)
"""What a policy-loss drill asks (``practice.loss_drills``), beside "advantage": one
token's ratio after a log-prob shift, GSPO's ratio of one answer, the clip fraction of a
small group, the loss of a small group, the gradient on one token's log p, a k3 value."""

LOSS_DRILL_TYPES: tuple[str, ...] = ("grpo", "bnpo", "dr_grpo", "dapo")
"""The aggregations a loss drill can use (TRL's ``loss_type`` of the clip family)."""

MAX_LOSS_DRILL_ANSWERS = 5
"""The largest group a loss drill may draw (every token's numbers are in the prompt)."""


@dataclass(frozen=True)
class Option:
    """One option of a choice or redflag question."""

    text: str
    """Markdown; code snippets in backticks."""
    why: str
    """Why this option is right or wrong, shown after the attempt."""


@dataclass(frozen=True)
class Blank:
    """One blank of a formula."""

    label: str
    """What the blank stands for, e.g. "first blank"."""
    answer: str
    """The model answer, shown after the attempt."""
    grader: str | None = None
    """A name in ``BLANK_GRADERS``, or None to compare with ``accepted``."""
    accepted: tuple[str, ...] = ()
    """Accepted answers, normalised with ``normalise_answer``."""
    mistakes: tuple[tuple[tuple[str, ...], str], ...] = ()
    """(normalised answers, feedback) for wrong answers worth a specific explanation."""


@dataclass(frozen=True)
class DrillTemplate:
    """How to draw a numeric drill: the numbers are fresh each time."""

    convention: str
    """A name in ``DRILL_CONVENTIONS``."""
    min_group_size: int
    max_group_size: int
    """The group size K is drawn uniformly from min_group_size..max_group_size (inclusive)."""
    rewards: str
    """A name in ``REWARD_KINDS``."""
    ask: int
    """Which advantage to ask for, 1-based (A_2 is ask = 2); at most min_group_size."""
    tol: float
    """Absolute tolerance of the grading."""
    quantity: str = "advantage"
    """What is asked: "advantage" (A_ask under ``convention``) or a name in
    ``LOSS_QUANTITIES``; then ``convention`` is a ``LOSS_DRILL_TYPES`` aggregation, the
    group size is the number of answers and ``rewards`` and ``ask`` are not used."""


@dataclass(frozen=True)
class KeyPoint:
    """One point a good answer to a follow-up makes, and what earns it."""

    text: str
    """Markdown, claim links allowed: what is shown to the learner."""
    needs: tuple[tuple[str, ...], ...]
    """Concept groups, at least two (one with an actor or ``negated``): the point needs a
    phrasing of every group, related
    (in one sentence or clause, not negated, not a list); see ``practice.followup``."""
    or_needs: tuple[tuple[str, ...], ...] = ()
    """Another set of concept groups that also earns the point (empty: none)."""
    within: str = "sentence"
    """Where the concepts must be found together: "sentence" or "clause"."""
    actor: tuple[str, ...] = ()
    """Who the point is about (phrasings; empty: anyone): the nearest actor or rival named
    before the first group's phrasing must be one of these."""
    rivals: tuple[str, ...] = ()
    """Who else the answer may name instead (phrasings): named there, the point is missed."""
    negated: bool = False
    """The point denies its relation: the last concept group must be negated."""
    or_actor: tuple[str, ...] = ()
    """Who ``or_needs`` is about, when another actor than ``actor`` (the other half of a
    point like "numpy defaults to ddof 0, torch to ddof 1"); the rest are its rivals."""
    unless: tuple[str, ...] = ()
    """Phrasings of the point's contrary (a swapped relation: "the batch mean" for "centring
    stays per group"): one of them, not negated, where the point is found voids it there."""


@dataclass(frozen=True)
class Question:
    """One item of the bank; the fields of other kinds are left empty."""

    id: str
    """Stable and unique: progress and reviews refer to it."""
    kind: str
    topic: str
    prompt: str
    """Markdown, LaTeX in $...$."""
    explanation: str = ""
    """Shown after the attempt and in the end-of-quiz review."""
    options: tuple[Option, ...] = ()
    answer: int | None = None
    """choice and redflag: index into ``options`` of the option to pick."""
    blanks: tuple[Blank, ...] = ()
    drill: DrillTemplate | None = None
    model_answer: str = ""
    key_points: tuple[KeyPoint, ...] = ()
    """followup: the points a good answer makes, each with what earns it."""
