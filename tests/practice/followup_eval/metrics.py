"""Precision and recall of per-point credit on the follow-up evaluation sets.

Two sets of labelled answers live beside this file: the old hand-written one (``heldout.toml``,
``tuning.toml``; categories good, partial, stuffed, negated, offtopic) and the independent one
(``heldout_independent.toml``, ``tuning_independent.toml``; written without the key points,
categories excellent, partial, wrong_but_confident, keyword_salad, swapped, negated,
off_topic, mixed). ``heldout_fresh.toml`` and ``heldout_s5.toml`` (the same protocol, never
studied) are ``BLIND``: reported in aggregate only. The grader engineer's
``tuning_grader.toml`` uses the independent categories.
"""

from __future__ import annotations

import functools
import tomllib
from collections import defaultdict
from pathlib import Path

from practice.grader_trust import Trust
from practice.grading import grade_followup

HERE = Path(__file__).parent
CATEGORIES = ("good", "partial", "stuffed", "negated", "offtopic")
"""The old set's categories."""
INDEPENDENT = (
    "excellent",
    "partial",
    "mixed",
    "wrong_but_confident",
    "swapped",
    "negated",
    "keyword_salad",
    "off_topic",
)
"""The independent set's categories (the writer's intent)."""
MAX_CREDIT = 0.25
"""A swapped-relation or keyword-salad answer may earn at most this share of the points."""


def load(name: str, writer: str | None = None) -> list[dict]:
    """The labelled answers of ``name`` (a .toml file beside this module); with ``writer``,
    only that writer's (a set written by several, ``tuning_s8.toml``)."""
    answers = tomllib.loads((HERE / name).read_text(encoding="utf-8"))["answer"]
    return [a for a in answers if writer is None or a.get("writer") == writer]


LABELLED_POINTS = {"followup-rloo-vs-grpo": 4}
"""Key points added to a follow-up after the independent sets were labelled (RLOO's
"unbiased", issue 22) are in no label of those sets: an answer's hits are scored on the
first N points only, where N is the number the question had when its answers were labelled.
The held-out file itself is never edited."""


@functools.lru_cache(maxsize=4096)
def _hits(question: str, text: str) -> tuple[bool, ...]:
    """The grader's hits for one answer, once per process (a set's tests grade it per
    category and overall)."""
    return grade_followup(question, text).hits


def graded(answers: list[dict]) -> list[tuple[dict, tuple[bool, ...]]]:
    """Every answer with the grader's hits, one per key point its set was labelled on."""
    out = []
    for a in answers:
        hits = _hits(a["question"], a["text"])
        if "category" in a and a["category"] in INDEPENDENT:
            hits = hits[: LABELLED_POINTS.get(a["question"], len(hits))]
        out.append((a, hits))
    return out


