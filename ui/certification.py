"""The quiz page's certification mode: start (or the wait), one item at a time with no
feedback, submit, then the results with every answer and explanation, and the certificate.

The engine is ``practice.certification``; this lays it out. Session keys: ``ct.attempt``
(the attempt id), ``ct.token`` (its private token: never in the URL), ``ct.error``,
``ct.cert_error``; widget keys use the prefix ``ct`` (``ui.quiz_widgets``). The URL holds
the attempt's signed progress link (``?p=``; its id, and 0 for the seed, which would give
the answer key) like a practice quiz: a second browser
opening it sees the attempt and a certificate already issued, but cannot answer, submit
or issue. The holder's learner key (the private learner link) recovers the token after
a reload.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import streamlit as st

from practice import certification as engine
from practice.certificates import MAX_NAME_CHARS
from practice.progress_link import decode_progress, unsign_progress
from practice.questions import TOPICS
from practice.session import PASS_PERCENT, next_question, progress, score
from practice.store.base import StoreRefusal
from practice.variants import load_families
from ui import certificate, learner
from ui import quiz_widgets as qw
from ui.class_store import class_store

PREFIX = "ct"


@st.cache_resource(show_spinner=False)
def families():
    """The certification items (content/variants.toml), loaded and checked once per server."""
    return load_families()


def linked_attempt(link, secret):
    """The attempt a progress link points to, or None (not an attempt, junk, foreign)."""
    code = (unsign_progress(link, secret=secret) if secret else link) if link else None
    place = decode_progress(code, [f.id for f in families()]) if code else None
    return class_store().attempt(place.quiz_id) if place else None


def is_attempt(quiz_id: str) -> bool:
    return class_store().attempt(quiz_id) is not None


def _start() -> None:
    s = st.session_state
    s.pop("ct.error", None)
    try:
        wait = engine.retake_wait()
        key = learner.ensure()
        holding = engine.start_or_resume(
            class_store(), key, families(), now=learner.now().timestamp(), wait=wait
        )
    except (engine.RetakeWait, ValueError, StoreRefusal) as err:
        s["ct.error"] = str(err)
        return
    qw.forget(PREFIX)
    s["ct.attempt"], s["ct.token"] = holding.attempt.attempt_id, holding.token


def _answer(attempt, token):
    def on_answer(item_id: str, credit) -> None:
        try:
            engine.answer(class_store(), attempt, token, item_id, credit)
        except StoreRefusal as err:
            st.session_state["ct.error"] = str(err)

    return on_answer


def _submit(attempt, token) -> None:
    try:
        engine.submit(class_store(), attempt, token)
    except StoreRefusal as err:
        st.session_state["ct.error"] = str(err)


def _issue(attempt, token, key) -> None:
    s = st.session_state
    s.pop("ct.cert_error", None)
    if problem := qw.bounded("ct.name", MAX_NAME_CHARS, "The name"):
        s["ct.cert_error"] = problem
        return
    try:
        engine.issue_certificate(
            class_store(),
            families(),
            attempt,
            token,
            s.get("ct.name") or "",
            private_key=key,
            topic_order=TOPICS,
            scoring=certificate.scoring(len(families())),
        )
    except (ValueError, StoreRefusal) as err:
        s["ct.cert_error"] = str(err)


def intro(wait: float) -> None:
    """What a certification attempt is, and the button that starts one."""
    hours = wait / 3600
    st.markdown(
        f"A certification attempt asks **{len(families())} items** with numbers, options and "
        "wording drawn by the server for this attempt. Nothing tells you right or wrong "
        "until you submit; then you see every answer with its explanation. With "
        f"**{PASS_PERCENT}%** you get a certificate, issued once, under the name you choose. "
        f"A retake waits **{hours:g} hours** and draws other numbers and wording."
    )
    st.caption(
        "Your attempt is kept under your learner key (the private learner link, made now "
        "if you have none): keep that link to come back to an attempt after a reload."
    )
    st.button(
        "Start my certification attempt",
        key="ct.start",
        type="primary",
        icon=":material/workspace_premium:",
        on_click=_start,
    )


def view(secret, key, key_problem, link_attempt=None) -> None:
    """The certification mode of the quiz page."""
    s = st.session_state
    try:
        wait = engine.retake_wait()
    except ValueError as err:
        st.error(f"Certification is not available on this server: {err}")
        return
    store = class_store()
    who = learner.current()
    attempt = store.attempt(s.get("ct.attempt")) or link_attempt
    if attempt is None and who:
        attempt = store.latest_attempt(who)
    if attempt is None:
        intro(wait)
        if s.get("ct.error"):
            st.warning(s["ct.error"])
        return
    token = s.get("ct.token") if s.get("ct.attempt") == attempt.attempt_id else None
    token = token or engine.holder_token(store, attempt, who)
    quiz = engine.state(store, families(), attempt)
    if quiz is None:
        st.error("This attempt's items changed since it started: start a new attempt.")
        return
    # The seed draws every item and its model answer (practice.variants.draw): never in a
    # link. An attempt's link names it by its id alone (``linked_attempt`` reads no seed).
    param = s["qz.param"] = qw.progress_param(replace(quiz, seed=0), secret)
    qw.keep_progress_in_url(param)
    if s.get("ct.error"):
        st.warning(s["ct.error"])
    variants = engine.items(store, families(), attempt)
    if attempt.submitted is None:
        taking(attempt, token, quiz, variants)
    else:
        results(attempt, token, quiz, variants, key, key_problem, wait)


def taking(attempt, token, quiz, variants) -> None:
    """An open attempt: its holder answers one item at a time, without feedback."""
    if token is None:
        st.info(
            "This certification attempt is being taken in another browser: only that "
            "browser can answer it, submit it or issue its certificate."
        )
        return
    current = next_question(quiz)
    sc = score(quiz)
    if current is None:
        st.progress(1.0, text=f"All {sc.total} items answered")
        st.markdown(
            "Every item has an answer. Submit to see your score and every answer with its "
            "explanation; after that, the answers are final."
        )
        st.button(
            "Submit my attempt",
            key="ct.submit",
            type="primary",
            icon=":material/send:",
            on_click=_submit,
            args=(attempt, token),
        )
        return
    position = quiz.order.index(current) + 1
    st.progress(
        progress(quiz), text=f"Item {position} of {sc.total} · no feedback until you submit"
    )
    variant = variants[current]
    qw.header(variant.question, f"Item {position}")
    qw.show_question(
        variant.question,
        prefix=PREFIX,
        seed=quiz.seed,
        on_answer=_answer(attempt, token),
        drill=variant.drill,
        feedback=False,
    )


def results(attempt, token, quiz, variants, key, key_problem, wait: float) -> None:
    """A submitted attempt: the score, the certificate, the retake and every answer."""
    sc = score(quiz)
    st.subheader("Your result" if token else "This attempt's result")
    st.markdown(f"### {sc.shown} of {sc.total} points ({sc.percent:.1f}%)")
    st.caption(certificate.scoring(sc.total))
    if attempt.cert_id and key is not None:
        certificate.show_issued(attempt.cert_id, key.public_key(), prefix=PREFIX)
    elif not sc.passing:
        st.caption(f"A certificate needs at least {PASS_PERCENT}%.")
    elif token is None:
        st.info("Only the browser that took this attempt can issue its certificate.")
    elif key is None:
        st.error(f"Certificates are not available on this server: {key_problem}")
    else:
        certificate.name_form(PREFIX, _issue, (attempt, token, key))
    if token:
        retake(attempt, wait)
        st.subheader("Every item, with its answer")
        for item in quiz.order:
            variant = variants[item]
            with st.container(border=True):
                mark = "Right" if quiz.answers.get(item, 0) == 1 else "Missed"
                qw.answer_key(variant.question, quiz.seed, variant.drill, where=mark)


def retake(attempt, wait: float) -> None:
    """When a retake opens, and the button once it has."""
    opens = attempt.started + wait
    now = learner.now().timestamp()
    if now < opens:
        when = dt.datetime.fromtimestamp(opens, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        st.caption(f"A retake opens at {when}, with other numbers and wording.")
        return
    st.button("Start a new attempt", key="ct.retake", on_click=_start, icon=":material/replay:")
