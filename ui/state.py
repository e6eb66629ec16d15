"""State shared by pages, kept in ``st.session_state`` under these documented keys,
and mirrored in the URL so a copied link reproduces the view.

Session keys
- ``rewards_grid``: list of prompts, each a list of K text cells (what the grid shows).
- ``grid_version``: int; bumped when the grid is replaced (sample, resize, link),
  so the editor starts fresh instead of re-applying old edits.
- ``settings.convention``, ``settings.custom``, ``settings.ddof``, ``settings.eps``,
  ``settings.scale``, ``settings.clip``: the advantage settings (see ``Settings``).
- ``link_read``: the URL was read once for this session.

URL parameters, all named here: ``r`` rewards (``1_0_1~0.5_2``; a cell left out is an
empty answer, ``1__1``, so the answers after it keep their numbers), ``c`` convention, and,
when set by hand, ``ddof``, ``eps``, ``scale``, ``clip`` (``LINK_PARAMS``); ``present``
presentation mode; ``s`` the guide's section; ``cr.g`` the critic page's responses; ``id`` a
certificate to verify; class mode's ``class`` join code (``practice.class_link``). A widget
bound to the URL (``bind="query-params"``) adds its own key (``eps.value``, ``cr.bias``).
Parameters in ``PRIVATE_PARAMS`` belong to one reader and never go into a share link.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st
from streamlit.errors import StreamlitAPIException

from grpo_core import CONVENTIONS, get_convention
from grpo_core.conventions import SCALES
from grpo_core.format import shortest
from grpo_core.links import decode_rewards, encode_rewards
from grpo_core.parsing import (
    CellError,
    ParsedRewards,
    ascii_minus,
    parse_reward,
    parse_reward_grid,
)
from practice.class_link import PRIVATE_PARAMS as CLASS_PRIVATE_PARAMS
from ui.text import markdown_safe

MAX_PROMPTS, MAX_K, MIN_K = 8, 64, 2
DEFAULT_GRID = [
    ["1", "0", "1", "1", "0", "0", "1", "0"],
    ["0.9", "0.2", "0.5", "0.7", "0.1", "0.4", "0.8", "0.3"],
]
LINK_PARAMS = ("r", "c", "ddof", "eps", "scale", "clip")
"""The URL parameters _read_link reads and checks itself (with a message)."""
QUIZ_PROGRESS_PARAM = "p"
PRESENT_PARAM = "present"
GUIDE_SECTION_PARAM = "s"
CRITIC_GROUP_PARAM = "cr.g"
CERTIFICATE_PARAM = "id"
LEARNER_PARAM = "learner"
LEARNER_SESSION_KEY = "learner.key"
"""Session state: the learner key in use (``ui.learner``), kept out of every share link."""
PRIVATE_PARAMS = frozenset({QUIZ_PROGRESS_PARAM, LEARNER_PARAM, *CLASS_PRIVATE_PARAMS})
"""URL parameters that belong to the reader, not to the view: the quiz's progress ``p``,
the learner key ``learner``, and class mode's lecturer link, student token and unsent vote.
A share link shows the view, never the sharer's progress or identity."""
SETTING_DEFAULTS = {
    "settings.convention": "trl",
    "settings.custom": False,
    "settings.ddof": 1,
    "settings.eps": "0.0001",
    "settings.scale": "group",
    "settings.clip": "",
}


@dataclass(frozen=True)
class Settings:
    """How advantages are computed: a convention, optionally with parameters set by hand."""

    convention: str
    custom: bool
    ddof: int
    eps: float
    scale: str
    clip: float | None

    def kwargs(self) -> dict:
        """Keyword arguments for grpo_core.group_advantages / advantage_trace."""
        if not self.custom:
            return {"convention": self.convention}
        return {
            "convention": self.convention,
            "ddof": self.ddof,
            "eps": self.eps,
            "scale": self.scale,
            "clip": math.inf if self.clip is None else self.clip,
        }


