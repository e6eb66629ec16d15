"""What the four lab pages share: their words (content/lab.toml) and typed rewards.

Every number comes from grpo_core (its text from grpo_core.format); this module only reads
and shows.
"""

from __future__ import annotations

import streamlit as st

import content
from content.citations import cite
from grpo_core.parsing import MAX_TEXT_CHARS, ParsedRewards, ascii_minus, parse_reward_text
from ui import state
from ui.text import markdown_safe

CONTENT = content.read_toml("lab.toml")


def words(page: str, name: str, **numbers) -> str:
    """A paragraph of content/lab.toml, its claim links and figures rendered (``cite``)
    and its {placeholders} filled."""
    text = cite(CONTENT[page][name])
    return text.format(**numbers) if numbers else text


def _ascii_minus_typed(key: str) -> None:
    """A typed "−" as the ASCII "-": the box's URL parameter, so its share link, keeps the
    links' one minus sign (``ui.state.ascii_minus_in_link``)."""
    typed = st.session_state[key]
    if ascii_minus(typed) != typed:
        st.session_state[key] = ascii_minus(typed)


def rewards_input(
    label: str, key: str, default: str, *, help: str, one_prompt: bool = True
) -> ParsedRewards:
    """A text box of rewards ("1, 0, 1; 2, 3"), kept in the URL under ``key``.

    Returns the rewards of each typed prompt (items that are not numbers left out) and
    each one's place in its prompt (``answers``: an item left out keeps later numbers).
    What is wrong is shown as a warning that names the item, and the rest still counts.
    """
    typed = st.text_input(
        label,
        value=default,
        key=key,
        help=help,
        max_chars=MAX_TEXT_CHARS,
        bind="query-params",
        on_change=_ascii_minus_typed,
        args=(key,),
    )
    try:
        parsed = parse_reward_text(
            typed,
            max_prompts=1 if one_prompt else state.MAX_PROMPTS,
            max_answers=state.MAX_K,
        )
    except ValueError as e:
        st.warning(f"{label}: {e}. Shorten the list to use it.")
        return ParsedRewards(groups=[], errors=[], blanks=0, answers=[])
    for error in parsed.errors:
        where = f"reward {error.answer}"
        if not one_prompt:
            where = f"prompt {error.prompt}, {where}"
        message = markdown_safe(error.message)  # it quotes what was typed
        st.warning(f"{label} · {where}: {message}. It is left out until it is fixed.")
    return parsed
