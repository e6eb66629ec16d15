"""The lecturer's own questions, on the lecturer's screen: type one on the spot (a choice
with 2 to 6 options, or a number with a tolerance), import a question set (TOML in the
bank's format, uploaded or pasted) and export the session's set. Parsing and checking are
``practice.class_questions``'; the set is kept with the session in the store, so every
replica and the projector ask the same questions. A refused question or file is a
message (naming the file's line) and changes nothing; the typed text stays in the form.

Widget keys: ``cls.own_kind``, ``cls.own_prompt``, ``cls.own_opt.<i>``, ``cls.own_right``,
``cls.own_value``, ``cls.own_tol``, ``cls.own_explanation``, ``cls.own_add``,
``cls.own_file``, ``cls.own_paste``, ``cls.own_import``, ``cls.own_export``.
"""

from __future__ import annotations

import streamlit as st

from practice.class_questions import (
    MAX_NOTE_CHARS,
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_PROMPT_CHARS,
    SetProblem,
    decode_set,
    merged,
    next_id,
    set_toml,
    typed_choice,
    typed_number,
)
from practice.class_round import OPTION_LETTERS
from practice.grading import parse_number
from practice.store.base import ClassStore, StoreRefusal
from practice.store.class_rules import MAX_SET_CHARS
from ui import class_round_view as view
from ui import quiz_widgets as qw
from ui.text import markdown_safe

KINDS = ("Choice", "Number")
_MESSAGE = "cls.own_message"
_OPTION_KEYS = tuple(f"cls.own_opt.{i}" for i in range(MAX_OPTIONS))
_FORM_KEYS = ("cls.own_prompt", "cls.own_value", "cls.own_tol", "cls.own_explanation")


def _say(kind: str, text: str, where: str = "type") -> None:
    """Say ``text`` under the button pressed (``where``: "type" or "files"): at the top of
    the panel it sat above the fold of a 1280x720 screen, and the button seemed to do nothing."""
    st.session_state[_MESSAGE] = (kind, text, where)


def _said(where: str) -> None:
    """The message of the last press of a button in ``where``, once."""
    message = st.session_state.get(_MESSAGE)
    if message and message[2] == where:
        del st.session_state[_MESSAGE]
        getattr(st, message[0])(message[1])


def _keep(store: ClassStore, code: str, questions) -> None:
    store.set_question_set(code, set_toml(questions))


def _typed(taken) -> object:
    """The question the form describes; SetProblem in plain words."""
    s = st.session_state
    qid = next_id(taken)
    prompt, explanation = s.get("cls.own_prompt", ""), s.get("cls.own_explanation", "")
    if s.get("cls.own_kind", KINDS[0]) == "Number":
        value = parse_number(s.get("cls.own_value", ""))
        tol = parse_number(s.get("cls.own_tol", ""))
        if value is None or tol is None:
            raise SetProblem(
                "type the right value and the tolerance as numbers, e.g. 0.5 and 0.01."
            )
        return typed_number(qid, prompt, value, tol, explanation)
    options = [s.get(key, "") for key in _OPTION_KEYS]
    right = OPTION_LETTERS.index(s.get("cls.own_right") or "A")
    return typed_choice(qid, prompt, options, right, explanation)


def _add(store: ClassStore, code: str) -> None:
    """Add the typed question to the session's set and pick it for the next round."""
    kept = view.own_questions(store, code)
    try:
        question = _typed([q.id for q in kept])
        _keep(store, code, (*kept, question))
    except (SetProblem, StoreRefusal) as err:
        _say("error", f"Not added: {markdown_safe(str(err))}")
        return
    for key in (*_FORM_KEYS, *_OPTION_KEYS):
        st.session_state[key] = ""
    st.session_state["cls.question"] = question.id
    _say("success", "Added, and picked for the next round: open it above.")


def _import(store: ClassStore, code: str) -> None:
    """Import the uploaded (or pasted) set into the session's; nothing changes on a problem."""
    upload = st.session_state.get("cls.own_file")
    data = upload.getvalue() if upload is not None else st.session_state.get("cls.own_paste", "")
    try:
        text = decode_set(data)
        if not text.strip():
            raise SetProblem("Choose a .toml file or paste a question set first.")
        kept = view.own_questions(store, code)
        questions = merged(kept, text, qw.by_id())
        _keep(store, code, questions)
    except (SetProblem, StoreRefusal) as err:
        _say("error", f"Nothing was imported. {markdown_safe(str(err))}", "files")
        return
    added = len(questions) - len(kept)
    _say(
        "success",
        f"Imported: {added} new question{'s' * (added != 1)}, in the picker above.",
        "files",
    )


def own_panel(store: ClassStore, code: str) -> None:
    """Type a question, import a set, export the session's set."""
    with st.expander(
        "Your own questions: type one, import or export",
        icon=":material/edit_note:",
        key="cls.own_open",  # open or closed is kept by the server: a rerun that redraws
        on_change="rerun",  # the screen above it cannot close it under the lecturer's hands
    ):
        typing, files = st.tabs(["Type a question", "Import or export (TOML)"])
        with typing:
            _type_form(store, code)
        with files:
            _files(store, code)


def _type_form(store: ClassStore, code: str) -> None:
    kind = st.segmented_control("Kind", KINDS, default=KINDS[0], key="cls.own_kind") or KINDS[0]
    with st.form("cls.own_form", border=False):
        st.text_area(
            "Question (Markdown, maths between dollar signs; no HTML)",
            max_chars=MAX_PROMPT_CHARS,
            key="cls.own_prompt",
            height=90,
        )
        if kind == "Number":
            left, right = st.columns(2)
            left.text_input("Right value", key="cls.own_value", placeholder="e.g. 0.71")
            right.text_input("Accepted within ±", key="cls.own_tol", placeholder="e.g. 0.01")
        else:
            cells = st.columns(2)
            for i, key in enumerate(_OPTION_KEYS):
                cells[i % 2].text_input(
                    f"Option {OPTION_LETTERS[i]}" + (" (optional)" if i >= 2 else ""),
                    max_chars=MAX_OPTION_CHARS,
                    key=key,
                )
            st.radio(
                "Right option",
                list(OPTION_LETTERS[:MAX_OPTIONS]),
                horizontal=True,
                key="cls.own_right",
            )
        st.text_input(
            "Explanation after the reveal (optional)",
            max_chars=MAX_NOTE_CHARS,
            key="cls.own_explanation",
        )
        st.form_submit_button(
            "Add to this session",
            key="cls.own_add",
            type="primary",
            on_click=_add,
            args=(store, code),
        )
    _said("type")


def _files(store: ClassStore, code: str) -> None:
    st.file_uploader("A question set (.toml)", type=["toml"], key="cls.own_file")
    st.text_area("… or paste one", key="cls.own_paste", max_chars=MAX_SET_CHARS, height=90)
    left, right = st.columns(2)
    left.button("Import", key="cls.own_import", on_click=_import, args=(store, code))
    own = view.own_questions(store, code)
    right.download_button(
        f"Export this session's {len(own)} question{'s' * (len(own) != 1)}",
        set_toml(own),
        file_name=f"class-{code}-questions.toml",
        mime="application/toml",
        key="cls.own_export",
        icon=":material/download:",
        disabled=not own,
    )
    _said("files")
    st.caption(
        "The bank's format (content/questions.toml): [[question]] items of kind choice or "
        "redflag with [[question.options]], or kind number with answer and tol."
    )
