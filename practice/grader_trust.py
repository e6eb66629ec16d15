"""How far a learner can trust the follow-up grader: its precision and recall of per-point
credit on the answers nobody tuned it to (the blind evaluation sets), as the pages say it.

``content/grader_trust.toml`` keeps the counts. ``bench/bench_grading.py --write-trust``
grades the blind sets and writes it; tests/practice/test_followup_eval.py grades them again
and fails when the file no longer matches the grader, so the figures a page quotes are
computed, never typed.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

TRUST_PATH = Path(__file__).resolve().parents[1] / "content" / "grader_trust.toml"


@dataclass(frozen=True)
class Trust:
    """Per-point credit of the grader pooled over blind sets of labelled answers."""

    sets: tuple[str, ...]
    answers: int
    true_credits: int
    """Points credited that the labels say the answer makes."""
    false_credits: int
    """Points credited that the answer does not make."""
    missed: int
    """Points the answer makes that earned nothing."""
    questions: tuple[tuple[str, Trust], ...] = ()
    """The same counts for each follow-up of the sets, by id (empty inside a question's)."""

    def of(self, question_id: str) -> Trust | None:
        """The counts for one follow-up; None when no blind answer was written to it."""
        return dict(self.questions).get(question_id)

    @property
    def precision(self) -> float:
        """Share of credited points truly made (1.0 when nothing was credited)."""
        credited = self.true_credits + self.false_credits
        return self.true_credits / credited if credited else 1.0

    @property
    def recall(self) -> float:
        """Share of the points made that earned credit (1.0 when none was made)."""
        made = self.true_credits + self.missed
        return self.true_credits / made if made else 1.0


_COUNTS = ("answers", "true_credits", "false_credits", "missed")
"""The counts a trust file keeps, pooled and per follow-up."""


@functools.cache
def load_trust(path: Path = TRUST_PATH) -> Trust:
    """The counts kept in ``path`` (``trust_toml``'s format); read once per process (the
    drill and the quiz show them under every graded follow-up)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sets = tuple(data["sets"])
    return Trust(
        sets=sets,
        answers=data["answers"],
        true_credits=data["true_credits"],
        false_credits=data["false_credits"],
        missed=data["missed"],
        questions=tuple(
            (qid, Trust(sets, **{k: t[k] for k in _COUNTS}))
            for qid, t in data.get("question", {}).items()
        ),
    )


def trust_toml(trust: Trust) -> str:
    """``trust`` as the TOML ``load_trust`` reads."""
    sets = ", ".join(f'"{name}"' for name in trust.sets)
    lines = [
        "# Written by `bench/bench_grading.py --write-trust`; checked against a fresh grading",
        "# by tests/practice/test_followup_eval.py. Do not edit by hand.",
        f"sets = [{sets}]",
        *(f"{k} = {getattr(trust, k)}" for k in _COUNTS),
    ]
    for qid, counts in trust.questions:
        lines += ["", f'[question."{qid}"]', *(f"{k} = {getattr(counts, k)}" for k in _COUNTS)]
    return "\n".join(lines) + "\n"


def percent(share: float) -> str:
    """A share as a whole percentage, in the app's style: 0.853 -> "85 %"."""
    return f"{round(100 * share)} %"


def trust_sentence(trust: Trust, question_id: str | None = None) -> str:
    """One plain sentence a learner can weigh a grade by; with ``question_id``, the figures
    on that follow-up's blind answers first (the pooled ones after), since they differ
    from question to question.

    >>> trust_sentence(Trust(("a.toml",), 10, 17, 3, 3))[:67]
    'On 10 answers it was never tuned to, 85 % of the points it credited'
    """
    pooled = (
        f"On {trust.answers:,} answers it was never tuned to, {percent(trust.precision)} of "
        "the points it credited were truly made, and it credited "
        f"{percent(trust.recall)} of the points the answers made."
    )
    one = trust.of(question_id) if question_id else None
    if one is None:
        return pooled
    return (
        f"On this question's {one.answers:,} answers it was never tuned to, "
        f"{percent(one.precision)} of the points it credited were truly made, and it "
        f"credited {percent(one.recall)} of the points the answers made (over every "
        f"follow-up, {trust.answers:,} answers: {percent(trust.precision)} and "
        f"{percent(trust.recall)})."
    )
