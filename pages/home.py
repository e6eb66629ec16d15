"""Home: what GRPO's advantage is, in three sentences, and where to start."""

import streamlit as st

import content
from grpo_core import group_advantages
from grpo_core.format import fmt, signed
from ui import narrate, page
from ui.figures import group as figures
from ui.figures.common import show

EXAMPLE = [1, 0, 0, 1, 0, 0, 0, 1]

page.start()
st.title("GRPO advantage lab")
INTRO = content.read_text("home.md")
st.markdown(INTRO)
narrate.listen(INTRO)

advantages = group_advantages(EXAMPLE, convention="trl")
left, right = st.columns([2, 3])
with left:
    st.markdown(
        f"**Example.** Eight answers to one math problem, three of them right: rewards "
        f"`{EXAMPLE}`. Under TRL's convention each right answer gets "
        f"**{signed(advantages[0])}** and each wrong one **{signed(advantages[1])}**."
    )
    st.markdown("**Start here**")
    st.page_link("pages/guide.py", label="Read the concept guide", icon=":material/menu_book:")
    st.page_link(
        "pages/walkthrough.py", label="Step through the formula", icon=":material/footprint:"
    )
    st.page_link("pages/playground.py", label="Try your own rewards", icon=":material/science:")
    st.markdown("**Preparing for an interview?**")
    st.page_link(
        "pages/cheatsheet.py", label="Read the one-page cheat sheet", icon=":material/description:"
    )
    st.page_link(
        "pages/interview.py",
        label="Take a mock interview drill",
        icon=":material/record_voice_over:",
    )
with right:
    show(
        figures.advantages_figure(advantages, title="Advantages of the example group"),
        key="home.chart",
    )
    st.caption(
        "Three right answers pushed up (+" + fmt(advantages[0]) + "), five wrong ones "
        "pushed down (" + signed(advantages[1]) + ")."
    )
