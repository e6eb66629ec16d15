"""Inspect a training log: upload your run's completions and read its signal, its
convention, and what the app's other lessons would change."""

import numpy as np
import pandas as pd
import streamlit as st

import content
from content import citations
from grpo_core.csv_safe import frame_csv
from grpo_core.format import fmt, plural
from grpo_core.inference import describe_fit
from grpo_core.multi_reward import compare_aggregations
from grpo_core.rollouts import LogError
from grpo_core.sample_log import FORMAT_BONUS
from practice.limits import OverBudget
from ui import controls, log_view, page, state
from ui.figures import training_log as figures
from ui.figures.common import show
from ui.text import markdown_safe

TEXT = content.read_toml("training_log.toml")
page.start()
st.title("Inspect a training log")
st.markdown(citations.cite(TEXT["log"]["intro"]))

# 1. The log -------------------------------------------------------------------------------
st.subheader("1 · The log")
source = st.segmented_control(
    "Log",
    ["sample", "upload"],
    default="sample",
    required=True,
    key="tl.source",
    format_func={"sample": "The sample log", "upload": "Upload your own"}.get,
)
uploads = None
if source == "upload":
    st.markdown(citations.cite(TEXT["log"]["formats"]))
    uploads = st.file_uploader(
        "Completions log: one file, several steps' files, or a .zip of the folder",
        type=["csv", "tsv", "jsonl", "json", "parquet", "zip"],
        accept_multiple_files=True,
        key="tl.upload",
    )
try:
    chosen = log_view.chosen_log(source, uploads)
    if chosen is None:
        st.info(log_view.UPLOAD_HINT)
        st.stop()
    if chosen.sample:
        st.info(citations.cite(TEXT["log"]["sample"]))
    log_view.spend_for(chosen)
    detected = log_view.read(chosen.digest, chosen.files, None)
    with st.expander("Columns: which column plays which role", expanded=not chosen.sample):
        st.caption(citations.cite(TEXT["log"]["mapping"]))
        mapping = log_view.mapping_controls(detected, chosen.digest)
        roles_box = st.container()
    same = mapping == detected.mapping
    log = detected if same else log_view.read(chosen.digest, chosen.files, mapping)
except LogError as error:
    st.error(f"This log cannot be read. {markdown_safe(str(error))}")
    st.stop()
except OverBudget as busy:
    st.info(markdown_safe(str(busy)), icon=":material/hourglass_top:")
    st.stop()
log_view.show_roles(log, roles_box)
st.markdown(log_view.grouping_words(log))
log_view.show_notes(log.warnings)
try:
    summary = log_view.summarise(chosen.digest, log.mapping, log.frame)
except ValueError as error:  # the loader's checks should leave none: still a message
    st.error(f"This log cannot be summarised. {markdown_safe(str(error))}")
    st.stop()
t = summary.totals
st.caption(
    f"Read as {log.format.upper()}: {plural(t['answers'], 'answer')} in "
    f"{plural(t['groups'], 'group')} over {plural(t['steps'], 'step')}."
)

# 2. Signal per step -----------------------------------------------------------------------
st.subheader("2 · Signal per step")
st.markdown(TEXT["log"]["signal"])
m1, m2, m3, m4 = st.columns(4)
m1.metric("Zero-spread groups", f"{t['zero_spread']:.0%}")
m2.metric("Near ties", f"{t['near_tie']:.0%}")
m3.metric("Answers with signal", f"{t['effective_fraction']:.0%}")
k_low, k_high = int(summary.steps["k_min"].min()), int(summary.steps["k_max"].max())
m4.metric("Answers per group, K", str(k_low) if k_low == k_high else f"{k_low}–{k_high}")
left, right = st.columns(2)
show(figures.signal_figure(summary.steps), key="tl.signal", container=left)
show(figures.reward_figure(summary.steps), key="tl.reward", container=right)
with st.expander("Every step as a table"):
    st.dataframe(summary.steps, hide_index=True, key="tl.steps", width="stretch")

# 3. Worst groups --------------------------------------------------------------------------
st.subheader("3 · The worst groups")
st.markdown(TEXT["log"]["worst"])
worst = summary.worst
if worst.empty:
    st.success("No group is a near tie or has zero spread.")
