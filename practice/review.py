"""Spaced review: every bank question is a card scheduled with FSRS (the ``fsrs`` package).

An attempt rates its card from the grade and the time taken, as Anki's four buttons:

====================  ==========================================================
score                 rating
====================  ==========================================================
below ``PASS_SCORE``  Again (wrong; a partial answer under half)
below 1               Hard (partly right)
1, slow               Hard (right, but over the kind's *slow* seconds)
1                     Good (right)
1, quick              Easy (right within the kind's *quick* seconds)
====================  ==========================================================

with the seconds per question kind in ``KIND_SECONDS`` (also shown on the Review page).
The learner may override the rating before it is recorded, as Anki lets them.

Cards are scheduled with FSRS's default parameters (``SCHEDULER``) until the learner fits
their own (``practice.review_fit``) and keeps them with their progress
(``ParameterStore.set_parameters``): from then on ``record_attempt`` schedules every answer
with them (``scheduler_for``), until the learner goes back to the defaults.

Every function here is pure except ``record_attempt`` (which writes to a
``LearnerStore``); time is always an argument (``now``, ``when``: timezone-aware UTC
``datetime``), so tests use fixed dates. A day is a UTC day. The scheduler runs without
fuzz, so the same attempts always give the same due dates.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from fsrs import Card, Rating, Scheduler

from practice.store.base import Attempt, LearnerStore

KIND_SECONDS: dict[str, tuple[float, float]] = {
    # kind: (quick, slow) in seconds. Right within quick: Easy; right after slow: Hard.
    "choice": (10.0, 60.0),
    "redflag": (15.0, 75.0),
    "blanks": (20.0, 120.0),
    "numeric": (45.0, 240.0),
    "followup": (60.0, 300.0),
}
"""Seconds that make a right answer quick (Easy) or slow (Hard), per question kind:
reading three options is quicker than computing an advantage by hand."""
PASS_SCORE = 0.5
"""A partial score from here up (but below 1) is Hard; below it, Again."""
RATING_NAMES = {r: r.name for r in Rating}
"""Rating -> its button label: Again, Hard, Good, Easy."""
NEW_PER_DAY = 10
"""New cards (never answered) introduced a day, as Anki's default daily limit of new cards."""
SCHEDULER = Scheduler(enable_fuzzing=False)
"""FSRS with its default parameters and 90 % desired retention; no fuzz (reproducible)."""
NEW_DUE = datetime(2000, 1, 1, tzinfo=UTC)
"""A card never answered is due since long ago."""


@functools.lru_cache(maxsize=64)
def scheduler_for(parameters: tuple[float, ...] | None = None) -> Scheduler:
    """The scheduler of a learner: FSRS with their own 21 fitted ``parameters``, or
    ``SCHEDULER`` (the defaults) for None; the same retention, learning steps and no fuzz.
    ValueError (fsrs's own, naming the parameter) when one is outside FSRS's bounds."""
    if parameters is None:
        return SCHEDULER
    return Scheduler(parameters, enable_fuzzing=False)


def rating_for(score: float, seconds: float, kind: str) -> Rating:
    """The FSRS rating of an attempt: ``score`` in [0, 1], ``seconds`` taken, question ``kind``."""
    if kind not in KIND_SECONDS:
        raise ValueError(f"kind must be one of {', '.join(KIND_SECONDS)}, got {kind!r}.")
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score!r}.")
    quick, slow = KIND_SECONDS[kind]
    if score < PASS_SCORE:
        return Rating.Again
    if score < 1.0 or seconds > slow:
        return Rating.Hard
    return Rating.Easy if seconds <= quick else Rating.Good


def card_id(question_id: str) -> int:
    """A stable card id for FSRS: the first 6 bytes of SHA-256 of the question id."""
    return int.from_bytes(hashlib.sha256(question_id.encode()).digest()[:6], "big")


def fsrs_problem(state: Mapping) -> str | None:
    """Why the ``fsrs`` library refuses this card state (built with ``Card.from_dict`` and
    reviewed once by the app's scheduler), or None when it accepts it."""
    try:
        card = Card.from_dict(dict(state))
        SCHEDULER.review_card(card, Rating.Good, review_datetime=card.due)
    except Exception as err:  # fsrs raises AssertionError, TypeError, ValueError, ...
        return f"{type(err).__name__}: {err}".rstrip(": ")
    return None


def card_from_state(question_id: str, state: Mapping | None) -> Card:
    """The FSRS card of a stored state; a new card (due since ``NEW_DUE``) when there is
    none or fsrs refuses it (a state stored before imports were checked, or hand-edited:
    ``step: "x"``, ``stability: "nan"``, a time without a zone)."""
    if state is not None and fsrs_problem(state) is None:
        card = Card.from_dict(dict(state))
        if card.due.tzinfo is not None:
            return card
    return Card(card_id=card_id(question_id), due=NEW_DUE)


def review(card: Card, rating: Rating, when: datetime, scheduler: Scheduler = SCHEDULER) -> Card:
    """The card after an attempt rated ``rating`` at ``when`` (UTC), by ``scheduler``."""
    return scheduler.review_card(card, Rating(rating), review_datetime=when.astimezone(UTC))[0]


