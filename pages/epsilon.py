"""Epsilon lab: what eps does to near ties, all-equal groups, and float32 arithmetic."""

import streamlit as st

from grpo_core import CONVENTIONS, advantage_trace
from grpo_core.eps import (
    LIBRARY_EPS,
    all_equal_outcomes,
    eps_grid,
    eps_regime,
    eps_steps,
    eps_sweep_frame,
    regime_bounds,
    regime_tour,
)
from grpo_core.format import cell, fmt, tex, tex_term
from grpo_core.precision import precision_report
from grpo_core.sentences import precision_summary
from ui import controls, lab, narrate, page, state
from ui import epsilon_page as ep
from ui.figures import epsilon as figures
from ui.figures.common import show

NEAR_TIE = "1, 1.00000012, 1, 1"  # the notes' example: std 6e-8
BIG = "1000000, 1000000.001, 1000000.002, 1000000.003"
TRL_EPS = CONVENTIONS["trl"].eps
REGIME_WORDS = {
    "z-score": "ordinary z-score (std ≫ eps)",
    "transition": "in between: eps and the std share the denominator",
    "damped": "damped toward (R − mean) / eps (std ≪ eps)",
    "no spread": "no spread: every advantage is 0",
}


@st.cache_data(max_entries=64, show_spinner=False)
def sweep(rewards: tuple[float, ...], numbers: tuple[int, ...]):
    """The group's advantages across the eps grid, its std (ddof=1) and regime bounds."""
    frame = eps_sweep_frame(rewards, eps_grid(10), answers=numbers)
    std = float(frame["std"].iloc[0])
    return frame, std, regime_bounds(std) if std > 0 else None


def step_regime(tour: list[tuple[str, float]], current: float, direction: int) -> None:
    """Move the eps slider to the next regime's example eps, up or down."""
    values = [value for _, value in tour]
    ahead = (
        [v for v in values if v > current] if direction > 0 else [v for v in values if v < current]
    )
    if ahead:
        st.session_state["eps.value"] = ahead[0] if direction > 0 else ahead[-1]
        st.session_state["eps.zero"] = False


page.start()
st.title("Epsilon lab")
st.markdown(lab.words("epsilon", "intro"))
narrate.listen(lab.words("epsilon", "intro"))

left, right = st.columns([4, 1], vertical_alignment="bottom")
slider_eps = left.select_slider(
    "eps (log scale)",
    options=list(eps_steps()),
    value=TRL_EPS,
    format_func=fmt,
    key="eps.value",
    help=lab.words("epsilon", "eps_help"),
    bind="query-params",
)
zero = right.checkbox("eps = 0", key="eps.zero", bind="query-params")
eps = 0.0 if zero else float(slider_eps)
if zero:
    st.warning(lab.words("epsilon", "zero_warning"))

# 1. A near tie ---------------------------------------------------------------------------
st.subheader("1 · A near tie")
st.markdown(lab.words("epsilon", "near_tie"))
typed = lab.rewards_input(
    "Rewards of one group", "eps.group", NEAR_TIE, help="Numbers separated by commas."
)
rewards = tuple(typed.groups[0]) if typed.groups else ()
numbers = tuple(typed.answers[0]) if typed.answers else ()  # an item left out keeps its place
if len(rewards) < 2:
    st.info("Type at least two rewards to see how eps changes their advantages.")