def init() -> None:
    """Set missing shared keys and apply the URL once per session (see ui.page.start)."""
    ascii_minus_in_link(st.query_params)
    first_run = not st.session_state.get("link_read")
    st.session_state["link.incoming"] = st.query_params.to_dict() if first_run else None
    drop_non_finite_numbers(st.query_params)
    for key, value in SETTING_DEFAULTS.items():
        st.session_state.setdefault(key, value)
    st.session_state.setdefault("rewards_grid", [list(row) for row in DEFAULT_GRID])
    st.session_state.setdefault("grid_version", 0)
    if not st.session_state.get("link_read"):
        st.session_state["link_read"] = True
        problems = _read_link(st.query_params)
        if problems:
            st.session_state["link_problems"] = problems


def link_values_ignored() -> list[str]:
    """The parameters of the link this session opened with that the page could not use.

    Streamlit drops a value a bound widget cannot take (text for a number, a value out of
    range) from the URL while the page runs; compared at the end of the first run, what
    is gone was ignored. Empty on every later run.
    """
    incoming = st.session_state.get("link.incoming")
    if not incoming:
        return []
    return [
        key
        for key, text in incoming.items()
        if key not in PRIVATE_PARAMS  # the reader's own, taken out of the URL on purpose
        and key not in st.query_params  # gone: ignored, or equal to the default,
        and not _same_value(st.session_state.get(key), text)  # which the widget now holds
    ]


def _same_value(value, text: str) -> bool:
    """Does a widget's value read as the link's text (so the link's value was used)?"""
    if value is None:
        return False
    if str(value) == text:
        return True
    try:
        return float(value) == float(text)
    except (TypeError, ValueError):
        return False


def ascii_minus_in_link(query) -> None:
    """A link's values with the ASCII "-", before any widget reads them: the links this app
    writes use it (a URL keeps it readable; "−" is %E2%88%92 there), and a link pasted with
    the page's own minus sign "−" (copied from a chart, a table or a formula) must open the
    same view. Streamlit's widgets bound to the URL read a number with float(), which
    refuses "−2": the reward box of the epsilon lab showed its default and named the
    value ignored. A parameter a widget on the page holds is the widget's own value."""
    for key in list(query):
        text = query.get(key)
        if not isinstance(text, str) or ascii_minus(text) == text:
            continue
        try:
            query[key] = ascii_minus(text)
        except StreamlitAPIException:  # bound to a widget on the page: its own value
            continue
        _set_initial_value(key, ascii_minus(text))


def drop_non_finite_numbers(query) -> None:
    """Refuse URL parameters (other than the ones _read_link checks) whose value reads as an
    infinite or NaN number ("inf", "-inf", "nan", "1e999", 400 nines), before any widget
    reads them. Streamlit seeds an int number_input bound to the URL with int(float(value)),
    which raises OverflowError on those instead of falling back to the default; no widget of
    this app takes a non-finite number. The parameter leaves the URL and the values the
    page was opened with (which the bound widgets read), so the widget shows its default
    and ``link_values_ignored`` names the parameter. An empty value goes too: a required
    segmented control bound to the URL returns None for ``?dif.ddof=``.

    A parameter bound to a widget that is already on the page stays: its value is what the
    reader typed there (a rewards box emptied, or "inf" in it), the widget's to judge, and
    Streamlit refuses to delete it."""
    for key in list(query):
        if key in LINK_PARAMS:
            continue
        text = query.get(key)
        try:
            unusable = text == "" or not math.isfinite(float(text))
        except (TypeError, ValueError, OverflowError):
            continue
        if unusable:
            try:
                del query[key]
            except StreamlitAPIException:  # bound to a widget on the page: its own value
                continue
            _forget_initial_value(key)


def _set_initial_value(key: str, value: str) -> None:
    """Replace ``key``'s value in the query string the session opened with, which widgets
    bound to the URL seed themselves from (see ``_forget_initial_value``)."""
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as params:
        if key in params._initial_query_params:
            params._initial_query_params[key] = [value]


def _forget_initial_value(key: str) -> None:
    """Drop ``key`` from the query string the session opened with: a widget bound to the URL
    seeds itself from that copy, not from st.query_params (streamlit 1.67,
    runtime/state/session_state.py, _handle_query_param_binding)."""
    from streamlit.runtime.state.session_state_proxy import get_session_state

    with get_session_state().query_params() as params:
        params._initial_query_params.pop(key, None)