def counts(answers: list[dict], by: str = "category") -> dict[str, dict[str, int]]:
    """{"all" and each value of ``by`` ("category" or "question"): {"tp", "fp", "fn",
    "neg"}} of per-point credit (neg: the key points the answers do not make, which could
    be falsely credited)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "neg": 0})
    for a, hits in graded(answers):
        truth = {p - 1 for p in a["points"]}
        for i, hit in enumerate(hits):
            for part in ("all", a[by]):
                out[part]["neg"] += i not in truth
                kind = "tp" if hit and i in truth else "fp" if hit else "fn" if i in truth else ""
                if kind:
                    out[part][kind] += 1
    order = sorted(
        {a[by] for a in answers},
        key=lambda k: (
            (INDEPENDENT + CATEGORIES + (k,)).index(k) if k in INDEPENDENT + CATEGORIES else 99
        ),
    )
    return {k: out[k] for k in ("all", *order)}


def over_credited(answers: list[dict], categories=("swapped", "keyword_salad")) -> list[tuple]:
    """(question, category, credit, labelled share, text) of each answer of ``categories``
    the grader credits with more than ``MAX_CREDIT`` of the points. (A swapped answer may
    still truly make a point it does not swap: the labelled share says how much.)"""
    found = []
    for a, hits in graded(answers):
        credit = sum(hits) / len(hits)
        if a["category"] in categories and credit > MAX_CREDIT:
            found.append(
                (a["question"], a["category"], credit, len(a["points"]) / len(hits), a["text"])
            )
    return found


def precision(c: dict[str, int]) -> float:
    """TP / (TP + FP); 1.0 when nothing was credited."""
    return c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0


def recall(c: dict[str, int]) -> float:
    """TP / (TP + FN); 1.0 when the answers make no point."""
    return c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0


def false_credit(c: dict[str, int]) -> float:
    """FP / (points not made): the share of points an answer does not make that it earns."""
    return c["fp"] / c["neg"] if c["neg"] else 0.0


def line(name: str, c: dict[str, int]) -> str:
    """One row: precision, recall, false credit and the counts."""
    return (
        f"{name:28s} precision {precision(c):.3f}  recall {recall(c):.3f}  "
        f"false credit {false_credit(c):.3f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']}, "
        f"not made {c['neg']})"
    )


def labelled_counts(truth: list[dict], other: list[dict]) -> dict[str, int]:
    """{"tp", "fp", "fn", "tn"} of ``other``'s labels scored against ``truth``'s, two
    labellings of the same answers in the same order, over each answer's key points (as many
    as the grader scores: ``graded``)."""
    if [a["text"] for a in truth] != [a["text"] for a in other]:
        raise ValueError("the two labellings are not of the same answers in the same order")
    c = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for (a, hits), b in zip(graded(truth), other, strict=True):
        for i in range(len(hits)):
            said, true = i + 1 in b["points"], i + 1 in a["points"]
            c["tp" if said and true else "fp" if said else "fn" if true else "tn"] += 1
    return c


def kappa(c: dict[str, int]) -> float:
    """Cohen's kappa of two labellings from their ``labelled_counts``: agreement beyond
    what their rates of saying "made" would give by chance (1 = always agree)."""
    n = c["tp"] + c["fp"] + c["fn"] + c["tn"]
    observed = (c["tp"] + c["tn"]) / n
    made = (c["tp"] + c["fp"]) * (c["tp"] + c["fn"]) + (c["fn"] + c["tn"]) * (c["fp"] + c["tn"])
    chance = made / n / n
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


SECOND_LABELS = {
    "heldout_s5.toml": "heldout_s5_second.toml",
    "heldout_s14.toml": "heldout_s14_second.toml",
}
"""Held-out sets labelled twice, by labellers who never saw each other's labels nor the
grader: how far two careful readers agree bounds what a grader can be asked to reach."""

BLIND = frozenset(
    {
        "heldout_fresh.toml",
        "heldout_s5.toml",
        "heldout_s5_second.toml",
        "heldout_s9.toml",
        "heldout_s14.toml",
    }
)
"""Sets whose answers and per-answer results are never shown: only the overall and
per-question figures are reported (a set studied answer by answer can be tuned to)."""


TRUST_SETS = ("heldout_fresh.toml", "heldout_s5.toml", "heldout_s9.toml", "heldout_s14.toml")
"""The blind sets whose pooled figures the pages quote (``heldout_s5_second.toml`` is the
same answers labelled again, so it is not counted twice)."""


def blind_trust() -> Trust:
    """The grader's per-point credit pooled over ``TRUST_SETS``, and for each follow-up."""
    answers = [a for name in TRUST_SETS for a in load(name)]
    by_question = counts(answers, by="question")
    per = {q: sum(a["question"] == q for a in answers) for q in by_question if q != "all"}
    c = by_question["all"]
    questions = tuple(
        (q, Trust(TRUST_SETS, n, *(by_question[q][k] for k in ("tp", "fp", "fn"))))
        for q, n in sorted(per.items())
    )
    return Trust(TRUST_SETS, len(answers), c["tp"], c["fp"], c["fn"], questions)


def report(name: str, writer: str | None = None) -> str:
    """Overall, per category and per question, then the over-credited swapped or salad
    answers; for a ``BLIND`` set only overall and per question, and the count. With
    ``writer``, only that writer's answers."""
    answers = load(name, writer)
    blind = name in BLIND
    who = f" by writer {writer}" if writer else ""
    lines = [
        f"== {name}: {len(answers)} answers{who}" + (" (blind: aggregates only)" if blind else "")
    ]
    by_category = counts(answers)
    lines += [line(k, c) for k, c in by_category.items() if not blind or k == "all"]
    lines += [line(k, c) for k, c in counts(answers, by="question").items() if k != "all"]
    over = over_credited(answers)
    beyond = [o for o in over if o[2] > o[3]]
    lines.append(
        f"swapped or keyword-salad answers above {MAX_CREDIT:.0%} credit: {len(over)} "
        f"({len(beyond)} credited beyond the points they truly make)"
    )
    if not blind:
        lines += [
            f"  {q} ({cat}, {credit:.0%}, labelled {share:.0%}): {text[:110]}"
            for q, cat, credit, share, text in over
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(report(sys.argv[1] if len(sys.argv) > 1 else "tuning_independent.toml"))


def mistakes(name: str, writer: str | None = None) -> list[str]:
    """One line per point the grader gets wrong on the set ``name``: "missed" (labelled,
    not credited) or "false" (credited, not labelled), with the question, the category, the
    point's number, the quote that earned a false credit and the answer's text. Refused for
    a ``BLIND`` set (ValueError): its answers are never shown."""
    if name in BLIND:
        raise ValueError(f"{name} is blind: only its aggregate figures are reported.")
    out = []
    for a, hits in graded(load(name, writer)):
        result = grade_followup(a["question"], a["text"])
        for i, hit in enumerate(hits):
            if hit == (i + 1 in a["points"]):
                continue
            kind = "false" if hit else "missed"
            quote = f" [{result.matches[i].quote[:160]}]" if hit else ""
            out.append(
                f"{kind:6s} {a['question']} ({a['category']}) point {i + 1}{quote}\n"
                f"       {' '.join(a['text'].split())}"
            )
    return out
