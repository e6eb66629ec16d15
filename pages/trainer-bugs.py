"""Bugs trainers shipped: documented advantage failures of real trainers, reproduced."""

import streamlit as st

import content
from content import citations
from grpo_core.format import cell
from grpo_core.trainer_bugs import BUGS
from ui import log_view, page

TEXT = content.read_toml("training_log.toml")
page.start()
st.title("Bugs trainers shipped")
st.markdown(citations.cite(TEXT["bugs"]["intro"]))

for bug in BUGS.values():
    prose = TEXT["bug"][bug.id]
    with st.container(border=True, key=f"tb.{bug.id}"):
        st.subheader(f"{bug.trainer}: {prose['title']}")
        st.markdown(f"[The public record]({bug.url}) · [the fix]({bug.fix_url})")
        st.markdown(citations.cite(prose["what"]))
        table = bug.frame()
        shown = table.assign(
            **{c: table[c].map(cell) for c in ("reward", "printed", "should have printed")}
        )
        st.dataframe(shown, hide_index=True, key=f"tb.{bug.id}.table", width="stretch")
        st.markdown(f"**The fix.** {prose['fix']}")
        exact = "playground_exact" if bug.reproduces else "playground_rewards"
        st.caption(TEXT["bugs"][exact])
        groups = [row for row in table.groupby("prompt")["reward"].apply(list)]
        log_view.open_buttons(groups, key=f"tb.{bug.id}.open", settings=bug.playground)

st.markdown(citations.cite(TEXT["bugs"]["left_out"]))
