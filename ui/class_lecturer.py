"""The lecturer's view of class mode: how to join, what to ask, the room's answers.

Peer instruction in four steps, each a button: open a round (a live count, the
distribution hidden) -> close it and show the distribution -> optionally vote again,
both votes side by side -> reveal the answer and its explanation ("be the group": the
room's rewards as one GRPO group). Only the live count polls (``live_count``, a tiny
fragment); the rest redraws when the lecturer presses a button.

Widget keys: ``cls.question``, ``cls.group``, ``cls.convention`` (inputs); ``cls.open``,
``cls.show_distribution``, ``cls.revote``, ``cls.reveal``, ``cls.end``, ``cls.csv``.
"""

from __future__ import annotations

import secrets

import streamlit as st

from grpo_core import CONVENTIONS, get_convention
from grpo_core.format import fmt, plural
from practice.class_group import room_group
from practice.class_link import join_query, lecturer_query
from practice.class_qr import qr_png
from practice.class_results import RoundAnswers, result_rows, results_csv
from practice.class_round import (
    ASKABLE_KINDS,
    RoundSpec,
    decode_spec,
    distribution,
    drill_of,
    grade_answer,
)
from practice.store.base import ClassSession, ClassStore, Round
from ui import class_round_view as view
from ui import quiz_widgets as qw
from ui.class_figures import advantage_figure, distribution_figure
from ui.figures.common import show
from ui.store_guard import calm

POLL_SECONDS = 0.5
"""How often the live count asks the store (the projector shows a vote within ~1 s at p95,
bench/bench_class.py; one projector polling costs two small reads a poll)."""


def base_url() -> str:
    return (st.context.url or "").split("?")[0]


def join_panel(session: ClassSession, secret: bytes, *, compact: bool) -> None:
    """The code, the join link and a QR code large enough for the back of the room;
    once rounds run (``compact``), the code on one line and the rest folded away."""
    link = f"{base_url()}?{join_query(session.code)}"
    if compact:
        st.markdown(f"Join with the code **`{session.code}`** at `{base_url()}`")
    box = st.expander("Join link and QR code", expanded=not compact)
    left, right = box.columns([3, 2])
    with left:
        st.markdown(f"## Join code: `{session.code}`")
        st.caption("Open the link, scan the code, or type the code on this page.")
        st.code(link, language=None, wrap_lines=True)
        st.caption("Your lecturer link: keep it private, it controls this session.")
        st.code(
            f"{base_url()}?{lecturer_query(session.code, session.created, secret=secret)}",
            language=None,
            wrap_lines=True,
        )
    with right:
        st.image(qr_png(link), caption="Scan to join", width=360)


def _askable() -> list[str]:
    return qw.bank_ids(kinds=ASKABLE_KINDS)


def _question_label(qid: str) -> str:
    q = qw.by_id()[qid]
    return f"{qw.KIND_TITLES[q.kind]} · {q.id}"


def _open(store: ClassStore, code: str, spec: RoundSpec, revote_of: int | None = None) -> None:
    store.open_round(code, spec.encode(), revote_of=revote_of)


def ask_panel(store: ClassStore, code: str, *, first: bool) -> None:
    """Pick a bank question, or a "be the group" round, and open it."""
    box = st.expander(
        "Ask the first question" if first else "Ask the next question",
        expanded=first,
        icon=":material/add_circle:",
    )
    with box.form("cls.ask", border=False):
        st.selectbox("Question", _askable(), format_func=_question_label, key="cls.question")
        st.toggle(
            "Be the group: the room's rewards become one GRPO group",
            key="cls.group",
            help="Each answer is graded into a reward (1/0, partial credit for blanks).",
        )
        st.selectbox("Convention", list(CONVENTIONS), key="cls.convention")
        st.form_submit_button(
            "Open this round",
            key="cls.open",
            type="primary",
            on_click=_open_asked,
            args=(store, code),
        )


def _open_asked(store: ClassStore, code: str) -> None:
    """Open the round the form asks for (a callback: the page then draws it)."""
    s = st.session_state
    spec = RoundSpec(
        s["cls.question"], bool(s["cls.group"]), secrets.randbelow(2**31), s["cls.convention"]
    )
    _open(store, code, spec)


