"""The projector's screen of a class session: what the whole room may see, and nothing else.

``?class=<code>&screen=projector&present=1``. Anyone may open it: it draws no control and
carries no secret (no lecturer tag, no student token), so the lecturer can project it,
and a student who opens it sees what the room sees. A join bar (the code in large type,
the join link and its QR code) stands beside every state of the session, so a late
arrival can join at any moment. Students are anonymous here: the "be the group" chart
shows each answer's advantage, never a nickname.

It follows the lecturer by itself: the whole screen is one fragment, drawn afresh every
second (it has no widget to disturb). The lecturer's screen polls with ``live``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import streamlit as st

from grpo_core.format import fmt
from practice.class_group import room_group
from practice.class_link import join_query
from practice.class_qr import qr_png
from practice.class_round import clock_text, distribution, grade_answer, time_left
from practice.store.base import ClassSession, ClassStore, Round, UnknownSession
from ui import class_round_view as view
from ui import present
from ui.class_figures import advantage_figure, distribution_figure
from ui.figures.common import show
from ui.store_guard import calm
from ui.theme import CHART_CONFIG

POLL_SECONDS = 1.0
"""How often the projector screen is redrawn (a vote shows within about a second)."""
LIVE_POLL_SECONDS = 0.5
"""How often the lecturer screen's count asks the store: two small reads a poll, so a vote
reaches it within 1 s at p95 (bench/bench_class.py)."""
CHART_PX = 270
"""The projector's chart height: under the bar, the question, its options and the count,
on a 1280x720 screen (tests/e2e/test_class_fold.py measures it)."""
TITLE_LINE_PX = 30
"""A line of a chart's title on the projector (21 px type, 1.2 times larger)."""
QR_PX = 210
"""The join QR code's width on the projector (about a fifth of the screen's height)."""
SHORT_OPTION_CHARS = 40
"""Options this short stand two to a row on the projector; longer ones one to a row."""
_CSS = """
<style>
  .cls-join { text-align: center; line-height: 1.15; }
  .cls-join .cls-code { font-family: monospace; font-size: 2.6rem; font-weight: 700;
                        letter-spacing: 0.08em; }
  .cls-join .cls-where { font-size: 1rem; overflow-wrap: anywhere; }
  .st-key-cls-room h1 { font-size: 1.6rem; padding: 0 0 0.2rem; }
  .st-key-cls-room [data-testid="stMarkdownContainer"] p { margin-bottom: 0.2rem; }
  .st-key-cls-room [data-testid="stVerticalBlock"] { gap: 0.5rem; }
  .cls-count { font-size: 1.5rem; text-align: center; }
  .st-key-cls-join [data-testid="stImage"], .st-key-cls-join [data-testid="stImageContainer"] {
    margin: 0 auto; align-items: center; }
  .cls-count b { font-size: 2rem; white-space: nowrap; }
</style>
"""


def base_url() -> str:
    """This page's URL without its query (``http://host:port/class``)."""
    return (st.context.url or "").split("?")[0]


def join_link(code: str) -> str:
    return f"{base_url()}?{join_query(code)}"


def join_bar(session: ClassSession, locked: bool = False) -> None:
    """The code in large type, where to type it, and the QR code of the join link; once
    the lecturer closes the session to new students, a line saying so instead."""
    st.html(_CSS)
    if locked:
        st.markdown(
            f"<div class='cls-join'>Class<div class='cls-code'>{session.code}</div>"
            "is closed to new students</div>",
            unsafe_allow_html=True,
        )
        return
    where = base_url().split("://", 1)[-1]
    st.markdown(
        f"<div class='cls-join'>Join at<div class='cls-where'>{where}</div>"
        f"with the code<div class='cls-code'>{session.code}</div></div>",
        unsafe_allow_html=True,
    )
    st.image(qr_png(join_link(session.code)), caption="Scan to join", width=QR_PX)


def state_of(r: Round | None, session: ClassSession):
    """What a screen shows, in a value that changes when the lecturer acts: the round's
    number and state, and whether the session ended (also before its first round)."""
    return (None, session.ended) if r is None else (r.number, r.open, r.reveal, session.ended)


@st.fragment(run_every=LIVE_POLL_SECONDS)
@calm
def live(
    store: ClassStore, code: str, shown, number: int | None, closes: float | None = None
) -> None:
    """The lecturer's one polling part: rerun the page when the round it shows changed
    (from another of the lecturer's devices, or its countdown ending at ``closes``), else
    draw how many joined, or how many of them answered round ``number`` (its answers stay
    hidden), and the time left."""
    try:
        now = state_of(store.current_round(code), store.session(code))
    except UnknownSession:
        now = "gone"
    except Exception:
        st.caption(":orange[Reconnecting to the class…]")
        return
    if now != shown:
        st.rerun()
    left = time_left(closes, time.time())
    if left is not None and left > 0:
        answers, clock = st.columns(2)
        with answers:
            count(store, code, number)
        clock.metric("Time left", clock_text(left), border=True)
    else:
        count(store, code, number)