else:
    shown = worst[["problem", "step", "prompt", "first_row", "size", "mean", "std"]]
    st.dataframe(shown, hide_index=True, key="tl.worst", width="stretch")
    st.download_button(
        "Download the worst groups (CSV)",
        frame_csv(shown),
        file_name="worst_groups.csv",
        mime="text/csv",
        key="tl.worst_csv",
    )
    labels = [f"{w.problem} · step {w.step} · row {w.first_row}" for w in worst.itertuples()]
    controls.refresh_choice("tl.pick", labels)
    pick = st.selectbox(
        "Group to open", range(len(worst)), format_func=labels.__getitem__, key="tl.pick"
    )
    group = int(worst["group"].iloc[pick])
    log_view.open_buttons([summary.groups.rewards_of(group)], key="tl.open")

# 4. Which convention ----------------------------------------------------------------------
st.subheader("4 · Which convention did this run use?")
if summary.fit is None:
    st.info(TEXT["log"]["no_advantage"])
else:
    st.markdown(citations.cite(TEXT["log"]["convention"]))
    st.markdown(describe_fit(summary.fit, log.mapping.rewards))
    ranking = pd.DataFrame(summary.fit.ranking, columns=["convention", "largest disagreement"])
    st.dataframe(ranking, hide_index=True, key="tl.ranking", width="stretch")
    if summary.fit.screened:
        st.caption(TEXT["log"]["screened"])
    unmatched = summary.groups.table[summary.fit.unmatched]
    if len(unmatched):
        verb = "matches" if len(unmatched) == 1 else "match"
        st.warning(f"{plural(len(unmatched), 'group')} {verb} no convention:")
        st.dataframe(unmatched.head(50), hide_index=True, key="tl.unmatched", width="stretch")

# 5. The other lessons, on these rewards ---------------------------------------------------
st.subheader("5 · Dr. GRPO, DAPO and the difficulty bias, on these rewards")
st.markdown(TEXT["log"]["methods"])
effects = summary.effects
kept = effects["kept_by_dapo"]
factor = fmt(t["dapo_sampling_factor"], 3)
st.markdown(
    f"**Dynamic sampling (DAPO)** would drop {plural(int((~kept).sum()), 'group')} of "
    f"{len(effects)} and draw about {factor} {'prompt' if factor == '1' else 'prompts'} "
    "per prompt kept."
)
show(figures.push_figure(effects), key="tl.push")
if "difficulty_weight" in effects:
    weights = effects.loc[kept, "difficulty_weight"]
    st.markdown(
        f"**Difficulty-bias weight** of the groups with signal: from {fmt(weights.min(), 3)} "
        f"to {fmt(weights.max(), 3)} (Dr. GRPO gives every group 1)."
    )
else:
    st.caption(TEXT["log"]["binary_only"])

# 6. Several reward functions --------------------------------------------------------------
st.subheader("6 · Several reward functions")
st.markdown(citations.cite(TEXT["multi"]["intro"]))
if summary.aggregation is None:
    st.caption(TEXT["multi"]["none"])
else:
    agg = summary.aggregation
    changed = int(agg["sign_changed"].sum())
    st.markdown(
        f"**This log:** the two ways differ by up to {fmt(agg['difference'].abs().max(), 3)}; "
        f"{plural(changed, 'answer')} {'changes' if changed == 1 else 'change'} sign."
    )
    show(figures.aggregation_figure(agg), key="tl.agg_log")
st.markdown("**The playground's rewards**")
st.caption(TEXT["multi"]["playground"])
parsed = state.parsed_rewards()
first, numbers = parsed.groups[0], parsed.answers[0]  # each answer keeps its grid row
if len(first) < 2:  # a group of one has nothing to compare
    first, numbers = [1.0, 0.0], [1, 2]
start = pd.DataFrame(
    {"accuracy": first, "format": [FORMAT_BONUS * (i % 2 == 0) for i in range(len(first))]},
    index=[f"answer {n}" for n in numbers],
)
editor_key = f"tl.multi.{st.session_state['grid_version']}"  # a new grid starts afresh
typed = st.data_editor(start, key=editor_key, num_rows="fixed", width="stretch")
values = typed.to_numpy(dtype=np.float64, na_value=0.0)
try:
    both = compare_aggregations(values, np.zeros(len(values), dtype=int), names=list(typed.columns))
except ValueError as error:
    st.warning(markdown_safe(str(error)))
    st.stop()
st.dataframe(both, hide_index=True, key="tl.multi_table", width="stretch")
show(figures.aggregation_figure(both), key="tl.agg_playground")
