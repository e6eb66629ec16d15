"""The formula-blank grader against a test set of phrasings (``blank_phrasings.toml``).

Each entry says whether an answer is a statistic of THIS prompt's K rewards (rewards laid
out ``(prompts, K)``: a row is one prompt's group). ``KNOWN_HOLES`` lists the entries the
grader gets wrong today (none since issue 12); they are strict expected failures, so a
fix that closes a hole fails here until the hole is removed from the set.
"""

import functools
import tomllib
from pathlib import Path

import pytest

from practice.bank import load_bank
from practice.grading import check_formula_blanks, grade_blank

PHRASINGS = tomllib.loads(
    (Path(__file__).parent / "blank_phrasings.toml").read_text(encoding="utf-8")
)["phrasing"]
KINDS = ("mean", "std", "rloo", "binary")
RIGHT = {"mean": "group mean", "std": "group std"}
"""A known-right answer for the other blank of the GRPO template."""
BANK_BLANKS = {"rloo": ("blanks-rloo-baseline", 0), "binary": ("blanks-binary", 1)}
"""Blank kind -> (bank item id, index of the blank in that item)."""

KNOWN_HOLES: set[tuple[str, str]] = set()
"""(blank, answer) the grader gets wrong today: empty since issue 12. A hole found later goes
here (strict xfail) until the grader is fixed."""


@functools.cache
def _bank_blank(kind: str):
    qid, index = BANK_BLANKS[kind]
    question = next(q for q in load_bank() if q.id == qid)
    return question.blanks[index]


def _accepted(blank: str, answer: str) -> bool:
    if blank == "mean":
        return check_formula_blanks(answer, RIGHT["std"])[0]
    if blank == "std":
        return check_formula_blanks(RIGHT["mean"], answer)[1]
    return grade_blank(_bank_blank(blank), answer).correct


def _case(entry: dict):
    hole = (entry["blank"], entry["answer"]) in KNOWN_HOLES
    marks = [pytest.mark.xfail(strict=True, reason="grader hole (issue 12)")] if hole else []
    label = f"{entry['blank']}: {entry['answer']}"
    return pytest.param(entry, id=label if len(label) <= 50 else label[:47] + "...", marks=marks)


@pytest.mark.parametrize("entry", [_case(e) for e in PHRASINGS])
def test_phrasing_gets_its_verdict(entry):
    assert _accepted(entry["blank"], entry["answer"]) is entry["accept"], entry["why"]


def test_the_set_covers_every_blank_and_both_verdicts():
    assert len(PHRASINGS) >= 100
    for entry in PHRASINGS:
        assert set(entry) == {"blank", "answer", "accept", "why"}, entry
        assert entry["blank"] in KINDS, entry
        assert isinstance(entry["accept"], bool), entry
    keys = [(e["blank"], e["answer"]) for e in PHRASINGS]
    assert len(set(keys)) == len(keys), "an entry is listed twice"
    assert {(e["blank"], e["accept"]) for e in PHRASINGS} == {
        (k, v) for k in KINDS for v in (True, False)
    }


def test_every_known_hole_is_an_entry():
    assert {(e["blank"], e["answer"]) for e in PHRASINGS} >= KNOWN_HOLES
