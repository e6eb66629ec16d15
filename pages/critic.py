"""PPO critic vs GRPO: per-token advantages with a perfect and a wrong critic, and what the
critic costs in memory and compute against K samples per prompt."""

import numpy as np
import streamlit as st

from grpo_core import CONVENTIONS, critic, memory
from grpo_core.critic import blank_padding
from grpo_core.format import fmt
from grpo_core.memory import ASSUMPTIONS, OPTIMIZERS, PRECISIONS
from ui import controls, narrate, page, prose
from ui import critic_page as cp
from ui.figures import critic as figures
from ui.figures.common import show

SIZES = [0.5, 1.5, 7.0, 14.0, 32.0, 70.0]
KL_MEAN = 0.05
HEATMAPS = ("perfect", "yours", "grpo")  # chart keys, in the order shown
HELP = {
    "cr.bias": "A constant error in every value estimate (> 0: too optimistic).",
    "cr.noise": "Random error per token, Gaussian with this standard deviation.",
    "cr.gamma": "RLHF trainers usually use γ = 1.",
    "cr.lam": "λ = 1: return minus value (unbiased, noisy); λ = 0: one-step TD error.",
    "cr.conv": "Which trainer's formula (see the Library conventions page).",
    "cr.rm": "Switch off for verifiable rewards (a checker instead of a model).",
}


def text(name: str) -> str:
    return prose.section("critic.md", name)


def bound(key: str) -> dict:
    """A widget's key, its help and its place in the link."""
    return {"key": key, "help": HELP.get(key), "bind": "query-params"}


# The same inputs compute nothing again (moving a widget of another section, say); the
# results are shared between sessions and never changed.
REMEMBER = {"max_entries": 64, "show_spinner": False}
memory_comparison = st.cache_resource(memory.memory_comparison, **REMEMBER)
memory_breakdown = st.cache_resource(memory.memory_breakdown, **REMEMBER)
rollout_compute = st.cache_resource(memory.rollout_compute, **REMEMBER)


@st.cache_resource(**REMEMBER)
def compare(lengths: tuple, outcome: tuple, seed: int, **settings) -> critic.CriticComparison:
    rng = np.random.default_rng(seed)
    return critic.critic_comparison(np.array(lengths), np.array(outcome), rng=rng, **settings)


page.start()
cp.read_link_once()
st.title("PPO critic vs GRPO")
st.markdown(text("intro"))
narrate.listen(text("intro"))
if problem := st.session_state.pop("cr.link_problem", None):
    st.warning(f"The responses in this link could not be used: {problem} Showing the default.")

# 1. One prompt, K responses ----------------------------------------------------------------
st.subheader("1 · One prompt, K responses")
left, right = st.columns([2, 3])
with left:
    st.markdown(text("group"))
    edited = cp.group_editor()
with right:
    st.markdown(text("critic"))
    c1, c2 = st.columns(2)
    bias = c1.slider("Critic bias", -1.0, 1.0, 0.2, 0.05, **bound("cr.bias"))
    noise = c2.slider("Critic noise (std)", 0.0, 1.0, 0.1, 0.05, **bound("cr.noise"))
    gamma = c1.slider("γ (discount)", 0.8, 1.0, 1.0, 0.01, **bound("cr.gamma"))
    lam = c2.slider("λ (GAE)", 0.0, 1.0, 0.95, 0.05, **bound("cr.lam"))
    use_kl = c1.toggle("Per-token KL penalty", value=False, **bound("cr.kl"))
    beta = c2.slider(
        "KL coefficient β", 0.0, 0.5, 0.05, 0.01, disabled=not use_kl, **bound("cr.beta")
    )
    seed = c1.number_input("Seed (critic noise, KL)", 0, 10_000, 0, **bound("cr.seed"))
    convention = c2.selectbox("GRPO convention", list(CONVENTIONS), **bound("cr.conv"))

lengths, outcome = cp.responses(edited)
settings = {"gamma": float(gamma), "lam": float(lam)}
kl_coef = float(beta) if use_kl else None
view = compare(
    tuple(lengths.tolist()),
    tuple(outcome.tolist()),
    int(seed),
    bias=float(bias),
    noise=float(noise),
    convention=convention,
    kl_coef=kl_coef,
    kl_mean=KL_MEAN,
    **settings,
)

