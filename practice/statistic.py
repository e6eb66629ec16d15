"""Which statistic of which rewards a typed answer names: words, symbols, LaTeX or code.

The principle: an answer is right for a blank of A_i = (R_i - ___) / (___ + eps) when it
is a statistic of THIS prompt's K rewards. Rewards are laid out ``(prompts, K)``: a row is
one prompt's group, so ``axis=-1`` / ``axis=1`` (``dim`` in torch) reduces within the
group and ``axis=0`` runs across prompts. A reduction with no axis reads ``R`` as the
group's own rewards (the quiz's notation ``mean(R)``); ``axis=None`` is every reward.

``classify_statistic`` returns one verdict:

- ``mean``, ``std``: the group mean or std (any ddof), in any notation.
- ``loo-mean``: RLOO's baseline, the mean of the OTHER K-1 rewards of the group.
- ``batch-mean``, ``batch-std``, ``batch-variance``, ``batch``: a statistic over several
  prompts (the batch, "across groups", the group means, a running average, B subscripts).
- ``axis0-mean``, ``axis0-std``, ``axis0-variance``: code reducing over the prompt axis.
- ``advantage``: a statistic of the advantages A, not of the rewards.
- ``variance``, ``value`` (a critic), ``mixed``, ``with-eps``, ``bad-count`` (a sum over
  K divided by K-1 or the reverse), ``max``, ``min``, ``median``, ``range``, ``sum``,
  ``eps``, ``baseline``, ``none``, ``count``, ``reward``, ``number``, ``unknown``.
- ``empty``, and for input that is not read: ``not-text``, ``too-long``, ``control``.

Never raises.
"""

from __future__ import annotations

import re

from practice.answer_text import MAX_ANSWER_CHARS, canonical, has_control, word_set

_SUBSCRIPT = re.compile(r"_\s*(\((?:[^()]|\([^()]*\))*\)|\w+)")
_SUM_LIMIT = re.compile(r"sum\s*\^\s*(\([^()]*\)|\w+)")
_TOKEN = re.compile(r"[a-z]+|\d+|\.\.|!=|\S")

# --- code: which axis a numpy / torch reduction runs over ---------------------------------
_AXIS_VALUE = r"(none|[+-]?\d+|\(\s*[+-]?\d+\s*(?:,\s*[+-]?\d+\s*)*,?\s*\))"
_AXIS_KEYWORD = re.compile(r",?\s*(?:axis|dim)\s*=\s*" + _AXIS_VALUE)
_AXIS_METHOD = re.compile(
    r"(\.\s*(?:nan)?(?:mean|std|var|sum|average)\s*\(\s*)" + _AXIS_VALUE + r"\s*(?=[,)])"
)
_AXIS_FUNCTION = re.compile(
    r"((?:mean|std|var|sum|average)\s*\(\s*[a-z_][\w.]*\s*),\s*" + _AXIS_VALUE + r"\s*(?=[,)])"
)
_CODE_OPTIONS = re.compile(
    r",?\s*(?:keepdims?|ddof|correction|unbiased)\s*=\s*(?:true|false|[+-]?\d+)"
    r"|(?<![a-z])(?:np|numpy|torch)\s*\.|\.\s*(?:view|reshape)\s*\([^()]*\)"
)
GROUP_AXES = frozenset({1, -1})
"""The axes of a ``(prompts, K)`` reward array that run over one prompt's K answers."""

