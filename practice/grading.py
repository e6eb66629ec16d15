"""Grading: every kind of answer to right or wrong, with feedback that says why.

Contract: grading never raises on what a learner types (any object, any length), and
feedback never repeats the learner's text back. A ValueError means the page called a
grader wrongly (a choice grader on a blanks question, an option index out of range).

- The formula blanks of A_i = (R_i - ___) / (___ + eps): ``check_formula_blanks`` and
  the ``group-mean`` / ``group-std`` graders of ``grade_blank`` ask "is this a statistic
  of THIS prompt's K rewards?" (``practice.statistic`` reads words, symbols, LaTeX and
  code laid out (prompts, K)), and name the red flag a wrong one raises.
- ``grade_blank`` / ``grade_blanks`` (a named grader or a list of accepted answers),
  ``grade_choice`` (an option index), ``grade_numeric`` / ``grade_drill`` (a typed
  number, read by ``parse_number``).
- ``grade_followup``: a typed interview answer, point by point (``practice.followup``),
  with the red flags it raises named.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from practice.answer_text import (
    MAX_ANSWER_CHARS,
    SYMBOLS_BEFORE_NFKC,
    has_control,
    normalise_answer,
)
from practice.drills import Drill
from practice.followup import MAX_FOLLOWUP_CHARS, PointMatch, match_points, sentences
from practice.formula import parse_formula, same_function, uses_p
from practice.questions import Blank, Question
from practice.statistic import classify_statistic

MAX_NUMBER_CHARS = 40
"""Longer text is not read as a number."""
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$")
_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*(\d+)$")


# --- the GRPO formula blanks ----------------------------------------------------------------


def check_formula_blanks(mean_answer, std_answer) -> tuple[bool, bool]:
    """(first blank right, second blank right) for A_i = (R_i - ___) / (___ + eps).

    Accepts every notation of a statistic of THIS prompt's K rewards, the within-group
    mean (mean, mu, μ, \\mu_g, mean(R), \\bar{R}, r_bar, avg, per-group mean, E[R],
    np.mean(R, axis=-1), ...) and std (std, sigma, σ, \\sigma_g, std(R), standard
    deviation, sqrt(var(R)), RMS deviation from the mean, R.std(1, ddof=1), ...), in
    any case and spacing. Rewards are laid out (prompts, K), so code reducing over
    axis 0 is across prompts. Rejects the red flags (statistics across prompts or
    groups, a critic's value, the variance, the advantages, RLOO's leave-one-out
    mean); see ``practice.statistic``. Never raises.
    """
    return classify_statistic(mean_answer) == "mean", classify_statistic(std_answer) == "std"


_RIGHT = {
    "mean": "Right: the mean of the K rewards of the same prompt, the group mean.",
    "std": "Right: the standard deviation of the K rewards of the same prompt, the group std.",
}
_WHAT = {
    "mean": "The first blank is what every reward is compared with: the mean of the K "
    "rewards of the same prompt.",
    "std": "The second blank is the spread that puts every prompt on the same scale: the "
    "standard deviation of the K rewards of the same prompt.",
}


_SYMBOL = {"mean": ("μ", "\\mu_g"), "std": ("σ", "\\sigma_g")}
_INPUT_PROBLEMS = {
    "not-text": "No answer was given as text.",
    "too-long": f"Too long to grade (over {MAX_ANSWER_CHARS} characters): write only the "
    "statistic, such as 'group mean' or 'σ'.",
    "control": "The answer contains control characters; type it again as plain text.",
}


_WHY = {
    "empty": "Empty: fill in the blank. ",
    "batch-mean": "Red flag: a mean over the whole batch (all prompts, or several prompts' "
    "groups). GRPO compares each answer only with the other answers to the same prompt; a "
    "batch mean mixes easy and hard prompts, so every answer to a hard prompt looks bad. ",
    "batch-std": "Red flag: a std over the whole batch (all prompts, or several prompts' "
    "groups). GRPO divides by the spread of the K rewards of the same prompt; dividing by "
    "the batch std is TRL's scale_rewards=\"batch\" variant, not GRPO's formula. ",
    "batch-variance": "Red flag twice: a variance, and over the whole batch. ",
    "batch": "Red flag: statistics over the whole batch (all prompts). GRPO uses only the "
    "K rewards of the same prompt. ",
    "axis0-mean": "Red flag: axis=0 averages answer i across prompts: under the (prompts, K) "
    "layout the group is a row, so the group mean reduces over axis=-1 (or 1; dim in torch). ",
    "axis0-std": "Red flag: axis=0 takes the spread of answer i across prompts: under the "
    "(prompts, K) layout the group is a row, so the group std reduces over axis=-1 (or 1; dim "
    "in torch). ",
    "axis0-variance": "Red flag twice: a variance, and over axis=0, across prompts: under the "
    "(prompts, K) layout the group is a row (axis=-1 or 1). ",
    "advantage": "Those are the advantages A, what the formula computes: the statistics are "
    "of the rewards R of the group. ",
    "loo-mean": "That is RLOO's leave-one-out baseline, the mean of the OTHER K-1 rewards; "
    "GRPO takes the mean of all K rewards of the group, R_i included. ",
    "bad-count": "The count does not match the sum: K rewards are divided by K (the group "
    "mean), the K-1 others (leaving R_i out) by K-1. ",
    "value": "Red flag: that is PPO's critic, a learned value estimate V(s). GRPO drops "
    "the critic; the group's own rewards give the baseline and the scale. ",
    "variance": "Variance, not standard deviation: dividing by σ² instead of σ leaves the "
    "advantages in the wrong units (rewards scaled by 10 would give advantages 10 times "
    "smaller). Take the square root. ",
    "mixed": "That mixes the mean and the standard deviation; each blank takes one statistic. ",
    "with-eps": "The template already adds eps after the blank: writing it again would "
    "add it twice. Write only the statistic. ",
    "eps": "eps is already in the template; it only keeps the division finite. ",
    "max": "The maximum singles out one answer; GRPO compares each reward with the whole group. ",
    "min": "The minimum singles out one answer; GRPO compares each reward with the whole group. ",
    "median": "Not the median (or another quantile): GRPO uses the mean and the standard "
    "deviation. ",
    "range": "The range (max - min) depends on two answers only; GRPO uses the standard "
    "deviation. ",
    "sum": "A sum grows with the group size K; the mean divides it by K. ",
    "count": "K (the group size) is a count of answers, not a statistic of their rewards. ",
    "reward": "That is a reward itself, not a statistic of the group. ",
    "number": "A constant is not a statistic of the group's rewards. ",
    "none": "Leaving it out changes the formula. ",
    "baseline": "Which baseline? In GRPO the baseline is a specific statistic of the group: "
    "name it. ",
}
"""Why a verdict of ``classify_statistic`` is wrong, whatever the blank."""
_RED_FLAGS = frozenset(
    v for v in _WHY if v.startswith(("batch", "axis0")) or v in ("value", "advantage", "bad-count")
)
"""Verdicts whose reason is worth giving in any blank that asks for a statistic of the group."""


def _feedback(verdict: str, blank: str) -> str:
    """One explanation for a verdict of ``classify_statistic`` in the mean or std blank."""
    if verdict == blank:
        return _RIGHT[blank]
    other = "std" if blank == "mean" else "mean"
    if verdict in _INPUT_PROBLEMS:
        return _INPUT_PROBLEMS[verdict]
    if verdict == other:
        name = "group std" if other == "std" else "group mean"
        where = "second blank (the denominator)" if other == "std" else "first blank (subtracted)"
        return f"That is the {name}, which belongs in the {where}. " + _WHAT[blank]
    if verdict == "none" and blank == "std":
        return (
            "Dropping the std division is Dr. GRPO's variant (A = R - mean), not GRPO's "
            "formula. " + _WHAT[blank]
        )
    if verdict == "number" and blank == "std":
        return (
            "Dividing by a constant such as 1 is Dr. GRPO's variant, not GRPO's formula. "
            + _WHAT[blank]
        )
    if verdict == "variance" and blank == "mean":
        return "The variance measures spread, it is not a centre. " + _WHAT[blank]
    unknown = (
        f"Not recognised as the group {blank}. Write a word ('group {blank}'), a "
        f"symbol ('{_SYMBOL[blank][0]}') or LaTeX ('{_SYMBOL[blank][1]}'). "
    )
    return _WHY.get(verdict, unknown) + _WHAT[blank]


_STATISTICS = frozenset({"mean", "std", "loo-mean"})
"""Verdicts of ``classify_statistic`` that name one statistic of the group."""


def _same_meaning(answer, reference: str) -> bool:
    """Whether ``answer`` names the statistic of the group ``reference`` names, or is the
    same function of p (for a reference that is arithmetic in p, such as (1-p)/p)."""
    kind = classify_statistic(reference)
    if kind in _STATISTICS:
        return classify_statistic(answer) == kind
    ref = parse_formula(reference)
    if ref is None or not uses_p(ref):
        return False
    expr = parse_formula(answer)
    return expr is not None and same_function(expr, ref)


# --- the other kinds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """The grading of one answer: right or wrong, and why."""

    correct: bool
    feedback: str


def grade_blank(blank: Blank, answer) -> Result:
    """Grade one blank with its named grader or its list of accepted answers; never raises.

    A list blank also accepts an answer that means what its model answer means: the same
    statistic of the group (``classify_statistic``) or the same function of p
    (``practice.formula``); a wrong answer that means what a listed mistake means gets
    that mistake's feedback.
    """
    if blank.grader is not None:
        which = "mean" if blank.grader == "group-mean" else "std"
        verdict = classify_statistic(answer)
        return Result(verdict == which, _feedback(verdict, which))
    normal = normalise_answer(answer)
    if normal is None:
        return Result(False, _INPUT_PROBLEMS[classify_statistic(answer)])
    if not normal:
        return Result(False, "Empty: fill in the blank.")
    if normal in blank.accepted or _same_meaning(answer, blank.answer):
        return Result(True, f"Right: {blank.answer}.")
    for answers, feedback in blank.mistakes:
        if normal in answers:
            return Result(False, feedback)
    for answers, feedback in blank.mistakes:
        if any(_same_meaning(answer, a) for a in answers):
            return Result(False, feedback)
    model = f"The model answer: {blank.answer}."
    verdict = classify_statistic(answer)
    if verdict in _RED_FLAGS and classify_statistic(blank.answer) in _STATISTICS:
        return Result(False, _WHY[verdict] + model)
    return Result(False, "Not an answer this blank accepts. " + model)


def grade_blanks(question: Question, answers: Sequence) -> tuple[Result, ...]:
    """One Result per blank of a blanks question, in order.

    ValueError if the question is not a blanks question or the number of
    answers differs from the number of blanks (a page error, not a learner's).
    """
    if question.kind != "blanks":
        raise ValueError(f"question {question.id!r} is a {question.kind} question, not blanks.")
    if len(answers) != len(question.blanks):
        raise ValueError(
            f"question {question.id!r} has {len(question.blanks)} blanks, got {len(answers)} "
            "answers."
        )
    return tuple(grade_blank(b, a) for b, a in zip(question.blanks, answers, strict=True))


_VERDICT_WORD = re.compile(r"^(?:right|wrong|true|false|correct)\s*[:.]\s*", re.IGNORECASE)


def without_verdict(why: str) -> str:
    """An option's explanation without a verdict word of its own ("Wrong: the batch ..."
    becomes "The batch ..."): the page says one verdict, then this reason."""
    reason = _VERDICT_WORD.sub("", why)
    return reason[:1].upper() + reason[1:]


def grade_choice(question: Question, chosen: int) -> Result:
    """Grade a choice or redflag question; the feedback is the chosen option's explanation,
    without a verdict word of its own (the caller says right or wrong once)."""
    if question.kind not in ("choice", "redflag"):
        raise ValueError(f"question {question.id!r} is a {question.kind} question, not a choice.")
    if not isinstance(chosen, int) or isinstance(chosen, bool):
        raise ValueError(f"chosen must be an option index, got {chosen!r}.")
    if not 0 <= chosen < len(question.options):
        raise ValueError(f"chosen must be between 0 and {len(question.options) - 1}, got {chosen}.")
    return Result(chosen == question.answer, without_verdict(question.options[chosen].why))


# --- typed numbers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NumericResult:
    """The grading of a typed number."""

    correct: bool
    value: float | None
    """The number read, None if the text is not a number."""
    feedback: str


def parse_number(text) -> float | None:
    """A typed number: "0.935", " .935 ", "-1.2e-3", "−0.5", "+2", "3/4"; None otherwise.

    Never raises; infinities, NaN, decimal commas and anything over 40 characters are None.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        return None
    if isinstance(text, (int, float)):
        return float(text) if math.isfinite(text) else None
    if len(text) > MAX_NUMBER_CHARS or has_control(text):
        return None
    s = unicodedata.normalize("NFKC", text.translate(SYMBOLS_BEFORE_NFKC)).strip().lower()
    s = s.lstrip("≈~=").strip().replace(" ", "")
    if _NUMBER.match(s):
        value = float(s)
    elif m := _FRACTION.match(s):
        if int(m[2]) == 0:
            return None
        value = int(m[1]) / int(m[2])
    else:
        return None
    return value if math.isfinite(value) else None


