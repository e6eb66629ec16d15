"""A learner's history in the Anki deck: revlog rows replaying FSRS, and each card's schedule."""

from __future__ import annotations

import io
import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta

from fsrs import Rating, State
from fsrs.scheduler import DEFAULT_PARAMETERS

from practice.anki import build_deck
from practice.anki_revlog import interval, revlog_rows, schedule
from practice.bank import load_bank
from practice.review import card_from_state, record_attempt, review
from practice.review_fit import OwnParameters
from practice.store import open_store
from practice.store.base import Attempt

BANK = load_bank()
CHOICE = next(q for q in BANK if q.kind == "choice")
BLANKS = next(q for q in BANK if q.kind == "blanks" and len(q.blanks) > 1)
T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def history(qid: str, kind: str, ratings_at) -> tuple[list[Attempt], dict]:
    """Attempts at (rating, when) and the stored card they leave, as record_attempt would."""
    card, attempts = card_from_state(qid, None), []
    for rating, when in ratings_at:
        card = review(card, rating, when)
        attempts.append(Attempt(qid, kind, float(rating > 1), 12.5, int(rating), when.timestamp()))
    return attempts, card.to_dict()


def collection(apkg: bytes, tmp_path) -> sqlite3.Connection:
    with zipfile.ZipFile(io.BytesIO(apkg)) as z:
        (tmp_path / "c.anki2").write_bytes(z.read("collection.anki2"))
    return sqlite3.connect(tmp_path / "c.anki2")


def card_rows(db, qid: str) -> list[tuple]:
    return db.execute(
        "SELECT c.id, c.type, c.queue, c.due, c.ivl, c.reps, c.lapses FROM cards c "
        "JOIN notes n ON c.nid = n.id WHERE n.flds LIKE ?",
        (f"%\x1f{qid}",),
    ).fetchall()


STEPS = [
    (Rating.Again, T0),
    (Rating.Good, T0 + timedelta(minutes=2)),
    (Rating.Good, T0 + timedelta(minutes=15)),
    (Rating.Good, T0 + timedelta(days=3)),
    (Rating.Again, T0 + timedelta(days=20)),
]


def test_every_attempt_is_a_revlog_row_and_the_card_keeps_its_schedule(tmp_path):
    attempts, state = history(CHOICE.id, "choice", STEPS)
    db = collection(build_deck(attempts=attempts, cards={CHOICE.id: state}), tmp_path)
    ((cid, ctype, queue, due, _ivl, reps, lapses),) = card_rows(db, CHOICE.id)
    rows = db.execute("SELECT id, cid, ease, ivl, lastIvl, time, type FROM revlog ORDER BY id")
    rows = rows.fetchall()
    assert [r[0] for r in rows] == [round(w.timestamp() * 1000) for _, w in STEPS]
    assert {r[1] for r in rows} == {cid}
    assert [r[2] for r in rows] == [1, 3, 3, 3, 1]
    assert [r[6] for r in rows] == [0, 0, 0, 1, 1], "learning, then review"
    assert rows[0][3] < 0 and rows[3][3] >= 1 and rows[4][4] == rows[3][3]
    assert {r[5] for r in rows} == {12_500}
    card = card_from_state(CHOICE.id, state)
    assert card.state == State.Relearning and (ctype, queue) == (3, 1)
    assert due == int(card.due.timestamp()) and (reps, lapses) == (5, 1)


def test_a_cloze_note_gives_its_history_to_every_card(tmp_path):
    attempts, state = history(BLANKS.id, "blanks", STEPS[:4])
    db = collection(build_deck(attempts=attempts, cards={BLANKS.id: state}), tmp_path)
    cards = card_rows(db, BLANKS.id)
    assert len(cards) == len(BLANKS.blanks)
    crt = db.execute("SELECT crt FROM col").fetchone()[0]
    card = card_from_state(BLANKS.id, state)
    expected = (card.due.date() - datetime.fromtimestamp(crt, UTC).date()).days
    for cid, ctype, queue, due, ivl, reps, lapses in cards:
        assert (ctype, queue, due, reps, lapses) == (2, 2, expected, 4, 0) and ivl >= 1
        assert db.execute("SELECT COUNT(*) FROM revlog WHERE cid = ?", (cid,)).fetchone()[0] == 4
    ids = [r[0] for r in db.execute("SELECT id FROM revlog")]
    assert len(ids) == len(set(ids)) == 4 * len(cards)


def test_no_history_leaves_every_card_new(tmp_path):
    db = collection(build_deck(), tmp_path)
    assert db.execute("SELECT COUNT(*) FROM revlog").fetchone()[0] == 0
    assert {r[0] for r in db.execute("SELECT type FROM cards")} == {0}


def test_intervals_are_days_in_review_and_minus_seconds_while_learning():
    attempts, _ = history(CHOICE.id, "choice", STEPS[:1])
    (row,) = revlog_rows(7, CHOICE.id, attempts)
    assert row[4] == -60, "Again on a new card: its first learning step, one minute"
    card = review(card_from_state(CHOICE.id, None), Rating.Easy, T0)
    assert card.state == State.Review and interval(card, T0) >= 1
    assert schedule(card, 1, 0, int(T0.timestamp()))["due"] == (card.due.date() - T0.date()).days


def test_a_fitted_learners_revlog_gives_the_intervals_their_answers_were_given(tmp_path):
    """Through a real store: two answers under FSRS's defaults, then the learner keeps a
    fit, then three more (one on a card first seen after the fit). Every revlog interval is
    the one ``record_attempt`` gave at that answer; a replay with the defaults alone differs."""
    store = open_store(f"sqlite:{tmp_path / 'store.db'}")
    key = store.create_learner()
    fit_at = T0 + timedelta(days=1)
    own = OwnParameters(
        tuple(p * 1.5 if i < 4 else p for i, p in enumerate(DEFAULT_PARAMETERS)), 600,
        fit_at.timestamp(),
    )  # fmt: skip
    other = next(q.id for q in BANK if q.kind == "choice" and q.id != CHOICE.id)
    given: dict[str, list[int]] = {CHOICE.id: [], other: []}
    answers = [
        (CHOICE.id, Rating.Good, T0),
        (CHOICE.id, Rating.Easy, T0 + timedelta(minutes=12)),
        (CHOICE.id, Rating.Good, T0 + timedelta(days=30)),
        (other, Rating.Easy, T0 + timedelta(days=30, minutes=1)),
        (other, Rating.Hard, T0 + timedelta(days=60)),
    ]
    for qid, rating, when in answers:
        if when > fit_at and store.parameters(key) is None:
            store.set_parameters(key, own)
        record_attempt(store, key, qid, correct=True, seconds=9, kind="choice", when=when,
                       rating=rating)  # fmt: skip
        given[qid].append(interval(card_from_state(qid, store.card(key, qid)), when))
    deck = build_deck(attempts=store.attempts(key), cards=store.cards(key), own=own)
    db = collection(deck, tmp_path)
    for qid, intervals in given.items():
        ((cid, *_),) = card_rows(db, qid)
        rows = db.execute("SELECT ivl FROM revlog WHERE cid = ? ORDER BY id", (cid,))
        assert [r[0] for r in rows] == intervals, qid
    attempts = store.attempts(key)
    defaults_only = {
        qid: [r[4] for r in revlog_rows(1, qid, [a for a in attempts if a.question_id == qid])]
        for qid in given
    }
    assert defaults_only[CHOICE.id][:2] == given[CHOICE.id][:2], "before the fit: the defaults"
    assert defaults_only != given, "the fit changed the intervals after it"