else:
    frame, std, bounds = sweep(rewards, numbers)
    trace = advantage_trace(rewards, convention="zscore", ddof=1, eps=eps)
    at_eps = eps_sweep_frame(rewards, [eps], answers=numbers)
    regime = eps_regime(std, eps)
    m1, m2, m3 = st.columns(3)
    m1.metric("Group std (ddof=1)", fmt(std))
    m2.metric("Your eps", fmt(eps))
    m3.metric("Regime at your eps", regime)
    tour = regime_tour(std)
    if tour:
        smaller, where, larger = st.columns([3, 5, 3], vertical_alignment="center")
        smaller.button(
            "← Smaller eps",
            key="eps.prev",
            on_click=step_regime,
            args=(tour, eps, -1),
            disabled=eps <= tour[0][1],
            shortcut="PageUp",
            help="Page Up (or a clicker)",
        )
        where.caption(
            "Step through the regimes: "
            + " → ".join(f"{name} (eps {fmt(value)})" for name, value in tour)
        )
        larger.button(
            "Larger eps →",
            key="eps.next",
            on_click=step_regime,
            args=(tour, eps, 1),
            disabled=eps >= tour[-1][1],
            shortcut="PageDown",
            help="Page Down (or a clicker)",
        )
    st.markdown(f"At eps = {fmt(eps)} this group is in the **{REGIME_WORDS[regime]}** regime.")
    show(
        figures.eps_sweep_figure(
            frame,
            std=std,
            bounds=bounds,
            library_eps=LIBRARY_EPS,
            chosen=None if zero else at_eps,
        ),
        key="eps.chart",
    )
    st.caption(ep.sweep_caption(std, bounds, LIBRARY_EPS, eps, zero))
    st.markdown(lab.words("epsilon", "regimes"))
    st.markdown(f"**The group at eps = {fmt(eps)}**")
    ep.near_tie_table(at_eps, trace)

# 2. An all-equal group -------------------------------------------------------------------
st.subheader("2 · An all-equal group")
st.markdown(lab.words("epsilon", "all_equal"))
c1, c2 = st.columns(2)
value = c1.number_input(
    "Every answer's reward", -1e6, 1e6, 1.0, format="%g", key="eps.tie", bind="query-params"
)
k = c2.number_input("Answers in the group (K)", 2, state.MAX_K, 4, key="eps.k", bind="query-params")
tie = advantage_trace([float(value)] * int(k), convention="zscore", ddof=1, eps=eps)
r0, mean, std0 = tex_term(tie.rewards[0], 6), tex_term(tie.mean[0], 6), tex(tie.std[0])
denominator = rf"{std0} + {tex(eps)}"
if zero:
    result = r"\frac{0}{0}\ \text{(undefined)}"
    st.warning(lab.words("epsilon", "zero_over_zero"))
else:
    result = f"\\frac{{0}}{{{tex(tie.denominator[0])}}} = {tex(tie.advantages[0])}"
    st.success(
        f"Every advantage is exactly {fmt(tie.advantages[0])}: no learning signal from this "
        "prompt this step."
    )
st.latex(
    rf"A_i = \frac{{R_i - \bar R}}{{\sigma + \varepsilon}}"
    rf" = \frac{{{r0} - {mean}}}{{{denominator}}} = {result}"
)
outcomes = all_equal_outcomes(float(value), int(k))
ep.all_equal_table(outcomes)
st.caption(
    f"{int(k)} answers, each scored {fmt(value)}: what every convention and a float32 trainer "
    "give each answer. " + lab.words("epsilon", "all_equal_try")
)

# 3. float32 vs float64 -------------------------------------------------------------------
st.subheader("3 · float32 vs float64")
st.markdown(lab.words("epsilon", "float32"))
typed = lab.rewards_input(
    "Rewards to compute in both precisions", "eps.big", BIG, help="Numbers separated by commas."
)
big, big_numbers = (typed.groups[0], typed.answers[0]) if typed.groups else ([], [])
if len(big) < 2:
    st.info("Type at least two rewards to compare float32 with float64.")
else:
    try:
        report = precision_report(big, eps=eps)
    except ValueError as e:
        st.warning(f"These rewards cannot be compared: {e}")
    else:
        m1, m2, m3 = st.columns(3)
        m1.metric("float32 spacing at the largest reward", fmt(report.float32_spacing))
        m2.metric(
            "Different rewards, float64 → float32",
            f"{report.distinct_float64} → {report.distinct_float32}",
        )
        m3.metric("Relative error of float32", cell(report.relative_error))
        st.markdown(precision_summary(report, big_numbers))
        ep.precision_table(report.to_frame(big_numbers))
        st.caption(
            f"The same group at eps = {fmt(eps)}, ddof = 1, computed in float64 and, step by "
            "step as torch does, in float32."
        )

st.markdown("**Share this view**: the link reproduces eps and the rewards typed here.")
controls.share_link()
