"""Length normalisation: how per-token losses become one loss, and the bias toward long
wrong answers. Prose from content/length_normalisation.md, numbers from grpo_core.lengthnorm."""

import streamlit as st

from grpo_core import lengthnorm
from grpo_core.format import signed
from grpo_core.lengthnorm import LOSS_TYPES, token_count
from ui import controls, learn, narrate, page
from ui.figures import length as figures
from ui.figures.common import show

EXAMPLE = "your-own-two-answers"
EXAMPLE_TITLE = "Your own two answers"
AFTER = "worked-numbers-a-short-right-answer-and-a-long-wrong-one"  # the example follows it
NAMES = figures.NAMES
MAX_LENGTH, MAX_LIMIT = 512.0, 32_768.0
TABLE_COLUMNS = {  # column -> its header and format in the table
    "token_weight": ("weight w per token", "%.4g"),
    "per_token_push": ("push per token", "%+.4g"),
    "sequence_push": ("total push", "%+.4g"),
    "advantage": ("advantage", "%+.4g"),
}


def per_answer(table, column: str) -> str:
    """'"grpo" A +0.25, B −0.0625; ...' for a caption."""
    parts = []
    for name in LOSS_TYPES:
        values = table[table.loss_type == name][column]
        parts.append(
            f'"{name}" ' + ", ".join(f"{a} {signed(v)}" for a, v in zip(NAMES, values, strict=True))
        )
    return "; ".join(parts)


def compare(lengths: tuple, advantages: tuple, limit: float):
    """``lengthnorm.comparison``; if L_max is refused, warn and use the longest answer."""
    try:
        limit = token_count(limit, "max_completion_length")
        return lengthnorm.comparison(lengths, advantages, max_completion_length=limit)
    except ValueError as e:
        st.warning(f'{e} "dr_grpo" below uses the longest answer\'s length instead.')
    return lengthnorm.comparison(lengths, advantages)


def example() -> None:
    """The interactive example: two answers, every loss type, charts and sentences."""
    st.header(EXAMPLE_TITLE, anchor=EXAMPLE)
    st.markdown(
        "Set the length and advantage of two answers in the same batch. The defaults are "
        "the worked numbers above: a short right answer and a long wrong one."
    )
    # Lengths are float-typed inputs shown as whole numbers ("%g"): Streamlit's int inputs
    # crash on a link such as ?ln.len_a=inf, float inputs fall back to their default.
    c1, c2, c3, c4, c5 = st.columns(5, vertical_alignment="bottom")
    link = {"format": "%g", "bind": "query-params"}
    length = {"min_value": 1.0, "max_value": MAX_LENGTH, "step": 1.0, **link}
    len_a = c1.number_input("Answer A: length (tokens)", value=2.0, key="ln.len_a", **length)
    adv_a = c2.number_input("Answer A: advantage", value=1.0, step=0.25, key="ln.adv_a", **link)
    len_b = c3.number_input("Answer B: length (tokens)", value=8.0, key="ln.len_b", **length)
    adv_b = c4.number_input("Answer B: advantage", value=-1.0, step=0.25, key="ln.adv_b", **link)
    limit = c5.number_input(
        "max_completion_length",
        1.0,
        MAX_LIMIT,
        8.0,
        1.0,
        key="ln.lmax",
        **link,
        help='Lₘₐₓ for "dr_grpo": it divides by (number of answers × Lₘₐₓ). '
        "It must be at least the longest answer.",
    )
    try:
        lengths = (token_count(len_a, "Answer A's length"), token_count(len_b, "Answer B's length"))
    except ValueError as e:
        st.warning(f"{e} Type a whole number from 1 to {MAX_LENGTH:g}.")
        return
    try:
        view = compare(lengths, (adv_a, adv_b), limit)
    except ValueError as e:
        st.warning(f"These answers cannot be compared: {e}")
        return

    st.subheader("Push on every token, per loss type")
    same = st.session_state.get("ln.same", True)  # the toggle is drawn under its chart
    show(figures.strip_figure(view.strips, same), key="ln.strip_chart")
    st.toggle(
        "Same vertical scale on every panel",
        value=True,
        key="ln.same",
        bind="query-params",
        help="Off: each panel gets its own scale, to read small pushes on long answers.",
    )
    scale = "every panel uses the same" if same else "each panel has its own"
    st.caption(
        f"One bar per token; answer A's tokens come first, then answer B's, and {scale} "
        "vertical scale. A bar's height is the token's push w × A: above 0 (blue) its "
        "probability is pushed up, below 0 (vermillion, hatched) down; the area of an answer's "
        f"bars is its total push. Push per token: {per_answer(view.table, 'per_token_push')}."
    )

    st.subheader("Total push per answer")
    show(figures.totals_figure(view.table), key="ln.totals_chart")
    st.caption(
        "Each bar is one answer's total push, the sum over its tokens (bars labelled with "
        f"the answer's letter and a signed value): {per_answer(view.table, 'sequence_push')}."
    )
    table = view.table.assign(answer=view.table.completion.map(dict(enumerate(NAMES, start=1))))
    columns = ["loss_type", "answer", "length", "advantage", "token_weight", "per_token_push"]
    st.dataframe(
        table[[*columns, "sequence_push"]],
        hide_index=True,
        key="ln.table",
        column_config={
            column: st.column_config.NumberColumn(header, format=number_format)
            for column, (header, number_format) in TABLE_COLUMNS.items()
        },
    )

    st.subheader("What this shows")
    st.caption("Completion 1 is answer A, completion 2 is answer B.")
    for sentence in view.sentences:
        st.markdown(f"- {sentence}")
    st.caption(
        '"dapo" divides by the tokens of the whole global batch; with this one batch that is '
        'the same as "bnpo".'
    )


page.start()
doc = learn.load("length_normalisation.md")
anchors = [item.anchor for item in doc.sections]
after = AFTER if AFTER in anchors else anchors[-1]  # if the prose is reorganised
st.title(doc.title)
st.markdown(doc.intro)
narrate.listen("\n\n".join([doc.intro, *(f"{i.title}. {i.body}" for i in doc.sections)]))
entries = []
for item in doc.sections:
    entries.append((item.title, item.anchor))
    if item.anchor == after:
        entries.append((EXAMPLE_TITLE, EXAMPLE))
st.markdown("**Contents**")
learn.contents(entries)

for item in doc.sections:
    learn.section(item)
    if item.anchor == after:
        example()

st.divider()
st.markdown("**Share this view**: the link reproduces your two answers.")
controls.share_link()