def link_problems() -> list[str]:
    """What was wrong with the link this session was opened with (shown once)."""
    return st.session_state.pop("link_problems", [])


def grid() -> list[list[str]]:
    return st.session_state["rewards_grid"]


def set_grid(columns: list[list[str]]) -> None:
    """Replace the rewards (sampling, resizing, a link): the editor starts afresh."""
    st.session_state["rewards_grid"] = [list(c) for c in columns]
    st.session_state["grid_version"] += 1


def parsed_rewards() -> ParsedRewards:
    return parse_reward_grid(grid())


def settings() -> Settings:
    """The current settings; a bad eps or clip typed by hand falls back (see settings_errors)."""
    s = st.session_state
    conv = get_convention(s["settings.convention"])
    eps, clip = _number(s["settings.eps"], conv.eps), _number(s["settings.clip"], None)
    return Settings(
        convention=conv.name,
        custom=bool(s["settings.custom"]),
        ddof=int(s["settings.ddof"]),
        eps=eps if eps is not None and eps >= 0 else conv.eps,
        scale=s["settings.scale"],
        clip=clip if clip is not None and clip > 0 else None,
    )


def settings_errors() -> list[str]:
    """Plain-words problems with the eps and clip typed by hand, in the setting's words (the
    reward parser's own messages speak of rewards), quoting what was typed."""
    s = st.session_state
    if not s["settings.custom"]:
        return []
    errors = []
    eps = _number_or_nan(s["settings.eps"])
    if eps is None or not eps >= 0:
        errors.append(
            f"eps must be a number ≥ 0 such as 1e-4, not {_typed(s['settings.eps'])}; "
            "using the convention's."
        )
    clip = _number_or_nan(s["settings.clip"])
    if clip is not None and not clip > 0:
        errors.append(
            f"clip must be a positive number, or blank for no clamp, not "
            f"{_typed(s['settings.clip'])}; no clamp applied."
        )
    return errors


def _number_or_nan(text) -> float | None:
    """The finite number typed, None when blank, NaN when it is not one."""
    try:
        return parse_reward(text)
    except ValueError:
        return math.nan


def _typed(text) -> str:
    """What was typed, quoted and escaped for a message (at most 20 characters), or "blank"."""
    text = str(text or "").strip()
    if not text:
        return "blank"
    return f"'{markdown_safe(text[:20])}{'…' if len(text) > 20 else ''}'"


def shareable(params: dict[str, str]) -> dict[str, str]:
    """``params`` without the ``PRIVATE_PARAMS``: what a share link may carry."""
    return {key: value for key, value in params.items() if key not in PRIVATE_PARAMS}


def write_link(*, with_rewards: bool = True, with_settings: bool = True) -> list[CellError]:
    """Mirror what the page shows in the URL: the playground's rewards and the advantage
    settings, each when asked for; the ``LINK_PARAMS`` not asked for are removed.

    The rewards' link keeps every valid cell: a cell that is not a number is left out,
    as the pages leave it out, and returned so the page can say so. A prompt with no
    valid reward is written empty and comes back as an empty column.
    """
    parsed = parsed_rewards()
    params = {}
    if with_rewards and any(parsed.groups):
        params["r"] = encode_rewards(parsed.groups, parsed.answers)  # answers keep their rows
    if with_settings:
        params["c"] = st.session_state["settings.convention"]
        s = settings()
        if s.custom:
            params.update(ddof=str(s.ddof), eps=shortest(s.eps), scale=s.scale)
            if s.clip is not None:
                params["clip"] = shortest(s.clip)
    for key in LINK_PARAMS:  # leave other pages' keys alone
        if key in params and st.query_params.get(key) != params[key]:
            st.query_params[key] = params[key]
        elif key not in params and key in st.query_params:
            del st.query_params[key]
    return parsed.errors if "r" in params else []


