"""Zero-spread groups and DAPO's dynamic sampling: how often a group teaches nothing,
and what filtering and resampling do to a batch."""

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core.binary import group_pass_rates, zero_spread_probability
from grpo_core.dynamic_sampling import DIFFICULTY_POOLS, difficulty_pool, simulate_dynamic_sampling
from grpo_core.format import fmt, tex
from ui import controls, lab, narrate, page, state
from ui.figures import sampling as figures
from ui.figures.common import show

REFERENCE_K = (2, 4, 8, 16, 32, 64)
K_AXIS = np.arange(1, state.MAX_K + 1)
P_AXIS = group_pass_rates(100)  # 0, 0.01, ..., 1
POOL_SIZE = 1000
MAX_ROUNDS = 10


@st.cache_data(max_entries=64, show_spinner=False)
def simulate(kind: str, group_size: int, batch: int, seed: int):
    rng = np.random.default_rng(seed)
    pool = difficulty_pool(kind, POOL_SIZE, rng)
    return simulate_dynamic_sampling(pool, group_size, batch, rng, max_resample_rounds=MAX_ROUNDS)


page.start()
st.title("Zero-spread groups & DAPO")
st.markdown(lab.words("dynamic_sampling", "intro"))
narrate.listen(lab.words("dynamic_sampling", "intro"))

# 1. How often a group is all-equal -------------------------------------------------------
st.subheader("1 · How often all K answers agree")
c1, c2 = st.columns([1, 3])
group_size = int(
    c1.number_input("Answers (K)", 2, state.MAX_K, 8, key="dyn.k", bind="query-params")
)
p = float(c2.slider("Pass rate p", 0.0, 1.0, 0.9, 0.01, key="dyn.p", bind="query-params"))
chance = float(zero_spread_probability(p, group_size))
st.latex(
    rf"P(\text{{all equal}}) = p^K + (1-p)^K = {tex(p)}^{{{group_size}}} "
    rf"+ (1 - {tex(p)})^{{{group_size}}}"
    rf" = {tex(chance)}"
)
st.markdown(
    f"At p = {fmt(p)}, **{chance:.1%}** of groups of {group_size} answers are all right or "
    "all wrong: "
    "zero spread, zero advantages, no learning signal."
)
shown_k = sorted({*REFERENCE_K, group_size})
by_p = {f"K = {n}": zero_spread_probability(P_AXIS, n) for n in shown_k}
left, right = st.columns(2)
show(
    figures.zero_spread_figure(
        P_AXIS, by_p, x_title="pass rate p", title="Against p", highlight=f"K = {group_size}"
    ),
    key="dyn.by_p",
    container=left,
)
left.caption(
    f"P(all answers equal) against pass rate p for K = {', '.join(map(str, shown_k))} "
    f"(thick: K = {group_size}). Every curve is 100% at p = 0 and p = 1 and lowest at p = 0.5 "
    f"({float(zero_spread_probability(0.5, group_size)):.2%} for K = {group_size})."
)
by_k = {f"p = {fmt(q)}": zero_spread_probability(q, K_AXIS) for q in dict.fromkeys((p, 0.5))}
show(
    figures.zero_spread_figure(
        K_AXIS, by_k, x_title="answers per prompt K", title="Against K", highlight=f"p = {fmt(p)}"
    ),
    key="dyn.by_k",
    container=right,
)
right.caption(
    f"P(all answers equal) against K from 1 to {state.MAX_K}, at p = {fmt(p)} (thick) and "
    f"p = 0.5. At p = {fmt(p)}: {float(zero_spread_probability(p, 16)):.1%} for K = 16, "
    f"{float(zero_spread_probability(p, 64)):.1%} for K = 64."
)
st.markdown(lab.words("dynamic_sampling", "by_k"))

# 2. A batch, filtered and refilled -------------------------------------------------------
st.subheader("2 · A batch, filtered and refilled (DAPO)")
st.markdown(lab.words("dynamic_sampling", "simulation"))
c1, c2, c3 = st.columns([3, 1, 1])
kind = c1.selectbox(
    "Prompt difficulties",
    list(DIFFICULTY_POOLS),
    format_func=lambda name: DIFFICULTY_POOLS[name].title,
    key="dyn.pool",
    bind="query-params",
)
batch = int(c2.number_input("Prompts per batch", 8, 512, 64, key="dyn.batch", bind="query-params"))
seed = int(c3.number_input("Seed", 0, 2**31 - 1, 0, key="dyn.seed", bind="query-params"))
st.caption(
    f"{DIFFICULTY_POOLS[kind].lesson} A pool of {POOL_SIZE} prompts; each batch draws "
    f"{batch} of them and samples K = {group_size} right/wrong answers for each."
)
sim = simulate(kind, group_size, batch, seed)
stages = sim.summary()
m1, m2, m3 = st.columns(3)
m1.metric(
    "Groups with signal, first batch",
    f"{sim.signal_before} of {sim.batch_size}",
    help="Groups whose K rewards are not all equal.",
)
m2.metric(
    "Share with signal: sampled / expected",
    f"{sim.signal_fraction:.0%} / {sim.expected_signal_fraction:.0%}",
    help="Expected: 1 − the pool's mean of p^K + (1 − p)^K.",
)
extra = f"{sim.resample_rounds} extra batch{'' if sim.resample_rounds == 1 else 'es'}"
m3.metric(
    "Answers generated",
    f"{stages['answers_generated'].iloc[0]:,} → {stages['answers_generated'].iloc[-1]:,}",
    help=f"{extra} of {batch} prompts were sampled to refill.",
)
if sim.after_resample < sim.batch_size:
    st.warning(
        f"After {MAX_ROUNDS} extra batches only {sim.after_resample} of {sim.batch_size} groups "
        "with signal were found: almost every prompt in this pool is always or never solved. "
        "DAPO would keep sampling; a trainer caps the rounds, as here."
    )
left, right = st.columns(2)
show(figures.stages_figure(stages), key="dyn.stages", container=left)
left.caption(
    f"Groups in the batch before filtering ({sim.batch_size}, of which {sim.signal_before} "
    f"with signal), after dropping the all-equal ones ({sim.after_filter}) and after "
    f"resampling ({sim.after_resample}, all with signal, {extra})."
)
show(
    figures.pass_rates_figure(
        pd.DataFrame({"p": sim.batch_pass_rates, "signal": sim.batch_signal}),
        sim.final_pass_rates,
    ),
    key="dyn.pass_rates",
    container=right,
)
right.caption(
    "Histograms of the prompts' pass rates: the first batch (blue: groups with signal; grey, "
    "hatched: all-equal groups that filtering drops) and the refilled batch."
)
st.markdown(lab.words("dynamic_sampling", "shift"))
st.dataframe(
    stages.rename(
        columns={
            "with_signal": "with signal",
            "without_signal": "all-equal",
            "answers_generated": "answers generated",
        }
    ),
    hide_index=True,
    key="dyn.table",
)

st.markdown("**Share this view**: the link reproduces K, p, the pool and the seed.")
controls.share_link()
