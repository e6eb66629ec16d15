"""Step-by-step walkthrough: the advantage formula one operation at a time, with real numbers."""

import streamlit as st

from grpo_core import advantage_trace
from grpo_core.compare import sample_to_population_ratio
from grpo_core.format import fmt
from grpo_core.latex import (
    advantage_latex,
    breakable,
    centring_latex,
    mean_latex,
    scale_std_latex,
    vector_latex,
)
from grpo_core.sentences import describe_group
from ui import controls, formulas, narrate, nav, page, present, state
from ui import walkthrough_page as wp
from ui.figures import group as figures
from ui.figures.common import show

STEPS = wp.STEPS
WHITEBOARD = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, population std 2: every step is round


page.start()
state.read_link_choice("wt.step", range(1, len(STEPS) + 1))
st.session_state.setdefault("wt.step", 1)
presenting = present.active()
slide = st.container() if presenting else None  # presenting, the step is a slide at the top
st.title("Step-by-step walkthrough")
st.markdown(
    "Six steps turn a group's rewards into advantages. Follow them on your own rewards "
    "from the playground, on a whiteboard example you can check by hand, or on eight "
    "written answers to a real math problem, graded by a verifier."
)
listen = st.container()  # under the intro: above the fold, also on a phone
source = st.segmented_control(
    "Rewards to follow",
    ["yours", "whiteboard", "real"],
    format_func={
        "yours": "Your rewards",
        "whiteboard": "Whiteboard example",
        "real": "A real math problem",
    }.get,
    default="yours",
    required=True,
    key="wt.source",
    bind="query-params",
)
if presenting:
    wp.back_to_the_slide(source)
# The link carries what the view borrows: the playground's rewards and the convention.
state.write_link(with_rewards=source == "yours", with_settings=source != "whiteboard")

numbers_of = None  # the answers' numbers by position: the grid's rows for yours, else 1..K
if source == "whiteboard":
    trace = advantage_trace(WHITEBOARD, convention="zscore")
    labels = ["Whiteboard group"]
    st.info(
        "Eight rewards chosen so every step is a round number: mean 5, population std 2 "
        "(ddof=0), eps 0. TRL divides by the sample std instead, which makes every "
        f"advantage {fmt(sample_to_population_ratio(len(WHITEBOARD)))} times the one shown here."
    )
elif source == "real":
    with st.expander("Convention"):
        controls.settings_controls()
    trace = wp.real_example(wp.load_example(), state.settings())
    labels = ["The library problem"]
else:
    with st.expander("Convention"):
        controls.settings_controls()
    settings = state.settings()
    batch = state.current_batch(settings.kwargs())
    for note in batch.notes:
        st.warning(note)
    if not batch.rewards:
        st.info("The playground has no usable rewards: enter some there first.")
        nav.link("playground", "Open the reward playground")
        st.stop()
    trace = advantage_trace(batch.rewards, group_ids=batch.prompt_ids, **settings.kwargs())
    labels = [f"Prompt {p}" for p in trace.labels]
    numbers_of = batch.numbers

st.divider()
c1, c2 = st.columns(2)
state.read_link_choice("wt.prompt", range(len(labels)))
controls.refresh_choice("wt.prompt", labels)
g = c1.selectbox("Prompt", range(len(labels)), format_func=labels.__getitem__, key="wt.prompt")
members = trace.members(g)
rewards = trace.rewards.ravel()[members]
numbers = numbers_of(members) if numbers_of else None
state.read_link_choice("wt.answer", range(len(members)))
answers = wp.answer_choices(rewards, numbers)
controls.refresh_choice("wt.answer", answers)
answer = c2.selectbox(
    "Answer to follow in the formulas",
    range(len(members)),
    format_func=answers.__getitem__,
    key="wt.answer",
)
answer = min(answer or 0, len(members) - 1)

