"""Practice: the question bank, grading, numeric drills and a quiz session, as pure data.

Four parts, in the order a page uses them:

1. The bank. ``content/questions.toml`` holds every question as data;
   ``load_bank`` reads and validates it into ``Question`` records.
2. Grading. ``grade_formula_blanks`` (and its boolean wrapper
   ``check_formula_blanks``) grade the blanks of A_i = (R_i - ___) / (___ + eps):
   they read the notations people write for the group mean and the group std
   and say why a wrong answer is wrong. ``grade_blanks``, ``grade_choice`` and
   ``grade_numeric`` grade the other kinds. Grading never raises on what a
   learner types, and feedback never repeats the learner's text back.
3. Drills. ``make_drill`` draws fresh rewards for a numeric question and
   computes the expected advantage through ``group_advantages``, with a worked
   solution in LaTeX.
4. The session. ``QuizState`` is an immutable record of one quiz (seeded
   order, answers); ``encode_progress``/``decode_progress`` turn it into a
   short URL-safe string and back.
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

import numpy as np

import content
from grpo_core.advantages import advantage_trace, group_advantages
from grpo_core.conventions import get_convention
from grpo_core.links import b64url_decode, b64url_encode

# --- the bank -----------------------------------------------------------------------------

KINDS: tuple[str, ...] = ("blanks", "choice", "numeric", "redflag", "followup")
"""blanks: fill in a formula. choice: multiple choice. numeric: a drill with fresh
rewards. redflag: pick the wrong snippet or claim. followup: an interviewer's
follow-up, self-graded against a model answer."""

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
}
"""Topic slug -> title: every part of the app a question can be about."""

BLANK_GRADERS: tuple[str, ...] = ("group-mean", "group-std")
"""Named graders a blank can use instead of a list of accepted answers."""

DRILL_CONVENTIONS: tuple[str, ...] = ("trl", "verl", "openrlhf", "dr-grpo", "rloo", "zscore")
"""Conventions a drill can ask about (one group, so batch scaling is left out)."""

REWARD_KINDS: tuple[str, ...] = ("binary", "continuous", "tie")
"""binary: 0/1 with at least one of each. continuous: one decimal in [0, 1], not
all equal. tie: one value repeated K times (the zero-spread case)."""

MAX_DRILL_K = 16
DEFAULT_BANK = content.path("questions.toml")

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


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
    k_min: int
    k_max: int
    """The group size K is drawn uniformly from k_min..k_max (inclusive)."""
    rewards: str
    """A name in ``REWARD_KINDS``."""
    ask: int
    """Which advantage to ask for, 1-based (A_2 is ask = 2); at most k_min."""
    tol: float
    """Absolute tolerance of the grading."""


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
    key_points: tuple[str, ...] = ()
    """followup: the points a good answer makes, for self-grading."""


_COMMON = {"id", "kind", "topic", "prompt", "explanation"}
_FIELDS = {
    "blanks": _COMMON | {"blanks"},
    "choice": _COMMON | {"options"},
    "redflag": _COMMON | {"options"},
    "numeric": _COMMON | {"drill"},
    "followup": _COMMON | {"model_answer", "key_points"},
}


def load_bank(path: str | Path | None = None) -> list[Question]:
    """Every question of the bank at ``path`` (default ``content/questions.toml``), in file order.

    ValueError naming the item and the field for anything malformed: unknown
    kind or topic, a duplicate id, a missing explanation, no or several
    correct options, a drill that cannot be drawn, a field nobody reads.
    """
    path = Path(path) if path is not None else DEFAULT_BANK
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path} is not valid TOML: {err}") from None
    items = data.get("question")
    if not isinstance(items, list) or not items:
        raise ValueError(f"{path} has no [[question]] items.")
    questions: list[Question] = []
    seen: set[str] = set()
    for number, item in enumerate(items, start=1):
        question = _question(item, number)
        if question.id in seen:
            raise ValueError(f"question {number}: field 'id': {question.id!r} is used twice.")
        seen.add(question.id)
        questions.append(question)
    return questions


class _Item:
    """Reads the fields of one TOML item, naming it in every error."""

    def __init__(self, item: object, number: int) -> None:
        if not isinstance(item, dict):
            raise ValueError(f"question {number}: is not a table.")
        self.item = item
        self.name = f"question {number}"

    def fail(self, field_name: str, problem: str):
        raise ValueError(f"{self.name}: field {field_name!r}: {problem}")

    def text(self, table: Mapping, key: str, where: str = "", *, required: bool = True) -> str:
        value = table.get(key, "")
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail(where + key, "must be a non-empty string.")
        return value.strip()

    def table_list(self, key: str) -> list[dict]:
        value = self.item.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            self.fail(key, "must be a non-empty list of tables.")
        return value

    def text_list(self, table: Mapping, key: str, where: str = "") -> tuple[str, ...]:
        value = table.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.fail(where + key, "must be a non-empty list of strings.")
        if not all(v.strip() for v in value):
            self.fail(where + key, "has an empty string.")
        return tuple(v.strip() for v in value)

    def integer(self, table: Mapping, key: str, where: str = "") -> int:
        value = table.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where + key, f"must be a whole number, got {value!r}.")
        return value


def _question(raw: object, number: int) -> Question:
    item = _Item(raw, number)
    qid = item.item.get("id")
    if not isinstance(qid, str) or not _ID_RE.match(qid):
        item.fail(
            "id", "must be 1 to 40 characters of a-z, 0-9 and '-', starting with a letter or digit."
        )
    item.name = f"question {number} ({qid!r})"
    kind = item.item.get("kind")
    if kind not in KINDS:
        item.fail("kind", f"must be one of {', '.join(KINDS)}; got {kind!r}.")
    unknown = sorted(set(item.item) - _FIELDS[kind])
    if unknown:
        item.fail(unknown[0], f"is not a field of a {kind} question.")
    topic = item.item.get("topic")
    if topic not in TOPICS:
        item.fail("topic", f"must be one of {', '.join(TOPICS)}; got {topic!r}.")
    common = {
        "id": qid,
        "kind": kind,
        "topic": topic,
        "prompt": item.text(item.item, "prompt"),
        "explanation": item.text(item.item, "explanation", required=kind != "followup"),
    }
    if kind in ("choice", "redflag"):
        options, answer = _options(item)
        return Question(**common, options=options, answer=answer)
    if kind == "blanks":
        return Question(**common, blanks=_blanks(item))
    if kind == "numeric":
        return Question(**common, drill=_drill_template(item))
    return Question(
        **common,
        model_answer=item.text(item.item, "model_answer"),
        key_points=item.text_list(item.item, "key_points"),
    )


def _options(item: _Item) -> tuple[tuple[Option, ...], int]:
    tables = item.table_list("options")
    if len(tables) < 2:
        item.fail("options", "needs at least 2 options.")
    options, correct = [], []
    for i, table in enumerate(tables):
        where = f"options[{i}]."
        extra = sorted(set(table) - {"text", "why", "correct"})
        if extra:
            item.fail(where + extra[0], "is not a field of an option (text, why, correct).")
        flag = table.get("correct", False)
        if not isinstance(flag, bool):
            item.fail(where + "correct", "must be true or false.")
        if flag:
            correct.append(i)
        options.append(
            Option(text=item.text(table, "text", where), why=item.text(table, "why", where))
        )
    if len(correct) != 1:
        item.fail("options", f"needs exactly one option with correct = true, has {len(correct)}.")
    return tuple(options), correct[0]


def _blanks(item: _Item) -> tuple[Blank, ...]:
    blanks = []
    for i, table in enumerate(item.table_list("blanks")):
        where = f"blanks[{i}]."
        extra = sorted(set(table) - {"label", "answer", "grader", "accepted", "mistakes"})
        if extra:
            item.fail(where + extra[0], "is not a field of a blank.")
        grader = table.get("grader")
        if grader is not None and grader not in BLANK_GRADERS:
            item.fail(where + "grader", f"must be one of {', '.join(BLANK_GRADERS)}.")
        if (grader is None) == ("accepted" not in table):
            item.fail(where + "accepted", "give either a grader or a list of accepted answers.")
        accepted = ()
        if grader is None:
            accepted = _normalised(
                item, item.text_list(table, "accepted", where), where + "accepted"
            )
        mistakes = []
        for j, m in enumerate(table.get("mistakes", [])):
            at = f"{where}mistakes[{j}]."
            if not isinstance(m, dict):
                item.fail(at[:-1], "must be a table with answers and feedback.")
            answers = _normalised(item, item.text_list(m, "answers", at), at + "answers")
            mistakes.append((answers, item.text(m, "feedback", at)))
        blank = Blank(
            label=item.text(table, "label", where),
            answer=item.text(table, "answer", where),
            grader=grader,
            accepted=accepted,
            mistakes=tuple(mistakes),
        )
        if not grade_blank(blank, blank.answer).correct:
            item.fail(where + "answer", "the model answer does not pass its own grader.")
        blanks.append(blank)
    return tuple(blanks)


def _normalised(item: _Item, answers: tuple[str, ...], where: str) -> tuple[str, ...]:
    out = []
    for a in answers:
        n = normalise_answer(a)
        if not n:
            item.fail(where, f"an answer normalises to nothing (too long or empty): {a!r}.")
        out.append(n)
    return tuple(out)


def _drill_template(item: _Item) -> DrillTemplate:
    table = item.item.get("drill")
    if not isinstance(table, dict):
        item.fail("drill", "must be a table (convention, k, rewards, ask, tol).")
    extra = sorted(set(table) - {"convention", "k", "rewards", "ask", "tol"})
    if extra:
        item.fail("drill." + extra[0], "is not a field of a drill.")
    convention = table.get("convention")
    if convention not in DRILL_CONVENTIONS:
        item.fail("drill.convention", f"must be one of {', '.join(DRILL_CONVENTIONS)}.")
    k = table.get("k")
    if (
        not isinstance(k, list)
        or len(k) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in k)
        or not 2 <= k[0] <= k[1] <= MAX_DRILL_K
    ):
        item.fail("drill.k", f"must be [k_min, k_max] with 2 <= k_min <= k_max <= {MAX_DRILL_K}.")
    rewards = table.get("rewards")
    if rewards not in REWARD_KINDS:
        item.fail("drill.rewards", f"must be one of {', '.join(REWARD_KINDS)}.")
    ask = item.integer(table, "ask", "drill.")
    if not 1 <= ask <= k[0]:
        item.fail("drill.ask", f"must be between 1 and k_min = {k[0]}.")
    tol = table.get("tol", 0.01)
    if not isinstance(tol, (int, float)) or isinstance(tol, bool) or not 0 < tol <= 1:
        item.fail("drill.tol", "must be a number in (0, 1].")
    return DrillTemplate(convention, k[0], k[1], rewards, ask, float(tol))


# --- grading the GRPO formula blanks --------------------------------------------------------

MAX_ANSWER_CHARS = 200
"""Longer answers are not read: feedback says "too long"."""


@dataclass(frozen=True)
class BlankFeedback:
    """The grading of A_i = (R_i - [mean blank]) / ([std blank] + eps)."""

    mean_correct: bool
    std_correct: bool
    mean_feedback: str
    """One or two sentences on the first blank; never quotes the learner's text."""
    std_feedback: str

    @property
    def correct(self) -> bool:
        return self.mean_correct and self.std_correct


