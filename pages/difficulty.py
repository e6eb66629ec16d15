"""Difficulty bias and Dr. GRPO: what dividing by the std does to right/wrong rewards."""

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core import advantage_trace, group_advantages
from grpo_core.binary import (
    binary_advantages,
    difficulty_bias_frame,
    dr_grpo_binary_advantages,
    group_pass_rates,
    pass_rate_grid,
    sampled_binary_groups,
    std_weight,
)
from grpo_core.format import cell, fmt, plural, signed, tex
from grpo_core.sentences import explain_difficulty_bias
from ui import controls, lab, narrate, page, state
from ui.figures import difficulty as figures
from ui.figures.common import show

CURVE_POINTS = 99  # p = 0.01 .. 0.99
SAMPLED_RATES = 19  # true pass rates 0.05 .. 0.95
GROUPS_PER_RATE = 80  # 19 x 80 groups of up to 64 answers stay within a sampler's 100,000


@st.cache_data(max_entries=64, show_spinner=False)
def curves(group_size: int, ddof: int):
    """The closed forms on a grid of pass rates: weight 1/std, and every advantage."""
    p = pass_rate_grid(CURVE_POINTS)
    weight = pd.DataFrame({"p": p, "weight": std_weight(p, ddof=ddof, group_size=group_size)})
    return weight, difficulty_bias_frame(p, ddof=ddof, group_size=group_size)


@st.cache_data(max_entries=64, show_spinner=False)
def sampled(group_size: int, ddof: int, seed: int):
    rng = np.random.default_rng(seed)
    return sampled_binary_groups(
        pass_rate_grid(SAMPLED_RATES), group_size, rng, GROUPS_PER_RATE, ddof=ddof
    )


page.start()
st.title("Difficulty bias & Dr. GRPO")
st.markdown(lab.words("difficulty", "intro"))
narrate.listen(lab.words("difficulty", "intro"))

c1, c2, c3, c4 = st.columns([1, 3, 2, 1], vertical_alignment="bottom")  # ddof fits a slide
group_size = int(
    c1.number_input("Answers (K)", 2, state.MAX_K, 16, key="dif.k", bind="query-params")
)
ddof = c2.segmented_control(
    "std divides by",
    [1, 0],
    format_func=lambda d: "K − 1 (ddof=1, trainers)" if d else "K (ddof=0)",
    default=1,  # the app's default convention, TRL (torch.std)
    required=True,
    key="dif.ddof",
    bind="query-params",
)
right = c3.select_slider(
    "Right answers in the group",
    options=list(range(1, group_size)),
    value=1,
    format_func=lambda j: f"{j} of {group_size}",
    key="dif.right",
    bind="query-params",
)
seed = int(c4.number_input("Seed", 0, 2**31 - 1, 0, key="dif.seed", bind="query-params"))

p = float(group_pass_rates(group_size)[right])
group = [1.0] * right + [0.0] * (group_size - right)
trace = advantage_trace(group, convention="zscore", ddof=ddof)
weight = float(std_weight(p, ddof=ddof, group_size=group_size))
grpo_right, grpo_wrong = binary_advantages(p, ddof=ddof, group_size=group_size)
trl_right = float(group_advantages(group, convention="trl")[0])
dr_right, dr_wrong = dr_grpo_binary_advantages(p)

