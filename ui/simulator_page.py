"""What the training simulator shows besides its figures: estimator labels in captions, the
raw gradient variance with why it misleads, and a run within the server's budget."""

from __future__ import annotations

import streamlit as st

from grpo_core.estimators import ESTIMATORS
from grpo_core.simulate import SimConfig, SimResult, simulate_cached
from practice import limits
from ui import client, prose
from ui.figures import simulator as figures
from ui.figures.common import show


def run(config: SimConfig) -> SimResult | None:
    """``simulate_cached(config)``; a setting this server has not run lately spends the
    ``SIMULATE`` budget first, and past it the page says when to try again (None)."""
    size = simulate_cached.cache_info().maxsize
    if not client.done_lately("simulate", config):
        if not client.allowed(limits.SIMULATE):
            return None
        client.remember("simulate", config, size)
    with st.spinner("Training every estimator on every seed…"):
        return simulate_cached(config)


def label(name: str) -> str:
    return ESTIMATORS[name].label


def per_estimator(table, cell) -> str:
    """'GRPO 81%; RLOO 79%; ...': one cell per row of ``estimator_table``."""
    return "; ".join(f"{label(row.estimator)} {cell(row)}" for row in table.itertuples())


def raw_variance(config, table, curves) -> None:
    """The raw per-sample gradient variance in an expander, with why it misleads."""
    with st.expander("The raw gradient variance, and why it misleads"):
        if config.group_size > 1:
            noisiest = table.sort_values("grad_variance", kind="stable").estimator
            st.markdown(
                prose.section("critic.md", "simulator-variance").format(
                    lowest=label(noisiest.iloc[0]), highest=label(noisiest.iloc[-1])
                )
            )
            log_noise = st.toggle("Log scale", value=True, key="sim.log")
            noise = figures.curves_figure(
                curves,
                "grad_variance",
                title="Variance of the per-sample gradient terms",
                y_title="variance (mean over prompts, seeds)",
                log=bool(log_noise),
            )
            show(noise, key="sim.noise")
            st.caption(
                "Variance of each step's gradient estimate, from the spread of its K per-sample "
                "terms. Mean over training: "
                + per_estimator(table, lambda r: f"{r.grad_variance:.3g}")
                + ". GRPO's std division rescales its advantages, so its variance is on another "
                "scale."
            )
        else:
            st.info("With K = 1 there is no spread between samples to measure gradient noise from.")
