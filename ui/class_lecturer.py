"""The lecturer's screen of class mode: the controls, on a window or a phone the room
never sees (``?class=<code>&screen=lecturer``, in a browser that holds the lecturer's
right: ``ui.class_access``).

Peer instruction in four steps, each a button: open a round (a live count, the
distribution hidden) -> close it and show the distribution -> optionally vote again,
both votes side by side -> reveal the answer and its explanation ("be the group": the
room's rewards as one GRPO group). The projector screen (``ui.class_projector``) follows
by itself. Ending the session asks for confirmation first.

Widget keys: ``cls.question``, ``cls.group``, ``cls.convention``, ``cls.lock`` (inputs);
``cls.open``, ``cls.show_distribution``, ``cls.revote``, ``cls.reveal``, ``cls.end`` (asks),
``cls.end_confirm``, ``cls.end_cancel``, ``cls.csv``.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping

import streamlit as st

from content.citations import cite
from grpo_core import CONVENTIONS, get_convention
from grpo_core.format import fmt, plural, tex
from practice.class_link import CODE_PARAM, LECTURER, SCREEN_PARAM, lecturer_query, projector_query
from practice.class_peer import confidence_split, next_step, transitions
from practice.class_qr import qr_png
from practice.class_results import RoundAnswers, result_rows, results_csv
from practice.class_round import (
    ASKABLE_KINDS,
    RoundSpec,
    grade_answer,
    new_spec,
)
from practice.store.base import ClassSession, ClassStore, Round
from ui import class_access as access
from ui import class_own as own
from ui import class_projector as room
from ui import class_roster as roster
from ui import class_round_view as view
from ui import present
from ui import quiz_widgets as qw

_ENDING = "cls.ending"


CHART_PX = 220
"""The lecturer's vote charts' height: the question, the step buttons, the count and the
distribution fit a 1280x720 window presenting (tests/e2e/test_class_lecture.py measures)."""
_CSS = """
<style>
  .st-key-cls-lecturer [data-testid="stVerticalBlock"] { gap: 0.45rem; }
  .st-key-cls-lecturer [data-testid="stMarkdownContainer"] p { margin-bottom: 0.15rem; }
  /* an alert pulls its text's last margin (1rem) back: pull back only what is left */
  .st-key-cls-lecturer [data-testid="stAlert"] [data-testid="stMarkdownContainer"] {
    margin-bottom: -0.15rem !important; }
  .st-key-cls-lecturer h1 { font-size: 1.25rem !important; padding: 0.1rem 0 !important; }
  .st-key-cls-lecturer [data-testid="stMetric"] { padding: 0.25rem 0.75rem !important;
    min-height: 0 !important; height: auto !important; }
  .st-key-cls-lecturer [data-testid="stMetric"] > div { gap: 0 !important; }
  .st-key-cls-lecturer [data-testid="stMetricValue"] > div { font-size: 1.6rem !important; }
  .st-key-cls-lecturer [data-testid="stMetricLabel"] p { font-size: 0.9rem !important; }
</style>
"""


def header(store: ClassStore, session: ClassSession, secret: bytes) -> None:
    """One row: which session, where the room looks (the projector screen), how to take
    control on a phone, and closing the session to new students."""
    st.html(_CSS)
    title, project, phone, lock = st.columns([3, 3, 3, 3], vertical_alignment="center")
    title.title(
        f"Lecturer screen · {session.code}",
        help="Keep this window off the projector: it holds the controls. Project the "
        "projector screen instead; it follows every step you take here.",
        anchor=False,
    )
    project.link_button(
        "Open the projector screen",
        f"{room.base_url()}?{projector_query(session.code)}",
        icon=":material/cast:",
        type="primary",
        width="stretch",
    )
    with phone.popover("Control from your phone", icon=":material/phone_iphone:"):
        if present.active():  # this window may be the one projected: the tag stays off it
            st.caption(
                "Presentation mode is on, so the QR code that hands your controls to a phone "
                "is hidden. Leave presentation mode on your own screen to see it."
            )
        else:
            st.caption(
                "Scan with your own phone: it gets these controls. Private: never show this "
                "on the projector. Once opened, the link leaves the phone's address bar."
            )
            query = lecturer_query(session.code, session.created, secret=secret)
            st.image(qr_png(f"{room.base_url()}?{query}", scale=6), width=220)
    if not session.ended:
        lock.toggle(
            "Closed to new students",
            value=store.joins_locked(session.code),
            key="cls.lock",
            on_change=_lock,
            args=(store, session.code),
            help="Students who joined keep their seats; the projector says joining is closed.",
        )


_WRAPPED = re.compile(r"\\(?:mathrm|text|operatorname|mathbf)\{([^}]*)\}")
_GREEK = {r"\varepsilon": "ε", r"\epsilon": "ε", r"\sigma": "σ", r"\mu": "μ"}
PREVIEW_CHARS = 90
"""How much of a question's text the picker shows."""


