"""Hostile input for every public practice function: a result or a ValueError, nothing else.

The same fuzzer as tests/core/test_fuzz.py (strategies chosen by parameter name), over
the modules of ``practice``: what a learner types (answers, numbers, names) and what a
URL carries (progress, certificate IDs) reaches these functions.
"""

from __future__ import annotations

import pytest

import practice
from tests.fuzzing import check_hostile_input, plan, public_functions

FUNCTIONS = dict(public_functions(practice))
PLANS = {name: plan(fn) for name, fn in FUNCTIONS.items()}
FUZZED = sorted(name for name, p in PLANS.items() if p is not None)


def test_the_fuzzer_reaches_the_input_functions():
    """The functions that take what a user types or a URL carries are all fuzzed."""
    must = {
        "cert_names.check_name",
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
    check_hostile_input(name, FUNCTIONS[name], PLANS[name])
