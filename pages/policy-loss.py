"""From advantage to update: GRPO's policy loss per token, its gradient, the clip, the
variants TRL offers and where the KL goes."""

import streamlit as st

from grpo_core import loss_lab
from grpo_core import loss_sentences as say
from grpo_core.format import fmt
from ui import controls, page
from ui import loss_page as lp
from ui.figures import loss as figures
from ui.figures.common import show

page.start()
st.title("From advantage to update")
st.markdown(lp.text("intro"))

# 1. A group, token by token --------------------------------------------------------------
st.subheader("1 · A group, token by token")
st.markdown(lp.text("group"))
rewards, lengths, origin = lp.group_picker()
c1, c2 = st.columns([3, 1])
step = c1.slider(
    "One optimizer step later: step size η (each token's logit + η·A)",
    0.0,
    3.0,
    0.5,
    0.1,
    **lp.bound("pl.step", "0 is the first, on-policy update: r = 1"),
)
seed = c2.number_input("Seed (token probabilities)", 0, 9999, 0, **lp.bound("pl.seed"))
try:
    group = (rewards, tuple(lengths), float(step), int(seed))
    toy = lp.batch(*group)
except ValueError as e:
    st.warning(f"This group cannot be used: {e} Showing the first preset.")
    title, rewards, lengths = loss_lab.PRESETS["binary"]
    group = (tuple(float(r) for r in rewards), lengths, float(step), int(seed))
    toy = lp.batch(*group)
edits = lp.hand_edits(toy, group)
try:
    toy = lp.batch(*group, edits)
    group = (*group, edits)
except ValueError as e:
    st.warning(f"These probabilities cannot be used: {e} Showing the computed ones.")
st.caption(lp.group_caption(toy, origin, step))

# 2. The loss -----------------------------------------------------------------------------
st.subheader("2 · The loss")
st.markdown(lp.text("loss"))
options = lp.loss_controls()
result = lp.loss_of(group, **options)
first = lp.loss_of(group, on_policy=True, **options)
default = lp.loss_of(group, **lp.TRL_DEFAULTS)
st.markdown(say.versus_defaults(default, result, lp.changed_options(options)))
m1, m2, m3, m4 = st.columns(4)
m1.metric("Loss after the step", fmt(result.loss), border=True)
m2.metric("Loss on the first step (r = 1)", fmt(first.loss), border=True)
m3.metric(
    "Tokens clipped (clip_ratio)",
    f"{fmt(100 * result.clip_fraction.region, 3)}%",
    border=True,
)
m4.metric("Largest push on a log p", fmt(abs(result.grad).max()), border=True)

# 3. Per token ----------------------------------------------------------------------------
st.subheader("3 · Token by token")
st.markdown(lp.text("heatmaps"))
rows = lp.row_labels(toy)
bounds = lp.clip_range(options)
maps = lp.signed_maps(result)
left, right = st.columns(2)
ratio_map = figures.ratio_heatmap(
    result.ratio, toy.mask, rows, title="Ratio r = p / p_old", bounds=bounds
)
show(ratio_map, key="pl.heat_ratio", container=left)
clip_map = figures.clip_heatmap(
    result.clip, toy.mask, rows, title="Clipped? (L low, H high, δ cap)"
)
show(clip_map, key="pl.heat_clip", container=right)
titles = {"push": "Push on log p: −∂loss/∂log p", "loss": "Per-token loss"}
for (name, (z, limit)), where in zip(maps.items(), (left, right), strict=True):
    heat = figures.signed_heatmap(z, toy.mask, rows, title=titles[name], limit=limit, name=name)
    show(heat, key=f"pl.heat_{name}", container=where)
clipped = say.clipped_counts(result, options["loss_type"])
st.caption(lp.heatmaps_caption(result, options, maps, clipped))

# 4. The questions people ask --------------------------------------------------------------
st.subheader("4 · The questions people ask, on these numbers")
eps = (options["epsilon_low"], options["epsilon_high"])
higher, note = lp.clip_higher_setting(options)
other_high = lp.other_epsilon_high((higher["epsilon_low"], higher["epsilon_high"]))
now_higher = lp.loss_of(group, **higher)
other = lp.loss_of(group, **{**higher, "epsilon_high": other_high})
level = {**options, "loss_type": "grpo", "delta": None, "beta": 0.0}
token_level = lp.loss_of(group, **{**level, "importance_sampling_level": "token"})
sequence_level = lp.loss_of(group, **{**level, "importance_sampling_level": "sequence"})
answers = {
    "zero": say.on_policy(toy, first, options["loss_type"]),
    "clip": say.clip_ratio(
        result, first, step, eps, options["loss_type"], options["importance_sampling_level"]
    ),
    "higher": say.clip_higher(toy, now_higher, other, (higher["epsilon_high"], other_high), note),
    "gspo": say.sequence_ratio(toy, token_level, sequence_level),
}
for name, answer in answers.items():
    with st.container(border=True, key=f"pl.q_{name}"):
        st.markdown(lp.text(f"question-{name}"))
        st.markdown(answer)

# 5. Where the KL goes ----------------------------------------------------------------------
st.subheader("5 · Where the KL goes: in the loss or in the reward")
st.markdown(lp.text("kl"))
k = loss_lab.kl_estimators(toy.old_logp, toy.ref_logp, toy.mask)  # at sampling, as RLOO
beta = options["beta"] or lp.KL_DEMO_BETA
with_kl = lp.loss_of(group, **{**options, "beta": beta})
without_kl = lp.loss_of(group, **{**options, "beta": 0.0})
st.markdown(say.kl_estimates(k, toy.mask, with_kl.loss, without_kl.loss))
left, right = st.columns(2)
show(
    figures.kl_heatmap(
        with_kl.kl, toy.mask, rows, title=f"KL term in the loss (k3, β = {fmt(beta)})"
    ),
    key="pl.heat_kl",
    container=left,
)
right.dataframe(lp.kl_table(toy, k, beta), hide_index=True, key="pl.kl_table", width="stretch")
sums = lp.kl_sums(k)
show(figures.kl_bars(sums, rows, title="k1, k2, k3 per answer, side by side"), key="pl.kl_bars")
st.caption(lp.kl_bars_caption(sums))
right.caption(lp.text("kl-table"))

# 6. Every token, the link --------------------------------------------------------------
st.subheader("6 · Every token, and the link")
table, csv = lp.token_table_and_csv(group, **options)
with st.expander("Every token as a table"):
    st.dataframe(table, hide_index=True, key="pl.table", width="stretch")
d1, d2 = st.columns([1, 3])
d1.download_button(
    "Download CSV",
    csv,
    file_name="grpo_policy_loss.csv",
    mime="text/csv",
    key="pl.csv",
)
with d2:
    st.markdown("**Share this view**: the link reproduces the group and every setting.")
    controls.share_link()