def plain_math(text: str) -> str:
    """Markdown with inline LaTeX as a plain line a selectbox can show: ``$\\mathrm{std}(R)
    + \\varepsilon$`` -> ``std(R) + ε``."""
    text = _WRAPPED.sub(r"\1", text)
    for command, letter in _GREEK.items():
        text = text.replace(command, letter)
    text = re.sub(r"\\[A-Za-z]+", "", text)
    return re.sub(r"[$*{}]", "", text)


COUNTDOWNS = (None, 10, 20, 30, 45, 60, 90, 120, 180, 300)
"""The times to answer a lecturer may pick (seconds; None: no countdown)."""

SHORTEST_COUNTDOWN_ENV = "GRPO_SHORTEST_COUNTDOWN"
"""Whole seconds, 1 to 9: a shorter first choice of countdown. Only the browser tests'
app server sets it, so that the test of a round closed by its countdown waits a few
seconds, not 10; unset (every real deployment), the choices are COUNTDOWNS."""


def countdowns(env: Mapping[str, str] = os.environ) -> tuple[int | None, ...]:
    """COUNTDOWNS, with ``env[SHORTEST_COUNTDOWN_ENV]``'s seconds first when that is a
    whole number from 1 to 9 (anything else is ignored)."""
    text = env.get(SHORTEST_COUNTDOWN_ENV, "").strip()
    if re.fullmatch(r"[1-9]", text):
        return (None, int(text), *COUNTDOWNS[1:])
    return COUNTDOWNS


def question_label(q) -> str:
    """The picker's line for a question: whose, its kind, the start of its text and its id."""
    text = " ".join(plain_math(q.prompt).split())
    more = "…" if len(text) > PREVIEW_CHARS else ""
    whose = "Yours · " if q.id not in qw.by_id() else ""
    return f"{whose}{view.kind_title(q)} · {text[:PREVIEW_CHARS]}{more} ({q.id})"


def countdown_label(seconds: int | None) -> str:
    if seconds is None:
        return "No countdown"
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60}:{seconds % 60:02d} min"


def _open(store: ClassStore, code: str, spec: RoundSpec, revote_of: int | None = None) -> None:
    """Open a round of ``spec`` with the countdown picked in the ask form."""
    seconds = st.session_state.get("cls.seconds")
    store.open_round(code, spec.encode(), revote_of=revote_of, seconds=seconds)


def ask_panel(store: ClassStore, code: str, *, first: bool) -> None:
    """Pick a bank question or one of the lecturer's own, a "be the group" round and a
    countdown, and open it."""
    questions = view.asked(store, code)
    mine = [q.id for q in view.own_questions(store, code)]
    box = st.expander(
        "Ask the first question" if first else "Ask the next question",
        expanded=first,
        icon=":material/add_circle:",
        key="cls.ask_open" if first else "cls.ask_next_open",  # open or closed is kept by
        on_change="rerun",  # the server: no rerun that redraws the screen above closes it
    )
    with box.form("cls.ask", border=False):
        st.selectbox(
            "Question",
            mine + qw.bank_ids(kinds=ASKABLE_KINDS),
            format_func=lambda qid: question_label(questions[qid]),
            key="cls.question",
        )
        st.selectbox(
            "Time to answer (the round closes by itself)",
            countdowns(),
            format_func=countdown_label,
            key="cls.seconds",
        )
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
    question = view.asked(store, code)[s["cls.question"]]
    spec = new_spec(question, bool(s["cls.group"]), secrets.randbelow(2**31), s["cls.convention"])
    _open(store, code, spec)


