"""A learner's review history in the Anki deck: Anki's ``revlog`` and each card's schedule.

``write_history`` runs on the deck's SQLite collection after genanki wrote it: every
attempt becomes a ``revlog`` row of the question's card(s) (a cloze note has one card per
blank; each gets the question's history), and each reviewed card takes its FSRS schedule
(learning, review or relearning; its due date, interval, reps and lapses), so moving to
Anki keeps the learner's schedule, and Anki's own FSRS optimiser can fit the learner's
parameters from the history ("Optimize" in the deck options).

Each row's interval is the one the app gave at that answer: ``practice.review.record_attempt``
schedules with the learner's kept fit (``OwnParameters``) from the moment it was fitted, and
with FSRS's defaults before it, so the replay does the same. The store keeps only the latest
fit: answers given under an earlier fit the learner replaced are replayed with the defaults.

Anki's columns (its ``rslib`` storage): ``revlog.id`` is the review time in ms, ``ease``
the button (1 Again .. 4 Easy, our ``Rating``), ``ivl``/``lastIvl`` an interval in days, or
negative seconds while learning, ``type`` 0 learn, 1 review, 2 relearn, ``time`` the ms
taken (Anki caps it at 60 s). A review card's ``due`` is a day number counted from the
collection's creation day (``col.crt``); a learning card's is Unix seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from fsrs import Card, Rating, State

from practice.review import SCHEDULER, card_from_state, card_id, review, scheduler_for
from practice.review_fit import OwnParameters
from practice.store.base import Attempt

MAX_ANSWER_MS = 60_000
"""Anki's default cap on the time recorded for one answer."""
SM2_FACTOR = 2500
"""The ease factor (per mille) Anki starts an SM-2 card with; FSRS ignores it."""
_TYPE = {State.Learning: 0, State.Review: 1, State.Relearning: 2}
_CARD_TYPE = {State.Learning: 1, State.Review: 2, State.Relearning: 3}


def interval(card: Card, when: datetime) -> int:
    """Anki's interval of ``card`` just after a review at ``when``: whole days (at least 1)
    in review, minus the seconds of the learning step otherwise."""
    seconds = (card.due - when).total_seconds()
    return max(1, round(seconds / 86_400)) if card.state == State.Review else -round(seconds)


def revlog_rows(
    cid: int, question_id: str, attempts: Sequence[Attempt], own: OwnParameters | None = None
) -> list[tuple]:
    """The revlog rows (id, cid, usn, ease, ivl, lastIvl, factor, time, type) of one
    question's attempts (oldest first), replaying FSRS for each interval: with the learner's
    ``own`` parameters for an answer given after they were fitted, else the defaults."""
    theirs = scheduler_for(own.parameters) if own is not None else SCHEDULER
    card, last, rows = Card(card_id=card_id(question_id)), 0, []
    for a in attempts:
        when = datetime.fromtimestamp(a.at, UTC)
        kind = _TYPE[card.state]
        scheduler = theirs if own is not None and a.at >= own.fitted else SCHEDULER
        card = review(card, Rating(a.rating), when, scheduler)
        ivl = interval(card, when)
        factor = SM2_FACTOR if card.state == State.Review else 0
        ms = min(MAX_ANSWER_MS, round(a.seconds * 1000))
        rows.append((round(a.at * 1000), cid, -1, a.rating, ivl, last, factor, ms, kind))
        last = ivl
    return rows


def schedule(card: Card, reps: int, lapses: int, crt: int) -> dict[str, int]:
    """The Anki ``cards`` columns of an FSRS card: type, queue, due, ivl, reps, lapses."""
    review_card = card.state == State.Review
    if review_card:
        due = (card.due.date() - datetime.fromtimestamp(crt, UTC).date()).days
        last = card.last_review or card.due
        ivl = max(1, (card.due - last).days)
    else:
        due, ivl = int(card.due.timestamp()), 0
    return {
        "type": _CARD_TYPE[card.state],
        "queue": 2 if review_card else 1,
        "due": due,
        "ivl": ivl,
        "factor": SM2_FACTOR if review_card else 0,
        "reps": reps,
        "lapses": lapses,
        "left": 0 if review_card else 1001,
    }


def write_history(
    cursor,
    attempts: Sequence[Attempt],
    cards: Mapping[str, Mapping],
    own: OwnParameters | None = None,
) -> int:
    """Add the learner's history and schedule to a genanki collection; the revlog rows
    written. ``attempts``: oldest first; ``cards``: question id -> stored FSRS state;
    ``own``: the learner's kept FSRS fit, if any (``revlog_rows``)."""
    crt = cursor.execute("SELECT crt FROM col").fetchone()[0]
    card_ids: dict[str, list[int]] = {}
    for cid, fields in cursor.execute(
        "SELECT c.id, n.flds FROM cards c JOIN notes n ON c.nid = n.id"
    ):
        card_ids.setdefault(fields.rsplit("\x1f", 1)[-1], []).append(cid)
    by_question: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_question.setdefault(a.question_id, []).append(a)
    used, written = set(), 0
    for qid, history in by_question.items():
        card = card_from_state(qid, cards.get(qid))
        for cid in card_ids.get(qid, []):
            rows = revlog_rows(cid, qid, history, own)
            lapses = sum(r[3] == Rating.Again and r[8] == _TYPE[State.Review] for r in rows)
            for row in rows:
                rid = row[0]
                while rid in used:  # two cards of one note reviewed at the same moment
                    rid += 1
                used.add(rid)
                cursor.execute("INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)", (rid, *row[1:]))
            written += len(rows)
            columns = schedule(card, len(history), lapses, crt)
            sets = ", ".join(f"{name} = ?" for name in columns)
            cursor.execute(f"UPDATE cards SET {sets} WHERE id = ?", (*columns.values(), cid))
    return written
