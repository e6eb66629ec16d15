"""Training simulator: six ways to turn rewards into advantages, trained on the same bandit
with the same samples budget; accuracy, gradient noise, zero-spread groups, critic error."""

import streamlit as st

from grpo_core import CONVENTIONS
from grpo_core.simulate import (
    ESTIMATORS,
    REWARD_KINDS,
    SimConfig,
    accuracy_band_limits,
    critic_error_bands,
    estimator_table,
    simulate_cached,
    step_curves,
    summary_sentences,
)
from ui import charts, controls, critic_views, narrate, state
from ui.critic_views import SHORT_LABELS

DEFAULTS = SimConfig()
BAND_LABELS = {"min-max": "min–max over seeds", "std": "mean ± 1 std over seeds"}


# Figures cached by the (hashable) config and display choice: st.cache_resource hands back
# the same figure object (never mutated), so a display widget rebuilds only its own chart.
@st.cache_resource(max_entries=32, show_spinner=False)
def accuracy_chart(config: SimConfig, band: str):
    bands = accuracy_band_limits(simulate_cached(config), band)
    title = "Accuracy over training steps"
    return critic_views.accuracy_figure(bands, lower="lower", upper="upper", title=title)


@st.cache_resource(max_entries=32, show_spinner=False)
def curve_chart(config: SimConfig, column: str, log: bool):
    curves = step_curves(simulate_cached(config))
    if column == "grad_variance":
        return critic_views.curves_figure(
            curves, column, title="Gradient-estimate variance",
            y_title="variance (mean over prompts, seeds)", log=log,
        )  # fmt: skip
    return critic_views.curves_figure(
        curves, column, title="Groups with zero spread", y_title="fraction of prompts", pct=True
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def critic_chart(config: SimConfig):
    bands = critic_error_bands(simulate_cached(config))
    figure = critic_views.critic_error_figure(bands, title="The PPO critic's value error")
    return bands, figure


state.init()
st.title("Training simulator")
st.markdown(critic_views.section("simulator"))
narrate.listen(critic_views.section("simulator"))

# 1. Settings -----------------------------------------------------------------------------
st.subheader("1 · Settings")
estimators = st.multiselect(
    "Estimators (one switch each)", list(ESTIMATORS), default=list(DEFAULTS.estimators),
    format_func=SHORT_LABELS.get, key="sim.est", bind="query-params",
)  # fmt: skip
with st.expander("What each estimator does"):
    st.markdown("\n".join(f"- **{SHORT_LABELS[k]}**: {v}" for k, v in ESTIMATORS.items()))
c1, c2, c3, c4 = st.columns(4)
convention = c1.selectbox(
    "GRPO convention", list(CONVENTIONS), key="sim.conv", bind="query-params",
    help="Which trainer's formula (see the Library conventions page).",
)  # fmt: skip
group_size = c2.number_input(
    "Samples per prompt K (every estimator)", 1, 32, DEFAULTS.group_size,
    key="sim.k", bind="query-params",
)  # fmt: skip
steps = c3.number_input("Training steps", 10, 400, DEFAULTS.steps, 10, key="sim.steps",
                        bind="query-params")  # fmt: skip
num_seeds = c4.number_input("Seeds", 1, 10, DEFAULTS.num_seeds, key="sim.seeds",
                            bind="query-params")  # fmt: skip
c1, c2, c3, c4, c5 = st.columns(5)
lr = c1.number_input(
    "Policy learning rate", 0.0, 10.0, DEFAULTS.lr, 0.05, key="sim.lr", bind="query-params"
)
critic_lr = c2.number_input(
    "Critic learning rate", 0.0, 2.0, DEFAULTS.critic_lr, 0.05, key="sim.clr",
    bind="query-params", help="In (0, 1]: 1 jumps straight to the batch's mean reward.",
)  # fmt: skip
difficulty = c3.slider(
    "Difficulty (log-odds of failing)", -2.0, 5.0, DEFAULTS.difficulty, 0.25,
    key="sim.diff", bind="query-params",
    help="2.0: about 12% of answers are correct at the start.",
)  # fmt: skip
reward = c4.selectbox("Reward", REWARD_KINDS, key="sim.reward", bind="query-params")
seed = c5.number_input("Seed", 0, 1_000_000, DEFAULTS.seed, key="sim.seed", bind="query-params")

try:
    config = SimConfig(
        estimators=tuple(estimators),
        convention=convention,
        group_size=int(group_size),
        steps=int(steps),
        num_seeds=int(num_seeds),
        lr=float(lr),
        critic_lr=float(critic_lr),
        difficulty=float(difficulty),
        reward=reward,
        seed=int(seed),
    )
except ValueError as e:
    st.error(f"These settings cannot run: {e}")
    st.markdown("**Share this view**")
    controls.share_link()
    st.stop()

with st.spinner("Training every estimator on every seed…"):
    result = simulate_cached(config)

# 2. Results ------------------------------------------------------------------------------
st.subheader("2 · Results")
table = estimator_table(result)
d1, d2 = st.columns(2)
band = d1.segmented_control(
    "Band around the mean over seeds", list(BAND_LABELS), default="min-max", required=True,
    key="sim.band", bind="query-params",  # the option names are the URL values
)  # fmt: skip
log_noise = d2.toggle("Log scale for gradient noise", value=True, key="sim.log")

charts.show(accuracy_chart(config, band or "min-max"), key="sim.accuracy")
st.caption(
    f"Accuracy (probability of a correct answer, mean over {config.num_prompts} prompts) "
    f"against training step, mean over {config.num_seeds} seeds with a "
    f"{BAND_LABELS[band or 'min-max']} band; each estimator has its own colour, dash and "
    "marker. Final accuracy: "
    + "; ".join(
        f"{SHORT_LABELS[r.estimator]} {r.final_accuracy:.0%} ({r.final_min:.0%}–{r.final_max:.0%})"
        for r in table.itertuples()
    )
    + "."
)

left, right = st.columns(2)
with left:
    if config.group_size > 1:
        charts.show(curve_chart(config, "grad_variance", bool(log_noise)), key="sim.noise")
        st.caption(
            "Variance of each step's gradient estimate, from the spread of its K per-sample "
            "terms. Mean over training: "
            + "; ".join(
                f"{SHORT_LABELS[r.estimator]} {r.grad_variance:.3g}" for r in table.itertuples()
            )
            + ". GRPO's std division rescales its advantages, so its variance is on another "
            "scale."
        )
    else:
        st.info("With K = 1 there is no spread between samples to measure gradient noise from.")
with right:
    charts.show(curve_chart(config, "zero_spread", False), key="sim.zero")
    st.caption(
        f"Fraction of prompts whose {config.group_size} rewards were all equal (no signal for "
        "a group baseline), mean over seeds, first step → last: "
        + "; ".join(
            f"{SHORT_LABELS[r.estimator]} {r.zero_spread_first:.0%} → {r.zero_spread_last:.0%}"
            for r in table.itertuples()
        )
        + "."
    )

if result.critic_value_error is not None:
    critic, figure = critic_chart(config)
    charts.show(figure, key="sim.critic")
    st.caption(
        "Root mean square over prompts of the critic's V minus the policy's true expected "
        f"reward, mean over seeds with the min–max band: {critic['mean'].iloc[0]:.3f} at the "
        f"first step, {critic['mean'].iloc[-1]:.3f} at the last."
    )
else:
    st.caption("Add the PPO critic to the estimators to see its value error.")

st.subheader("3 · Reading")
st.markdown("\n".join(f"- {s}" for s in summary_sentences(result)))
st.info(critic_views.section("simulator-honesty"))

st.markdown("**Share this view**: the link reproduces these settings and this run.")
controls.share_link()
