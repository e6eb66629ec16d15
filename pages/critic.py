"""PPO critic vs GRPO: per-token advantages with a perfect and a wrong critic, and what the
critic costs in memory and compute against K samples per prompt."""

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core import CONVENTIONS, critic, memory
from grpo_core.critic import MAX_TOKENS, blank_padding, decode_group, encode_group, response_group
from grpo_core.format import fmt, signed
from grpo_core.memory import ASSUMPTIONS, OPTIMIZERS, PRECISIONS
from ui import controls, narrate, page, prose
from ui.figures import critic as figures
from ui.figures.common import show

DEFAULT_LENGTHS = [12, 20, 8, 30, 16, 24]
DEFAULT_REWARDS = [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
SIZES = [0.5, 1.5, 7.0, 14.0, 32.0, 70.0]
KL_MEAN = 0.05
MAX_RESPONSES = 16
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


def set_group(lengths, rewards) -> None:
    """Replace the responses (default, link): the editor starts afresh."""
    st.session_state["cr.base"] = {"length": list(lengths), "reward": list(rewards)}
    st.session_state["cr.version"] = st.session_state.get("cr.version", 0) + 1


def reset_group() -> None:
    set_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)


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
if "cr.base" not in st.session_state:
    set_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)
    if "cr.g" in st.query_params:
        try:
            lengths, rewards = decode_group(st.query_params["cr.g"], max_responses=MAX_RESPONSES)
            set_group(lengths.tolist(), rewards.tolist())
        except ValueError as e:
            st.session_state["cr.link_problem"] = str(e)

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

cells = {c: [None if pd.isna(v) else v for v in edited[c]] for c in ("length", "reward")}
try:
    lengths, outcome = response_group(cells["length"], cells["reward"], max_responses=MAX_RESPONSES)
except ValueError as e:
    st.error(f"These responses cannot be used: {e} Showing the default group until it is fixed.")
    lengths, outcome = response_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)
else:
    if st.query_params.get("cr.g") != (group_link := encode_group(lengths, outcome)):
        st.query_params["cr.g"] = group_link
view = compare(
    tuple(lengths.tolist()),
    tuple(outcome.tolist()),
    int(seed),
    bias=float(bias),
    noise=float(noise),
    gamma=float(gamma),
    lam=float(lam),
    convention=convention,
    kl_coef=float(beta) if use_kl else None,
    kl_mean=KL_MEAN,
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
kl_words = (
    f", KL penalty β = {fmt(view.kl_coef)} on toy KL of mean {fmt(KL_MEAN)}" if use_kl else ""
)
st.caption(
    f"Three heatmaps of per-token advantages for {len(lengths)} responses "
    f"({int(view.mask.sum())} tokens; γ = {fmt(gamma)}, λ = {fmt(lam)}{kl_words}). Each cell is "
    f"marked + (blue, pushed up) or − (vermillion, pushed down); blank cells are padding; "
    f"the colour range is ±{fmt(limit)} on all three. GRPO's rows are constant: "
    + ", ".join(f"#{i} {signed(a)}" for i, a in enumerate(view.grpo[:, 0], 1))
    + "."
)

st.markdown(text("error"))
error = view.error
m1, m2, m3, m4 = st.columns(4)
m1.metric("RMS error of PPO's advantages", fmt(error.rms), border=True)
m2.metric("Mean shift", fmt(error.mean), border=True)
m3.metric("Tokens pushed the wrong way", f"{error.sign_flips} of {error.tokens}", border=True)
m4.metric("Largest error on a token", fmt(error.max_abs), border=True)
st.caption(
    "Your critic's PPO advantages minus the perfect critic's, over real tokens: "
    f"RMS {fmt(error.rms)}, mean {fmt(error.mean)}, largest {fmt(error.max_abs)}; "
    f"{error.sign_flips} of {error.tokens} tokens change sign."
)

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
show(
    figures.token_lines_figure({k: a[pick, :n] for k, a in series.items()}, title=title),
    key="cr.lines",
)
st.caption(
    f"Response {pick + 1} ({n} tokens, reward {fmt(outcome[pick])}): PPO with a perfect critic "
    f"gives its tokens {fmt(view.perfect[pick, 0])} first and {fmt(view.perfect[pick, n - 1])} "
    f"last; with your critic {fmt(view.yours[pick, 0])} and {fmt(view.yours[pick, n - 1])}; "
    f"GRPO gives every token {fmt(view.grpo[pick, 0])}."
)

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
frozen = {"with_reference": bool(with_ref), "with_reward_model": bool(with_rm)}  # models
options = {"precision": precision, "optimizer": optimizer, **frozen}
held = memory_comparison(size, **options)
table = memory_breakdown(size, with_critic=True, **options)
left, right = st.columns([3, 2])
title = f"{fmt(size)}B policy, {precision}, {optimizer}: GB held"
show(figures.memory_figure(held.by_model, title=title), key="cr.memory_chart", container=left)
left.caption(
    f"Stacked bars of GB per model. With the critic: {held.with_critic_gb:,.1f} GB; "
    f"without it (GRPO): {held.without_critic_gb:,.1f} GB. The value model adds "
    f"{held.saved_gb:,.1f} GB, {held.saved_fraction:.0%} of the PPO total."
)
right.dataframe(
    table[["model", "component", "bytes_per_param", "gb"]],
    key="cr.memory_table",
    hide_index=True,
    width="stretch",
    column_config={
        "bytes_per_param": st.column_config.NumberColumn("bytes / param", format="%d"),
        "gb": st.column_config.NumberColumn("GB", format="%.1f"),
    },
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
st.caption(
    "Stacked bars of TFLOP per step (generation, policy update, critic) for "
    f"{int(prompts)} prompts of {int(mean_length)} tokens. PPO with one sample and a critic: "
    f"{steps.total_tflop.iloc[0]:,.0f} TFLOP; "
    + "; ".join(
        f"{row.setup}: {row.total_tflop:,.0f} TFLOP ({row.vs_ppo:.1f}× PPO)"
        for row in steps.iloc[1:].itertuples()
    )
    + ". The reference model's forward pass, needed by both, is not counted."
)
tflop = {"format": "localized"}
st.dataframe(
    steps,
    key="cr.compute_table",
    hide_index=True,
    width="stretch",
    column_config={
        "group_size": st.column_config.NumberColumn("K", format="%d"),
        "generated_tokens": st.column_config.NumberColumn("tokens", **tflop),
        "generation_tflop": st.column_config.NumberColumn("generation TFLOP", **tflop),
        "update_tflop": st.column_config.NumberColumn("update TFLOP", **tflop),
        "critic_tflop": st.column_config.NumberColumn("critic TFLOP", **tflop),
        "total_tflop": st.column_config.NumberColumn("total TFLOP", **tflop),
        "vs_ppo": st.column_config.NumberColumn("× PPO", format="%.2f"),
    },
)

st.markdown("**Share this view**: the link reproduces the responses and every setting.")
controls.share_link()