def grade_numeric(answer_text, expected: float, *, tol: float) -> NumericResult:
    """Right when the typed number is within ``tol`` of ``expected``; never raises on the text."""
    value = parse_number(answer_text)
    if value is None:
        if isinstance(answer_text, str) and re.fullmatch(r"\s*[+-−]?\d+,\d+\s*", answer_text):
            return NumericResult(False, None, "Use a dot as the decimal point, e.g. 0.94.")
        return NumericResult(
            False, None, "Not a number: type a decimal such as -0.87, 0.935 or 1.2e-3."
        )
    if abs(value - expected) <= tol:
        return NumericResult(True, value, f"Right: the exact value is {expected:.4f}.")
    return NumericResult(
        False, value, f"Not quite: the answer is {expected:.4f} (accepted within ±{tol:g})."
    )


def grade_drill(drill: Drill, answer_text) -> NumericResult:
    """``grade_numeric`` for a drill, naming the classic mistake a wrong answer follows."""
    result = grade_numeric(answer_text, drill.expected, tol=drill.tol)
    if result.correct or result.value is None:
        return result
    for value, feedback in drill.mistakes:
        if abs(result.value - value) <= drill.tol:
            return NumericResult(False, result.value, f"{feedback} {result.feedback}")
    return result


# --- interview follow-ups -----------------------------------------------------------------


