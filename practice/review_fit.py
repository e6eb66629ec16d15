"""A learner's own FSRS parameters, fitted from their review history by ``fsrs``'s optimizer.

``fsrs.Optimizer`` (py-fsrs's optional extra) needs PyTorch, which the app installs only with
the model extra (``requirements-model.txt``, ``python3 dev.py run --with-model``):
``optimizer_available`` says whether it is there. The optimizer learns only from *reviews*:
an attempt on a later day than the same card's previous one (the first 64 attempts of a
card). With fewer than ``MIN_REVIEWS`` of them (its mini-batch) it returns FSRS's default
parameters unchanged, so ``fit_parameters`` says how many are still missing instead.

A fit the learner asks for is kept with their progress as ``OwnParameters``
(``ParameterStore.set_parameters``, both backends; deleted with the learner, carried by the
JSON export and import): from then on the app schedules their answers with it
(``practice.review.scheduler_for``), until they go back to the defaults. The Review page
also shows the values, to paste into Anki (Deck options -> FSRS -> parameters).
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from practice.review import card_id, scheduler_for
from practice.store.base import Attempt

MIN_REVIEWS = 512
"""Reviews the optimizer needs before it changes anything (``fsrs.optimizer``'s
mini-batch size): fewer, and it returns the defaults."""
MAX_SEQUENCE = 64
"""The optimizer reads the first 64 attempts of each card."""


@dataclass(frozen=True)
class Fit:
    """The outcome of a fit."""

    parameters: tuple[float, ...] | None
    """The learner's 21 FSRS parameters, or None when nothing was fitted."""
    reviews: int
    """Attempts the optimizer learns from (a later day than the card's previous attempt)."""
    message: str
    """What happened, in plain words, for the page."""


@dataclass(frozen=True)
class OwnParameters:
    """A learner's fitted FSRS parameters, kept with their progress and used by their schedule."""

    parameters: tuple[float, ...]
    """FSRS's 21 parameters, each within FSRS's bounds (``fsrs.Scheduler`` checks them)."""
    reviews: int
    """The reviews they were fitted on."""
    fitted: float
    """When they were fitted: Unix seconds."""


MAX_FITTED_AT = 1e11
"""Unix seconds beyond any real fit (the year 5138): a later ``fitted`` is refused."""


def check_own(own: OwnParameters) -> OwnParameters:
    """``own`` when FSRS can schedule with it; ValueError in plain words otherwise (not 21
    numbers, NaN or infinite, outside FSRS's bounds, a negative count or time)."""
    values = own.parameters
    if not isinstance(values, tuple | list) or len(values) != len(DEFAULT_PARAMETERS):
        raise ValueError(f"FSRS needs {len(DEFAULT_PARAMETERS)} parameters.")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise ValueError("every FSRS parameter must be a number.")
    if not all(math.isfinite(v) for v in values):
        raise ValueError("an FSRS parameter is not a finite number.")
    try:
        scheduler_for(tuple(float(v) for v in values))
    except ValueError as err:
        raise ValueError(" ".join(str(err).split())) from None
    if isinstance(own.reviews, bool) or not isinstance(own.reviews, int) or own.reviews < 0:
        raise ValueError("the number of reviews must be a whole number from 0.")
    fitted = own.fitted
    if isinstance(fitted, bool) or not isinstance(fitted, int | float):
        raise ValueError("the fitting time must be a number of seconds.")
    if not 0 <= fitted < MAX_FITTED_AT:
        raise ValueError("the fitting time is out of range.")
    return OwnParameters(tuple(float(v) for v in values), own.reviews, float(fitted))


def to_json(own: OwnParameters) -> str:
    """The checked record as JSON text (what the stores keep)."""
    return json.dumps(asdict(check_own(own)))