def grade_formula_blanks(mean_answer, std_answer) -> BlankFeedback:
    """Grade the two blanks of the GRPO template, with a reason for each.

    Accepts the notations people write for the within-group mean (mean, mu, μ,
    \\mu_g, mean(R), \\bar{R}, R̄, avg, group mean, E[R], ...) and std (std,
    sigma, σ, \\sigma_g, std(R), standard deviation, sqrt(var(R)), ...), in any
    case and spacing, with or without a group subscript. Rejects the red flags
    (batch statistics, a critic's value, the variance) with the reason. Never
    raises: non-text, over-long or control-character input is rejected.
    """
    mean_verdict = _classify(mean_answer)
    std_verdict = _classify(std_answer)
    return BlankFeedback(
        mean_correct=mean_verdict == "mean",
        std_correct=std_verdict == "std",
        mean_feedback=_feedback(mean_verdict, "mean"),
        std_feedback=_feedback(std_verdict, "std"),
    )


def check_formula_blanks(mean_answer, std_answer) -> tuple[bool, bool]:
    """(first blank right, second blank right) for A_i = (R_i - ___) / (___ + eps)."""
    fb = grade_formula_blanks(mean_answer, std_answer)
    return fb.mean_correct, fb.std_correct


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Superscripts go before NFKC, which would turn "σ²" into "σ2".
_PRE = str.maketrans(
    {"²": "^2", "³": "^3", "≠": "!=", "…": "..", "$": " ", "√": " sqrt "}
    | dict.fromkeys("Σ∑", " sum ")
    | dict(zip("−–[]{}·×", "--()()**", strict=True))
)
_LATEX = {  # LaTeX command -> what it is read as
    **dict.fromkeys(["mu"], " μ "),
    **dict.fromkeys(["sigma"], " σ "),
    **dict.fromkeys(["varepsilon", "epsilon"], " ε "),
    **{"gamma": " γ ", "lambda": " λ ", "delta": " δ ", "phi": " φ ", "psi": " ψ "},
    **{w: f" {w} " for w in ("sum", "sqrt", "frac")},
    **dict.fromkeys(["ne", "neq"], " != "),
    **dict.fromkeys(["cdot", "times"], " * "),
    **dict.fromkeys(["ldots", "dots", "cdots"], " .. "),
    **dict.fromkeys(["bar", "overline"], " bar "),
    **dict.fromkeys(["mathbb", "hat", "tilde"], " "),
}
_LATEX_DROP = _words(
    "left right mathrm operatorname text textrm textit textbf mathbf boldsymbol bm mathit "
    "mathcal mathsf vec displaystyle dfrac tfrac big bigl bigr quad qquad"
)
_WORDS = [  # (pattern, replacement) on lower-case text, in order
    (re.compile(r"(?<![a-z])(mu)(?![a-z])"), " μ "),
    (re.compile(r"(?<![a-z])(sigma)(?![a-z])"), " σ "),
    (re.compile(r"(?<![a-z])(epsilon|eps)(?![a-z])"), " ε "),
    (re.compile(r"(?<![a-z])(gamma)(?![a-z])"), " γ "),
    (re.compile(r"(?<![a-z])(lambda)(?![a-z])"), " λ "),
    (re.compile(r"\.{2,}"), " .. "),
    (re.compile(r"(\^|\*\*)\s*(\(\s*(0?\.5|1\s*/\s*2)\s*\)|0?\.5(?!\d))"), " sqrt "),  # x^0.5
    (re.compile(r"\^\s*\(\s*2\s*\)|\^\s*2(?!\d)|\*\*\s*2(?!\d)"), " squared "),
    (re.compile(r"(?<![a-z])(square\s*root|root)(?![a-z])"), " sqrt "),
]