# --- words --------------------------------------------------------------------------------
_MEAN = word_set("mean μ avg average expectation expected")
_STD = word_set("std stdev stddev sd σ")
_VAR = word_set("var variance variances")
_VALUE = word_set("v value values critic critics vf gae")
_ACROSS = word_set(
    "batch batches minibatch global globally dataset prompts groups running moving ema epoch "
    "epochs previous past iteration iterations inter cross between means stds questions"
)
"""Words that name several prompts' rewards: "groups" and "prompts" are plural, a
statistic of "means" is over several groups, "inter-/cross-group" is between groups."""
_ACROSS_UNLESS_GROUP = word_set("all whole entire overall")
"""Across prompts only when nothing names the group ("mean of all K rewards" is fine)."""
_BATCH_SUBS = word_set("b batch batches all global d")
_GROUP_MARKERS = word_set(
    "group grp grouped same prompt question its k g q each this per within intra"
)
_LEAVE_ONE_OUT = word_set("other others excluding except without leave out loo delete !=")
_ADVANTAGE = re.compile(
    r"advantages?|(?<![a-z])a\s*\.\s*(?:mean|std|var)|(?:mean|std|var|μ|σ|bar)\s*\(?\s*a\s*(?:[,)_]|$)"
)
_SELF = re.compile(r"-\s*(?:r|x)\s*(?:_\s*\(?\s*i\s*\)?)?(?![\w(])")
"""Minus the answer's own reward: "- R_i", or "- R" in vectorized code."""
_K_MINUS_ONE = re.compile(r"(?<![a-z])(k|g|n)\s*-\s*1(?!\d)")
_COUNT = word_set("k n g size len count number")
_FORMULA = word_set("sum frac / - + .. squared sqrt *")
_FILLER = word_set(
    "of the a an over in within for per on from across to group grp grouped prompt question "
    "same this its "
    "one each all whole entire k n g q j i rewards reward r x scores score returns outputs "
    "output answers answer samples sample sampled completions completion responses rollouts "
    "rollout generations population unbiased biased empirical arithmetic standard wise intra "
    "ddof dim axis keepdim keepdims true false torch np numpy tensor s 0 1 ( ) , . .. ' : = | "
    "baseline len size"
)


def classify_statistic(text) -> str:
    """What a blank answer names (see the module docstring for the verdicts)."""
    if not isinstance(text, str):
        return "not-text"
    if len(text) > MAX_ANSWER_CHARS:
        return "too-long"
    if has_control(text):
        return "control"
    s, axis_scope = _read_axes(_rewrite(canonical(text)))
    advantage = bool(_ADVANTAGE.search(s))
    minus_self = bool(_SELF.search(s))
    k_minus_one = bool(_K_MINUS_ONE.search(s))
    s = _SUM_LIMIT.sub(" sum ", s)
    subs: list[str] = []
    s = _SUBSCRIPT.sub(lambda m: subs.append(m[1]) or " ", s)
    s = _SUM_LIMIT.sub(" sum ", s)  # the limits of \sum_{j=1}^{K}, either order
    tokens = _TOKEN.findall(s)
    if not tokens:
        return "empty"
    words = set(tokens)
    sub_words = {t for sub in subs for t in _TOKEN.findall(sub)}
    if words & _VALUE:
        return "value"
    across = bool(
        words & _ACROSS
        or sub_words & _BATCH_SUBS
        or (words & _ACROSS_UNLESS_GROUP and not (words | sub_words) & _GROUP_MARKERS)
    )
    leave_one_out = bool((words | sub_words) & _LEAVE_ONE_OUT) or minus_self
    base, formula = _base(words)
    if base == "mean" and formula and not leave_one_out and k_minus_one:
        base = "bad-count"  # the sum of K rewards over K-1
    if base == "mean" and leave_one_out:
        base = "loo-mean" if k_minus_one or not formula else "bad-count"
    if axis_scope != "group" and base in ("mean", "std", "variance", "loo-mean"):
        return f"{axis_scope}-{base.removeprefix('loo-')}"
    if across:
        return f"batch-{base}" if base in ("mean", "std", "variance") else "batch"
    if advantage and base in ("mean", "std", "variance", "unknown"):
        return "advantage"
    if base in ("mean", "std", "loo-mean"):
        if "ε" in words:
            return "with-eps"
        allowed = _FILLER | _MEAN | _STD | _VAR
        if formula or "sqrt" in words:
            allowed = allowed | _FORMULA
        if base == "loo-mean":
            allowed = allowed | _LEAVE_ONE_OUT | _FORMULA
        if words - allowed:
            return "unknown"
    return base


