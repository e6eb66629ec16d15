"""Grading: every kind of answer to right or wrong, with feedback that says why.

Contract: grading never raises on what a learner types (any object, any length), and
feedback never repeats the learner's text back. A ValueError means the page called a
grader wrongly (a choice grader on a blanks question, an option index out of range).

- The formula blanks of A_i = (R_i - ___) / (___ + eps): ``check_formula_blanks`` and
  the ``group-mean`` / ``group-std`` graders of ``grade_blank`` read the notations
  people write for the group mean and std, and name the red flag a wrong one raises.
- ``grade_blank`` / ``grade_blanks`` (a named grader or a list of accepted answers),
  ``grade_choice`` (an option index), ``grade_numeric`` / ``grade_drill`` (a typed
  number, read by ``parse_number``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from practice.answer_text import (
    MAX_ANSWER_CHARS,
    SYMBOLS_BEFORE_NFKC,
    canonical,
    has_control,
    normalise_answer,
    word_set,
)
from practice.drills import Drill
from practice.questions import Blank, Question

MAX_NUMBER_CHARS = 40
"""Longer text is not read as a number."""
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$")
_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*(\d+)$")


# --- the GRPO formula blanks ----------------------------------------------------------------


def check_formula_blanks(mean_answer, std_answer) -> tuple[bool, bool]:
    """(first blank right, second blank right) for A_i = (R_i - ___) / (___ + eps).

    Accepts the notations people write for the within-group mean (mean, mu, μ,
    \\mu_g, mean(R), \\bar{R}, R̄, avg, group mean, E[R], ...) and std (std,
    sigma, σ, \\sigma_g, std(R), standard deviation, sqrt(var(R)), ...), in any
    case and spacing, with or without a group subscript. Rejects the red flags
    (batch statistics, a critic's value, the variance). Never raises.
    """
    return _classify(mean_answer) == "mean", _classify(std_answer) == "std"


_SUBSCRIPT = re.compile(r"_\s*(\([^()]*\)|\w+)")
_SUM_LIMIT = re.compile(r"sum\s*\^\s*(\([^()]*\)|\w+)")
_TOKEN = re.compile(r"[a-z]+|\d+|\.\.|!=|\S")

_MEAN = word_set("mean means μ avg average expectation expected")
_STD = word_set("std stdev stddev sd σ")
_VAR = word_set("var variance variances")
_VALUE = word_set("v value values critic critics vf gae")
_BATCH = word_set("batch batches minibatch global globally dataset prompts running moving ema")
_BATCH_UNLESS_GROUP = word_set("all whole entire overall")
"""Batch words only when nothing names the group ("mean of all K rewards" is fine)."""
_BATCH_SUBS = word_set("b batch batches all global d")
_GROUP_MARKERS = word_set("group groups grp same prompt its k g q each")
_COUNT = word_set("k n g size len count number")
_FORMULA = word_set("sum frac / - squared sqrt *")
_FILLER = word_set(
    "of the a an over in within for per on from across group groups grp prompt same this its "
    "one each all whole entire k n g q j i rewards reward r x scores score returns outputs output "
    "answers answer samples sample sampled completions responses population unbiased biased "
    "empirical arithmetic standard ddof dim axis keepdim keepdims true torch np numpy tensor s "
    "0 1 ( ) , . .. ' : = | baseline len size"
)


def _classify(text) -> str:
    """What a blank answer names: "mean", "std", or a reason it is neither."""
    if not isinstance(text, str):
        return "not-text"
    if len(text) > MAX_ANSWER_CHARS:
        return "too-long"
    if has_control(text):
        return "control"
    s = canonical(text)
    s = re.sub(r"standard\s*dev(iation)?s?|std\.?\s*dev(iation)?", " std ", s)
    s = re.sub(r"(mean|average|avg|expected)\s+value", r" \1 ", s)
    s = re.sub(r"(?<![a-z])\(?\s*e\s*\)?\s*\(", " expectation (", s)  # E[R], \mathbb{E}[R]
    s = re.sub(r"(?<![a-z])(bar\s*\(?\s*(r|x|rewards?)(?![a-z])|(r|x)\s+bar)", " mean ", s)
    s = re.sub(r"(σ|std|sd)\s*2(?!\d)", r" \1 squared ", s)  # sigma2, σ2
    s = _SUM_LIMIT.sub(" sum ", s)
    subs: list[str] = []
    s = _SUBSCRIPT.sub(lambda m: subs.append(m[1].strip("()")) or " ", s)
    s = _SUM_LIMIT.sub(" sum ", s)  # the limits of \sum_{j=1}^{K}, either order
    tokens = _TOKEN.findall(s)
    if not tokens:
        return "empty"
    words = set(tokens)
    sub_words = {t for sub in subs for t in _TOKEN.findall(sub)}
    if words & _VALUE:
        return "value"
    batch = bool(
        words & _BATCH
        or sub_words & _BATCH_SUBS
        or (words & _BATCH_UNLESS_GROUP and not (words | sub_words) & _GROUP_MARKERS)
    )
    has_mean, has_std = bool(words & _MEAN), bool(words & _STD)
    squared = "squared" in words
    is_var = bool(
        words & _VAR
        or (squared and has_std)
        or (squared and "-" in words and (has_mean or "r" in words))
    )
    formula_mean = "sum" in words and bool(words & {"/", "frac"}) and bool(words & _COUNT)
    if "sqrt" in words:
        base = "std" if is_var else "unknown"
    elif is_var:
        base = "variance"
    elif has_mean and has_std:
        base = "mixed"
    elif has_mean or formula_mean:
        base = "mean"
    elif has_std:
        base = "std"
    else:
        base = _other_kind(words)
    if batch:
        return f"batch-{base}" if base in ("mean", "std", "variance") else "batch"
    if base in ("mean", "std"):
        if "ε" in words:
            return "with-eps"
        allowed = _FILLER | _MEAN | _STD | _VAR
        if is_var or formula_mean:
            allowed = allowed | _FORMULA
        if words - allowed:
            return "unknown"
    return base


def _other_kind(words: set[str]) -> str:
    """A wrong answer's kind, when it names neither the mean nor the std."""
    for kind, names in (
        ("max", {"max", "maximum", "argmax", "best", "highest"}),
        ("min", {"min", "minimum", "worst", "lowest"}),
        ("median", {"median", "mode", "percentile", "quantile"}),
        ("range", {"range", "iqr"}),
        ("sum", {"sum", "total"}),
        ("eps", {"ε"}),
        ("baseline", {"baseline"}),
        ("none", {"none", "nothing", "null"}),
    ):
        if words & names:
            return kind
    plain = words - {"(", ")", ",", "."}
    if plain and plain <= _COUNT:
        return "count"
    if plain and plain <= {"r", "reward", "rewards", "i", "j", "x", "s", "'"}:
        return "reward"
    if plain and all(t.isdigit() or t in {".", "-", "+"} for t in plain):
        return "number"
    return "unknown"


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


def _feedback(verdict: str, blank: str) -> str:
    """One explanation for a verdict of ``_classify`` in the mean or std blank."""
    if verdict == blank:
        return _RIGHT[blank]
    other = "std" if blank == "mean" else "mean"
    if verdict in _INPUT_PROBLEMS:
        return _INPUT_PROBLEMS[verdict]
    special = {
        "empty": "Empty: fill in the blank. ",
        "batch-mean": "Red flag: a mean over the whole batch (all prompts). GRPO compares each "
        "answer only with the other answers to the same prompt; a batch mean mixes easy and "
        "hard prompts, so every answer to a hard prompt looks bad. ",
        "batch-std": "Red flag: a std over the whole batch (all prompts). GRPO divides by the "
        "spread of the K rewards of the same prompt; dividing by the batch std is TRL's "
        'scale_rewards="batch" variant, not GRPO\'s formula. ',
        "batch-variance": "Red flag twice: a variance, and over the whole batch. ",
        "batch": "Red flag: statistics over the whole batch (all prompts). GRPO uses only the "
        "K rewards of the same prompt. ",
        "value": "Red flag: that is PPO's critic, a learned value estimate V(s). GRPO drops "
        "the critic; the group's own rewards give the baseline and the scale. ",
        "variance": "Variance, not standard deviation: dividing by σ² instead of σ leaves the "
        "advantages in the wrong units (rewards scaled by 10 would give advantages 10 times "
        "smaller). Take the square root. ",
        "mixed": "That mixes the mean and the standard deviation; each blank takes one statistic. ",
        "with-eps": "The template already adds eps after the blank: writing it again would "
        "add it twice. Write only the statistic. ",
        "eps": "eps is already in the template; it only keeps the division finite. ",
        "max": "The maximum singles out one answer; GRPO compares each reward with the whole "
        "group. ",
        "min": "The minimum singles out one answer; GRPO compares each reward with the whole "
        "group. ",
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
        "unknown": f"Not recognised as the group {blank}. Write a word ('group {blank}'), a "
        f"symbol ('{_SYMBOL[blank][0]}') or LaTeX ('{_SYMBOL[blank][1]}'). ",
    }
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
    return special.get(verdict, special["unknown"]) + _WHAT[blank]


# --- the other kinds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """The grading of one answer: right or wrong, and why."""

    correct: bool
    feedback: str


def grade_blank(blank: Blank, answer) -> Result:
    """Grade one blank with its named grader or its list of accepted answers; never raises."""
    if blank.grader is not None:
        which = "mean" if blank.grader == "group-mean" else "std"
        verdict = _classify(answer)
        return Result(verdict == which, _feedback(verdict, which))
    normal = normalise_answer(answer)
    if normal is None:
        return Result(False, _INPUT_PROBLEMS[_classify(answer)])
    if not normal:
        return Result(False, "Empty: fill in the blank.")
    if normal in blank.accepted:
        return Result(True, f"Right: {blank.answer}.")
    for answers, feedback in blank.mistakes:
        if normal in answers:
            return Result(False, feedback)
    return Result(False, f"Not an answer this blank accepts. The model answer: {blank.answer}.")


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


def grade_choice(question: Question, chosen: int) -> Result:
    """Grade a choice or redflag question; the feedback is the chosen option's explanation."""
    if question.kind not in ("choice", "redflag"):
        raise ValueError(f"question {question.id!r} is a {question.kind} question, not a choice.")
    if not isinstance(chosen, int) or isinstance(chosen, bool):
        raise ValueError(f"chosen must be an option index, got {chosen!r}.")
    if not 0 <= chosen < len(question.options):
        raise ValueError(f"chosen must be between 0 and {len(question.options) - 1}, got {chosen}.")
    return Result(chosen == question.answer, question.options[chosen].why)


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