def count(store: ClassStore, code: str, number: int | None, *, line: bool = False) -> None:
    """How many joined, or how many of them answered round ``number``: a metric, or
    one line of large type (``line``, the projector's, under the options)."""
    joined = len(store.students(code))
    if number is None:
        st.metric("Joined", joined, border=True)
        return
    answered = sum(store.tally(code, number).values())
    if line:
        st.markdown(
            f"<div class='cls-count'>Answers: <b>{answered} of {joined}</b></div>",
            unsafe_allow_html=True,
        )
    else:
        st.metric("Answers", f"{answered} of {joined}", border=True)


def round_title(r: Round, question, group: bool) -> str:
    kind = "Vote again" if r.revote_of else ("Be the group" if group else "Question")
    return f"{kind} {r.number}: {view.kind_title(question)}"


def countdown(r: Round) -> None:
    """The time left of a round with a countdown, in large type; "Time is up" at 0."""
    left = time_left(r.closes, time.time())
    if left is None or r.reveal != "none":
        return
    text = f"Time left: <b>{clock_text(left)}</b>" if left > 0 else "<b>Time is up</b>"
    st.markdown(f"<div class='cls-count cls-clock'>{text}</div>", unsafe_allow_html=True)


def vote_charts(
    store: ClassStore,
    code: str,
    r: Round,
    question,
    drill,
    order: Sequence[int],
    *,
    height: int | None = None,
) -> None:
    """The room's distribution; after a second vote, both votes side by side. ``height``
    (px) fits the charts under the question on the projector."""
    votes = [n for n in (r.revote_of, r.number) if n]
    bars = {n: tuple(distribution(question, drill, store.tally(code, n), order)) for n in votes}
    top = max(b.count for n in votes for b in bars[n]) if any(bars.values()) else 1
    for column, n in zip(st.columns(len(votes)), votes, strict=True):
        title = ("Second vote" if n == r.number else "First vote") if r.revote_of else ""
        shown = title or "The room's answers"
        figure = distribution_figure(bars[n], shown, r.reveal == "answer", top)
        draw(figure, f"cls.dist.{n}", height, column)


def draw(figure, key: str, height: int | None, container=None) -> None:
    """``show`` the figure, at ``height`` px when given (after presentation scaling)."""
    if height is None:
        show(figure, key=key, container=container)
        return
    scaled = present.scale_figure(figure)
    lines = (scaled.layout.title.text or "").count("<br>") + 1
    scaled.update_layout(height=height, margin_t=TITLE_LINE_PX * (lines + 1), margin_b=10)
    (container or st).plotly_chart(scaled, key=key, config=CHART_CONFIG)


def group_summary(
    store: ClassStore,
    code: str,
    r: Round,
    question,
    drill,
    convention: str,
    *,
    named=False,
    height: int | None = None,
):
    """The room's rewards as one group under ``convention``: K, mean, std and the chart of
    advantages, anonymous unless ``named`` (the lecturer's screen); on the projector
    (``height``) the three numbers in one line above a chart of that height. Returns the
    group and the answers it was made from."""
    answers = store.answers(code, r.number)
    rewards = [grade_answer(question, drill, a.answer).reward for a in answers]
    group = room_group(rewards, convention)
    if height is None:
        k, m, s = st.columns(3)
        k.metric("K (students who answered)", group.k)
        m.metric("Mean reward", fmt(group.mean))
        s.metric("Std", fmt(group.std))
    else:
        st.markdown(
            f"<div class='cls-count'>K = <b>{group.k}</b> · mean reward "
            f"<b>{fmt(group.mean)}</b> · std <b>{fmt(group.std)}</b></div>",
            unsafe_allow_html=True,
        )
    if group.note:
        st.info(group.note)
    elif group.k:
        labels = tuple(a.label for a in answers) if named else None
        draw(advantage_figure(labels, group), "cls.advantages", height)
    return group, answers


@st.fragment(run_every=POLL_SECONDS)
@calm
def room_view(store: ClassStore, code: str) -> None:
    """The projector: the join bar beside the question, the count and what is revealed,
    drawn afresh every ``POLL_SECONDS`` (it has no widget, so nothing is lost)."""
    try:
        session = store.session(code)
        r = store.current_round(code)
        locked = store.joins_locked(code)
    except UnknownSession as gone:
        st.info(str(gone))
        return
    except Exception:
        st.caption(":orange[Reconnecting to the class…]")
        return
    if session.ended:  # no join bar: nobody can join any more
        st.title("This session has ended. Thank you!")
        return
    main, side = st.columns([3, 1], gap="large")
    with side.container(key="cls-join"):
        join_bar(session, locked)
        counter = st.container()
    with main.container(key="cls-room"):
        if r is None:
            st.title("Join now: the first question appears in a moment")
            count(store, code, None)
            return
        if (shown := view.shown_round(r, store, code)) is None:
            return
        spec, question, drill, order = shown
        st.title(round_title(r, question, spec.group))
        short = all(len(o.text) <= SHORT_OPTION_CHARS for o in question.options)
        view.prompt(question, drill, order, columns=2 if short else 1)
        with counter:
            count(store, code, r.number, line=True)
            countdown(r)
        if r.reveal != "none" and not spec.group:
            vote_charts(store, code, r, question, drill, order, height=CHART_PX)
        if r.reveal == "answer":
            if spec.group:
                group_summary(store, code, r, question, drill, spec.convention, height=CHART_PX)
            view.answer_key(question, drill, order)