def _rewrite(s: str) -> str:
    """Phrases read as one word: hyphenated compounds, r_bar, RMS deviation, std dev."""
    s = re.sub(r"(?<![a-z])a?cross\s*-\s*(group|prompt)", " inter ", s)  # across-group mean
    s = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", s)  # per-group, leave-one-out
    s = re.sub(r"\+\s*1e\s*-?\s*\d+", " + ε ", s)  # std + 1e-4: eps written as a number
    s = re.sub(r"(?<![a-z])b\s*\*?\s*k(?![a-z])", " batch ", s)  # B*K rewards: every prompt's
    s = re.sub(r"standard\s*dev(iation)?s?|std\.?\s*dev(iation)?", " std ", s)
    s = re.sub(  # root-mean-square deviation from the (group) mean: the population std
        r"(?:rms|sqrt\s*-?\s*mean\s*squared?)\s+deviations?\s+(?:from|about|around)\s+(?:the\s+)?"
        r"(\w+\s+)?(?:mean|average|μ)(?![a-z])",
        lambda m: f" {m[1] or ''} std ",
        s,
    )
    s = re.sub(r"(mean|average|avg|expected)\s+value", r" \1 ", s)
    s = re.sub(r"(?<![a-z])\(?\s*e\s*\)?\s*\(", " expectation (", s)  # E[R], \mathbb{E}[R]
    s = re.sub(
        r"(?<![a-z])(bar\s*\(?\s*(r|x|rewards?)(?![a-z])|(r|x)\s+bar|(r|x)\s*_?\s*bar(?![a-z]))",
        " mean ",
        s,
    )
    return re.sub(r"(σ|std|sd)\s*2(?!\d)", r" \1 squared ", s)  # sigma2, σ2


def _read_axes(s: str) -> tuple[str, str]:
    """The text without its code options, and where its reductions run under (prompts, K):
    "group" (axis -1 or 1, or no axis), "axis0" (the prompt axis), "batch" (every reward)."""
    scopes: list[str] = []

    def scope(value: str) -> str:
        scopes.append(_axis_scope(value))
        return ""

    s = _AXIS_KEYWORD.sub(lambda m: scope(m[1]), s)
    s = _AXIS_METHOD.sub(lambda m: m[1] + scope(m[2]), s)
    s = _AXIS_FUNCTION.sub(lambda m: m[1] + scope(m[2]), s)
    s = _CODE_OPTIONS.sub(" ", s)
    for worst in ("batch", "axis0"):
        if worst in scopes:
            return s, worst
    return s, "group"


def _axis_scope(value: str) -> str:
    if value == "none":
        return "batch"
    axes = {int(v) for v in re.findall(r"[+-]?\d+", value)}
    if axes <= GROUP_AXES:
        return "group"
    return "batch" if axes & GROUP_AXES else "axis0"


def _base(words: set[str]) -> tuple[str, bool]:
    """The statistic the words name, whatever its rewards; and whether it is a written formula."""
    has_mean, has_std = bool(words & _MEAN), bool(words & _STD)
    squared = "squared" in words
    is_var = bool(
        words & _VAR
        or (squared and has_std)
        or (squared and "-" in words and (has_mean or "r" in words))
    )
    written_sum = "sum" in words or {"+", ".."} <= words
    formula = written_sum and bool(words & {"/", "frac"}) and bool(words & _COUNT)
    if "sqrt" in words:
        return ("std" if is_var else "unknown"), formula
    if is_var:
        return "variance", formula
    if has_mean and has_std:
        return "mixed", formula
    if has_mean or formula:
        return "mean", formula
    if has_std:
        return "std", formula
    return _other_kind(words), formula


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