def from_json(text: str) -> OwnParameters:
    """The record of ``to_json``'s text, checked again (ValueError)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("the kept FSRS parameters are not JSON.") from None
    keys = ("parameters", "reviews", "fitted")
    if not isinstance(data, dict) or set(data) != set(keys):
        raise ValueError("the kept FSRS parameters need exactly: " + ", ".join(keys) + ".")
    if not isinstance(data["parameters"], list):
        raise ValueError("the FSRS parameters must be a list of numbers.")
    return check_own(OwnParameters(tuple(data["parameters"]), data["reviews"], data["fitted"]))


def in_use_words(own: OwnParameters) -> str:
    """What the Review page says of kept parameters: fitted on how many reviews, when (UTC
    day), and that they schedule every answer since."""
    day = datetime.fromtimestamp(own.fitted, UTC).strftime("%-d %b %Y")
    return (
        f"Your schedule uses your own FSRS parameters, fitted on {own.reviews} reviews on "
        f"{day}: every answer since is scheduled with them."
    )


def optimizer_available() -> bool:
    """Whether ``fsrs.Optimizer`` can run here: PyTorch (and tqdm, which it imports) present."""
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "tqdm"))


def review_logs(attempts: Sequence[Attempt]) -> list[ReviewLog]:
    """One ``fsrs.ReviewLog`` per attempt: its card (``card_id`` of the question), rating,
    time (UTC) and duration in milliseconds."""
    return [
        ReviewLog(
            card_id=card_id(a.question_id),
            rating=Rating(a.rating),
            review_datetime=datetime.fromtimestamp(a.at, UTC),
            review_duration=round(a.seconds * 1000),
        )
        for a in attempts
    ]


def countable_reviews(attempts: Sequence[Attempt]) -> int:
    """How many attempts the optimizer learns from, counted as it counts them: per card, in
    time order, the first ``MAX_SEQUENCE``, each on a later day than the previous review."""
    by_card: dict[int, list[ReviewLog]] = {}
    for log in review_logs(attempts):
        by_card.setdefault(log.card_id, []).append(log)
    scheduler, count = Scheduler(), 0
    for cid, logs in by_card.items():
        history = sorted(logs, key=lambda r: r.review_datetime)[:MAX_SEQUENCE]
        card = Card(card_id=cid, due=history[0].review_datetime)
        for log in history:
            if card.last_review and (log.review_datetime - card.last_review).days > 0:
                count += 1
            card, _ = scheduler.review_card(card, log.rating, log.review_datetime)
    return count


def fit_parameters(attempts: Sequence[Attempt]) -> Fit:
    """The learner's FSRS parameters fitted on ``attempts`` by ``fsrs.Optimizer``, when
    PyTorch is here and at least ``MIN_REVIEWS`` reviews exist; else why not (no fit)."""
    reviews = countable_reviews(attempts)
    if not optimizer_available():
        return Fit(
            None,
            reviews,
            "Your own FSRS parameters cannot be fitted on this server: fsrs's optimizer needs "
            "PyTorch, which is installed only with the model extra "
            "(python3 dev.py run --with-model). Anki can fit them from the deck's history: "
            "Deck options → FSRS → Optimize.",
        )
    if reviews < MIN_REVIEWS:
        return Fit(
            None,
            reviews,
            f"{reviews} of the {MIN_REVIEWS} reviews FSRS's optimizer needs (a card answered "
            "again on a later day): until then your schedule uses FSRS's default parameters.",
        )
    import torch  # only when a fit runs
    from fsrs import Optimizer

    torch.set_num_threads(1)  # a shared server: one core, as the real model's page
    fitted = tuple(float(p) for p in Optimizer(review_logs(attempts)).compute_optimal_parameters())
    changed = any(abs(a - b) > 1e-9 for a, b in zip(fitted, DEFAULT_PARAMETERS, strict=True))
    return Fit(
        fitted,
        reviews,
        f"Fitted on your {reviews} reviews" + ("." if changed else ": they match FSRS's defaults."),
    )
