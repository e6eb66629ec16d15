"""The fuzzer shared by tests/core/test_fuzz.py and tests/practice/test_fuzz.py.

Each public function (no leading underscore, defined in its module) is called with values
drawn from strategies chosen by its parameter names: arbitrary floats (NaN, ±inf, huge,
subnormal), arrays of any small shape (ragged too), labels and strings. It must return, or
raise ValueError (the documented, plain-words error); any other exception fails. When every
number passed in is finite, no NaN may come out (unless the caller says NaN is by design).

Parameters that are objects the app builds (a trace, a quiz state, a question, a config) are
listed in OBJECT_ARGS; the values a user types reach them only through the functions fuzzed.
"""

from __future__ import annotations

import importlib
import inspect
import io
import math
import pkgutil

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SECRET = "fuzz-secret-0123456789abcdef"

floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 5e-324, 1e300, -1e300, 1e-4]),
)
ints = st.one_of(st.integers(-3, 70), st.sampled_from([0, 1, 2, -1, 10**9, -(10**9)]))
sizes = st.one_of(st.integers(-3, 70), st.sampled_from([0, 1, 2, -1, 10_000, -(10**9)]))
"""Counts (K, points, sizes): huge ones are left out, since several functions allocate
an array of that size without a bound (see SIZE_UNBOUNDED): hostile, but an OOM kill."""
numbers = st.one_of(floats, ints, st.booleans())
texts = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        ["", " ", "trl", "verl", "dr-grpo", "zscore", "1_0_1~0.5", "nan", "inf", "-0", "1e999",
         "<script>alert(1)</script>", "GRPO1-AAAA", "a.b", "0x10", "½", "1/0", "\x00", "𝟙"]
    ),
)  # fmt: skip
labels = st.one_of(texts, ints, st.none())