@dataclass(frozen=True)
class FollowupResult:
    """The grading of a typed follow-up answer, point by point."""

    score: float
    """The fraction of the key points made, in [0, 1]."""
    hits: tuple[bool, ...]
    """One per key point, in the bank's order: made or not."""
    matches: tuple[PointMatch, ...]
    """One per key point: the sentence and the words that earned it (empty when missed)."""
    missed: tuple[str, ...]
    """The text of every key point not made, in the bank's order."""
    red_flags: tuple[str, ...]
    """Why each red flag the answer raises is wrong ("Red flag: a mean over the whole batch...")."""
    problem: str | None = None
    """Why nothing was graded (empty, not text), or that only the first 4000 characters were."""


def grade_followup(question_id: str, answer) -> FollowupResult:
    """Grade a typed answer to the follow-up ``question_id`` against its key points.

    ``score`` is the fraction of the points made. Red flags are statistics the answer
    states that GRPO does not use (a batch mean, a critic's value, ...), unless the model
    answer itself names them (the batch-scaling question is about the batch std). Reads the
    first ``MAX_FOLLOWUP_CHARS`` characters; never raises on ``answer``. ValueError for an
    id that is not a follow-up of the bank (a page error).
    """
    question = _followups().get(question_id)
    if question is None:
        raise ValueError(f"{question_id!r} is not a follow-up question of the bank.")
    points = question.key_points
    if not isinstance(answer, str) or not answer.strip():
        problem = "Empty: write your answer first." if isinstance(answer, str) else "Not text."
        return FollowupResult(
            0.0,
            (False,) * len(points),
            (PointMatch(False),) * len(points),
            tuple(p.text for p in points),
            (),
            problem,
        )
    problem = None
    if len(answer) > MAX_FOLLOWUP_CHARS:
        problem = f"Only the first {MAX_FOLLOWUP_CHARS} characters were graded."
    matches = match_points(points, answer)
    hits = tuple(m.hit for m in matches)
    return FollowupResult(
        score=sum(hits) / len(points),
        hits=hits,
        matches=matches,
        missed=tuple(p.text for p, hit in zip(points, hits, strict=True) if not hit),
        red_flags=_red_flags(answer[:MAX_FOLLOWUP_CHARS], question.model_answer),
        problem=problem,
    )