# 1. The group you chose ------------------------------------------------------------------
st.subheader(f"1 · {plural(right, 'right answer')} out of {group_size}")
m = st.columns(4)
m[0].metric("Pass rate p", fmt(p))
m[1].metric("std of the group", fmt(trace.std[0]))
m[2].metric("Weight 1 / std", fmt(weight))
m[3].metric("Dr. GRPO's weight", "1")
m = st.columns(4)
m[0].metric("GRPO, right answer", signed(grpo_right))
m[1].metric("GRPO, wrong answer", signed(grpo_wrong))
m[2].metric("Dr. GRPO, right answer", signed(dr_right))
m[3].metric("Dr. GRPO, wrong answer", signed(dr_wrong))
st.latex(
    rf"A_{{\text{{right}}}} = \frac{{1 - {tex(p)}}}{{{tex(trace.std[0])}}} = "
    rf"{tex(grpo_right)}, \qquad "
    rf"A_{{\text{{wrong}}}} = \frac{{0 - {tex(p)}}}{{{tex(trace.std[0])}}} = {tex(grpo_wrong)}"
)
st.caption(
    f"GRPO's advantages of this group (mean {fmt(trace.mean[0])}, std {fmt(trace.std[0])}, "
    f"ddof={ddof}, eps 0); Dr. GRPO keeps the numerators, 1 − p and 0 − p."
)
st.info(
    f"**std divides by K − 1 here, as in the rest of the app** (TRL's default, torch.std). "
    f"The textbook closed form $1/\\sqrt{{p(1-p)}}$ in the prose divides by K (ddof = 0): "
    f"switch above to see it; ddof = 1 makes every weight $\\sqrt{{(K-1)/K}}$ = "
    f"{fmt(((group_size - 1) / group_size) ** 0.5)} times as large. The playground's TRL "
    "also adds eps = 1e-4 "
    f"to the std, which moves the last digits: {signed(trl_right)} for this right answer."
    if ddof
    else "**Textbook view: std divides by K (ddof = 0)**, the closed form in the prose. The "
    "trainers and the rest of this app divide by K − 1 (ddof = 1): switch back above to "
    "compare with the playground.",
    icon=":material/functions:",
)

# 2. The weight against p -----------------------------------------------------------------
st.subheader("2 · The weight 1/std against the pass rate")
st.markdown(lab.words("difficulty", "weight"))
weight_curve, bias = curves(group_size, ddof)
samples = sampled(group_size, ddof, seed)
show(
    figures.weight_figure(
        weight_curve, samples.groups, chosen_p=p, chosen_weight=weight, group_size=group_size
    ),
    key="dif.weight_chart",
)
st.caption(
    "Weight 1/std (y) against pass rate p (x): "
    f"{fmt(float(std_weight(0.5, ddof=ddof, group_size=group_size)))} "
    f"at p = 0.5, {fmt(float(weight_curve['weight'].iloc[0]))} at p = 0.01. Rings: "
    f"{len(samples.groups)} sampled groups of K = {group_size} with spread (seed {seed}), "
    "each at its "
    f"own pass rate; your group: diamond, weight {fmt(weight)}. Dotted: Dr. GRPO's weight 1."
)
with st.expander("The sampled groups, pass rate by pass rate"):
    st.dataframe(
        {
            "true pass rate": [fmt(x) for x in samples.summary["p"]],
            "all-equal, sampled": [f"{x:.1%}" for x in samples.summary["zero_spread_fraction"]],
            "all-equal, p^K + (1−p)^K": [
                f"{x:.1%}" for x in samples.summary["zero_spread_probability"]
            ],
            "mean weight of groups with spread": [
                cell(x, nan="–") for x in samples.summary["mean_weight"]
            ],
            "closed form at the true p": [cell(x) for x in samples.summary["analytic_weight"]],
        },
        hide_index=True,
        key="dif.samples",
    )
    st.caption(
        f"{GROUPS_PER_RATE} groups at each true pass rate. Near p = 0 or 1 most groups are "
        "all-equal and carry no signal; the few with spread have p̂ = 1/K or 1 − 1/K, so their "
        "weight stays below the closed form at the true p."
    )

# 3. Advantages against p -----------------------------------------------------------------
st.subheader("3 · A right and a wrong answer, GRPO vs Dr. GRPO")
st.markdown(lab.words("difficulty", "advantages"))
show(figures.binary_advantages_figure(bias, chosen_p=p), key="dif.advantages_chart")
st.caption(
    "Advantage (y) of a right answer (blue, above 0) and a wrong one (vermillion, below 0) "
    f"against pass rate p (x); solid GRPO (ddof={ddof}, K = {group_size}), dashed Dr. GRPO. "
    "At your "
    f"p = {fmt(p)} (green line): GRPO {signed(grpo_right)} and "
    f"{signed(grpo_wrong)}, Dr. GRPO {signed(dr_right)} and "
    f"{signed(dr_wrong)}."
)

# 4. Why it matters -----------------------------------------------------------------------
st.subheader("4 · The bias, in plain words")
st.markdown(
    "\n".join(f"- {s}" for s in explain_difficulty_bias((p,), ddof=ddof, group_size=group_size))
)
st.markdown(lab.words("difficulty", "bias"))

st.markdown("**Share this view**: the link reproduces K, ddof, the group and the seed.")
controls.share_link()