def scaled_normal(shape: tuple, seed: int, scale: float) -> np.ndarray:
    """Standard normal draws times ``scale``; a huge scale overflows to inf on purpose
    (hostile input), without numpy's warning about it."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.random.default_rng(seed).normal(size=shape) * scale


arrays = st.one_of(
    st.lists(numbers, max_size=20),
    st.lists(st.lists(floats, min_size=0, max_size=6), max_size=5),  # ragged allowed
    st.builds(
        scaled_normal,
        st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple),
        st.integers(0, 2**16),
        floats,
    ),
    floats,
)

# parameter name -> strategy (the names the engine uses for each kind of input)
BY_NAME: dict[str, st.SearchStrategy] = {}
for name in (
    "rewards", "values", "lengths", "advantages", "outcome", "outcome_rewards", "p",
    "logits", "pi", "answer_rewards", "answers", "uniforms", "x", "a", "ref", "mask",
    "eps_values", "kl", "p_values", "logp", "old_logp", "ref_logp", "log_ratio", "steps",
    "codes",
):  # fmt: skip
    BY_NAME[name] = arrays
# Uploaded bytes: anything, and the shapes hostile files take (deep nesting, a BOM, a zip).
BY_NAME["data"] = BY_NAME["raw"] = st.one_of(
    st.binary(max_size=400),
    st.sampled_from(
        [b"", b"[" * 5000 + b"]" * 5000, b"\xef\xbb\xbfprompt,reward\n", b"PK\x03\x04",
         b"\xff\xfe\x00p", b'{"a": [1, [2, [3]]]}\n' * 3, b"prompt,reward\na,1\na,0\n"]
    ),
)  # fmt: skip
BY_NAME["head"] = BY_NAME["data"]  # the first bytes of an upload
BY_NAME["files"] = st.lists(st.tuples(texts, BY_NAME["data"]), max_size=4)
BY_NAME["file"] = st.builds(
    lambda name, data: type("Upload", (io.BytesIO,), {"name": name})(data),
    st.sampled_from(["log.csv", "log.jsonl", "log.parquet", "log.json", "log", "a.zip"]),
    BY_NAME["data"],
)  # a file as the uploader hands it over: binary, with a name
BY_NAME["prompts"] = BY_NAME["keys"] = st.lists(labels, max_size=20).map(
    lambda values: pd.Series(values, dtype=object)
)
# Token counts: any value, but no finite huge one (token_mask allocates (B, max length)).
BY_NAME["lengths"] = st.one_of(
    st.lists(st.one_of(sizes, st.sampled_from([0.5, -1.5, math.nan, math.inf])), max_size=12),
    st.lists(st.lists(sizes, max_size=4), max_size=3),
    sizes,
)
for name in ("columns", "groups"):  # lists of lists of cells or numbers
    BY_NAME[name] = st.lists(st.lists(st.one_of(texts, floats), max_size=6), max_size=5)
for name in (
    "eps", "std", "value", "gamma", "lam", "kl_coef", "mean", "format_bonus", "tol",
    "expected", "params_billion", "pass_rate", "scale", "clip", "std_floor", "eps_low",
    "eps_high", "mean_length", "epsilon_low", "epsilon_high", "delta", "beta", "step",
):  # fmt: skip
    BY_NAME[name] = st.one_of(floats, st.none())
for name in ("ddof", "correct", "total", "chosen", "digits", "gap"):
    BY_NAME[name] = ints
for name in (
    "group_size", "K", "num_prompts", "num_tokens", "points", "per_decade", "size",
    "max_tokens", "max_responses", "max_prompts", "max_answers", "k", "num_answers",
):  # fmt: skip
    BY_NAME[name] = sizes
for name in (
    "text", "name", "convention", "loss_type", "kind", "answer_text", "mean_answer",
    "std_answer", "progress", "cert_id", "band", "answer", "latex", "candidate",
):  # fmt: skip
    BY_NAME[name] = texts
BY_NAME["group_ids"] = st.one_of(st.lists(labels, max_size=20), arrays, st.none())
BY_NAME["rng"] = st.integers(0, 2**32 - 1).map(np.random.default_rng)
BY_NAME["secret"] = st.just(SECRET)
BY_NAME["well_formatted"] = st.booleans()
BY_NAME["strict"] = st.booleans()

OBJECT_ARGS = {
    # app-built objects: covered with valid objects by their own tests
    "trace", "state", "question", "blank", "template", "drill", "config", "result",
    "grouped", "path", "env", "secrets_value", "bank", "bank_ids", "sum_squares",
    "issued", "seed", "only", "question_id", "reference", "options",
}  # fmt: skip


def public_functions(package):
    """(module.function, function) for the public functions of ``package``'s public modules
    (a private module such as ``_checks`` is reached through them)."""
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, fn in vars(module).items():
            if (
                name.startswith("_")
                or not inspect.isfunction(fn)
                or fn.__module__ != module.__name__
            ):
                continue
            yield f"{info.name}.{name}", fn


def typed(p: inspect.Parameter, strategy: st.SearchStrategy) -> st.SearchStrategy:
    """The name's strategy, narrowed to the annotation (a float stays a number, an int an
    int, a str a str), with None only where None is the default."""
    note = str(p.annotation)
    if note in ("int", "int | None"):
        strategy = sizes if strategy is sizes else ints
    elif note in ("float", "float | None"):
        strategy = st.one_of(floats, ints)
    elif note in ("str", "str | None"):
        strategy = texts
    elif note == "bool":
        strategy = st.booleans()
    else:
        strategy = strategy.filter(lambda v: v is not None)
    return st.one_of(strategy, st.none()) if p.default is None else strategy


def plan(fn):
    """(strategies for the required args, for some keyword args), or None if not fuzzable."""
    required, optional = {}, {}
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in OBJECT_ARGS or p.name not in BY_NAME:
            if p.default is p.empty:
                return None
            continue
        (required if p.default is p.empty else optional)[p.name] = typed(p, BY_NAME[p.name])
    return required, optional


def all_finite(value) -> bool:
    """Whether every number in an argument is finite (strings and None count as finite)."""
    if isinstance(value, str) or value is None:
        return True
    if isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.isfinite(value).all())
    if isinstance(value, list | tuple):
        return all(all_finite(v) for v in value)
    return True


def has_nan(value) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        return bool(np.isnan(value).any())
    if isinstance(value, pd.DataFrame):
        numeric = value.select_dtypes("number")
        return bool(numeric.isna().to_numpy().any())
    if isinstance(value, list | tuple):
        return any(has_nan(v) for v in value[:1000])
    if hasattr(value, "__dataclass_fields__"):
        return any(has_nan(getattr(value, f)) for f in value.__dataclass_fields__)
    return False


def check_hostile_input(name: str, fn, plan_: tuple, *, nan_by_design: bool = False) -> None:
    """Call ``fn`` with 25 hostile argument sets drawn from ``plan_``: each must return or
    raise ValueError; from finite input no NaN may come out unless ``nan_by_design``."""
    required, optional = plan_

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(kwargs=st.fixed_dictionaries(required, optional=optional))
    def run(kwargs):
        try:
            with np.errstate(all="ignore"):
                result = fn(**kwargs)
        except ValueError:
            return
        if not nan_by_design and all(all_finite(v) for v in kwargs.values()):
            assert not has_nan(result), f"{name}({kwargs!r}) returned NaN from finite input"

    run()