def round_panel(store: ClassStore, code: str, r: Round) -> None:
    """The current round: its question, the buttons of the next step, and what is revealed."""
    spec = decode_spec(r.question)
    question = qw.by_id().get(spec.question_id) if spec else None
    if question is None:
        st.warning("This round's question is not in this server's bank.")
        return
    drill = drill_of(question, spec.seed)
    kind = "Vote again" if r.revote_of else ("Be the group" if spec.group else "Round")
    st.subheader(f"{kind} {r.number}: {qw.KIND_TITLES[question.kind]}")
    view.prompt(question, drill)
    b1, b2 = st.columns(2)
    if r.open:
        if not spec.group:
            b1.button(
                "Close & show the distribution",
                key="cls.show_distribution",
                on_click=_reveal,
                args=(store, code, r.number, "distribution"),
            )
        b2.button(
            "Close & reveal the answer",
            key="cls.reveal",
            type="primary",
            on_click=_reveal,
            args=(store, code, r.number, "answer"),
        )
    elif r.reveal == "distribution":
        if not r.revote_of:
            b1.button(
                "Convince your neighbour: vote again",
                key="cls.revote",
                on_click=_open,
                args=(store, code, spec, r.number),
            )
        b2.button(
            "Reveal the answer",
            key="cls.reveal",
            type="primary",
            on_click=_reveal,
            args=(store, code, r.number, "answer"),
        )
    live_count(store, code, r.number)
    if r.reveal != "none" and not spec.group:
        votes = [n for n in (r.revote_of, r.number) if n]
        for column, n in zip(st.columns(len(votes)), votes, strict=True):
            bars = tuple(distribution(question, drill, store.tally(code, n)))
            title = ("Second vote" if n == r.number else "First vote") if r.revote_of else ""
            figure = distribution_figure(bars, title or "The room's answers", r.reveal == "answer")
            show(figure, key=f"cls.dist.{n}", container=column)
    if r.reveal == "answer":
        if spec.group:
            group_panel(store, code, r, question, drill, spec)
        view.answer_key(question, drill)


def _reveal(store: ClassStore, code: str, number: int, reveal: str) -> None:
    store.close_round(code, number)
    store.set_reveal(code, number, reveal)


@st.fragment(run_every=POLL_SECONDS)
@calm
def live_count(store: ClassStore, code: str, number: int) -> None:
    """How many have answered (the distribution stays hidden): the one polling part."""
    answered = sum(store.tally(code, number).values())
    joined = len(store.students(code))
    st.metric("Answers", f"{answered} of {joined}", border=True)


def group_panel(store, code: str, r: Round, question, drill, spec: RoundSpec) -> None:
    """The room's rewards as one group: K, mean, std, and every student's advantage."""
    answers = store.answers(code, r.number)
    rewards = [grade_answer(question, drill, a.answer).reward for a in answers]
    names = list(CONVENTIONS)
    convention = (
        st.segmented_control(
            "Convention",
            names,
            default=spec.convention,
            key=f"cls.shown_convention.{r.number}",
        )
        or spec.convention
    )
    group = room_group(rewards, convention)
    k, m, s = st.columns(3)
    k.metric("K (students who answered)", group.k)
    m.metric("Mean reward", fmt(group.mean))
    s.metric("Std", fmt(group.std))
    if group.note:
        st.info(group.note)
    if group.k:
        show(advantage_figure(tuple(a.label for a in answers), group), key="cls.advantages")
        right = sum(x == 1 for x in rewards)
        st.markdown(
            f"{plural(right, 'student')} of {group.k} got it right: each of them gets "
            "a positive advantage, the larger the fewer got it right; a wrong answer gets "
            "a negative one. The same formula as in the walkthrough, with the room's numbers:"
        )
        with st.expander("Step by step, on the room's numbers"):
            st.dataframe(
                {
                    "student": [a.label for a in answers],
                    "reward R_i": group.rewards,
                    "R_i − baseline": group.centred,
                    "advantage A_i": group.advantages,
                },
                hide_index=True,
                column_config={
                    name: st.column_config.NumberColumn(format="%.4f")
                    for name in ("R_i − baseline", "advantage A_i")
                },
            )
        conv = get_convention(convention)
        if conv.baseline == "mean" and conv.scale == "group":
            st.latex(
                rf"A_i = \frac{{R_i - {fmt(group.mean)}}}{{{fmt(group.std)} + {fmt(conv.eps)}}}"
            )
        else:
            st.caption(f"{conv.library}: {conv.description}")


def end_panel(store: ClassStore, session: ClassSession) -> None:
    """End the session, and its results as CSV."""
    rounds = store.rounds(session.code)
    convention = st.session_state.get("cls.convention") or "trl"
    rows = result_rows(
        [RoundAnswers(r, store.answers(session.code, r.number)) for r in rounds],
        qw.by_id().get,
        convention,
    )
    left, right = st.columns(2)
    left.download_button(
        "Download the results (CSV)",
        results_csv(rows),
        file_name=f"class-{session.code}.csv",
        mime="text/csv",
        key="cls.csv",
        icon=":material/download:",
    )
    if not session.ended:
        right.button(
            "End the session", key="cls.end", on_click=store.end_session, args=(session.code,)
        )
