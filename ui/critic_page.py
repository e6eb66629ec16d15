"""What the PPO critic page shows besides its figures: the responses editor and link, and
the captions (each chart's text alternative, with its key numbers)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from grpo_core import critic
from grpo_core.critic import MAX_TOKENS, decode_group, encode_group, response_group
from grpo_core.format import fmt, signed
from ui import state

DEFAULT_LENGTHS = [12, 20, 8, 30, 16, 24]
DEFAULT_REWARDS = [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
MAX_RESPONSES = 16
COMPUTE_COLUMNS = {
    "group_size": st.column_config.NumberColumn("K", format="%d"),
    "generated_tokens": st.column_config.NumberColumn("tokens", format="localized"),
    "generation_tflop": st.column_config.NumberColumn("generation TFLOP", format="localized"),
    "update_tflop": st.column_config.NumberColumn("update TFLOP", format="localized"),
    "critic_tflop": st.column_config.NumberColumn("critic TFLOP", format="localized"),
    "total_tflop": st.column_config.NumberColumn("total TFLOP", format="localized"),
    "vs_ppo": st.column_config.NumberColumn("× PPO", format="%.2f"),
}
MEMORY_COLUMNS = {
    "bytes_per_param": st.column_config.NumberColumn("bytes / param", format="%d"),
    "gb": st.column_config.NumberColumn("GB", format="%.1f"),
}


def set_group(lengths, rewards) -> None:
    """Replace the responses (default, link): the editor starts afresh."""
    st.session_state["cr.base"] = {"length": list(lengths), "reward": list(rewards)}
    st.session_state["cr.version"] = st.session_state.get("cr.version", 0) + 1


def reset_group() -> None:
    set_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)


def read_link_once() -> None:
    """The responses start as the default group, or as the link's ``cr.g`` (once a session)."""
    if "cr.base" in st.session_state:
        return
    reset_group()
    if state.CRITIC_GROUP_PARAM in st.query_params:
        try:
            lengths, rewards = decode_group(
                st.query_params[state.CRITIC_GROUP_PARAM], max_responses=MAX_RESPONSES
            )
            set_group(lengths.tolist(), rewards.tolist())
        except ValueError as e:
            st.session_state["cr.link_problem"] = str(e)


def group_editor() -> pd.DataFrame:
    """The editable table of responses (length, outcome reward) and its reset button."""
    edited = st.data_editor(
        pd.DataFrame(st.session_state["cr.base"]),
        key=f"cr.group_{st.session_state['cr.version']}",
        num_rows="dynamic",
        hide_index=True,
        column_config={
            "length": st.column_config.NumberColumn(
                "length (tokens)", min_value=1, max_value=MAX_TOKENS, step=1, format="%d"
            ),
            "reward": st.column_config.NumberColumn("outcome reward", format="%g"),
        },
        width="stretch",
    )
    st.button("Back to the default group", key="cr.reset", on_click=reset_group)
    return edited


def responses(edited: pd.DataFrame):
    """(lengths, outcome) from the editor, kept in the link (``cr.g``); or, with an error
    shown, the default group (the link keeps the last good one)."""
    cells = {c: [None if pd.isna(v) else v for v in edited[c]] for c in ("length", "reward")}
    try:
        lengths, outcome = response_group(
            cells["length"], cells["reward"], max_responses=MAX_RESPONSES
        )
    except ValueError as e:
        st.error(
            f"These responses cannot be used: {e} Showing the default group until it is fixed."
        )
        return response_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)
    if st.query_params.get(state.CRITIC_GROUP_PARAM) != (link := encode_group(lengths, outcome)):
        st.query_params[state.CRITIC_GROUP_PARAM] = link
    return lengths, outcome


def heatmaps_caption(view: critic.CriticComparison, limit: float, **settings) -> str:
    """``settings``: gamma, lam and kl_mean as the page set them."""
    kl = f", KL penalty β = {fmt(view.kl_coef)} on toy KL of mean {fmt(settings['kl_mean'])}"
    return (
        f"Three heatmaps of per-token advantages for {len(view.labels)} responses "
        f"({int(view.mask.sum())} tokens; γ = {fmt(settings['gamma'])}, "
        f"λ = {fmt(settings['lam'])}"
        f"{kl if view.kl_coef else ''}). Each cell is marked + (blue, pushed up) or − "
        f"(vermillion, pushed down); blank cells are padding; the colour range is "
        f"±{fmt(limit)} on all three. GRPO's rows are constant: "
        + ", ".join(f"#{i} {signed(a)}" for i, a in enumerate(view.grpo[:, 0], 1))
        + "."
    )


def error_caption(error) -> str:
    return (
        "Your critic's PPO advantages minus the perfect critic's, over real tokens: "
        f"RMS {fmt(error.rms)}, mean {fmt(error.mean)}, largest {fmt(error.max_abs)}; "
        f"{error.sign_flips} of {error.tokens} tokens change sign."
    )


def lines_caption(view: critic.CriticComparison, pick: int, n: int, reward: float) -> str:
    p, y = view.perfect[pick], view.yours[pick]
    return (
        f"Response {pick + 1} ({n} tokens, reward {fmt(reward)}): PPO with a perfect critic "
        f"gives its tokens {fmt(p[0])} first and {fmt(p[n - 1])} last; with your critic "
        f"{fmt(y[0])} and {fmt(y[n - 1])}; GRPO gives every token {fmt(view.grpo[pick, 0])}."
    )


def memory_caption(held) -> str:
    return (
        f"Stacked bars of GB per model. With the critic: {held.with_critic_gb:,.1f} GB; "
        f"without it (GRPO): {held.without_critic_gb:,.1f} GB. The value model adds "
        f"{held.saved_gb:,.1f} GB, {held.saved_fraction:.0%} of the PPO total."
    )


def compute_caption(steps: pd.DataFrame, prompts: int, mean_length: int) -> str:
    return (
        "Stacked bars of TFLOP per step (generation, policy update, critic) for "
        f"{prompts} prompts of {mean_length} tokens. PPO with one sample and a critic: "
        f"{steps.total_tflop.iloc[0]:,.0f} TFLOP; "
        + "; ".join(
            f"{row.setup}: {row.total_tflop:,.0f} TFLOP ({row.vs_ppo:.1f}× PPO)"
            for row in steps.iloc[1:].itertuples()
        )
        + ". The reference model's forward pass, needed by both, is not counted."
    )
