"""Reward playground: type or sample rewards, choose a convention, see every step."""

import numpy as np
import pandas as pd
import streamlit as st

from grpo_core import advantage_trace
from grpo_core.csv_safe import frame_csv
from grpo_core.format import fmt, plural, signed
from grpo_core.multi_reward import collapsed, compare_aggregations
from grpo_core.rewards import SCENARIOS
from grpo_core.sentences import describe_group
from ui import controls, lab, page, state
from ui.figures import group as figures
from ui.figures import training_log as log_figures
from ui.figures.common import show


def resize() -> None:
    controls.resize_grid(int(st.session_state["pg.num_prompts"]), int(st.session_state["pg.k"]))


def sample() -> None:
    s = st.session_state
    rng = np.random.default_rng(int(s["pg.seed"]))
    rewards = SCENARIOS[s["pg.scenario"]].make(rng, int(s["pg.num_prompts"]), int(s["pg.k"]))
    state.set_grid([[f"{r:.6g}" for r in row] for row in rewards])


page.start()
st.title("Reward playground")
st.markdown(
    "Each column is one prompt, each row one of its K sampled answers, each cell the "
    "reward a grader gave it. Type your own rewards or sample them, then read what GRPO "
    "does with them: subtract the group's mean, divide by its spread."
)
for problem in state.link_problems():
    st.warning(f"This link could not be used as it is. {problem}")

# 1. Rewards ------------------------------------------------------------------------------
st.subheader("1 · Rewards")
grid = state.grid()
# The size inputs always show the grid's size; changing one resizes the grid.
st.session_state["pg.num_prompts"] = len(grid)
st.session_state["pg.k"] = max(len(c) for c in grid)
c1, c2, c3, c4, c5 = st.columns([1, 1, 2, 1, 1], vertical_alignment="bottom")
c1.number_input("Prompts", 1, state.MAX_PROMPTS, key="pg.num_prompts", on_change=resize)
c2.number_input("Answers per prompt (K)", state.MIN_K, state.MAX_K, key="pg.k", on_change=resize)
scenario = c3.selectbox(
    "Sample from", list(SCENARIOS), format_func=lambda s: SCENARIOS[s].title, key="pg.scenario"
)
c4.number_input("Seed", 0, 2**31 - 1, value=0, key="pg.seed")
c5.button("Sample", key="pg.sample", type="primary", width="stretch", on_click=sample)
st.caption(SCENARIOS[scenario].lesson)
controls.rewards_editor()

# 2. Convention ---------------------------------------------------------------------------
st.subheader("2 · Convention")
settings = controls.settings_controls()

# 3. Advantages ---------------------------------------------------------------------------
st.subheader("3 · Advantages")
batch = state.current_batch(settings.kwargs())
for note in batch.notes:
    st.warning(note)
left_out = state.write_link()  # cells that are not numbers stay out of the link
if not batch.rewards:
    st.info("Enter at least two rewards for a prompt to see its advantages.")
    st.stop()
trace = advantage_trace(batch.rewards, group_ids=batch.prompt_ids, **settings.kwargs())

prompt_labels = [f"Prompt {p}" for p in trace.labels]
shown = st.segmented_control(
    "Show",
    range(len(prompt_labels)),
    format_func=lambda g: prompt_labels[g],
    default=0,
    key="pg.prompt",
    required=True,
)
g = 0 if shown is None else shown
members = trace.group_index == g
rewards, advantages = trace.rewards[members], trace.advantages[members]
numbers = batch.numbers(trace.members(g))  # each answer keeps its row's number
st.markdown(f"**{prompt_labels[g]}.** {describe_group(trace, g, numbers)}")
left, right = st.columns(2)
show(
    figures.rewards_figure(
        rewards,
        trace.mean[g],
        trace.std[g],
        title=f"{prompt_labels[g]}: rewards and group mean",
        numbers=numbers,
    ),
    key="pg.rewards_chart",
    container=left,
)
left.caption(
    f"Rewards of {prompt_labels[g].lower()}: mean {fmt(trace.mean[g])} (dashed line), "
    f"std {fmt(trace.std[g])} (shaded band)."
)
show(
    figures.advantages_figure(
        advantages,
        title=f"{prompt_labels[g]}: advantages",
        clip=trace.convention.clip,
        numbers=numbers,
    ),
    key="pg.advantages_chart",
    container=right,
)
right.caption(
    "Advantages: bars above 0 (blue, +) push that answer's tokens up; below 0 "
    "(vermillion, hatched, −) push them down. Values: "
    + ", ".join(f"#{n} {signed(a)}" for n, a in zip(numbers, advantages, strict=True))
    + "."
)

with st.expander("What happens to every prompt", expanded=len(trace.labels) > 1):
    for i, label in enumerate(prompt_labels):
        st.markdown(f"**{label}.** {describe_group(trace, i, batch.numbers(trace.members(i)))}")

if st.toggle(
    "Several reward functions: sum first or normalise first (GDPO)",
    key="pg.multi",
    bind="query-params",
):
    st.markdown(lab.words("multi_reward", "intro"))
    collapse = [(1.0, 0.0), (0.0, 1.0), (0.0, 1.0), (0.0, 0.0)]  # (correct, formatted)
    start = pd.DataFrame(collapse * (len(rewards) // 4) + collapse[: len(rewards) % 4])
    start.columns = ["correctness", "format"]
    start.index = [f"answer {n}" for n in numbers]
    typed = st.data_editor(
        start, key=f"pg.multi_rewards.{g}.{len(rewards)}", num_rows="fixed", width="stretch"
    )
    values = typed.to_numpy(dtype=np.float64, na_value=0.0)
    ids = np.zeros(len(values), dtype=int)
    both = compare_aggregations(values, ids, names=list(typed.columns))
    tied = {
        way: plural(int(collapsed(values, ids, both[way]).sum()), "answer")
        for way in ("sum then normalise", "normalise then sum")
    }
    st.markdown(
        lab.words(
            "multi_reward",
            "verdict",
            summed=tied["sum then normalise"],
            split=tied["normalise then sum"],
        )
    )
    st.dataframe(both, hide_index=True, key="pg.multi_table", width="stretch")
    show(log_figures.aggregation_figure(both), key="pg.multi_chart")
    st.caption(lab.words("multi_reward", "chart"))

st.markdown("**Every step, every answer**")
table = trace.to_frame(batch.answer_ids).rename(columns={"centred": "R − baseline"})
st.dataframe(table, hide_index=True, key="pg.table", width="stretch")
d1, d2 = st.columns([1, 3])
d1.download_button(
    "Download CSV",
    frame_csv(table),
    file_name="grpo_advantages.csv",
    mime="text/csv",
    key="pg.csv",
)
with d2:
    st.markdown("**Share this view**: the link reproduces these rewards and settings.")
    if left_out:
        st.warning(
            f"The link leaves out {plural(len(left_out), 'cell')} that "
            f"{'are' if len(left_out) > 1 else 'is'} not a number: "
            + "; ".join(f"prompt {e.prompt}, answer {e.answer}" for e in left_out)
            + ". Fix them to share them."
        )
    controls.share_link()