def record_attempt(
    store: LearnerStore,
    learner_key: str,
    question_id: str,
    *,
    correct: bool | float,
    seconds: float,
    kind: str,
    when: datetime,
    rating: Rating | int | None = None,
) -> Attempt:
    """Record an attempt and reschedule its card; the entry point for every page.

    ``correct``: True/False or a partial score in [0, 1]; ``rating``: the learner's
    override, else ``rating_for(score, seconds, kind)``. The card is scheduled with the
    learner's own FSRS parameters when they keep some (``store.parameters``), else the
    defaults. Returns the stored attempt.
    """
    score = float(correct)
    rating = rating_for(score, seconds, kind) if rating is None else Rating(rating)
    own = store.parameters(learner_key)
    scheduler = scheduler_for(own.parameters if own else None)
    card = card_from_state(question_id, store.card(learner_key, question_id))
    card = review(card, rating, when, scheduler)
    attempt = Attempt(question_id, kind, score, float(seconds), int(rating), when.timestamp())
    store.add_attempt(learner_key, attempt)
    store.set_card(learner_key, question_id, card.to_dict())
    return attempt


# --- what is due --------------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    """One card to answer today."""

    question_id: str
    reason: str
    """"mistake" (last answered wrong or partly), "review" (due again) or "new"."""
    due: datetime
    """When FSRS scheduled it (``NEW_DUE`` for a new card)."""


def end_of_day(now: datetime) -> datetime:
    """The next UTC midnight after ``now``: cards due before it are due today."""
    day = now.astimezone(UTC).date() + timedelta(days=1)
    return datetime.combine(day, time(0), tzinfo=UTC)


def latest_attempts(attempts: Sequence[Attempt]) -> dict[str, Attempt]:
    """question id -> its latest attempt (attempts oldest first)."""
    return {a.question_id: a for a in attempts}


def new_left_today(attempts: Sequence[Attempt], now: datetime, per_day: int = NEW_PER_DAY) -> int:
    """How many new cards may still be started today: ``per_day`` minus those started today."""
    first_seen: dict[str, float] = {}
    for a in attempts:
        first_seen.setdefault(a.question_id, a.at)
    today = now.astimezone(UTC).date()
    started = sum(datetime.fromtimestamp(t, UTC).date() == today for t in first_seen.values())
    return max(0, per_day - started)


def due_today(
    question_ids: Sequence[str],
    cards: Mapping[str, Mapping],
    attempts: Sequence[Attempt],
    now: datetime,
    *,
    new_per_day: int = NEW_PER_DAY,
) -> list[Due]:
    """The cards to answer today, mistakes first, then reviews (each earliest due first),
    then new cards in bank order up to today's new-card limit.

    ``question_ids``: the bank's ids (a stored card of a question no longer in the bank is
    left out); ``cards``: question id -> stored FSRS state; ``attempts``: oldest first.
    """
    horizon, latest = end_of_day(now), latest_attempts(attempts)
    mistakes, reviews, new = [], [], []
    for qid in question_ids:
        if qid not in cards:
            new.append(Due(qid, "new", NEW_DUE))
            continue
        due = card_from_state(qid, cards[qid]).due
        if due >= horizon:
            continue
        wrong = qid in latest and latest[qid].score < 1.0
        (mistakes if wrong else reviews).append(Due(qid, "mistake" if wrong else "review", due))
    by_due = lambda d: (d.due, d.question_id)  # noqa: E731
    left = new_left_today(attempts, now, new_per_day)
    return sorted(mistakes, key=by_due) + sorted(reviews, key=by_due) + new[:left]


def next_card(due: Sequence[Due], now: datetime) -> Due | None:
    """The card to answer now: the first of ``due`` (in its order) already due at ``now``;
    when every card left today is due later (a learning step of minutes), the earliest of
    them, as Anki's learn-ahead does. A card just answered so waits its step."""
    ready = [d for d in due if d.due <= now]
    if ready:
        return ready[0]
    return min(due, key=lambda d: d.due) if due else None


LEARN_AHEAD_MINUTES = 20
"""A card due within this many minutes is waiting out a learning step (FSRS's are 1 and 10
minutes; Anki's learn-ahead limit is 20)."""


def early_words(card: Due, now: datetime) -> str:
    """Why a card not yet due is shown (``next_card``'s learn-ahead), in words: "" when it
    is due at ``now``. Seconds round up to the next whole minute; a card due later than
    ``LEARN_AHEAD_MINUTES`` names its time (UTC) instead of a learning step."""
    wait = (card.due - now).total_seconds()
    if wait <= 0:
        return ""
    minutes = int(-(-wait // 60))
    if minutes <= LEARN_AHEAD_MINUTES:
        return (
            f"due again in {minutes} min (its learning step): shown now because nothing else "
            "is due, as Anki does"
        )
    return f"due at {card.due.astimezone(UTC):%H:%M} UTC: shown now because nothing else is due"


def _minutes(step: timedelta) -> str:
    return f"{step.total_seconds() / 60:g} min"


def learning_steps_words(scheduler: Scheduler = SCHEDULER) -> str:
    """The scheduler's learning and relearning steps in words ("1 min, then 10 min for a
    new card; 10 min for a card forgotten"): why a missed card is not back at once."""
    learning = ", then ".join(_minutes(s) for s in scheduler.learning_steps)
    relearning = ", then ".join(_minutes(s) for s in scheduler.relearning_steps)
    return f"{learning} for a new card; {relearning} for a card forgotten"


def threshold_rows() -> list[dict[str, str]]:
    """``KIND_SECONDS`` as table rows for the page: kind, Easy within, Hard after."""
    return [
        {"kind": kind, "Easy if right within": f"{quick:g} s", "Hard if right after": f"{slow:g} s"}
        for kind, (quick, slow) in KIND_SECONDS.items()
    ]
