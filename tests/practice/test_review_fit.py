"""practice.review_fit: the learner's own FSRS parameters from fsrs's optimizer (PyTorch is
in the test venv, the model extra): counted as the optimizer counts, refused below its
mini-batch, fitted above it, and said in plain words without PyTorch."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from practice import review_fit
from practice.bank import load_bank
from practice.review import card_id
from practice.review_fit import MIN_REVIEWS, countable_reviews, fit_parameters, review_logs
from practice.store.base import Attempt

IDS = sorted(q.id for q in load_bank())
DAY = 86_400.0
START = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


def history(days: int, per_day: int = 8, seed: int = 0) -> list[Attempt]:
    """A learner's attempts: ``per_day`` cards a day for ``days`` days, mostly Good."""
    rng = random.Random(seed)
    out = []
    for day in range(days):
        for qid in rng.sample(IDS, per_day):
            rating = rng.choices([1, 2, 3, 4], [0.15, 0.15, 0.55, 0.15])[0]
            at = START + day * DAY + rng.randint(0, 3600)
            out.append(Attempt(qid, "choice", float(rating > 1), 20.0, rating, at))
    return out


def test_each_attempt_is_a_review_log_of_its_card():
    a = Attempt("choice-mean", "choice", 1.0, 12.5, 3, START)
    (log,) = review_logs([a])
    assert (log.card_id, int(log.rating), log.review_duration) == (card_id("choice-mean"), 3, 12500)
    assert log.review_datetime == datetime(2026, 1, 1, tzinfo=UTC)


def test_only_a_later_days_attempt_on_a_card_counts():
    same_day = [Attempt("choice-mean", "choice", 1.0, 5.0, 3, START + s) for s in (0, 60, 600)]
    assert countable_reviews(same_day) == 0, "a first attempt and same-day repeats teach nothing"
    later = [*same_day, Attempt("choice-mean", "choice", 1.0, 5.0, 3, START + 3 * DAY)]
    assert countable_reviews(later) == 1
    assert countable_reviews(later[::-1]) == 1, "in time order, whatever the stored order"


def test_below_the_optimizers_mini_batch_nothing_is_fitted():
    attempts = history(10)
    fit = fit_parameters(attempts)
    assert fit.parameters is None and fit.reviews < MIN_REVIEWS
    assert f"{fit.reviews} of the {MIN_REVIEWS} reviews" in fit.message


def test_without_pytorch_the_page_is_told_in_plain_words(monkeypatch):
    monkeypatch.setattr(review_fit, "optimizer_available", lambda: False)
    fit = fit_parameters(history(120))
    assert fit.parameters is None
    assert "needs PyTorch" in fit.message and "--with-model" in fit.message


@pytest.mark.skipif(not review_fit.optimizer_available(), reason="needs PyTorch (model extra)")
def test_with_enough_reviews_the_learners_parameters_are_fitted():
    attempts = history(80)
    fit = fit_parameters(attempts)
    assert fit.reviews >= MIN_REVIEWS
    assert fit.parameters is not None and len(fit.parameters) == len(DEFAULT_PARAMETERS)
    assert fit.parameters != tuple(DEFAULT_PARAMETERS), "the history moved them"
    for p, lo, hi in zip(
        fit.parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True
    ):
        assert lo - 1e-9 <= p <= hi + 1e-9
    assert fit.message == f"Fitted on your {fit.reviews} reviews."
    assert fit_parameters(attempts) == fit, "the optimizer is seeded: the same fit again"


@pytest.mark.parametrize(
    "text",
    ["0", "[]", "not json", '{"parameters": 1, "reviews": 600, "fitted": 0}', '{"reviews": 600}'],
    ids=["number", "list", "text", "parameters-not-a-list", "missing-keys"],
)
def test_a_kept_record_that_is_not_one_is_refused_in_plain_words(text):
    """What a store hands back is read again as the record ``to_json`` writes, never
    trusted: anything else is a ValueError (the fuzzer's ``"0"`` was a TypeError)."""
    with pytest.raises(ValueError, match="FSRS parameters"):
        review_fit.from_json(text)
