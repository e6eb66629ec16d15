"""Training simulator: six ways to turn rewards into advantages, trained on the same bandit
with the same samples budget; accuracy, how well each step points uphill, zero-spread groups,
critic error."""

import streamlit as st

from grpo_core import CONVENTIONS
from grpo_core.estimators import ESTIMATORS
from grpo_core.sim_report import (
    accuracy_band_limits,
    critic_error_bands,
    estimator_table,
    step_curves,
    summary_sentences,
)
from grpo_core.simulate import REWARD_KINDS, SimConfig, steps_within_budget
from ui import controls, narrate, page, prose
from ui import simulator_page as sp
from ui.figures import simulator as figures
from ui.figures.common import show

DEFAULTS = SimConfig()
MAX_STEPS = 400  # a run must stay quick on a shared server
BAND_LABELS = {"min-max": "min–max over seeds", "std": "mean ± 1 std over seeds"}
HELP = {
    "sim.conv": "Which trainer's formula (see the Library conventions page).",
    "sim.clr": "In (0, 1]: 1 jumps straight to the batch's mean reward.",
    "sim.diff": "2.0: a prompt of mean difficulty starts with about 12% of its answers "
    "right (about 19% averaged over the default spread of difficulties).",
}


def bound(key: str) -> dict:
    """A widget's key, its help and its place in the link."""
    return {"key": key, "help": HELP.get(key), "bind": "query-params"}


page.start()
st.title("Training simulator")
st.markdown(prose.section("critic.md", "simulator"))
narrate.listen(prose.section("critic.md", "simulator"))

# 1. Settings -----------------------------------------------------------------------------
st.subheader("1 · Settings")
estimators = st.multiselect(
    "Estimators (one switch each)",
    list(ESTIMATORS),
    default=list(DEFAULTS.estimators),
    format_func=sp.label,
    **bound("sim.est"),
)
with st.expander("What each estimator does"):
    st.markdown("\n".join(f"- **{e.label}**: {e.description}" for e in ESTIMATORS.values()))
c1, c2, c3, c4 = st.columns(4)
convention = c1.selectbox("GRPO convention", list(CONVENTIONS), **bound("sim.conv"))
group_size = c2.number_input(
    "Samples per prompt K (every estimator)", 1, 32, DEFAULTS.group_size, **bound("sim.k")
)
steps = c3.number_input("Training steps", 10, None, DEFAULTS.steps, 10, **bound("sim.steps"))
num_seeds = c4.number_input("Seeds", 1, 10, DEFAULTS.num_seeds, **bound("sim.seeds"))
c1, c2, c3, c4, c5 = st.columns(5)
lr = c1.number_input("Policy learning rate", 0.0, 10.0, DEFAULTS.lr, 0.05, **bound("sim.lr"))
critic_lr = c2.number_input(
    "Critic learning rate", 0.0, 2.0, DEFAULTS.critic_lr, 0.05, **bound("sim.clr")
)
difficulty = c3.slider(
    "Difficulty (log-odds of failing)", -2.0, 5.0, DEFAULTS.difficulty, 0.25, **bound("sim.diff")
)
reward = c4.selectbox("Reward", REWARD_KINDS, **bound("sim.reward"))
seed = c5.number_input("Seed", 0, 1_000_000, DEFAULTS.seed, **bound("sim.seed"))
cap = steps_within_budget(
    MAX_STEPS, num_seeds=num_seeds, group_size=group_size, num_estimators=len(estimators)
)
if steps > cap:
    widest = "" if cap == MAX_STEPS else f" with {num_seeds} seeds of K = {group_size}"
    st.warning(
        f"At most {cap} training steps here{widest}, to keep a run quick: running "
        f"{cap} instead of {steps:,}."
    )
    steps = cap

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

result = sp.run(config)
if result is None:  # over the server's budget: the note says when to try again
    st.stop()

# 2. Results ------------------------------------------------------------------------------
st.subheader("2 · Results")
table = estimator_table(result)
band = (
    st.segmented_control(  # the option names are the URL values
        "Band around the mean over seeds",
        list(BAND_LABELS),
        default="min-max",
        required=True,
        **bound("sim.band"),
    )
    or "min-max"
)

bands = accuracy_band_limits(result, band)
title = "Accuracy over training steps"
show(figures.accuracy_figure(bands, lower="lower", upper="upper", title=title), key="sim.accuracy")
st.caption(
    f"Accuracy (probability of a correct answer, mean over {config.num_prompts} prompts) "
    f"against training step, mean over {config.num_seeds} seeds with a {BAND_LABELS[band]} "
    "band; each estimator has its own colour, dash and marker. Final accuracy: "
    + sp.per_estimator(
        table, lambda r: f"{r.final_accuracy:.0%} ({r.final_min:.0%}–{r.final_max:.0%})"
    )
    + "."
)

curves = step_curves(result)
left, right = st.columns(2)
with left:
    aligned = figures.curves_figure(
        curves,
        "gradient_cosine",
        title="Does each step point uphill?",
        y_title="cosine to the true gradient",
    )
    show(aligned, key="sim.cosine")
    st.caption(
        "Cosine between each step's gradient estimate (every prompt) and the exact gradient "
        "of the expected reward, mean over seeds: 1 is straight uphill. Mean over training: "
        + sp.per_estimator(table, lambda r: f"{r.gradient_cosine:.2f}")
        + "."
    )
with right:
    zero = figures.curves_figure(
        curves,
        "zero_spread",
        title="Groups with zero spread",
        y_title="fraction of prompts",
        pct=True,
    )
    show(zero, key="sim.zero")
    st.caption(
        f"Fraction of prompts whose {config.group_size} rewards were all equal (no signal for "
        "a group baseline), mean over seeds, first step → last: "
        + sp.per_estimator(table, lambda r: f"{r.zero_spread_first:.0%} → {r.zero_spread_last:.0%}")
        + "."
    )
st.markdown(prose.section("critic.md", "simulator-alignment"))
if "reinforce" in config.estimators:
    st.markdown(prose.section("critic.md", "simulator-reinforce"))

sp.raw_variance(config, table, curves)

if (critic := critic_error_bands(result)) is not None:
    title = "The PPO critic's value error"
    show(figures.critic_error_figure(critic, title=title), key="sim.critic")
    st.caption(
        "Root mean square over prompts of the critic's V minus the policy's true expected "
        f"reward, mean over seeds with the min–max band: {critic['mean'].iloc[0]:.3f} at the "
        f"first step, {critic['mean'].iloc[-1]:.3f} at the last."
    )
else:
    st.caption("Add the PPO critic to the estimators to see its value error.")

st.subheader("3 · Reading")
st.markdown("\n".join(f"- {s}" for s in summary_sentences(result)))
st.info(prose.section("critic.md", "simulator-honesty"))

st.markdown("**Share this view**: the link reproduces these settings and this run.")
controls.share_link()
