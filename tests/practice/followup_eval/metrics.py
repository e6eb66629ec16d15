"""Precision and recall of per-point credit on the follow-up evaluation set."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from pathlib import Path

from practice.grading import grade_followup

HERE = Path(__file__).parent
CATEGORIES = ("good", "partial", "stuffed", "negated", "offtopic")


def load(name: str) -> list[dict]:
    """The labelled answers of ``name`` (heldout.toml or tuning.toml)."""
    return tomllib.loads((HERE / name).read_text(encoding="utf-8"))["answer"]


def counts(answers: list[dict]) -> dict[str, dict[str, int]]:
    """{"all" and each category: {"tp", "fp", "fn", "neg"}} of per-point credit (neg: the
    key points the answers do not make, which could be falsely credited)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "neg": 0})
    for a in answers:
        hits = grade_followup(a["question"], a["text"]).hits
        truth = {p - 1 for p in a["points"]}
        for i, hit in enumerate(hits):
            if i not in truth:
                out["all"]["neg"] += 1
                out[a["category"]]["neg"] += 1
            kind = "tp" if hit and i in truth else "fp" if hit else "fn" if i in truth else None
            if kind:
                out["all"][kind] += 1
                out[a["category"]][kind] += 1
    return {k: out[k] for k in ("all", *CATEGORIES)}


def precision(c: dict[str, int]) -> float:
    """TP / (TP + FP); 1.0 when nothing was credited."""
    return c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0


def recall(c: dict[str, int]) -> float:
    """TP / (TP + FN); 1.0 when the answers make no point."""
    return c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0


def false_credit(c: dict[str, int]) -> float:
    """FP / (points not made): the share of points an answer does not make that it earns."""
    return c["fp"] / c["neg"] if c["neg"] else 0.0


def report(name: str) -> str:
    """One line per category: precision, recall and the counts."""
    lines = []
    for k, c in counts(load(name)).items():
        lines.append(
            f"{k:9s} precision {precision(c):.3f} recall {recall(c):.3f} "
            f"false credit {false_credit(c):.3f} (tp {c['tp']}, fp {c['fp']}, fn {c['fn']}, "
            f"points not made {c['neg']})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(report(sys.argv[1] if len(sys.argv) > 1 else "tuning.toml"))
