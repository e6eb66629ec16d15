"""What the Review page shows: a due card to answer and rate, mastery, and the learner's data.

Widget keys (prefix ``review.``): the question widgets of ``ui.quiz_widgets`` under
``review`` (``review.choice.<id>``, ``review.check.<id>``, ...), ``review.rating``,
``review.save``, ``review.export``, ``review.import``, ``review.import_go``,
``review.delete``, ``review.delete_yes``, ``review.delete_no``, ``review.anki``,
``review.fresh``, ``review.flags_export``, ``review.fit``, ``review.defaults``,
``review.pasted``, ``review.qr``, ``review.new_key``. The
attempt is recorded (``practice.review.record_attempt``) when the learner saves its rating,
so an overridden rating is the one FSRS sees.
"""

from __future__ import annotations

import functools
import time
from datetime import date

import numpy as np
import pandas as pd
import streamlit as st

from content.citations import cite
from grpo_core.format import plural
from practice import limits, qr_read, review, review_fit
from practice.anki import build_deck
from practice.drills import Drill, make_drill
from practice.flags import export_flags
from practice.mastery import (
    overall_by_day,
    recall_by_day,
    teaching_pages,
    topics_of,
    weakest_topics,
)
from practice.questions import TOPICS, Question
from practice.store.base import Attempt, StoreRefusal
from practice.store.learner_json import MAX_IMPORT_BYTES, export_json, import_json
from ui import client, learner, nav
from ui import quiz_widgets as qw
from ui.class_store import class_store
from ui.figures.common import show
from ui.figures.review import recall_figure

PREFIX = "review"
_ANSWERED = "review.answered"
"""(question id, correct, seconds) of the card answered and not yet rated."""
_STARTED = "review.started"
"""(question id, clock seconds) when the card was first shown."""
_NOTICE = "review.data_notice"
"""(kind, text) of the last import's outcome; not "review.notice", the question widgets' own."""
_NOTICE_KINDS = ("success", "warning", "error")
SHOWN_TOPICS = 4
"""Up to this many topics practised, the chart draws every one; beyond, the weakest three
and the mean over all (the rest a tap away in the legend)."""


# --- no key yet -----------------------------------------------------------------------------

_RECOVER_PROBLEM = "review.recover_problem"
_BUSY = "review.new_key_busy"
"""Why no new key was made (the ``LEARNER`` budget), shown once under "New here"."""


def _recover() -> None:
    """The pasted link's key adopted, or why not (kept for the next run)."""
    key = learner.key_in(st.session_state.get("review.pasted"))
    if key is None:
        st.session_state[_RECOVER_PROBLEM] = (
            "That is not a learner link: it ends in “?learner=” and 32 letters, digits, "
            "“-” or “_” (the key alone works too)."
        )
    elif not learner.use(key):
        st.session_state[_RECOVER_PROBLEM] = (
            "Nothing is stored under that key on this server: it was deleted, or it belongs "
            "to another copy of the app."
        )
    else:
        st.session_state.pop(_RECOVER_PROBLEM, None)
        qw.forget(PREFIX)


def _from_picture() -> None:
    """The learner link in an uploaded picture of its QR code adopted, or why not."""
    upload = st.session_state.get("review.qr")
    if upload is None:
        return
    try:
        texts = qr_read.qr_texts(upload.getvalue())
    except ValueError as err:
        st.session_state[_RECOVER_PROBLEM] = str(err)
        return
    keys = [key for text in texts if (key := learner.key_in(text))]
    if not texts:
        problem = "No QR code was found in that picture: crop it to the code, or paste the link."
    elif not keys:
        problem = "That QR code holds no learner link (a class or certificate code, perhaps)."
    elif not learner.use(keys[0]):
        problem = (
            "Nothing is stored under that QR code's key on this server: it was deleted, or it "
            "belongs to another copy of the app."
        )
    else:
        st.session_state.pop(_RECOVER_PROBLEM, None)
        qw.forget(PREFIX)
        return
    st.session_state[_RECOVER_PROBLEM] = problem


def new_key() -> None:
    """Make a new learner key now (the learner chose to start afresh)."""
    st.session_state.pop(learner.DELETED_KEY, None)
    st.session_state.pop(_RECOVER_PROBLEM, None)
    try:
        learner.ensure()
    except limits.OverBudget as busy:
        st.session_state[_BUSY] = str(busy)