def read_link_choice(key: str, choices) -> None:
    """Set ``st.session_state[key]`` from the URL's parameter ``key`` when a link brought a
    value this session did not write itself (see ``write_link_values``) and it names one
    of ``choices`` (compared as text); any other value is ignored."""
    text = st.query_params.get(key)
    if text is None or text == st.session_state.get(f"link.wrote.{key}"):
        return
    by_text = {str(choice): choice for choice in choices}
    if text in by_text:
        st.session_state[key] = by_text[text]


def write_link_values(*keys: str) -> None:
    """Mirror the session values of ``keys`` in the URL, each under its own key (values a
    page keeps itself, without a widget bound to the URL), and remember what was written
    so that ``read_link_choice`` does not read it back over a newer value."""
    for key in keys:
        value = st.session_state[f"link.wrote.{key}"] = str(st.session_state[key])
        if st.query_params.get(key) != value:
            st.query_params[key] = value


def _read_link(query) -> list[str]:
    problems = []
    if "r" in query:
        groups, error = decode_rewards(query["r"], max_prompts=MAX_PROMPTS, max_answers=MAX_K)
        if error:
            problems.append(f"Rewards: {error}. Showing the default rewards.")
        else:
            width = max(len(g) for g in groups)  # a prompt with no rewards stays blank
            set_grid([[_cell(r) for r in g] + [""] * (width - len(g)) for g in groups])
    if "c" in query:
        if query["c"] in CONVENTIONS:
            st.session_state["settings.convention"] = query["c"]
        else:
            problems.append(
                f"Convention: {query['c'][:40]!r} is not one of {', '.join(CONVENTIONS)}; "
                "using trl."
            )
    custom = {k: query[k] for k in ("ddof", "eps", "scale", "clip") if k in query}
    if custom:
        st.session_state["settings.custom"] = True
        if custom.get("ddof", "1") in ("0", "1"):
            st.session_state["settings.ddof"] = int(custom.get("ddof", "1"))
        else:
            problems.append("ddof must be 0 or 1; using 1.")
        if custom.get("scale", "group") in SCALES:
            st.session_state["settings.scale"] = custom.get("scale", "group")
        else:
            problems.append(f"scale must be one of {', '.join(SCALES)}; using group.")
        for key in ("eps", "clip"):
            if key in custom:
                st.session_state[f"settings.{key}"] = custom[key][:40]
    return problems


def _cell(reward: float | None) -> str:
    """A link's reward as the grid's text; an empty answer (a cell left out) stays blank."""
    return "" if reward is None else shortest(reward)


def _number(text, fallback):
    try:
        value = parse_reward(text)
    except ValueError:
        return fallback
    return fallback if value is None else value


@dataclass(frozen=True)
class Batch:
    """The rewards ready for grpo_core: flat values with a prompt number per reward."""

    rewards: list[float]
    prompt_ids: list[int]
    notes: list[str]
    """What was left out, and why, in plain words."""
    answer_ids: list[int]
    """Per reward, its answer's number: the cell's row in the grid (1-based), kept when a
    cell above it is left out."""

    def numbers(self, members) -> list[int]:
        """The answer numbers of the rewards at flat positions ``members`` (a trace's
        ``members(g)``), in that order."""
        return [self.answer_ids[m] for m in members]


def current_batch(kwargs: dict) -> Batch:
    """The grid's valid rewards; bad cells, empty prompts and refused lone rewards left out."""
    parsed = parsed_rewards()
    notes = [f"{e} That cell is left out until it is fixed." for e in parsed.errors]
    conv = get_convention(kwargs["convention"])
    rewards, ids, answers = [], [], []
    for p, (group, numbers) in enumerate(zip(parsed.groups, parsed.answers, strict=True), start=1):
        if not group:
            notes.append(f"Prompt {p} has no rewards yet.")
            continue
        if len(group) == 1 and conv.refuses_singleton:
            notes.append(
                f"Prompt {p} has only one reward (K=1), and {conv.name} needs at least "
                "2 answers per prompt: it is left out. (verl passes a lone reward through.)"
            )
            continue
        rewards += group
        ids += [p] * len(group)
        answers += numbers
    return Batch(rewards, ids, notes, answers)
