"""The formula-blank grader against a test set of phrasings (``blank_phrasings.toml``).

Each entry says whether an answer is a statistic of THIS prompt's K rewards (rewards laid
out ``(prompts, K)``: a row is one prompt's group). ``KNOWN_HOLES`` lists the entries the
grader gets wrong today (issue 12); they are strict expected failures, so a fix that
closes a hole fails here until the hole is removed from the set.
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

KNOWN_HOLES: set[tuple[str, str]] = {
    # accepted today, must be rejected: statistics across prompts, or of the advantages
    ("mean", "mean across groups"),
    ("mean", "mean over groups"),
    ("mean", "mean of all groups"),
    ("mean", "average across groups"),
    ("mean", "mean of the group means"),
    ("mean", "mean(R, axis=0)"),
    ("mean", "R.mean(0)"),
    ("mean", "np.mean(R, axis=0)"),
    ("mean", "torch.mean(R, dim=0)"),
    ("mean", "R.mean(axis=0, keepdims=True)"),
    ("mean", "R.mean(dim=(0, 1))"),
    ("mean", "mean(A)"),
    ("std", "std across groups"),
    ("std", "std over groups"),
    ("std", "std of all groups"),
    ("std", "R.std(axis=0)"),
    ("std", "np.std(R, axis=0, ddof=1)"),
    ("std", "torch.std(R, dim=0)"),
    ("std", "R.std(0)"),
    ("std", "std(A)"),
    # rejected today, must be accepted: within-group wordings, code on the group axis,
    # the others' mean in other words, forms equal to (1-p)/p
    ("mean", "average reward of the K answers to the same prompt"),
    ("mean", "per-group mean"),
    ("mean", "within-group mean"),
    ("mean", "intra-group mean"),
    ("mean", "group-wise mean"),
    ("mean", "per-prompt mean reward"),
    ("mean", "mean over the rollouts of this prompt"),
    ("mean", "r_bar"),
    ("mean", "R_bar"),
    ("mean", r"\mu_{\text{group}}"),
    ("mean", "(R_1 + ... + R_K)/K"),
    ("mean", "np.mean(R, axis=-1)"),
    ("mean", "np.mean(R, axis=-1, keepdims=True)"),
    ("mean", "R.mean(-1)"),
    ("mean", "R.mean(dim=-1, keepdim=True)"),
    ("mean", "torch.mean(R, dim=-1)"),
    ("mean", "rewards.view(-1, K).mean(dim=1)"),
    ("std", "per-group std"),
    ("std", "RMS deviation from the mean"),
    ("std", "root mean square deviation from the group mean"),
    ("std", r"\sigma_{\text{group}}"),
    ("std", "np.std(R, axis=-1, ddof=1)"),
    ("std", "R.std(-1)"),
    ("std", "torch.std(R, dim=-1, correction=0)"),
    ("std", "R.std(dim=-1, keepdim=True)"),
    ("std", "rewards.view(-1, K).std(dim=1)"),
    ("rloo", "(sum_j R_j - R_i)/(K-1)"),
    ("rloo", "mean_{j != i} R_j"),
    ("rloo", "average of the other answers"),
    ("rloo", r"\frac{\sum_{j=1}^{K} R_j - R_i}{K-1}"),
    ("rloo", r"(K\bar{R} - R_i)/(K-1)"),
    ("rloo", "mean of the rewards of the other answers in the group"),
    ("rloo", "average reward of the other K-1 samples"),
    ("rloo", "mean of R excluding R_i"),
    ("rloo", "np.delete(R, i).mean()"),
    ("rloo", "(R.sum(-1, keepdims=True) - R)/(K-1)"),
    ("binary", r"\frac{1}{p}-1"),
    ("binary", "(1/p)-1"),
    ("binary", r"\frac{1}{p} - 1"),
    ("binary", r"\dfrac{1-p}{p}"),
    ("binary", r"\tfrac{1-p}{p}"),
    ("binary", "-1 + 1/p"),
    ("binary", "p^{-1} - 1"),
    ("binary", "(-p+1)/p"),
    ("binary", "((1-p)/p)"),
    ("binary", "1/p - p/p"),
}
"""(blank, answer) the grader gets wrong today: computed by running this file (issue 12)."""


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