def _has_control(text: str) -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\t\n\r" for c in text)


def _canonical(text: str) -> str:
    """Lower case, LaTeX turned into words and symbols, brackets into parentheses."""
    s = text.translate(_PRE)
    s = unicodedata.normalize("NFKC", s)
    s = re.sub(r"(\w)[\u0304\u0305]", r" bar \1 ", s)  # R̄: R with a combining macron
    s = re.sub(
        r"\\([a-zA-Z]+)",
        lambda m: " " if m[1] in _LATEX_DROP else _LATEX.get(m[1], " \\" + m[1].lower() + " "),
        s,
    )
    s = re.sub(r"\\[,;:! ]", " ", s)
    s = s.lower()
    for pattern, replacement in _WORDS:
        s = pattern.sub(replacement, s)
    return s


def normalise_answer(text) -> str | None:
    """A typed formula or phrase in a form to compare: None if not text, too long or with controls.

    Lower case, LaTeX read as words and symbols, articles, spaces and "*" removed,
    "_{x}" written "_x": "\\frac{1-p}{p}" and "frac (1 - P)(p)" compare equal.
    """
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS or _has_control(text):
        return None
    s = _canonical(text)
    s = re.sub(r"(?<![a-z])(the|a|an)(?![a-z])", " ", s)
    s = re.sub(r"[\s*]+", "", s)
    return re.sub(r"_\((\w+)\)", r"_\1", s)