@functools.cache
def _followups() -> dict[str, Question]:
    """The bank's follow-ups by id, loaded once."""
    from practice.bank import load_bank  # the bank checks its items with this module's graders

    return {q.id: q for q in load_bank() if q.kind == "followup"}


_CLAUSE = re.compile(r"[,;:()]|\b(?:but|whereas|while|so|which|and)\b")
_NEGATED_FLAG = re.compile(r"\b(?:not|no|never|instead of|rather than|without|unlike)\b|n't\b")


def _flags_of(text: str) -> set[str]:
    """The red-flag verdicts of ``classify_statistic`` over the clauses of ``text`` that are
    not negated ("not the batch mean" names no red flag)."""
    found = set()
    for sentence in sentences(text):
        for clause in _CLAUSE.split(sentence):
            if clause.strip() and not _NEGATED_FLAG.search(clause.lower()):
                verdict = classify_statistic(clause.strip()[:MAX_ANSWER_CHARS])
                if verdict in _RED_FLAGS:
                    found.add(verdict)
    return found


def _red_flags(answer: str, model_answer: str) -> tuple[str, ...]:
    """Why each red flag of ``answer`` that the model answer does not raise is wrong."""
    flags = _flags_of(answer) - _flags_of(model_answer)
    return tuple(_WHY[v].strip() for v in sorted(flags))
