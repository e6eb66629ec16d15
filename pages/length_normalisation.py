"""Length normalisation: how per-token losses become one loss, and the bias toward long
wrong answers. Prose from content/length_normalisation.md, numbers from grpo_core.lengthnorm."""

import plotly.graph_objects as go
import streamlit as st

from grpo_core.lengthnorm import (
    LOSS_TYPES,
    explain_length_bias,
    length_bias_table,
    token_count,
    token_strip,
)
from ui import charts, controls, learn, narrate, state
from ui.theme import INK, NEGATIVE, NEGATIVE_PATTERN, NEUTRAL, POSITIVE, TEMPLATE

EXAMPLE = "your-own-two-answers"
EXAMPLE_TITLE = "Your own two answers"
AFTER = "worked-numbers-a-short-right-answer-and-a-long-wrong-one"  # the example follows it
NAMES = ("A", "B")
MAX_LENGTH, MAX_LIMIT = 512.0, 32_768.0


def sign_style(value: float) -> dict:
    """Bar colour and pattern: blue for up, vermillion and hatched for down, grey for 0."""
    if value > 0:
        return {"color": POSITIVE, "pattern": {"shape": ""}}
    if value < 0:
        return {"color": NEGATIVE, "pattern": {"shape": NEGATIVE_PATTERN}}
    return {"color": NEUTRAL, "pattern": {"shape": ""}}


def direction(value: float) -> str:
    return "up" if value > 0 else "down" if value < 0 else "not at all"


# The four panels of the token strip on a 2 × 2 grid: x domain, y domain, title's x.
PANELS = (
    ((0, 0.47), (0.58, 1), 0.235),
    ((0.53, 1), (0.58, 1), 0.765),
    ((0, 0.47), (0, 0.42), 0.235),
    ((0.53, 1), (0, 0.42), 0.765),
)


def strip_figure(strips: dict, same_scale: bool) -> go.Figure:
    """One panel per loss type: a bar per token, its height the token's push w × A.

    Built as one dict (not make_subplots + add_trace) because that is 2-3 times faster.
    Every panel shares the first one's x axis, and its y axis too when ``same_scale``."""
    data, annotations = [], []
    layout = {"template": TEMPLATE, "height": 560, "bargap": 0.12, "margin": {"t": 56}}
    for k, ((name, strip), (x_domain, y_domain, title_x)) in enumerate(
        zip(strips.items(), PANELS, strict=True)
    ):
        axis = "" if k == 0 else str(k + 1)
        for c, answer in enumerate(NAMES, start=1):
            tokens = strip[strip.completion == c]
            push = float(tokens.push.iloc[0])
            data.append(
                {
                    "type": "bar",
                    "x": tokens.position.to_numpy(),
                    "y": tokens.push.to_numpy(),
                    "xaxis": f"x{axis}",
                    "yaxis": f"y{axis}",
                    "name": f"answer {answer}",
                    "marker": {**sign_style(push), "line": {"width": 0}},
                    "text": [answer] + [""] * (len(tokens) - 1),
                    "textposition": "outside",
                    "cliponaxis": False,
                    "customdata": tokens.token.to_numpy(),
                    "hovertemplate": f"answer {answer}, token %{{customdata}}: "
                    "push %{y:.4g}<extra></extra>",
                    "showlegend": False,
                }
            )
        bottom, left = k >= 2, k % 2 == 0
        layout[f"xaxis{axis}"] = {
            "domain": x_domain,
            "anchor": f"y{axis}",
            "showticklabels": False,
            **({"matches": "x"} if k else {}),
            **({"title": {"text": "tokens: answer A, then answer B"}} if bottom else {}),
        }
        layout[f"yaxis{axis}"] = {
            "domain": y_domain,
            "anchor": f"x{axis}",
            "zeroline": True,
            "zerolinecolor": INK,
            "showticklabels": left or not same_scale,
            **({"matches": "y"} if k and same_scale else {}),
            **({"title": {"text": "push per token (w × A)"}} if left else {}),
        }
        annotations.append(
            {
                "text": f'"{name}" · w = {LOSS_TYPES[name].weight}',
                "x": title_x,
                "y": y_domain[1],
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 15},
            }
        )
    layout["annotations"] = annotations
    return go.Figure(data=data, layout=layout)


def totals_figure(table) -> go.Figure:
    """The total push on each answer (its length × its per-token push), per loss type."""
    fig = go.Figure(layout={"template": TEMPLATE, "height": 380, "barmode": "group"})
    for c, answer in enumerate(NAMES, start=1):
        rows = table[table.completion == c]
        fig.add_trace(
            go.Bar(
                x=[f'"{t}"' for t in rows.loss_type],
                y=rows.sequence_push,
                name=f"answer {answer}",
                marker={
                    "color": [sign_style(v)["color"] for v in rows.sequence_push],
                    "pattern": {
                        "shape": [sign_style(v)["pattern"]["shape"] for v in rows.sequence_push]
                    },
                    "line": {"color": INK, "width": 1},
                },
                text=[f"{answer} {charts.signed(v)}" for v in rows.sequence_push],
                textposition="outside",
                cliponaxis=False,
                hovertemplate=f"answer {answer}, %{{x}}: total push %{{y:.4g}}<extra></extra>",
                showlegend=False,
            )
        )
    fig.update_layout(title="Total push on each answer (all its tokens together)")
    fig.update_yaxes(title="total push (|o| × w × A)", zeroline=True, zerolinecolor=INK)
    fig.update_xaxes(title="loss_type")
    return fig


