"""Concept guide: content/guide.md section by section, each with a link to try it."""

import streamlit as st

from ui import controls, learn, narrate, page, state

ALL = "all"


def step(offset: int, anchors: list[str]) -> None:
    """Show the previous or next section (one-section view)."""
    at = anchors.index(st.session_state["guide.s"]) + offset
    st.session_state["guide.s"] = anchors[min(max(at, 0), len(anchors) - 1)]


page.start()
doc = learn.load("guide.md")
titles = {s.anchor: s.title for s in doc.sections}
anchors = list(titles)

st.title(doc.title)
st.markdown(doc.intro)
listen = st.container()  # under the intro: above the fold at every width, not under the contents

# The URL's ``s`` names the section shown alone (a section's anchor); anything else is
# ignored and every section is shown.
if "guide.s" not in st.session_state:
    wanted = st.query_params.get(state.GUIDE_SECTION_PARAM)
    st.session_state["guide.s"] = wanted if wanted in titles else ALL
left, right = st.columns([3, 2])
with right:
    shown = st.selectbox(
        "Show one section at a time",
        [ALL, *anchors],
        format_func=lambda a: "No: every section" if a == ALL else titles[a],
        key="guide.s",
        help="For a class: project one section, step with Previous / Next; the link keeps it.",
    )
if shown == ALL:
    st.query_params.pop(state.GUIDE_SECTION_PARAM, None)
else:
    st.query_params[state.GUIDE_SECTION_PARAM] = shown
with left:
    if shown == ALL:
        st.markdown("**Contents**")
        learn.contents([(s.title, s.anchor) for s in doc.sections])

spoken = doc.sections if shown == ALL else [doc.sections[anchors.index(shown)]]
with listen:
    narrate.listen("\n\n".join(f"{item.title}. {item.body}" for item in spoken))
if shown == ALL:
    for item in doc.sections:
        learn.section(item)
else:
    at = anchors.index(shown)
    learn.section(doc.sections[at])
    learn.scroll_to_section(shown)
    prev, where, after = st.columns([1, 4, 1], vertical_alignment="center")
    prev.button("← Previous", key="guide.prev", on_click=step, args=(-1, anchors), disabled=at == 0)
    where.caption(f"Section {at + 1} of {len(anchors)}")
    after.button(
        "Next →",
        key="guide.next",
        on_click=step,
        args=(1, anchors),
        disabled=at == len(anchors) - 1,
    )

    st.divider()
    st.markdown("**Share this view**: the link opens the guide at this section.")
    controls.share_link()