_SUBSCRIPT = re.compile(r"_\s*(\([^()]*\)|\w+)")
_SUM_LIMIT = re.compile(r"sum\s*\^\s*(\([^()]*\)|\w+)")
_TOKEN = re.compile(r"[a-z]+|\d+|\.\.|!=|\S")

_MEAN = _words("mean means μ avg average expectation expected")
_STD = _words("std stdev stddev sd σ")
_VAR = _words("var variance variances")
_VALUE = _words("v value values critic critics vf gae")
_BATCH = _words("batch batches minibatch global globally dataset prompts running moving ema")
_BATCH_UNLESS_GROUP = _words("all whole entire overall")
"""Batch words only when nothing names the group ("mean of all K rewards" is fine)."""
_BATCH_SUBS = _words("b batch batches all global d")
_GROUP_MARKERS = _words("group groups grp same prompt its k g q each")
_COUNT = _words("k n g size len count number")
_FORMULA = _words("sum frac / - squared sqrt *")
_FILLER = _words(
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
    if _has_control(text):
        return "control"
    s = _canonical(text)
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


# --- grading the other kinds ----------------------------------------------------------------


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


# --- numeric drills -------------------------------------------------------------------------

MAX_NUMBER_CHARS = 40
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$")
_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*(\d+)$")


@dataclass(frozen=True)
class Drill:
    """One numeric drill, drawn from a template: rewards, the question and its solution.

    ``mean``, ``baseline``, ``centred``, ``std``, ``denominator`` and ``expected``
    are the numbers of the worked solution, taken from ``advantage_trace`` and
    ``group_advantages`` on ``rewards``.
    """

    convention: str
    rewards: tuple[float, ...]
    """(K,) the rewards of one group."""
    ask: int
    """1-based index of the asked advantage."""
    expected: float
    """A_ask, from ``group_advantages(rewards, convention=convention)``."""
    tol: float
    prompt: str
    """The rewards and the question, Markdown with LaTeX."""
    solution: tuple[str, ...]
    """The worked solution: one LaTeX line per step, with the numbers."""
    mean: float
    baseline: float
    """What is subtracted from R_ask: the group mean, or the mean of the others (RLOO)."""
    centred: float
    """R_ask - baseline (times K/(K-1) for RLOO, which makes it the advantage)."""
    std: float | None
    """Group std with the convention's ddof; None when the convention does not divide."""
    denominator: float | None
    mistakes: tuple[tuple[float, str], ...] = field(default=(), repr=False)
    """(value, feedback) for answers that follow a classic mistake."""


def make_drill(template: DrillTemplate, rng: np.random.Generator) -> Drill:
    """Fresh rewards for ``template``, the asked advantage and its worked solution.

    K is drawn from ``k_min..k_max``; binary rewards have at least one 0 and one
    1, continuous ones (one decimal in [0, 1]) are not all equal, a tie repeats
    one value. The expected value is ``group_advantages`` on those rewards.
    """
    k = int(rng.integers(template.k_min, template.k_max + 1))
    while True:
        if template.rewards == "binary":
            rewards = rng.integers(0, 2, size=k).astype(float)
        elif template.rewards == "continuous":
            rewards = rng.integers(0, 11, size=k) / 10
        else:
            rewards = np.full(k, rng.integers(0, 11) / 10)
        if template.rewards == "tie" or np.ptp(rewards) > 0:
            break
    conv = get_convention(template.convention)
    i = template.ask - 1
    expected = float(group_advantages(rewards, convention=conv.name)[i])
    trace = advantage_trace(rewards, convention=conv.name)
    divides = conv.scale != "none"
    drill = Drill(
        convention=conv.name,
        rewards=tuple(float(r) for r in rewards),
        ask=template.ask,
        expected=expected,
        tol=template.tol,
        prompt=_drill_prompt(rewards, template.ask, conv.name),
        solution=(),
        mean=float(trace.mean[0]),
        baseline=float(trace.baseline[i]),
        centred=float(trace.centred[i]),
        std=float(trace.std[0]) if divides else None,
        denominator=float(trace.denominator[0]) if divides else None,
    )
    return _with_solution(drill, bool(trace.zero_spread[0]), bool(trace.clamped[i]))


_CONVENTION_WORDS = {
    "trl": "TRL's default convention (group mean, sample std with ddof = 1, eps = $10^{-4}$)",
    "verl": "verl's convention (group mean, sample std with ddof = 1, eps = $10^{-6}$)",
    "openrlhf": "OpenRLHF's group_norm (group mean, sample std with ddof = 1, eps = $10^{-9}$, "
    "advantages clamped to ±10)",
    "dr-grpo": "Dr. GRPO (centre on the group mean, no division)",
    "rloo": "RLOO (baseline: the mean of the other K - 1 rewards, no division)",
    "zscore": "the textbook z-score (population std with ddof = 0, no eps)",
}


def _drill_prompt(rewards: np.ndarray, ask: int, convention: str) -> str:
    shown = ", ".join(_num(r) for r in rewards)
    return (
        f"The K = {len(rewards)} rewards of one prompt are $R = ({shown})$. "
        f"Compute $A_{{{ask}}}$ under {_CONVENTION_WORDS[convention]}."
    )


def _num(x: float) -> str:
    """A number for a worked solution: up to 4 decimals, or a power of ten when tiny."""
    if abs(x) < 1e-12:
        return "0"  # rounding noise of an exact 0 (eps, the smallest shown, is 1e-9)
    if abs(x) < 1e-3:
        mantissa, exponent = f"{x:.3e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        power = f"10^{{{int(exponent)}}}"
        return power if mantissa == "1" else f"{mantissa} \\times {power}"
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _eq(x: float) -> str:
    """ "=" when the shown number is exact, "\\approx" when it is rounded."""
    try:
        return "=" if float(_num(x)) == x else r"\approx"
    except ValueError:
        return r"\approx"


def _with_solution(d: Drill, tied: bool, clamped: bool) -> Drill:
    conv = get_convention(d.convention)
    r = np.array(d.rewards)
    k, i = len(r), d.ask
    lines = [rf"R = ({', '.join(_num(x) for x in r)}),\quad K = {k}"]
    total = " + ".join(_num(x) for x in r)
    lines.append(rf"\bar R = \frac{{{total}}}{{{k}}} {_eq(d.mean)} {_num(d.mean)}")
    if conv.baseline == "leave-one-out":
        others = float(r.sum() - r[i - 1])
        lines.append(
            rf"b_{{{i}}} = \frac{{\sum_{{j \ne {i}}} R_j}}{{K - 1}} = \frac{{{_num(others)}}}"
            rf"{{{k - 1}}} {_eq(d.baseline)} {_num(d.baseline)}"
        )
        lines.append(
            rf"A_{{{i}}} = R_{{{i}}} - b_{{{i}}} = {_num(r[i - 1])} - {_num(d.baseline)} "
            rf"{_eq(d.expected)} {_num(d.expected)}"
        )
        return _finish(d, lines, conv)
    lines.append(
        rf"R_{{{i}}} - \bar R = {_num(r[i - 1])} - {_num(d.mean)} {_eq(d.centred)} "
        rf"{_num(d.centred)}"
    )
    if conv.scale == "none":
        lines.append(
            rf"A_{{{i}}} = R_{{{i}}} - \bar R {_eq(d.expected)} {_num(d.expected)}"
            r"\quad\text{(no division by the std)}"
        )
        return _finish(d, lines, conv)
    if tied:
        lines.append(
            r"\text{every reward equals } \bar R\text{: the spread is 0 and every centred "
            rf"reward is 0, so }} A_{{{i}}} = 0"
        )
        return _finish(d, lines, conv)
    squares = float(np.sum((r - d.mean) ** 2))
    n = k - conv.ddof
    which = "K - 1" if conv.ddof == 1 else "K"
    lines.append(
        rf"\sigma = \sqrt{{\frac{{\sum_j (R_j - \bar R)^2}}{{{which}}}}} = "
        rf"\sqrt{{\frac{{{_num(squares)}}}{{{n}}}}} {_eq(d.std)} {_num(d.std)}"
        rf"\quad\text{{(ddof = {conv.ddof})}}"
    )
    if conv.eps > 0:
        lines.append(
            rf"\sigma + \varepsilon = {_num(d.std)} + {_num(conv.eps)} {_eq(d.denominator)} "
            rf"{_num(d.denominator)}"
        )
    unclamped = d.centred / d.denominator
    lines.append(
        rf"A_{{{i}}} = \frac{{{_num(d.centred)}}}{{{_num(d.denominator)}}} "
        rf"{_eq(unclamped)} {_num(unclamped)}"
    )
    if clamped:
        lines.append(
            rf"\text{{clamped to }} \pm {_num(conv.clip)}\text{{: }} A_{{{i}}} = "
            rf"{_num(d.expected)}"
        )
    return _finish(d, lines, conv)


def _finish(d: Drill, lines: list[str], conv) -> Drill:
    """The drill with its solution and the values of classic mistakes."""
    r = np.array(d.rewards)
    i = d.ask - 1
    candidates: list[tuple[float, str]] = [
        (
            -d.expected,
            "The sign is flipped: an answer above the group's mean gets a positive advantage.",
        ),
    ]
    if conv.scale != "none" and d.std:
        other = 1 - conv.ddof
        candidates.append(
            (
                float(group_advantages(r, convention=conv.name, ddof=other)[i]),
                f"That uses ddof = {other} ({'population' if other == 0 else 'sample'} std); this "
                f"convention uses ddof = {conv.ddof}.",
            )
        )
        candidates.append(
            (
                float(group_advantages(r, convention=conv.name, scale="none")[i]),
                "That is only the centred reward: this convention also divides by the std + eps.",
            )
        )
        candidates.append(
            (
                d.centred / (d.std**2 + conv.eps),
                "That divides by the variance; the formula divides by the standard deviation.",
            )
        )
    if conv.baseline == "leave-one-out":
        candidates.append(
            (
                float(group_advantages(r, convention="dr-grpo")[i]),
                "That subtracts the mean of all K rewards; RLOO leaves answer i out of its "
                "baseline.",
            )
        )
    mistakes = tuple(
        (v, text) for v, text in candidates if math.isfinite(v) and abs(v - d.expected) > d.tol
    )
    return replace(d, solution=tuple(lines), mistakes=mistakes)


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
    if len(text) > MAX_NUMBER_CHARS or _has_control(text):
        return None
    s = unicodedata.normalize("NFKC", text.translate(_PRE)).strip().lower()
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


# --- the quiz session -----------------------------------------------------------------------

PASS_NUMERATOR, PASS_DENOMINATOR = 4, 5
"""A pass is at least 80% right: correct / total >= 4/5, compared exactly."""

MAX_SEED = 2**32 - 1
_PROGRESS_PREFIX = "q1"


@dataclass(frozen=True)
class QuizState:
    """One quiz: which questions, in which order, and the answers so far.

    Build it with ``start_quiz`` and change it with ``record_answer`` and
    ``retry_missed``, which return new states. The order is a function of
    ``seed`` and the questions, which is what lets ``encode_progress`` be short.
    """

    bank_ids: tuple[str, ...]
    """Every id of the bank, sorted: the frame progress is encoded against."""
    seed: int
    order: tuple[str, ...]
    """The ids asked in this quiz, in the order they are asked."""
    answers: Mapping[str, bool]
    """Question id -> answered right; only answered questions appear."""

    @property
    def full(self) -> bool:
        """The quiz asks every question of the bank (the kind that earns a certificate)."""
        return len(self.order) == len(self.bank_ids)

    @property
    def finished(self) -> bool:
        return len(self.answers) == len(self.order)


@dataclass(frozen=True)
class Score:
    correct: int
    answered: int
    total: int
    """Questions in the quiz, answered or not."""

    @property
    def percent(self) -> float:
        """Right answers as a percentage of the quiz's questions."""
        return 100.0 * self.correct / self.total

    @property
    def passing(self) -> bool:
        """At least 80% of the quiz's questions answered right."""
        return self.correct * PASS_DENOMINATOR >= self.total * PASS_NUMERATOR


def start_quiz(
    bank_ids: Iterable[str], seed: int, *, only: Iterable[str] | None = None
) -> QuizState:
    """A new quiz over the bank's ids (or the subset ``only``), in a random order from ``seed``.

    The order is ``numpy.random.default_rng(seed).permutation`` of the sorted ids,
    so the same seed and questions give the same order on every server.
    """
    ids = tuple(sorted(bank_ids))
    if not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
        raise ValueError("bank_ids must be a non-empty collection of distinct string ids.")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}.")
    pool = ids if only is None else tuple(sorted(set(only)))
    missing = sorted(set(pool) - set(ids))
    if missing:
        raise ValueError(f"question {missing[0]!r} is not in the bank.")
    if not pool:
        raise ValueError("a quiz needs at least one question.")
    order = np.random.default_rng(seed).permutation(len(pool))
    return QuizState(ids, seed, tuple(pool[j] for j in order), MappingProxyType({}))