def per_answer(table, column: str) -> str:
    """'"grpo" A +0.25, B −0.0625; ...' for a caption."""
    parts = []
    for name in LOSS_TYPES:
        rows = table[table.loss_type == name]
        values = ", ".join(
            f"{a} {charts.signed(v)}" for a, v in zip(NAMES, rows[column], strict=True)
        )
        parts.append(f'"{name}" {values}')
    return "; ".join(parts)


@st.cache_data(max_entries=256, show_spinner=False)
def views(lengths: tuple, advantages: tuple, limit: int | None, same_scale: bool):
    """The table and both figures for these answers (``limit``: L_max for "dr_grpo", None
    for the longest answer). A ValueError from grpo_core propagates and is not cached."""
    table = length_bias_table(lengths, advantages, max_completion_length=limit)
    strips = {
        name: token_strip(
            lengths,
            advantages,
            name,
            **({"max_completion_length": limit} if name == "dr_grpo" else {}),
        )
        for name in LOSS_TYPES
    }
    return table, strip_figure(strips, same_scale), totals_figure(table)


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
    whole = {"step": 1.0, "format": "%g", "bind": "query-params"}
    signed_number = {"step": 0.25, "format": "%g", "bind": "query-params"}
    len_a = c1.number_input(
        "Answer A: length (tokens)", 1.0, MAX_LENGTH, 2.0, key="ln.len_a", **whole
    )
    adv_a = c2.number_input("Answer A: advantage", value=1.0, key="ln.adv_a", **signed_number)
    len_b = c3.number_input(
        "Answer B: length (tokens)", 1.0, MAX_LENGTH, 8.0, key="ln.len_b", **whole
    )
    adv_b = c4.number_input("Answer B: advantage", value=-1.0, key="ln.adv_b", **signed_number)
    limit = c5.number_input(
        "max_completion_length",
        1.0,
        MAX_LIMIT,
        8.0,
        key="ln.lmax",
        help='L_max for "dr_grpo": it divides by (number of answers × L_max). '
        "It must be at least the longest answer.",
        **whole,
    )
    advantages = [adv_a, adv_b]
    try:
        lengths = [
            token_count(len_a, "Answer A's length"),
            token_count(len_b, "Answer B's length"),
        ]
    except ValueError as e:
        st.warning(f"{e} Type a whole number from 1 to {MAX_LENGTH:g}.")
        return
    lengths, advantages = tuple(lengths), tuple(advantages)
    same = st.session_state.get("ln.same", True)  # the toggle is drawn under its chart
    try:
        table, strips, totals = views(
            lengths, advantages, token_count(limit, "max_completion_length"), same
        )
    except ValueError as e:
        st.warning(f'{e} "dr_grpo" below uses the longest answer\'s length instead.')
        try:
            table, strips, totals = views(lengths, advantages, None, same)
        except ValueError as e2:
            st.warning(f"These answers cannot be compared: {e2}")
            return

    st.subheader("Push on every token, per loss type")
    charts.show(strips, key="ln.strip_chart")
    st.toggle(
        "Same vertical scale on every panel",
        value=True,
        key="ln.same",
        bind="query-params",
        help="Off: each panel gets its own scale, to read small pushes on long answers.",
    )
    scale = (
        "every panel uses the same vertical scale"
        if same
        else "each panel has its own vertical scale"
    )
    st.caption(
        f"One bar per token; answer A's tokens come first, then answer B's, and {scale}. "
        "A bar's height is the token's push w × A: above 0 (blue) its probability is pushed "
        "up, below 0 (vermillion, hatched) down; the area of an answer's bars is its total "
        f"push. Push per token: {per_answer(table, 'per_token_push')}."
    )

    st.subheader("Total push per answer")
    charts.show(totals, key="ln.totals_chart")
    st.caption(
        "Each bar is one answer's total push, the sum over its tokens (bars labelled with "
        f"the answer's letter and a signed value): {per_answer(table, 'sequence_push')}."
    )
    shown = table.assign(answer=table.completion.map(dict(enumerate(NAMES, start=1))))[
        ["loss_type", "answer", "length", "advantage", "token_weight", "per_token_push",
         "sequence_push"]
    ]  # fmt: skip
    st.dataframe(
        shown,
        hide_index=True,
        key="ln.table",
        column_config={
            "token_weight": st.column_config.NumberColumn("weight w per token", format="%.4g"),
            "per_token_push": st.column_config.NumberColumn("push per token", format="%+.4g"),
            "sequence_push": st.column_config.NumberColumn("total push", format="%+.4g"),
            "advantage": st.column_config.NumberColumn("advantage", format="%+.4g"),
        },
    )

    st.subheader("What this shows")
    st.caption("Completion 1 is answer A, completion 2 is answer B.")
    for sentence in explain_length_bias(lengths, advantages):
        st.markdown(f"- {sentence}")
    st.caption(
        '"dapo" divides by the tokens of the whole global batch; with this one batch that is '
        'the same as "bnpo".'
    )


state.init()
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
st.markdown("**Share this view**: the link below reproduces your two answers.")
controls.share_link()