# 2. Per-token advantages -------------------------------------------------------------------
st.subheader("2 · Per-token advantages")
st.markdown(text("heatmaps"))
shown = {  # one under the other, on one colour scale and token axis: a sign fits in each cell
    "PPO with a perfect critic": view.perfect,
    f"PPO with your critic (bias {fmt(bias)}, noise {fmt(noise)})": view.yours,
    f"GRPO ({convention})": view.grpo,
}
shown = {title: blank_padding(z, view.mask) for title, z in shown.items()}
limit = figures.colour_limit(*shown.values())
for key, (title, z) in zip(HEATMAPS, shown.items(), strict=True):
    show(figures.heatmap_figure(z, view.labels, title=title, limit=limit), key=f"cr.heat_{key}")
st.caption(cp.heatmaps_caption(view, limit, kl_mean=KL_MEAN, **settings))

st.markdown(text("error"))
error = view.error
m1, m2, m3, m4 = st.columns(4)
m1.metric("RMS error of advantages", fmt(error.rms), border=True)
m2.metric("Mean shift", fmt(error.mean), border=True)
m3.metric("Tokens pushed the wrong way", f"{error.sign_flips} of {error.tokens}", border=True)
m4.metric("Largest error on a token", fmt(error.max_abs), border=True)
st.caption(cp.error_caption(error))

controls.refresh_choice("cr.resp", view.labels)
pick = st.selectbox(
    "Follow one response token by token",
    range(len(view.labels)),
    format_func=view.labels.__getitem__,
    key="cr.resp",
)
pick = min(int(pick or 0), len(view.labels) - 1)
n = int(lengths[pick])
series = {"PPO, perfect critic": view.perfect, "PPO, your critic": view.yours, "GRPO": view.grpo}
title = f"Response {view.labels[pick]}: advantage per token"
lines = figures.token_lines_figure({k: a[pick, :n] for k, a in series.items()}, title=title)
show(lines, key="cr.lines")
st.caption(cp.lines_caption(view, pick, n, outcome[pick]))

# 3. Memory ------------------------------------------------------------------------------
st.subheader("3 · Memory: what the critic costs")
st.markdown(text("memory"))
c1, c2, c3, c4, c5 = st.columns(5, vertical_alignment="bottom")
size = c1.selectbox(
    "Policy size (parameters)",
    SIZES,
    index=2,
    format_func=lambda b: f"{fmt(b)}B",
    **bound("cr.size"),
)
precision = c2.selectbox("Precision", list(PRECISIONS), **bound("cr.prec"))
optimizer = c3.selectbox("Optimizer", list(OPTIMIZERS), **bound("cr.opt"))
with_ref = c4.toggle("Reference model", value=True, **bound("cr.ref"))
with_rm = c5.toggle("Reward model", value=True, **bound("cr.rm"))
options = {
    "precision": precision,
    "optimizer": optimizer,
    "with_reference": bool(with_ref),
    "with_reward_model": bool(with_rm),
}
held = memory_comparison(size, **options)
table = memory_breakdown(size, with_critic=True, **options)
left, right = st.columns([3, 2])
title = f"{fmt(size)}B policy, {precision}, {optimizer}: GB held"
show(figures.memory_figure(held.by_model, title=title), key="cr.memory_chart", container=left)
left.caption(cp.memory_caption(held))
right.dataframe(
    table[["model", "component", "bytes_per_param", "gb"]],
    key="cr.memory_table",
    hide_index=True,
    width="stretch",
    column_config=cp.MEMORY_COLUMNS,
)
st.markdown("**Assumptions**\n\n" + "\n".join(f"- {a}" for a in ASSUMPTIONS))

# 4. Compute --------------------------------------------------------------------------------
st.subheader("4 · Compute: K samples instead of a critic")
st.markdown(text("compute"))
c1, c2, _ = st.columns([1, 1, 2])
prompts = c1.number_input("Prompts per step", 1, 8192, 256, **bound("cr.prompts"))
mean_length = c2.number_input("Mean response length (tokens)", 1, 32_768, 500, **bound("cr.len"))
steps = rollout_compute(size, num_prompts=int(prompts), mean_length=int(mean_length))
title = f"{fmt(size)}B policy: TFLOP per training step"
show(figures.compute_figure(steps, title=title), key="cr.compute_chart")
st.caption(cp.compute_caption(steps, int(prompts), int(mean_length)))
st.dataframe(
    steps,
    key="cr.compute_table",
    hide_index=True,
    width="stretch",
    column_config=cp.COMPUTE_COLUMNS,
)

st.markdown("**Share this view**: the link reproduces the responses and every setting.")
controls.share_link()
