"""What the epsilon lab shows besides its figures and controls: its tables and captions."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from grpo_core.advantages import AdvantageTrace
from grpo_core.format import as_typed, cell, fmt


def sweep_caption(std: float, bounds, library_eps: dict, eps: float, zero: bool) -> str:
    """The eps sweep chart's text alternative."""
    libraries = ", ".join(f"{name} {fmt(value)}" for name, value in library_eps.items())
    shading = (
        f"shaded: z-score where eps < {fmt(bounds[0])}, damped where eps > {fmt(bounds[1])}"
        if bounds
        else "no shading: the rewards are all equal, so every advantage is 0 at every eps"
    )
    yours = (
        "eps = 0 lies off the log axis, to the left of 1e-12."
        if zero
        else f"Green line and diamonds: your eps {fmt(eps)}."
    )
    return (
        f"Each answer's advantage (y) against eps from 1e-12 to 1 (x, log scale); answers with "
        f"equal rewards share a line. Group std {fmt(std)}; {shading}. Dashed lines: the "
        f"libraries' eps ({libraries}). " + yours
    )


def near_tie_table(at_eps: pd.DataFrame, trace: AdvantageTrace) -> None:
    st.dataframe(
        {
            "answer": at_eps["answer"],
            "reward": [as_typed(r) for r in at_eps["reward"]],
            "R − mean": [cell(c) for c in trace.centred],
            "z-score (eps → 0)": [cell(z) for z in at_eps["z_score"]],
            "advantage at your eps": [cell(a) for a in at_eps["advantage"]],
            "(R − mean) / eps": [cell(d) for d in at_eps["damped_limit"]],
        },
        hide_index=True,
        key="eps.table",
    )


def all_equal_table(outcomes: pd.DataFrame) -> None:
    st.dataframe(
        {
            "convention or setting": outcomes["setting"],
            "eps": [fmt(e) for e in outcomes["eps"]],
            "advantage": [cell(a, nan="NaN (0/0)") for a in outcomes["advantage"]],
            "why": outcomes["why"],
        },
        hide_index=True,
        key="eps.tie_table",
    )


def precision_table(table: pd.DataFrame) -> None:
    st.dataframe(
        {
            "answer": table["answer"],
            "reward": [as_typed(r) for r in table["reward"]],
            "as float32 stores it": [as_typed(r) for r in table["reward_float32"]],
            "A in float64": [cell(a) for a in table["advantage_float64"]],
            "A in float32": [cell(a) for a in table["advantage_float32"]],
            "float32 − float64": [cell(e) for e in table["error"]],
        },
        hide_index=True,
        key="eps.precision_table",
    )
