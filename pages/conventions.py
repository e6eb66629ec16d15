"""Library conventions: the same rewards through TRL, verl, OpenRLHF and the rest, and why
their numbers differ; then batch vs group scaling on two reward scales."""

import streamlit as st

from grpo_core import CONVENTIONS
from grpo_core.compare import conventions_table, numpy_snippet
from grpo_core.format import as_typed, cell
from ui import controls, lab, narrate, page, state
from ui import conventions_page as cp
from ui.figures import conventions as figures
from ui.figures.common import show
from ui.text import markdown_safe

TYPED = "1, 0, 1, 1; 0.9, 0.2, 0.5, 0.7"
PROMPT_A, PROMPT_B = "0, 1, 0, 1", "0, 100, 50, 100"
SCALING_PANELS = {
    "group": "group: ÷ its own std",
    "batch": "batch: ÷ the batch std",
    "none": "none: R − mean",
}


page.start()
st.title("Library conventions")
st.markdown(lab.words("conventions", "intro"))
narrate.listen(lab.words("conventions", "intro"))

# 1. Rewards ------------------------------------------------------------------------------
source = st.segmented_control(
    "Rewards to compare",
    ["playground", "typed"],
    format_func={"playground": "The playground's rewards", "typed": "Type rewards"}.get,
    default="playground",
    required=True,
    key="conv.source",
    help=lab.words("conventions", "source_help"),
    bind="query-params",
)
if source == "typed":
    entered = lab.rewards_input(
        "Rewards",
        "conv.rewards",
        TYPED,
        help=lab.words("conventions", "typed_help"),
        one_prompt=False,
    )
else:
    entered = parsed = state.parsed_rewards()
    if parsed.errors:
        st.warning(
            f"{len(parsed.errors)} playground cell(s) are not numbers and are left out "
            f"(first: {markdown_safe(str(parsed.errors[0]))})"
        )
    st.page_link(
        "pages/playground.py", label="Edit them in the playground", icon=":material/science:"
    )
state.write_link(with_rewards=source == "playground", with_settings=False)  # borrowed: in the link
groups, notes = cp.usable(entered)
for note in notes:
    st.warning(note)

# 2. Side by side -------------------------------------------------------------------------
st.subheader("The same rewards, every convention")
if not groups:
    st.info("Enter some rewards to compare the conventions.")
else:
    comparison, sentences = cp.compare(groups)
    frame = comparison.frame
    table = {
        "prompt": frame["prompt"],
        "answer": frame["answer"],
        "reward": [as_typed(r) for r in frame["reward"]],
    }
    table.update({name: [cell(a, nan="refused") for a in frame[name]] for name in CONVENTIONS})
    st.dataframe(table, hide_index=True, key="conv.table")
    if comparison.refusals:
        refused = ", ".join(comparison.refusals)
        with st.expander(f"Refused by {refused}: why"):
            st.markdown(
                "\n".join(f"- **{name}**: {why}" for name, why in comparison.refusals.items())
            )
    show(figures.conventions_figure(comparison.long(), comparison.refusals), key="conv.chart")
    st.caption(
        f"One group of bars per answer (P = prompt, # = answer), one bar per convention "
        f"({', '.join(CONVENTIONS)}); bars above 0 push the answer up, below 0 push it down. "
        "The table above lists every bar's value."
    )

    st.subheader("What differs, and why")
    st.markdown(lab.words("conventions", "why"))
    st.markdown("\n".join(f"- {sentence}" for sentence in sentences))
    with st.expander("Every convention's settings, as read from the libraries"):
        st.markdown(lab.words("conventions", "registry"))
        st.dataframe(conventions_table(), hide_index=True, key="conv.registry")

    st.subheader("Paste into a notebook")
    sizes = {len(g) for g in groups.values()}
    rectangular = len(sizes) == 1 and min(sizes) > 1  # what a numpy array R can hold
    st.markdown(lab.words("conventions", "code" if rectangular else "code_uneven"))
    for tab, (name, conv) in zip(st.tabs(list(CONVENTIONS)), CONVENTIONS.items(), strict=True):
        tab.caption(f"{conv.library}. {conv.description} Source: `{conv.source}`.")
        tab.code(
            numpy_snippet(name, cp.rewards(groups)) if rectangular else conv.code,
            language="python",
        )

# 3. Batch vs group scaling ----------------------------------------------------------------
st.subheader("Batch vs group scaling")
st.markdown(lab.words("scaling", "intro"))
c1, c2 = st.columns(2)
with c1:
    a = lab.rewards_input(
        "Prompt 1 (graded 0 or 1)", "conv.a", PROMPT_A, help="Numbers separated by commas."
    )
with c2:
    b = lab.rewards_input(
        "Prompt 2 (graded 0 to 100)", "conv.b", PROMPT_B, help="Numbers separated by commas."
    )
pair = cp.pair(a, b)
if len(pair) < 2:
    st.info("Give each prompt at least two rewards to compare the three scalings.")
else:
    scaling = cp.scale(pair)
    show(figures.scaling_figure(scaling.frame, SCALING_PANELS), key="conv.scaling_chart")
    mean_abs = scaling.mean_abs
    n = {
        f"{mode}_{x}": cell(mean_abs[mode][p]) for mode in mean_abs for x, p in (("a", 1), ("b", 2))
    }
    st.caption(
        "The same two prompts under TRL's three scale_rewards modes; each bar is one answer's "
        f"advantage. Mean |A| of prompt 1 and 2: group {n['group_a']} and {n['group_b']}, batch "
        f"{n['batch_a']} and {n['batch_b']}, none {n['none_a']} and {n['none_b']}."
    )
    st.markdown(lab.words("scaling", "reading", batch_std=cell(scaling.batch_std), **n))
    st.dataframe(
        {
            "prompt": [f"Prompt {p}" for p in mean_abs.index],
            "group std": [cell(s) for s in scaling.group_std],
            "mean |A|, group": [cell(x) for x in mean_abs["group"]],
            "mean |A|, batch": [cell(x) for x in mean_abs["batch"]],
            "mean |A|, none": [cell(x) for x in mean_abs["none"]],
        },
        hide_index=True,
        key="conv.scaling_table",
    )
    st.caption(f"Batch std (every reward of both prompts, ddof=1): {cell(scaling.batch_std)}.")

st.markdown("**Share this view**: the link reproduces the rewards, typed or the playground's.")
controls.share_link()
