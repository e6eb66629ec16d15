"""Figures of the length normalisation page: the push w × A on every token of two
answers, one panel per loss type, and each answer's total push per loss type."""

from __future__ import annotations

import pandas as pd

from grpo_core.format import signed
from grpo_core.lengthnorm import LOSS_TYPES
from ui.figures.common import cached_figure, figure, sign_colour, sign_marker, sign_pattern
from ui.theme import INK

NAMES = ("A", "B")
"""The two answers' letters, completion 1 and 2."""
# The four panels of the token strip on a 2 × 2 grid: x domain, y domain, title's x.
PANELS = (
    ((0, 0.47), (0.58, 1), 0.235),
    ((0.53, 1), (0.58, 1), 0.765),
    ((0, 0.47), (0, 0.42), 0.235),
    ((0.53, 1), (0, 0.42), 0.765),
)


def _token_bars(tokens: pd.DataFrame, answer: str, axis: str) -> dict:
    """One answer's tokens as bars of their push, coloured by its sign."""
    push = float(tokens.push.iloc[0])
    return {
        "type": "bar",
        "x": tokens.position.to_numpy(),
        "y": tokens.push.to_numpy(),
        "xaxis": f"x{axis}",
        "yaxis": f"y{axis}",
        "name": f"answer {answer}",
        "marker": {
            "color": sign_colour(push),
            "pattern": {"shape": sign_pattern(push)},
            "line": {"width": 0},
        },
        "text": [answer] + [""] * (len(tokens) - 1),
        "textposition": "outside",
        "cliponaxis": False,
        "customdata": tokens.token.to_numpy(),
        "hovertemplate": f"answer {answer}, token %{{customdata}}: push %{{y:.4g}}<extra></extra>",
        "showlegend": False,
    }


@cached_figure
def strip_figure(strips: dict[str, pd.DataFrame], same_scale: bool) -> dict:
    """One panel per loss type (``token_strip`` of each): a bar per token, its height the
    token's push w × A. Every panel shares the first one's x axis, and its y axis too
    when ``same_scale``."""
    data, axes, titles = [], {}, []
    for k, ((name, strip), (x_domain, y_domain, title_x)) in enumerate(
        zip(strips.items(), PANELS, strict=True)
    ):
        axis = "" if k == 0 else str(k + 1)
        for c, answer in enumerate(NAMES, start=1):
            data.append(_token_bars(strip[strip.completion == c], answer, axis))
        bottom, left = k >= 2, k % 2 == 0
        axes[f"xaxis{axis}"] = {
            "domain": x_domain,
            "anchor": f"y{axis}",
            "showticklabels": False,
            **({"matches": "x"} if k else {}),
            **({"title": {"text": "tokens: answer A, then answer B"}} if bottom else {}),
        }
        axes[f"yaxis{axis}"] = {
            "domain": y_domain,
            "anchor": f"x{axis}",
            "zeroline": True,
            "zerolinecolor": INK,
            "showticklabels": left or not same_scale,
            **({"matches": "y"} if k and same_scale else {}),
            **({"title": {"text": "push per token (w × A)"}} if left else {}),
        }
        titles.append(
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
    return figure(data, "", 560, bargap=0.12, margin={"t": 56}, annotations=titles, **axes)


@cached_figure
def totals_figure(table: pd.DataFrame) -> dict:
    """The total push on each answer (its length × its per-token push), per loss type
    (``length_bias_table``)."""
    data = []
    for c, answer in enumerate(NAMES, start=1):
        rows = table[table.completion == c]
        push = rows.sequence_push.to_numpy()
        data.append(
            {
                "type": "bar",
                "x": [f'"{t}"' for t in rows.loss_type],
                "y": push,
                "name": f"answer {answer}",
                "marker": {**sign_marker(push), "line": {"color": INK, "width": 1}},
                "text": [f"{answer} {signed(v)}" for v in push],
                "textposition": "outside",
                "cliponaxis": False,
                "hovertemplate": f"answer {answer}, %{{x}}: total push %{{y:.4g}}<extra></extra>",
                "showlegend": False,
            }
        )
    return figure(
        data,
        "Total push on each answer (all its tokens together)",
        380,
        barmode="group",
        yaxis={"title": "total push (|o| × w × A)", "zeroline": True, "zerolinecolor": INK},
        xaxis={"title": "loss_type"},
    )