def round_panel(store: ClassStore, session: ClassSession, r: Round) -> None:
    """The current round: its question, the buttons of the next step, and what is revealed."""
    code = session.code
    if (shown := view.shown_round(r, store, code)) is None:
        return
    spec, question, drill, order = shown
    asked, steps = st.columns([3, 2], gap="medium")
    with asked:
        st.markdown(f"**{room.round_title(r, question, spec.group)}**")
        short = all(len(o.text) <= room.SHORT_OPTION_CHARS for o in question.options)
        view.prompt(question, drill, order, columns=2 if short else 1)
    with steps:
        step_buttons(store, code, r, spec)
        room.live(store, code, room.state_of(r, session), r.number, r.closes if r.open else None)
    if r.reveal != "none" and not spec.group:
        charts, notes = st.columns([3, 2], gap="medium")
        with charts:
            room.vote_charts(store, code, r, question, drill, order, height=CHART_PX)
        with notes:
            peer_panel(store, code, r, question, drill)
    if r.reveal == "answer":
        if spec.group:
            group_panel(store, code, r, question, drill, spec)
        with st.expander("The answer and its explanation (as on the projector)"):
            view.answer_key(question, drill, order)


def step_buttons(store: ClassStore, code: str, r: Round, spec: RoundSpec) -> None:
    """The buttons of peer instruction's next step, one above the other."""
    if r.open or r.reveal == "none":  # open, or closed by its countdown
        close = "Close & " if r.open else "Time is up: "
        if not spec.group:
            st.button(
                f"{close}show the distribution",
                key="cls.show_distribution",
                on_click=_reveal,
                args=(store, code, r.number, "distribution"),
                width="stretch",
            )
        st.button(
            f"{close}reveal the answer",
            key="cls.reveal",
            type="primary",
            on_click=_reveal,
            args=(store, code, r.number, "answer"),
            width="stretch",
        )
    elif r.reveal == "distribution":
        if not r.revote_of:
            st.button(
                "Convince your neighbour: vote again",
                key="cls.revote",
                on_click=_open,
                args=(store, code, spec, r.number),
                width="stretch",
            )
        st.button(
            "Reveal the answer",
            key="cls.reveal",
            type="primary",
            on_click=_reveal,
            args=(store, code, r.number, "answer"),
            width="stretch",
        )


def _rights(store: ClassStore, code: str, number: int, question, drill) -> dict[str, bool]:
    """Student token -> whether their answer to round ``number`` is right."""
    return {
        a.token: grade_answer(question, drill, a.answer).correct
        for a in store.answers(code, number)
    }


def confidence_panel(store: ClassStore, code: str, number: int, question, drill) -> None:
    """How sure the right and the wrong students said they were (this screen only)."""
    votes = [
        (a.confidence, grade_answer(question, drill, a.answer).correct)
        for a in store.answers(code, number)
    ]
    rows = confidence_split(votes)
    if not rows:
        return
    lines = "".join(f"| {level} | {right} | {wrong} |\n" for level, right, wrong in rows)
    st.markdown(f"| how sure | right | wrong |\n|---|---|---|\n{lines}")


RULE_SOURCE = "[the usual rule of thumb](claim:peer-instruction-rule)"
GAIN_SOURCE = "[Normalised gain](claim:normalised-gain)"


def peer_panel(store: ClassStore, code: str, r: Round, question, drill) -> None:
    """This screen only: after a first vote, the next step the share right suggests;
    after the re-vote, how each student moved and the normalised gain; then how sure the
    right and the wrong said they were."""
    now = _rights(store, code, r.number, question, drill)
    if not r.revote_of:
        st.info(
            f"**Next step** ({cite(RULE_SOURCE)}). {next_step(sum(now.values()), len(now))}",
            icon=":material/lightbulb:",
        )
    else:
        moved = transitions(_rights(store, code, r.revote_of, question, drill), now)
        st.markdown(
            "| first → second vote | students |\n|---|---|\n"
            f"| right → right | {moved.right_right} |\n| wrong → right | {moved.wrong_right} |\n"
            f"| right → wrong | {moved.right_wrong} |\n| wrong → wrong | {moved.wrong_wrong} |"
        )
        gain = (
            "undefined (everyone was right already)" if moved.gain is None else fmt(moved.gain, 2)
        )
        st.caption(
            f"{moved.n} voted twice: {round(100 * moved.pre)} % right, then "
            f"{round(100 * moved.post)} %. {cite(GAIN_SOURCE)} "
            f"(post − pre) / (1 − pre): {gain}."
        )
    confidence_panel(store, code, r.number, question, drill)


def _reveal(store: ClassStore, code: str, number: int, reveal: str) -> None:
    store.close_round(code, number)
    store.set_reveal(code, number, reveal)


