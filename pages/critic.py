"""PPO critic vs GRPO: per-token advantages with a perfect and a wrong critic, and what the
critic costs in memory and compute against K samples per prompt."""

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core import CONVENTIONS
from grpo_core.baselines import (
    ASSUMPTIONS,
    MAX_TOKENS,
    OPTIMIZERS,
    PRECISIONS,
    advantage_error,
    blank_padding,
    decode_group,
    encode_group,
    expected_returns,
    gae,
    grpo_token_advantages,
    memory_breakdown,
    memory_comparison,
    response_group,
    rollout_compute,
    token_mask,
    token_rewards,
    toy_kl,
    toy_values,
)
from grpo_core.format import fmt
from ui import charts, controls, critic_views, narrate, state

DEFAULT_LENGTHS = [12, 20, 8, 30, 16, 24]
DEFAULT_REWARDS = [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
SIZES = [0.5, 1.5, 7.0, 14.0, 32.0, 70.0]
KL_MEAN = 0.05
MAX_RESPONSES = 16


def set_group(lengths, rewards) -> None:
    """Replace the responses (default, link): the editor starts afresh."""
    st.session_state["cr.base"] = {"length": list(lengths), "reward": list(rewards)}
    st.session_state["cr.version"] = st.session_state.get("cr.version", 0) + 1


def reset_group() -> None:
    set_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)


state.init()
if "cr.base" not in st.session_state:
    set_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)
    if "cr.g" in st.query_params:
        try:
            lengths, rewards = decode_group(st.query_params["cr.g"], max_responses=MAX_RESPONSES)
            set_group(lengths.tolist(), rewards.tolist())
        except ValueError as e:
            st.session_state["cr.link_problem"] = str(e)

st.title("PPO critic vs GRPO")
st.markdown(critic_views.section("intro"))
narrate.listen(critic_views.section("intro"))
if problem := st.session_state.pop("cr.link_problem", None):
    st.warning(f"The responses in this link could not be used: {problem} Showing the default.")