step = st.session_state["wt.step"]
state.write_link_values("wt.step", "wt.prompt", "wt.answer")
words = STEPS[step - 1]
slide = slide or st.container()
wp.step_buttons_style()
prev, where, after = slide.columns([1, 4, 1], vertical_alignment="center")
prev.button(
    "← Previous",
    key="wt.prev",
    on_click=wp.go_to,
    args=(step - 1,),
    disabled=step == 1,
    shortcut="Left",
    help="Left arrow key",
)
progress = f"Step {step} of {len(STEPS)}: {words['title']}"
if presenting:  # the slide's title between its buttons; where it is, under the slide
    where.subheader(f"{step} · {words['title']}")
else:
    where.progress(step / len(STEPS), text=progress)
after.button(
    "Next →",
    key="wt.next",
    on_click=wp.go_to,
    args=(step + 1,),
    disabled=step == len(STEPS),
    shortcut="Right",
    help="Right arrow key",
    type="primary",
)

conv = trace.convention
centred = trace.centred.ravel()[members]
centred_sum = trace.group_sums(g)[0]
advantages = trace.advantages.ravel()[members]
explanation = wp.step_text(step, trace, g, answer, labels[g], numbers)
# In reading order the explanation comes first; on a slide the formula and the chart do.
order = ("maths", "chart", "words", "notes") if presenting else ("words", "maths", "notes", "chart")
with slide:
    if not presenting:
        st.subheader(f"{step} · {words['title']}")
    box = {name: st.container() for name in order}
    maths, notes = box["maths"], box["notes"]
    if presenting:
        st.progress(step / len(STEPS), text=progress)
box["words"].markdown(explanation)
with listen:
    narrate.listen(f"Step {step}: {words['title']}. {explanation}")

mean, std = trace.mean[g], trace.std[g]
if step == 1:
    r_vector = vector_latex("R", rewards, 6)
    formulas.show(r_vector, narrow=breakable(r_vector), container=maths)
    figure = figures.rewards_figure(rewards, None, None, title="Rewards", numbers=numbers)
elif step == 2:
    maths.latex(mean_latex(trace, g))
    figure = figures.rewards_figure(
        rewards, mean, None, title="Rewards and their mean", numbers=numbers
    )
elif step == 3:
    maths.latex(centring_latex(trace, g, answer, numbers))
    notes.caption(f"Sum of the centred rewards: {fmt(centred_sum)} (0 up to rounding).")
    figure = figures.rewards_figure(
        centred, mean, None, title="R − baseline", centred=True, numbers=numbers
    )
elif step == 4:
    scale = scale_std_latex(trace, g, answer, numbers=numbers)
    narrow = scale_std_latex(trace, g, answer, narrow=True, numbers=numbers)
    formulas.show(scale, narrow=narrow, container=maths)
    figure = figures.rewards_figure(
        centred, mean, std, title="R − baseline, ± 1 std", centred=True, numbers=numbers
    )
elif step == 5:
    maths.latex(advantage_latex(trace, g, answer, numbers))
    if trace.zero_spread[g]:
        notes.info("Every reward is equal: the numerator is 0, so every advantage is exactly 0.")
    elif trace.damped[g]:
        notes.warning(f"The std ({fmt(std)}) is below eps ({fmt(conv.eps)}): eps damps these.")
    figure = figures.advantages_figure(
        advantages, title="Advantages", clip=conv.clip, numbers=numbers
    )
else:
    a_vector = vector_latex("A", advantages)
    formulas.show(a_vector, narrow=breakable(a_vector), container=maths)
    notes.markdown(describe_group(trace, g, numbers))
    notes.caption(wp.sum_caption(trace, g))
    figure = figures.advantages_figure(
        advantages, title="Advantages", clip=conv.clip, numbers=numbers
    )

show(figure, key="wt.chart", container=box["chart"], slide=True)
if not presenting:
    wp.next_below(step)

st.markdown("**Share this view**: the link reproduces this step, rewards and answer.")
controls.share_link()