def no_key() -> None:
    """Without a key: bring back a kept learner link, or make a new key."""
    st.subheader("I have a learner link")
    st.markdown(
        "Reviewed here before? Your progress is under your learner link: paste it (or the key) "
        "below, or scan its QR code with a phone's camera app, which opens this page."
    )
    with st.form("review.recover", border=True, enter_to_submit=True):
        st.text_input(
            "Your learner link or key",
            key="review.pasted",
            max_chars=2000,
            placeholder="https://…/review?learner=…",
        )
        st.form_submit_button("Open my progress", on_click=_recover, type="primary")
    with st.expander("Only a picture of the QR code? (a screenshot, a photo)"):
        st.file_uploader(
            "A picture of your learner link's QR code",
            type=["png", "jpg", "jpeg", "webp", "gif"],
            key="review.qr",
            on_change=_from_picture,
            max_upload_size=max(1, qr_read.MAX_PICTURE_BYTES // 1_000_000),
        )
    if problem := st.session_state.get(_RECOVER_PROBLEM):
        st.warning(problem)
    st.subheader("New here")
    st.button(
        "Start with a new learner key",
        key="review.new_key",
        on_click=new_key,
        icon=":material/add:",
    )
    if busy := st.session_state.pop(_BUSY, None):
        st.info(busy, icon=":material/hourglass_top:")
    st.caption("A new key starts with no progress; you get its link and QR code to keep.")


# --- the card ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _drill(question_id: str, seed: int) -> Drill:
    question = qw.by_id()[question_id]
    return make_drill(question.drill, np.random.default_rng([seed, review.card_id(question_id)]))


def _on_answer(question_id: str, correct: bool) -> None:
    """show_question's callback: remember the grade and the seconds taken."""
    started = st.session_state.get(_STARTED, (question_id, time.time()))
    seconds = max(0.0, time.time() - started[1]) if started[0] == question_id else 0.0
    st.session_state[_ANSWERED] = (question_id, bool(correct), round(seconds, 1))


def _save(key: str, question: Question) -> None:
    """Record the answered card with the chosen rating, then make way for the next card."""
    answered = st.session_state.pop(_ANSWERED, None)
    if answered is None:  # a second click on the same Save
        return
    qid, correct, seconds = answered
    rating = st.session_state.get("review.rating")
    review.record_attempt(
        class_store(),
        key,
        qid,
        correct=correct,
        seconds=seconds,
        kind=question.kind,
        when=learner.now(),
        rating=rating,
    )
    st.session_state.pop(_STARTED, None)
    st.session_state.pop("review.rating", None)
    qw.forget(PREFIX)


def answer_card(key: str, due: review.Due, seed: int, now) -> None:
    """The due card with the quiz's widgets; once answered, the rating to save. A card
    shown before its learning step is over says so (``review.early_words``)."""
    question = qw.by_id()[due.question_id]
    if st.session_state.get(_STARTED, ("",))[0] != question.id:
        st.session_state[_STARTED] = (question.id, time.time())
    reason = {"mistake": "Answered wrong last time", "review": "Due again", "new": "New card"}
    qw.header(question, reason[due.reason])
    if early := review.early_words(due, now):
        st.caption(f":material/schedule: This card is {early}.")
    drill = _drill(question.id, seed) if question.kind == "numeric" else None
    done = qw.show_question(question, prefix=PREFIX, seed=seed, on_answer=_on_answer, drill=drill)
    answered = st.session_state.get(_ANSWERED)
    if not done or not answered or answered[0] != question.id:
        return
    _, correct, seconds = answered
    suggested = review.rating_for(float(correct), seconds, question.kind)
    st.markdown(
        f"{'Right' if correct else 'Wrong'} in {seconds:g} s: the suggested rating is "
        f"**{review.RATING_NAMES[suggested]}**. Change it if it felt otherwise."
    )
    st.session_state.setdefault("review.rating", int(suggested))
    st.segmented_control(
        "How well did you recall it?",
        [int(r) for r in review.RATING_NAMES],
        format_func=lambda r: review.RATING_NAMES[review.Rating(r)],
        key="review.rating",
    )
    st.button(
        "Save and next", key="review.save", type="primary", on_click=_save, args=(key, question)
    )


def due_summary(due: list[review.Due], own_parameters: bool = False) -> str:
    """How many cards are due, by reason, with why a just-missed card is not yet back, why
    "0 new" can show, and whose FSRS parameters schedule them."""
    counts = {
        reason: sum(d.reason == reason for d in due) for reason in ("mistake", "review", "new")
    }
    return (
        f"{len(due)} due today: {counts['mistake']} answered wrong last time (first), "
        f"{counts['review']} to review, {counts['new']} new. A card you just missed comes "
        f"back after a short learning step ({review.learning_steps_words()}), not at once. "
        f"At most {review.NEW_PER_DAY} new cards a day, and the quiz's and the drill's "
        "answers count toward them: “0 new” means today's are used up."
        + (" Scheduled with your own FSRS parameters (4 · Your data)." if own_parameters else "")
    )


def thresholds() -> None:
    """The table of seconds behind the suggested rating (``practice.review.KIND_SECONDS``)."""
    rows = [{**row, "kind": qw.KIND_TITLES[row["kind"]]} for row in review.threshold_rows()]
    st.markdown(
        "Wrong: **Again**. Partly right (a score from half up): **Hard**. Right: **Good**, "
        "**Easy** when quick, **Hard** when slow, by kind:"
    )
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="review.thresholds")


