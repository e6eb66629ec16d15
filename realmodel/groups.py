"""Real groups: K answers of the model to one task, graded, with their advantages.

The committed groups (content/real_groups.json, written by scripts/sample_real_groups.py)
carry their provenance: the model file's sha256, seed, temperature, package versions and
date. This module reads and writes them with json only (no torch): the page shows them when
the model's extra is not installed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

import content
from grpo_core import real_tasks
from grpo_core.advantages import group_advantages

GROUPS_FILE = "real_groups.json"


@dataclass(frozen=True)
class RealGroup:
    """One task's K answers with the verifier's verdicts and TRL's default advantages."""

    task: real_tasks.Task
    answers: tuple[str, ...]
    seed: int
    temperature: float
    max_new_tokens: int
    token_ids: tuple[tuple[int, ...], ...] = ()
    step: dict | None = None
    """One real step's record: lr, loss_type, logp_before, logp_after (K,) sequence log-probs."""
    verdicts: tuple[real_tasks.Verdict, ...] = field(init=False)

    def __post_init__(self):
        graded = tuple(real_tasks.grade(self.task, a) for a in self.answers)
        object.__setattr__(self, "verdicts", graded)

    @property
    def rewards(self) -> np.ndarray:
        """(K,) 1.0 pass, 0.0 fail."""
        return np.array([v.reward for v in self.verdicts])

    @property
    def advantages(self) -> np.ndarray:
        """(K,) TRL's default: (R - group mean) / (sample std + 1e-4)."""
        return group_advantages(self.rewards, convention="trl")


def step_delta(group: RealGroup) -> np.ndarray | None:
    """(K,) Δ log p(answer) of the group's recorded step, None without one."""
    if not group.step:
        return None
    return np.asarray(group.step["logp_after"]) - np.asarray(group.step["logp_before"])


def to_dict(group: RealGroup) -> dict:
    """The JSON form of a group (the verdicts are recomputed on reading)."""
    t = group.task
    return {
        "label": t.label,
        "prompt": t.prompt,
        "expected": t.expected,
        "kind": t.kind,
        "seed": group.seed,
        "temperature": group.temperature,
        "max_new_tokens": group.max_new_tokens,
        "answers": list(group.answers),
        "token_ids": [list(ids) for ids in group.token_ids],
        **({"step": group.step} if group.step else {}),
    }


def from_dict(d: dict) -> RealGroup:
    """A group from its JSON form; ValueError on a malformed entry."""
    try:
        task = real_tasks.Task(str(d["prompt"]), str(d["expected"]), str(d["kind"]), d["label"])
        return RealGroup(
            task,
            tuple(str(a) for a in d["answers"]),
            int(d["seed"]),
            float(d["temperature"]),
            int(d["max_new_tokens"]),
            tuple(tuple(int(i) for i in ids) for ids in d.get("token_ids", [])),
            d.get("step"),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"A real group is malformed: {error}") from error


def load_committed() -> tuple[dict, list[RealGroup]]:
    """(provenance, groups) of content/real_groups.json."""
    data = json.loads(content.path(GROUPS_FILE).read_text(encoding="utf-8"))
    return data["provenance"], [from_dict(g) for g in data["groups"]]