# 1. One prompt, K responses ----------------------------------------------------------------
st.subheader("1 · One prompt, K responses")
left, right = st.columns([2, 3])
with left:
    st.markdown(critic_views.section("group"))
    base = pd.DataFrame(st.session_state["cr.base"])
    edited = st.data_editor(
        base,
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
    st.markdown(critic_views.section("critic"))
    c1, c2 = st.columns(2)
    bias = c1.slider(
        "Critic bias", -1.0, 1.0, 0.2, 0.05, key="cr.bias", bind="query-params",
        help="A constant error in every value estimate (> 0: too optimistic).",
    )  # fmt: skip
    noise = c2.slider(
        "Critic noise (std)", 0.0, 1.0, 0.1, 0.05, key="cr.noise", bind="query-params",
        help="Random error per token, Gaussian with this standard deviation.",
    )  # fmt: skip
    gamma = c1.slider(
        "γ (discount)", 0.8, 1.0, 1.0, 0.01, key="cr.gamma", bind="query-params",
        help="RLHF trainers usually use γ = 1.",
    )  # fmt: skip
    lam = c2.slider(
        "λ (GAE)", 0.0, 1.0, 0.95, 0.05, key="cr.lam", bind="query-params",
        help="λ = 1: return minus value (unbiased, noisy); λ = 0: one-step TD error.",
    )  # fmt: skip
    use_kl = c1.toggle("Per-token KL penalty", value=False, key="cr.kl", bind="query-params")
    beta = c2.slider(
        "KL coefficient β", 0.0, 0.5, 0.05, 0.01, key="cr.beta", bind="query-params",
        disabled=not use_kl,
    )  # fmt: skip
    seed = c1.number_input(
        "Seed (critic noise, KL)", 0, 10_000, 0, key="cr.seed", bind="query-params"
    )
    convention = c2.selectbox(
        "GRPO convention", list(CONVENTIONS), key="cr.conv", bind="query-params",
        help="Which trainer's formula (see the Library conventions page).",
    )  # fmt: skip

cells = {c: [None if pd.isna(v) else v for v in edited[c]] for c in ("length", "reward")}
try:
    lengths, outcome = response_group(cells["length"], cells["reward"], max_responses=MAX_RESPONSES)
except ValueError as e:
    st.error(f"These responses cannot be used: {e} Showing the default group until it is fixed.")
    lengths, outcome = response_group(DEFAULT_LENGTHS, DEFAULT_REWARDS)
else:
    link = encode_group(lengths, outcome)
    if st.query_params.get("cr.g") != link:
        st.query_params["cr.g"] = link

# 2. Per-token advantages -------------------------------------------------------------------
# Figures are cached by their inputs (st.cache_resource: the same figure object, never
# mutated), so moving a widget of another section does not rebuild them.


@st.cache_resource(max_entries=64, show_spinner=False)
def critic_view(lengths_t, outcome_t, bias, noise, gamma, lam, use_kl, beta, seed, convention):
    lengths, outcome = np.array(lengths_t), np.array(outcome_t)
    rng = np.random.default_rng(seed)
    mask = token_mask(lengths)
    kl = toy_kl(lengths, mean=KL_MEAN, rng=rng) if use_kl else None
    kl_coef = beta if use_kl else 0.0
    rewards = token_rewards(lengths, outcome, kl=kl, kl_coef=kl_coef)
    true_values = expected_returns(outcome, lengths, kl=kl, kl_coef=kl_coef, gamma=gamma)
    your_values = toy_values(true_values, mask, bias=bias, noise=noise, rng=rng)
    perfect = gae(rewards, true_values, gamma=gamma, lam=lam, mask=mask)
    yours = gae(rewards, your_values, gamma=gamma, lam=lam, mask=mask)
    grpo = grpo_token_advantages(outcome, lengths, convention=convention)
    rows = [
        f"#{i} R={fmt(r)} L={n}" for i, (r, n) in enumerate(zip(outcome, lengths, strict=True), 1)
    ]
    shown = {
        "PPO with a perfect critic": blank_padding(perfect, mask),
        f"PPO with your critic (bias {fmt(bias)}, noise {fmt(noise)})": blank_padding(yours, mask),
        f"GRPO ({convention})": blank_padding(grpo, mask),
    }
    limit = critic_views.colour_limit(*shown.values())
    figures = [
        critic_views.heatmap_figure(z, rows, title=title, limit=limit) for title, z in shown.items()
    ]
    return {
        "mask": mask,
        "perfect": perfect,
        "yours": yours,
        "grpo": grpo,
        "error": advantage_error(yours, perfect, mask),
        "rows": rows,
        "limit": limit,
        "figures": figures,
        "kl_coef": kl_coef,
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def lines_chart(args: tuple, pick: int):
    view = critic_view(*args)
    n = int(args[0][pick])
    series = {
        "PPO, perfect critic": view["perfect"][pick, :n],
        "PPO, your critic": view["yours"][pick, :n],
        "GRPO": view["grpo"][pick, :n],
    }
    title = f"Response {view['rows'][pick]}: advantage per token"
    return critic_views.token_lines_figure(series, title=title)


args = (
    tuple(int(n) for n in lengths), tuple(float(r) for r in outcome), float(bias), float(noise),
    float(gamma), float(lam), bool(use_kl), float(beta), int(seed), convention,
)  # fmt: skip
view = critic_view(*args)
mask, perfect, yours, grpo = view["mask"], view["perfect"], view["yours"], view["grpo"]
error, rows, limit, kl_coef = view["error"], view["rows"], view["limit"], view["kl_coef"]

st.subheader("2 · Per-token advantages")
st.markdown(critic_views.section("heatmaps"))
# One under the other, on one colour scale and token axis: wide enough for a sign per cell.
for key, figure in zip(("perfect", "yours", "grpo"), view["figures"], strict=True):
    charts.show(figure, key=f"cr.heat_{key}")
kl_words = f", KL penalty β = {fmt(kl_coef)} on toy KL of mean {fmt(KL_MEAN)}" if use_kl else ""
st.caption(
    f"Three heatmaps of per-token advantages for {len(lengths)} responses "
    f"({int(mask.sum())} tokens; γ = {fmt(gamma)}, λ = {fmt(lam)}{kl_words}). Each cell is "
    f"marked + (blue, pushed up) or − (vermillion, pushed down); blank cells are padding; "
    f"the colour range is ±{fmt(limit)} on all three. GRPO's rows are constant: "
    + ", ".join(f"#{i} {charts.signed(a)}" for i, a in enumerate(grpo[:, 0], 1))
    + "."
)

st.markdown(critic_views.section("error"))
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
    "Follow one response token by token", range(len(rows)), format_func=rows.__getitem__,
    key="cr.resp",
)  # fmt: skip
pick = min(int(pick or 0), len(rows) - 1)
n = int(lengths[pick])
charts.show(lines_chart(args, pick), key="cr.lines")
st.caption(
    f"Response {pick + 1} ({n} tokens, reward {fmt(outcome[pick])}): PPO with a perfect critic "
    f"gives its tokens {fmt(perfect[pick, 0])} first and {fmt(perfect[pick, n - 1])} last; "
    f"with your critic {fmt(yours[pick, 0])} and {fmt(yours[pick, n - 1])}; GRPO gives every "
    f"token {fmt(grpo[pick, 0])}."
)

# 3. Memory ------------------------------------------------------------------------------
st.subheader("3 · Memory: what the critic costs")
st.markdown(critic_views.section("memory"))
c1, c2, c3, c4, c5 = st.columns([1, 1, 1, 1, 1], vertical_alignment="bottom")
size = c1.selectbox(
    "Policy size (parameters)", SIZES, index=2, key="cr.size", bind="query-params",
    format_func=lambda b: f"{fmt(b)}B",
)  # fmt: skip
precision = c2.selectbox("Precision", list(PRECISIONS), key="cr.prec", bind="query-params")
optimizer = c3.selectbox("Optimizer", list(OPTIMIZERS), key="cr.opt", bind="query-params")
with_ref = c4.toggle("Reference model", value=True, key="cr.ref", bind="query-params")
with_rm = c5.toggle(
    "Reward model", value=True, key="cr.rm", bind="query-params",
    help="Switch off for verifiable rewards (a checker instead of a model).",
)  # fmt: skip


@st.cache_resource(max_entries=64, show_spinner=False)
def memory_view(size, precision, optimizer, with_ref, with_rm):
    options = {
        "precision": precision,
        "optimizer": optimizer,
        "with_reference": with_ref,
        "with_reward_model": with_rm,
    }
    memory = memory_comparison(size, **options)
    figure = critic_views.memory_figure(
        memory.by_model, title=f"{fmt(size)}B policy, {precision}, {optimizer}: GB held"
    )
    table = memory_breakdown(size, with_critic=True, **options)
    return memory, figure, table[["model", "component", "bytes_per_param", "gb"]]


memory, figure, table = memory_view(size, precision, optimizer, bool(with_ref), bool(with_rm))
left, right = st.columns([3, 2])
charts.show(figure, key="cr.memory_chart", container=left)
left.caption(
    f"Stacked bars of GB per model. With the critic: {memory.with_critic_gb:,.1f} GB; "
    f"without it (GRPO): {memory.without_critic_gb:,.1f} GB. The value model adds "
    f"{memory.saved_gb:,.1f} GB, {memory.saved_fraction:.0%} of the PPO total."
)
with right:
    st.dataframe(
        table,
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
st.markdown(critic_views.section("compute"))
c1, c2, _ = st.columns([1, 1, 2])
prompts = c1.number_input("Prompts per step", 1, 8192, 256, key="cr.prompts", bind="query-params")
mean_length = c2.number_input(
    "Mean response length (tokens)", 1, 32_768, 500, key="cr.len", bind="query-params"
)


@st.cache_resource(max_entries=64, show_spinner=False)
def compute_view(size, prompts, mean_length):
    frame = rollout_compute(size, num_prompts=prompts, mean_length=mean_length)
    title = f"{fmt(size)}B policy: TFLOP per training step"
    return frame, critic_views.compute_figure(frame, title=title)


compute, figure = compute_view(size, int(prompts), int(mean_length))
charts.show(figure, key="cr.compute_chart")
st.caption(
    "Stacked bars of TFLOP per step (generation, policy update, critic) for "
    f"{int(prompts)} prompts of {int(mean_length)} tokens. PPO with one sample and a critic: "
    f"{compute.total_tflop.iloc[0]:,.0f} TFLOP; "
    + "; ".join(
        f"{row.setup}: {row.total_tflop:,.0f} TFLOP ({row.vs_ppo:.1f}× PPO)"
        for row in compute.iloc[1:].itertuples()
    )
    + ". The reference model's forward pass, needed by both, is not counted."
)
st.dataframe(
    compute,
    key="cr.compute_table",
    hide_index=True,
    width="stretch",
    column_config={
        "group_size": st.column_config.NumberColumn("K", format="%d"),
        "generated_tokens": st.column_config.NumberColumn("tokens", format="localized"),
        "generation_tflop": st.column_config.NumberColumn("generation TFLOP", format="localized"),
        "update_tflop": st.column_config.NumberColumn("update TFLOP", format="localized"),
        "critic_tflop": st.column_config.NumberColumn("critic TFLOP", format="localized"),
        "total_tflop": st.column_config.NumberColumn("total TFLOP", format="localized"),
        "vs_ppo": st.column_config.NumberColumn("× PPO", format="%.2f"),
    },
)

st.markdown("**Share this view**: the link reproduces the responses and every setting.")
controls.share_link()
