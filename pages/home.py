"""Home: what GRPO's advantage is, in three sentences, and where to start."""

import streamlit as st

from grpo_core import group_advantages
from grpo_core.explain import fmt
from ui import charts, state
from ui.theme import CHART_CONFIG

EXAMPLE = [1, 0, 0, 1, 0, 0, 0, 1]

state.init()
st.title("GRPO advantage lab")
st.markdown(
    "GRPO trains a language model by sampling **K answers to the same prompt**, grading "
    "each one, and scoring every answer against its own group. An answer's advantage is "
    "how far its reward sits above or below the group's mean, measured in the group's "
    "standard deviations:"
)
st.latex(
    r"A_i = \frac{R_i - \operatorname{mean}(R_1, \dots, R_K)}"
    r"{\operatorname{std}(R_1, \dots, R_K) + \varepsilon}"
)
st.markdown(
    "The group mean replaces PPO's learned critic as the baseline, so no second network "
    "is trained; every token of an answer is then pushed up or down by its advantage."
)

advantages = group_advantages(EXAMPLE, convention="trl")
left, right = st.columns([2, 3])
with left:
    st.markdown(
        f"**Example.** Eight answers to one math problem, three of them right: rewards "
        f"`{EXAMPLE}`. Under TRL's convention each right answer gets "
        f"**{charts.signed(advantages[0])}** and each wrong one **{charts.signed(advantages[1])}**."
    )
    st.markdown("**Start here**")
    st.page_link("pages/guide.py", label="Read the concept guide", icon=":material/menu_book:")
    st.page_link(
        "pages/walkthrough.py", label="Step through the formula", icon=":material/footprint:"
    )
    st.page_link("pages/playground.py", label="Try your own rewards", icon=":material/science:")
with right:
    st.plotly_chart(
        charts.advantages_figure(advantages, title="Advantages of the example group"),
        key="home.chart",
        config=CHART_CONFIG,
    )
    st.caption(
        "Three right answers pushed up (+" + fmt(advantages[0]) + "), five wrong ones "
        "pushed down (" + charts.signed(advantages[1]) + ")."
    )