# --- mastery -------------------------------------------------------------------------------


def mastery(attempts: list[Attempt]) -> None:
    """Recall per topic by day, and the weakest topics with the page that teaches each."""
    topics = topics_of(qw.bank())
    table = recall_by_day(attempts, topics)
    if table.empty:
        st.info("Answer a card or two: your recall per topic shows here.")
        return
    days = tuple(sorted({d.isoformat() for d in table["day"]}))
    names = tuple(sorted(set(table["topic"])))
    cell = {
        (d.isoformat(), t): r
        for d, t, r in table[["day", "topic", "recall"]].itertuples(index=False)
    }
    recall = tuple(tuple(cell.get((d, t)) for d in days) for t in names)
    weak = weakest_topics(attempts, topics)
    few = len(names) <= SHOWN_TOPICS
    shown = None if few or not weak else tuple(t.topic for t in weak)
    by_day = overall_by_day(attempts, topics)
    overall = None if few else tuple(by_day.get(date.fromisoformat(d)) for d in days)
    show(
        recall_figure(days, names, recall, tuple(TOPICS.items()), shown, overall),
        key="review.chart",
    )
    if shown:
        st.caption(
            f"Drawn: the mean over all {len(names)} topics you practised and your "
            f"{plural(len(shown), 'weakest topic', with_count=len(shown) > 1)}; tap a topic "
            "in the legend to draw its line too."
        )
    if not weak:
        st.success("Every topic you practised stands at full recall.")
        return
    st.markdown("**Weakest topics**, with the page that teaches each:")
    pages = teaching_pages()
    for t in weak:
        nav.link(pages[t.topic], f"{TOPICS[t.topic]}: {t.recall:.0%} of {t.answered} recalled")


# --- flags ----------------------------------------------------------------------------------


def flags(key: str) -> None:
    """The answers the learner flagged ("I made this point"), and their export."""
    kept = class_store().flags(key)
    if not kept:
        st.caption(
            "None yet. In a quiz's end review or the interview drill, tick \"I made this "
            'point" on a key point the grader missed: it is kept here.'
        )
        return
    st.caption(
        "The key points you say your answers make and the grader did not credit. They never "
        "change a score, a card's schedule or a certificate; exported, they help the next "
        "round of the grader's evaluation."
    )
    questions = {q.id: q for q in qw.bank()}
    for n, f in enumerate(kept):
        question = questions.get(f.question)
        with st.container(border=True, key=f"review.flag.{n}"):
            st.markdown(question.prompt if question else "A question no longer in the bank.")
            for p in f.flagged:
                if question and p <= len(question.key_points):
                    st.markdown(f":orange[:material/flag:] {cite(question.key_points[p - 1].text)}")
            st.caption("Your answer:")
            st.text(f.text)
    st.download_button(
        f"Export my flags ({len(kept)} answer{'' if len(kept) == 1 else 's'}, TOML)",
        export_flags(kept),
        file_name="grpo-followup-flags.toml",
        mime="application/toml",
        key="review.flags_export",
        on_click="ignore",
    )


# --- the learner's data --------------------------------------------------------------------

_FITTED = "review.fitted"
"""The last fit's outcome in plain words, shown once after the page reruns."""


def _defaults(key: str) -> None:
    class_store().set_parameters(key, None)
    st.session_state[_FITTED] = (
        "Back to FSRS's default parameters: your next answers are scheduled with them."
    )


def _fit(key: str, attempts: list[Attempt]) -> None:
    """Fit (a spinner meanwhile), keep a fit with the learner, and rerun to show it."""
    with st.spinner("Fitting your FSRS parameters (this can take a minute)…"):
        fit = review_fit.fit_parameters(attempts)
    if fit.parameters is not None:
        own = review_fit.OwnParameters(fit.parameters, fit.reviews, learner.now().timestamp())
        class_store().set_parameters(key, own)
    st.session_state[_FITTED] = fit.message + (
        " From now on your schedule uses them." if fit.parameters is not None else ""
    )
    st.rerun()


