"""A learner's own FSRS parameters on every backend: kept, replaced, removed, refused when
FSRS cannot use them, deleted with the learner, carried by export and import, and, fitted
for real by fsrs's optimizer (PyTorch is in the test venv), the schedule of every answer
from then on, until the learner goes back to the defaults."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime

import pytest
from fsrs import Rating
from fsrs.scheduler import DEFAULT_PARAMETERS

from practice import review_fit
from practice.review import card_from_state, record_attempt, review, scheduler_for
from practice.review_fit import OwnParameters
from practice.store.base import Attempt, TextRefused, UnknownLearner, new_learner_key
from practice.store.learner_json import export_json, import_json, parse_progress
from tests.practice.store.test_learner_store import _stored_anywhere

OWN = OwnParameters(
    tuple(round(p * 1.1, 4) if i in (0, 1, 2, 3) else p for i, p in enumerate(DEFAULT_PARAMETERS)),
    600,
    1_800_000_000.0,
)
"""Parameters FSRS accepts: the defaults with the first four (initial stabilities) 10 % up."""
NOW = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def test_parameters_are_kept_per_learner_replaced_and_removed(make_store):
    store = make_store()
    key, other = store.create_learner(), store.create_learner()
    assert store.parameters(key) is None, "a new learner schedules with the defaults"
    store.set_parameters(key, OWN)
    assert store.parameters(key) == OWN and store.parameters(other) is None
    again = OwnParameters(DEFAULT_PARAMETERS, 700, 1_800_000_100.0)
    store.set_parameters(key, again)
    assert store.parameters(key) == OwnParameters(tuple(DEFAULT_PARAMETERS), 700, 1_800_000_100.0)
    store.set_parameters(key, None)
    assert store.parameters(key) is None
    store.set_parameters(key, None)  # twice: nothing to remove, no error
    with pytest.raises(UnknownLearner):
        store.set_parameters(new_learner_key(), OWN)
    with pytest.raises(UnknownLearner):
        store.parameters("junk")


def _with(index: int, value) -> OwnParameters:
    values = list(OWN.parameters)
    values[index] = value
    return OwnParameters(tuple(values), OWN.reviews, OWN.fitted)


@pytest.mark.parametrize(
    "bad, says",
    [
        (_with(0, math.nan), "not a finite number"),
        (_with(5, math.inf), "not a finite number"),
        (_with(4, 50.0), "parameters[4] = 50.0 is out of bounds"),
        (_with(20, -1.0), "parameters[20] = -1.0 is out of bounds"),
        (_with(3, "1.0"), "must be a number"),
        (_with(3, True), "must be a number"),
        (OwnParameters(OWN.parameters[:20], 1, 0.0), "needs 21 parameters"),
        (OwnParameters((), 1, 0.0), "needs 21 parameters"),
        (OwnParameters(OWN.parameters, -1, 0.0), "number of reviews"),
        (OwnParameters(OWN.parameters, 1.5, 0.0), "number of reviews"),
        (OwnParameters(OWN.parameters, 1, math.nan), "fitting time is out of range"),
        (OwnParameters(OWN.parameters, 1, 1e12), "fitting time is out of range"),
    ],
)
def test_parameters_fsrs_cannot_use_are_refused_and_nothing_changes(make_store, bad, says):
    store = make_store()
    key = store.create_learner()
    store.set_parameters(key, OWN)
    with pytest.raises(TextRefused, match=re.escape(says)):
        store.set_parameters(key, bad)
    with pytest.raises(TextRefused, match=re.escape(says)):
        store.replace_progress(key, [], {}, bad)
    assert store.parameters(key) == OWN


def test_delete_removes_the_parameters(make_store):
    store = make_store()
    key, kept = store.create_learner(), store.create_learner()
    for k in (key, kept):
        store.set_parameters(k, OWN)
    store.delete_learner(key)
    assert _stored_anywhere(store, key) == []
    assert store.parameters(kept) == OWN, "another learner keeps theirs"
    fresh = store.create_learner()
    assert store.parameters(fresh) is None


def test_export_and_import_carry_the_parameters(make_store):
    store = make_store()
    key, other = store.create_learner(), store.create_learner()
    store.add_attempt(key, Attempt("choice-mean", "choice", 1.0, 12.5, 3, 1_800_000_000.0))
    store.set_parameters(key, OWN)
    text = export_json(store, key)
    assert json.loads(text)["parameters"]["parameters"] == list(OWN.parameters)
    assert import_json(store, other, text) == 1
    assert store.parameters(other) == OWN
    assert export_json(store, other) == text

    store.set_parameters(key, None)
    without = export_json(store, key)
    assert "parameters" not in json.loads(without), "an export as before the parameters"
    import_json(store, other, without)
    assert store.parameters(other) is None, "the import replaces them: FSRS's defaults"


def _file(parameters) -> str:
    return json.dumps(
        {"format": "grpo-lab-progress/1", "attempts": [], "cards": {}, "parameters": parameters}
    )


@pytest.mark.parametrize(
    "parameters, says",
    [
        ([1.0] * 21, "The file's parameters: must be object"),
        ({"parameters": [1.0] * 20, "reviews": 1, "fitted": 0}, "parameters → parameters: "),
        ({"parameters": ["x"] * 21, "reviews": 1, "fitted": 0}, "must be number, not 'x'"),
        ({"parameters": [1.0] * 21, "reviews": -3, "fitted": 0}, "reviews: -3 is out of range"),
        ({"parameters": [1.0] * 21, "reviews": 1, "fitted": 0, "x": 1}, "not part of an export"),
        ({"parameters": [100.0] * 21, "reviews": 1, "fitted": 0}, "FSRS cannot schedule with"),
    ],
)
def test_a_file_with_parameters_fsrs_cannot_use_is_refused(make_store, parameters, says):
    store = make_store()
    key = store.create_learner()
    store.set_parameters(key, OWN)
    with pytest.raises(TextRefused, match=re.escape(says)):
        import_json(store, key, _file(parameters))
    assert store.parameters(key) == OWN, "nothing was changed"


def test_a_file_with_nan_parameters_is_not_json():
    text = _file({"parameters": [1.0] * 21, "reviews": 1, "fitted": 0}).replace("1.0", "NaN", 1)
    with pytest.raises(TextRefused, match="not JSON"):
        parse_progress(text)


# --- a real fit schedules the learner's answers ------------------------------------------------


@pytest.fixture(scope="module")
def fitted() -> OwnParameters:
    """The parameters fsrs's optimizer fits on 80 days of a learner's reviews."""
    if not review_fit.optimizer_available():
        pytest.skip("needs PyTorch (the model extra)")
    from tests.practice.test_review_fit import history

    fit = review_fit.fit_parameters(history(80))
    assert fit.parameters is not None and fit.parameters != tuple(DEFAULT_PARAMETERS)
    return OwnParameters(fit.parameters, fit.reviews, NOW.timestamp())


def _answer_when_due(store, key: str, times: int = 5, qid: str = "choice-mean"):
    """A card answered Good today and again each time it is due: its FSRS state before the
    last answer, and after it."""
    when, before = NOW, None
    for _ in range(times):
        before = card_from_state(qid, store.card(key, qid))
        record_attempt(store, key, qid, correct=True, seconds=20, kind="choice", when=when)
        when = card_from_state(qid, store.card(key, qid)).due
    return before, card_from_state(qid, store.card(key, qid))


def test_a_fitted_learner_is_scheduled_with_their_parameters_until_they_go_back(make_store, fitted):
    store = make_store()
    default, own = store.create_learner(), store.create_learner()
    store.set_parameters(own, fitted)
    _, by_default = _answer_when_due(store, default)
    before, by_own = _answer_when_due(store, own)
    assert by_own.due != by_default.due, "the fit changed the schedule"
    expected = review(before, Rating.Good, before.due, scheduler_for(fitted.parameters))
    assert (by_own.stability, by_own.due) == (expected.stability, expected.due)

    store.set_parameters(own, None)  # back to FSRS's defaults, from the next answer on
    later = by_own.due
    record_attempt(store, own, "choice-mean", correct=True, seconds=20, kind="choice", when=later)
    after = card_from_state("choice-mean", store.card(own, "choice-mean"))
    assert after.stability == review(by_own, Rating.Good, later).stability, "the defaults again"
    own_again = review(by_own, Rating.Good, later, scheduler_for(fitted.parameters))
    assert after.stability != own_again.stability
