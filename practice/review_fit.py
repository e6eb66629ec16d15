"""A learner's own FSRS parameters, fitted from their review history by ``fsrs``'s optimizer.

``fsrs.Optimizer`` (py-fsrs's optional extra) needs PyTorch, which the app installs only with
the model extra (``requirements-model.txt``, ``python3 dev.py run --with-model``):
``optimizer_available`` says whether it is there. The optimizer learns only from *reviews*:
an attempt on a later day than the same card's previous one (the first 64 attempts of a
card). With fewer than ``MIN_REVIEWS`` of them (its mini-batch) it returns FSRS's default
parameters unchanged, so ``fit_parameters`` says how many are still missing instead.

The fitted parameters are shown on the Review page, to paste into Anki (Deck options ->
FSRS -> parameters); the app's own schedule keeps the defaults (``practice.review``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, ReviewLog, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from practice.review import card_id
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