def group_panel(store, code: str, r: Round, question, drill, spec: RoundSpec) -> None:
    """The room as one group, with every student's name (this screen only), under the
    round's convention or another one tried here (the room keeps seeing the round's)."""
    convention = (
        st.segmented_control(
            f"Convention (this screen only; the room sees {spec.convention})",
            list(CONVENTIONS),
            default=spec.convention,
            key=f"cls.shown_convention.{r.number}",
        )
        or spec.convention
    )
    group, answers = room.group_summary(store, code, r, question, drill, convention, named=True)
    if not group.k:
        return
    right = sum(x == 1 for x in group.rewards)
    st.markdown(
        f"{plural(right, 'student')} of {group.k} got it right: each of them gets "
        "a positive advantage, the larger the fewer got it right; a wrong answer gets "
        "a negative one. The same formula as in the walkthrough, with the room's numbers:"
    )
    with st.expander("Step by step, on the room's numbers"):
        st.dataframe(
            {
                "student": [a.label for a in answers],
                "reward Rᵢ": group.rewards,
                "Rᵢ − baseline": group.centred,
                "advantage Aᵢ": group.advantages,
            },
            hide_index=True,
            column_config={
                name: st.column_config.NumberColumn(format="%.4f")
                for name in ("Rᵢ − baseline", "advantage Aᵢ")
            },
        )
    conv = get_convention(convention)
    if conv.baseline == "mean" and conv.scale == "group":
        st.latex(rf"A_i = \frac{{R_i - {tex(group.mean)}}}{{{tex(group.std)} + {tex(conv.eps)}}}")
    else:
        st.caption(f"{conv.library}: {conv.description}")


def _ask_to_end(ask: bool) -> None:
    st.session_state[_ENDING] = ask


def _end(store: ClassStore, code: str) -> None:
    st.session_state[_ENDING] = False
    store.end_session(code)


def end_panel(store: ClassStore, session: ClassSession) -> None:
    """The results as CSV, and ending the session (after a confirmation)."""
    rounds = store.rounds(session.code)
    rows = result_rows(
        [RoundAnswers(r, store.answers(session.code, r.number)) for r in rounds],
        view.asked(store, session.code).get,
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
    if session.ended:  # what next: another session, at one press
        right.info("This session has ended; its results stay downloadable.")
        right.button(
            "Start a new class session",
            key="cls.restart",
            icon=":material/co_present:",
            type="primary",
            on_click=start_session,
            args=(store,),
        )
    elif not st.session_state.get(_ENDING):
        right.button("End the session…", key="cls.end", on_click=_ask_to_end, args=(True,))
    else:
        with right.container(border=True):
            st.warning(
                "End the session for everyone? No more rounds or answers; "
                "the results stay downloadable."
            )
            yes, no = st.columns(2)
            yes.button(
                "Yes, end it",
                key="cls.end_confirm",
                type="primary",
                on_click=_end,
                args=(store, session.code),
            )
            no.button("Cancel", key="cls.end_cancel", on_click=_ask_to_end, args=(False,))


def start_session(store: ClassStore) -> None:
    """Start a class session: this tab holds its lecturer's right and shows its screen."""
    new = store.create_session()
    access.grant(new)
    st.query_params.from_dict({CODE_PARAM: new.code, SCREEN_PARAM: LECTURER})


def _lock(store: ClassStore, code: str) -> None:
    store.lock_joins(code, bool(st.session_state["cls.lock"]))


_TOP = """<script>
document.querySelector('[data-testid="stMain"]')?.scrollTo({top: 0, behavior: 'smooth'});
</script>"""
_SHOWN = "cls.top"


def to_the_top(step) -> None:
    """Scroll the lecturer screen to its top when the round or its step changed: the step
    was taken further down (the question picker), the live moment is at the top."""
    if st.session_state.get(_SHOWN) != step:
        st.session_state[_SHOWN] = step
        st.html(_TOP, unsafe_allow_javascript=True, width="content")


def lecturer_view(store: ClassStore, session: ClassSession, secret: bytes) -> None:
    """Everything the lecturer controls, in the order of a lecture: the live moment (the
    round, its next step, the count and the distribution) first, within one screen."""
    with st.container(key="cls-lecturer"):
        header(store, session, secret)
        current = store.current_round(session.code)
        if current is not None:
            round_panel(store, session, current)
        else:
            room.live(store, session.code, room.state_of(None, session), None)
        if not session.ended:
            ask_panel(store, session.code, first=current is None)
            own.own_panel(store, session.code)
            roster.roster_panel(store, session)
        end_panel(store, session)
        if current is not None:  # last: its element takes no room above the live moment
            to_the_top((current.number, current.reveal))