def record_answer(state: QuizState, question_id: str, correct: bool) -> QuizState:
    """The state with this answer recorded. The first answer stands: a second one is ignored."""
    if question_id not in state.order:
        raise ValueError(f"question {question_id!r} is not part of this quiz.")
    if question_id in state.answers:
        return state
    answers = {**state.answers, question_id: bool(correct)}
    return QuizState(state.bank_ids, state.seed, state.order, MappingProxyType(answers))


def next_question(state: QuizState) -> str | None:
    """The first unanswered id in the quiz's order; None when the quiz is finished."""
    return next((q for q in state.order if q not in state.answers), None)


def score(state: QuizState) -> Score:
    """Right answers, answered questions and questions in the quiz."""
    return Score(sum(state.answers.values()), len(state.answers), len(state.order))


def progress(state: QuizState) -> float:
    """The share of the quiz's questions answered, from 0 to 1 (for a progress bar)."""
    return len(state.answers) / len(state.order)


def missed(state: QuizState) -> tuple[str, ...]:
    """Ids answered wrong, in the quiz's order (for the review and for a retry)."""
    return tuple(q for q in state.order if state.answers.get(q) is False)


def missed_questions(state: QuizState, bank: Sequence[Question]) -> list[Question]:
    """The questions answered wrong, in the quiz's order, for the end-of-quiz review."""
    by_id = {q.id: q for q in bank}
    return [by_id[q] for q in missed(state) if q in by_id]


