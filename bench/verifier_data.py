"""The labelled follow-up answers as (answer, key point) pairs for a learned verifier, with
the rule grader's verdict and quote on each, grouped by writer for leave-one-writer-out.

Reads only the non-blind sets (``SETS``); the blind ones (``metrics.BLIND``) are refused by
name. Writes one JSON file:

    .venv/bin/python bench/verifier_data.py /tmp/verifier/pairs.json

Each pair: writer, set, question, category, point (0-based), point_text, text (the answer),
sentences (``practice.followup.sentences``), rule (the rules' hit), quote (what earned it),
label (the point is truly made).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from practice.followup import sentences  # noqa: E402
from practice.grading import _followups, grade_followup  # noqa: E402
from tests.practice.followup_eval.metrics import BLIND, graded, load  # noqa: E402

SETS = {
    "indep": (("heldout_independent.toml", None), ("tuning_independent.toml", None)),
    "A": (("tuning_s8.toml", "A"),),
    "B": (("tuning_s8.toml", "B"),),
    "C": (("tuning_s9.toml", "C"),),
    "D": (("tuning_s9.toml", "D"),),
    "grader": (("tuning_grader.toml", None),),
    "old": (("heldout.toml", None), ("tuning.toml", None)),
}
"""Each writer's answers: (file, writer filter) pairs; the blind sets are never named."""
_LINK = re.compile(r"\[([^\]]*)\]\(claim:[^)]*\)")


def plain(markdown: str) -> str:
    """A key point's text without its claim links and emphasis."""
    return _LINK.sub(r"\1", markdown).replace("*", "").replace("`", "")


def pairs() -> list[dict]:
    """One record per (answer, scored key point) of every writer in ``SETS``."""
    bank = _followups()
    out = []
    for writer, files in SETS.items():
        for name, who in files:
            if name in BLIND:
                raise ValueError(f"{name} is blind: never read here.")
            for a, hits in graded(load(name, who)):
                result = grade_followup(a["question"], a["text"])
                points = bank[a["question"]].key_points
                for i, hit in enumerate(hits):
                    out.append(
                        {
                            "writer": writer,
                            "set": name,
                            "question": a["question"],
                            "category": a["category"],
                            "point": i,
                            "point_text": plain(points[i].text),
                            "text": a["text"],
                            "sentences": sentences(a["text"]),
                            "rule": bool(hit),
                            "quote": result.matches[i].quote,
                            "label": i + 1 in a["points"],
                        }
                    )
    return out


if __name__ == "__main__":
    records = pairs()
    Path(sys.argv[1]).write_text(json.dumps(records), encoding="utf-8")
    print(f"{len(records)} pairs written to {sys.argv[1]}")