def fsrs_fit(key: str, attempts: list[Attempt]) -> None:
    """The learner's own FSRS parameters: which ones their schedule uses, a fit on request
    (PyTorch here and enough reviews; otherwise why not, in plain words) and the way back
    to FSRS's defaults."""
    st.markdown("**Your own FSRS parameters**")
    if done := st.session_state.pop(_FITTED, None):
        st.success(done)
    own = class_store().parameters(key)
    reviews = review_fit.countable_reviews(attempts)
    can_fit = review_fit.optimizer_available() and reviews >= review_fit.MIN_REVIEWS
    if own is None and not can_fit:
        st.caption(review_fit.fit_parameters(attempts).message)  # says why, fits nothing
        return
    if own is None:
        st.caption(
            f"{reviews} reviews to learn from: enough for fsrs's optimizer. Your schedule "
            "uses FSRS's default parameters until you fit your own."
        )
    else:
        st.caption(
            f"{review_fit.in_use_words(own)} For Anki, paste them into Deck options → "
            "FSRS → parameters:"
        )
        st.code(", ".join(f"{p:.4f}" for p in own.parameters), language=None, wrap_lines=True)
    left, right = st.columns(2) if can_fit and own is not None else (st, st)
    if can_fit and left.button(
        "Fit my FSRS parameters" if own is None else f"Fit again on my {reviews} reviews",
        key="review.fit",
    ):
        _fit(key, attempts)
    if own is not None:
        right.button(
            "Go back to FSRS's defaults", key="review.defaults", on_click=_defaults, args=(key,)
        )


def uploaded():
    """The file in the import box (an UploadedFile: ``getvalue()``), or None."""
    return st.session_state.get("review.import")


def _import(key: str) -> None:
    upload = uploaded()
    if upload is None:
        st.session_state[_NOTICE] = ("warning", "Choose an exported .json file first.")
        return
    try:
        client.spend(limits.IMPORT)
        n = import_json(class_store(), key, upload.getvalue())
    except StoreRefusal as err:
        kind = "warning" if isinstance(err, limits.OverBudget) else "error"
        st.session_state[_NOTICE] = (kind, str(err))
        return
    qw.forget(PREFIX)
    st.session_state[_NOTICE] = ("success", f"Imported {n} attempts: your progress is restored.")


def _delete(key: str) -> None:
    class_store().delete_learner(key)
    qw.forget(PREFIX)
    for name in (_ANSWERED, _STARTED, "review.confirm"):
        st.session_state.pop(name, None)
    learner.forget()


def notice() -> None:
    """The last import's outcome, once."""
    kind, text = st.session_state.pop(_NOTICE, (None, ""))
    if kind in _NOTICE_KINDS:
        {"success": st.success, "warning": st.warning, "error": st.error}[kind](text)


def your_data(key: str) -> None:
    """Export, import, delete, and the Anki deck."""
    notice()
    left, right = st.columns(2)
    left.download_button(
        "Export progress (JSON)",
        functools.partial(export_json, class_store(), key),
        file_name="grpo-progress.json",
        mime="application/json",
        key="review.export",
        on_click="ignore",
    )
    store = class_store()
    right.download_button(
        "Download the Anki deck (.apkg)",
        lambda: build_deck(
            attempts=store.attempts(key), cards=store.cards(key), own=store.parameters(key)
        ),
        file_name="grpo-advantage-lab.apkg",
        mime="application/octet-stream",
        key="review.anki",
        on_click="ignore",
    )
    st.caption(
        "The Anki deck carries your review history (Anki's revlog) and each card's schedule, "
        "so Anki picks up where you are."
    )
    fsrs_fit(key, store.attempts(key))
    st.file_uploader(
        "Import progress (a JSON export)",
        type=["json"],
        key="review.import",
        max_upload_size=max(1, MAX_IMPORT_BYTES // 1_000_000),
    )
    st.button(
        "Import (replaces this key's progress)",
        key="review.import_go",
        on_click=_import,
        args=(key,),
    )
    if not st.session_state.get("review.confirm"):
        st.button(
            "Delete my data",
            key="review.delete",
            on_click=lambda: st.session_state.update({"review.confirm": True}),
        )
        return
    st.warning("Delete every attempt and card stored under this key? This cannot be undone.")
    yes, no = st.columns(2)
    yes.button(
        "Yes, delete everything",
        key="review.delete_yes",
        type="primary",
        on_click=_delete,
        args=(key,),
    )
    no.button(
        "Cancel",
        key="review.delete_no",
        on_click=lambda: st.session_state.pop("review.confirm", None),
    )
