"""Hostile input for every public practice function: a result or a ValueError, nothing else.

The same fuzzer as tests/core/test_fuzz.py (strategies chosen by parameter name), over
the modules of ``practice``: what a learner types (answers, numbers, names) and what a
URL carries (progress, certificate IDs) reaches these functions.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import practice
from tests.core.test_fuzz import all_finite, has_nan, plan


def public_functions():
    for info in pkgutil.iter_modules(practice.__path__):
        module = importlib.import_module(f"practice.{info.name}")
        for name, fn in vars(module).items():
            if (
                name.startswith("_")
                or not inspect.isfunction(fn)
                or fn.__module__ != module.__name__
            ):
                continue
            yield f"{info.name}.{name}", fn


FUNCTIONS = dict(public_functions())
PLANS = {name: plan(fn) for name, fn in FUNCTIONS.items()}
FUZZED = sorted(name for name, p in PLANS.items() if p is not None)


def test_the_fuzzer_reaches_the_input_functions():
    """The functions that take what a user types or a URL carries are all fuzzed."""
    must = {
        "certificates.check_name",
        "certificates.verify_legacy",
        "progress_link.unsign_progress",
        "answer_text.normalise_answer",
        "grading.parse_number",
        "grading.grade_numeric",
        "grading.check_formula_blanks",
        "followup.match_points",
    }
    assert must <= set(FUNCTIONS), sorted(must - set(FUNCTIONS))
    assert must <= set(FUZZED), sorted(must - set(FUZZED))


@pytest.mark.parametrize("name", FUZZED)
def test_hostile_input_gives_a_result_or_value_error(name):
    fn = FUNCTIONS[name]
    required, optional = PLANS[name]
    kwargs_strategy = st.fixed_dictionaries(required, optional=optional)

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(kwargs=kwargs_strategy)
    def run(kwargs):
        try:
            with np.errstate(all="ignore"):
                result = fn(**kwargs)
        except ValueError:
            return
        if all(all_finite(v) for v in kwargs.values()):
            assert not has_nan(result), f"{name}({kwargs!r}) returned NaN from finite input"

    run()