def retry_missed(state: QuizState, seed: int | None = None) -> QuizState:
    """A new quiz over the missed questions, in a new order (seed + 1 unless given)."""
    wrong = missed(state)
    if not wrong:
        raise ValueError("there is nothing to retry: no question was answered wrong.")
    new_seed = (state.seed + 1) % (MAX_SEED + 1) if seed is None else seed
    return start_quiz(state.bank_ids, new_seed, only=wrong)


def certificate_earned(state: QuizState) -> bool:
    """A full quiz, finished, with at least 80% right."""
    return state.full and state.finished and score(state).passing


def _fingerprint(bank_ids: tuple[str, ...]) -> bytes:
    return hashlib.sha256("\n".join(bank_ids).encode()).digest()[:4]


def encode_progress(state: QuizState) -> str:
    """A short URL-safe string for the state: "q1" + base64url(seed, bank fingerprint, statuses).

    Two bits per question of the bank (not asked, unanswered, right, wrong):
    a 45-question bank takes 26 characters.
    """
    asked = set(state.order)
    codes = [
        0 if q not in asked else 1 if q not in state.answers else 2 if state.answers[q] else 3
        for q in state.bank_ids
    ]
    packed = bytearray()
    for start in range(0, len(codes), 4):
        byte = 0
        for j, code in enumerate(codes[start : start + 4]):
            byte |= code << (2 * j)
        packed.append(byte)
    raw = state.seed.to_bytes(4, "big") + _fingerprint(state.bank_ids) + bytes(packed)
    return _PROGRESS_PREFIX + b64url_encode(raw)


def decode_progress(text, bank_ids: Iterable[str]) -> QuizState | None:
    """The state ``encode_progress`` encoded, against the same bank's ids; None on anything else.

    Never raises on ``text``: junk, a changed bank (fingerprint mismatch) or an
    impossible state give None, and the page starts a new quiz.
    """
    try:
        ids = tuple(sorted(bank_ids))
        if not isinstance(text, str) or len(text) > 20 + len(ids) or not ids:
            return None
        if not text.startswith(_PROGRESS_PREFIX):
            return None
        raw = b64url_decode(text.removeprefix(_PROGRESS_PREFIX))
        if raw is None or len(raw) != 8 + (len(ids) + 3) // 4:
            return None
        if raw[4:8] != _fingerprint(ids):
            return None
        codes = [(raw[8 + n // 4] >> (2 * (n % 4))) & 3 for n in range(len(ids))]
        tail = len(ids) % 4
        if tail and raw[-1] >> (2 * tail):
            return None  # padding bits must be zero
        pool = [q for q, c in zip(ids, codes, strict=True) if c]
        if not pool:
            return None
        state = start_quiz(ids, int.from_bytes(raw[:4], "big"), only=pool)
        answers = {q: c == 2 for q, c in zip(ids, codes, strict=True) if c >= 2}
        return QuizState(state.bank_ids, state.seed, state.order, MappingProxyType(answers))
    except (ValueError, TypeError):
        return None


__all__ = [
    "BLANK_GRADERS",
    "DRILL_CONVENTIONS",
    "KINDS",
    "REWARD_KINDS",
    "TOPICS",
    "Blank",
    "BlankFeedback",
    "Drill",
    "DrillTemplate",
    "NumericResult",
    "Option",
    "Question",
    "QuizState",
    "Result",
    "Score",
    "certificate_earned",
    "check_formula_blanks",
    "decode_progress",
    "encode_progress",
    "grade_blank",
    "grade_blanks",
    "grade_choice",
    "grade_drill",
    "grade_formula_blanks",
    "grade_numeric",
    "load_bank",
    "make_drill",
    "missed",
    "missed_questions",
    "next_question",
    "normalise_answer",
    "parse_number",
    "progress",
    "record_answer",
    "retry_missed",
    "score",
    "start_quiz",
]
