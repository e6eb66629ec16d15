"""Figures of the lab pages (epsilon, conventions, difficulty, dynamic sampling):
numbers from grpo_core in, a figure dict out, nothing computed.

Log axes: Plotly places annotations on a log axis by the exponent, log10(eps);
shapes and traces take eps as it is.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from grpo_core.explain import fmt
from ui.figures.common import (
    DASHES,
    LABEL_BG,
    cached_figure,
    figure,
    hline,
    label,
    panels,
    signed,
    vline,
)
from ui.theme import (
    ACCENT,
    BAND,
    BAND_EDGE,
    INK,
    NEGATIVE,
    NEGATIVE_PATTERN,
    NEUTRAL,
    POSITIVE,
    SERIES,
)

ZSCORE_BAND = "rgba(0, 114, 178, 0.10)"  # blue, for "std ≫ eps"
MAX_NAMED_LINES = 7
"""More distinct rewards than this are drawn as one grey trace without a legend per line."""


def _answers(numbers) -> str:
    numbers = list(numbers)
    shown = ", ".join(str(n) for n in numbers[:6]) + (", …" if len(numbers) > 6 else "")
    return f"answer{'s' * (len(numbers) > 1)} {shown}"


# --- epsilon -----------------------------------------------------------------------------


@cached_figure
def eps_sweep_figure(
    sweep: pd.DataFrame,
    *,
    std: float,
    bounds: tuple[float, float] | None,
    library_eps: dict[str, float],
    chosen: pd.DataFrame | None,
) -> dict:
    """Every answer's advantage against eps on a log axis.

    sweep: eps_sweep_frame over the eps grid; answers with equal rewards share a line.
    bounds: regime_bounds(std), shaded as "z-score" left of the first and "damped"
    right of the second (None for a group without spread). library_eps: vertical
    lines labelled "TRL 1e-4" etc. chosen: eps_sweep_frame at the page's eps (None
    for eps = 0, which a log axis cannot show), drawn as a line and diamonds.
    """
    eps = sweep["eps"].to_numpy()
    low, high = math.log10(eps.min()), math.log10(eps.max())
    first = sweep[sweep["eps"] == eps.min()]
    lines = first.groupby("reward", sort=True)["answer"].apply(list)
    data = []
    if len(lines) > MAX_NAMED_LINES:
        # One trace, lines separated by gaps: a legend of dozens of answers helps no one.
        wide = sweep.pivot(index="answer", columns="eps", values="advantage")
        gap = np.full((len(wide), 1), np.nan)
        data.append(
            {
                "type": "scatter", "mode": "lines", "name": f"{len(wide)} answers, one line each",
                "x": np.hstack([np.tile(wide.columns.to_numpy(), (len(wide), 1)), gap]).ravel(),
                "y": np.hstack([wide.to_numpy(), gap]).ravel(),
                "line": {"color": NEUTRAL, "width": 2}, "connectgaps": False,
                "hovertemplate": "eps %{x:.3g}: A = %{y:.4g}<extra></extra>",
            }
        )  # fmt: skip
    else:
        for i, (reward, answers) in enumerate(lines.items()):
            rows = sweep[sweep["answer"] == answers[0]]
            data.append(
                {
                    "type": "scatter", "mode": "lines",
                    "x": rows["eps"].to_numpy(), "y": rows["advantage"].to_numpy(),
                    "name": f"{_answers(answers)} (R = {reward:.12g})",
                    "line": {"color": SERIES[i], "dash": DASHES[i % len(DASHES)], "width": 3},
                    "hovertemplate": "eps %{x:.3g}: A = %{y:.4g}<extra>"
                    + f"R = {reward:.12g}</extra>",
                }
            )  # fmt: skip
    shapes, notes = [hline(0.0, width=1)], []
    if bounds is not None:
        # bands in eps; their labels at the band's middle in log10(eps)
        z_end, damped_start = bounds
        for x0, x1, color, text in (
            (eps.min(), min(z_end, eps.max()), ZSCORE_BAND, "z-score<br>std ≫ eps"),
            (max(damped_start, eps.min()), eps.max(), BAND, "damped<br>std ≪ eps"),
        ):
            if x1 > x0:
                shapes.append(
                    {
                        "type": "rect", "xref": "x", "yref": "paper", "x0": x0, "x1": x1,
                        "y0": 0, "y1": 1, "fillcolor": color, "line": {"width": 0},
                        "layer": "below",
                    }
                )  # fmt: skip
                middle = (math.log10(x0) + math.log10(x1)) / 2
                notes.append(label(middle, 1.0, text, yanchor="bottom"))  # above the curves
        if eps.min() < std < eps.max():
            shapes.append(vline(std, NEUTRAL, "dot"))
            notes.append(
                label(
                    math.log10(std), 0.02, f"eps = std<br>{fmt(std, 2)}", NEUTRAL,
                    xanchor="left", yanchor="bottom", xshift=3,
                )
            )  # fmt: skip
    for library, value in library_eps.items():
        shapes.append(vline(value, INK, "dash"))
        notes.append(
            label(
                math.log10(value), 0.80, f"{library} {fmt(value)}",
                xanchor="left", yanchor="bottom", xshift=3,
            )
        )  # fmt: skip
    if chosen is not None:
        at = float(chosen["eps"].iloc[0])
        shapes.append(vline(at, ACCENT, "solid"))
        notes.append(
            label(
                math.log10(at), 0.12, f"your eps<br>{fmt(at)}", ACCENT,
                xanchor="left", yanchor="bottom", xshift=3,
            )
        )  # fmt: skip
        data.append(
            {
                "type": "scatter", "mode": "markers", "name": "at your eps",
                "x": chosen["eps"].to_numpy(), "y": chosen["advantage"].to_numpy(),
                "text": chosen["answer"].to_numpy(),
                "marker": {"color": ACCENT, "size": 11, "symbol": "diamond",
                           "line": {"color": INK, "width": 1}},
                "hovertemplate": "answer %{text}: A = %{y:.4g}<extra>your eps</extra>",
            }
        )  # fmt: skip
    return figure(
        data,
        "Advantages of the group at every eps",
        480,
        xaxis={
            "type": "log",
            "range": [low, high],
            "title": "eps (log scale)",
            "dtick": 1,
            "exponentformat": "power",
        },
        yaxis={"title": "advantage A"},
        legend={"orientation": "h", "y": -0.2, "yanchor": "top", "x": 0, "xanchor": "left"},
        margin={"b": 130},
        shapes=shapes,
        annotations=notes,
    )


# --- conventions -------------------------------------------------------------------------


@cached_figure
def conventions_figure(long: pd.DataFrame, refusals: dict[str, str]) -> dict:
    """Grouped bars: a group per answer, a bar per convention (``ConventionComparison.long``)."""
    labels = [f"P{p} #{a}" for p, a in zip(long["prompt"], long["answer"], strict=True)]
    long = long.assign(label=labels)
    data = [
        {
            "type": "bar", "x": rows["label"].to_numpy(), "y": rows["advantage"].to_numpy(),
            "name": f"{name} (refuses these)" if name in refusals else name,
            "marker": {"color": SERIES[i % len(SERIES)]},
            "hovertemplate": "%{x}: A = %{y:.4g}<extra>" + name + "</extra>",
        }
        for i, (name, rows) in enumerate(long.groupby("convention", sort=False))
    ]  # fmt: skip
    return figure(
        data,
        "The same rewards through every convention",
        460,
        barmode="group",
        xaxis={"title": "prompt and answer", "type": "category"},
        yaxis={"title": "advantage A"},
        shapes=[hline(0.0)],
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        margin={"t": 110},
    )


@cached_figure
def scaling_figure(frame: pd.DataFrame, modes: dict[str, str]) -> dict:
    """One panel per scaling mode, bars per answer coloured by prompt (``ScalingComparison.frame``).

    modes: column name -> panel title.
    """
    axes, notes = panels(list(modes.values()))
    prompts = list(dict.fromkeys(frame["prompt"]))
    data, shapes = [], []
    for col, mode in enumerate(modes):
        suffix = "" if col == 0 else str(col + 1)
        for i, prompt in enumerate(prompts):
            rows = frame[frame["prompt"] == prompt]
            values = rows[mode].to_numpy()
            data.append(
                {
                    "type": "bar", "x": [f"P{prompt} #{a}" for a in rows["answer"]], "y": values,
                    "xaxis": f"x{suffix}", "yaxis": f"y{suffix}",
                    "name": f"Prompt {prompt}", "legendgroup": str(prompt),
                    "showlegend": col == 0, "marker": {"color": SERIES[i % len(SERIES)]},
                    "text": [signed(v) for v in values], "textposition": "outside",
                    "cliponaxis": False,
                    "hovertemplate": "%{x}: A = %{y:.4g}<extra>" + mode + "</extra>",
                }
            )  # fmt: skip
        shapes.append(hline(0.0, xref=f"x{suffix} domain", yref=f"y{suffix}"))
        axes[f"xaxis{suffix}"].update(type="category", tickangle=-45)
    axes["yaxis"]["title"] = "advantage A"
    return figure(
        data,
        "",
        460,
        shapes=shapes,
        annotations=notes,
        margin={"t": 110},
        legend={"orientation": "h", "y": 1.12, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        **axes,
    )


# --- difficulty --------------------------------------------------------------------------


@cached_figure
def weight_figure(
    curve: pd.DataFrame,
    groups: pd.DataFrame,
    *,
    chosen_p: float,
    chosen_weight: float,
    group_size: int,
) -> dict:
    """1/std against pass rate: the closed form as a line, sampled groups as rings.

    curve: columns p, weight. groups: SampledBinaryGroups.groups (p_hat, weight).
    """
    data = [
        {
            "type": "scatter", "mode": "lines",
            "x": curve["p"].to_numpy(), "y": curve["weight"].to_numpy(),
            "name": "closed form 1/std", "line": {"color": POSITIVE, "width": 3},
            "hovertemplate": "p = %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
        {
            "type": "scatter", "mode": "markers",
            "x": groups["p_hat"].to_numpy(), "y": groups["weight"].to_numpy(),
            "name": f"sampled groups of K = {group_size}",
            "marker": {"color": NEGATIVE, "size": 10, "opacity": 0.35, "symbol": "circle-open",
                       "line": {"width": 2}},
            "hovertemplate": "group pass rate %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
        {
            "type": "scatter", "mode": "markers+text", "x": [chosen_p], "y": [chosen_weight],
            "name": "your group", "text": [fmt(chosen_weight, 3)],
            "textposition": "top center",
            "marker": {"color": ACCENT, "size": 14, "symbol": "diamond",
                       "line": {"color": INK, "width": 1}},
            "hovertemplate": "p = %{x:.3g}: weight %{y:.3g}<extra></extra>",
        },
    ]  # fmt: skip
    dr_grpo = hline(1.0, width=2, color=NEUTRAL, dash="dot")
    return figure(
        data,
        "How much GRPO's std division weights a group",
        440,
        xaxis={"title": "pass rate p (fraction of right answers)", "range": [0, 1]},
        yaxis={"title": "weight 1 / std", "rangemode": "tozero"},
        shapes=[dr_grpo],
        annotations=[
            {
                "text": "Dr. GRPO: weight 1", "x": 0.5, "xref": "x", "y": 1, "yref": "y",
                "yanchor": "top", "showarrow": False, "bgcolor": LABEL_BG,
            }
        ],
    )  # fmt: skip


@cached_figure
def binary_advantages_figure(frame: pd.DataFrame, *, chosen_p: float) -> dict:
    """Right and wrong answers' advantages against p, GRPO solid, Dr. GRPO dashed
    (``difficulty_bias_frame``)."""
    style = {
        ("GRPO", "correct"): (POSITIVE, "solid"),
        ("GRPO", "wrong"): (NEGATIVE, "solid"),
        ("Dr. GRPO", "correct"): (POSITIVE, "dash"),
        ("Dr. GRPO", "wrong"): (NEGATIVE, "dash"),
    }
    data = []
    for (method, answer), (color, dash) in style.items():
        rows = frame[(frame["method"] == method) & (frame["answer"] == answer)]
        data.append(
            {
                "type": "scatter", "mode": "lines",
                "x": rows["p"].to_numpy(), "y": rows["advantage"].to_numpy(),
                "name": f"{method}, {'right (+)' if answer == 'correct' else 'wrong (−)'} answer",
                "line": {"color": color, "dash": dash, "width": 3},
                "hovertemplate": "p = %{x:.3g}: A = %{y:.3g}<extra>" + method + "</extra>",
            }
        )  # fmt: skip
    return figure(
        data,
        "A right and a wrong answer's advantage, GRPO vs Dr. GRPO",
        440,
        xaxis={"title": "pass rate p", "range": [0, 1]},
        yaxis={"title": "advantage A"},
        shapes=[hline(0.0), vline(chosen_p, ACCENT, "solid")],
    )


# --- zero spread and dynamic sampling ----------------------------------------------------


@cached_figure
def zero_spread_figure(
    x, curves: dict[str, np.ndarray], *, x_title: str, title: str, highlight: str
) -> dict:
    """Lines of P(all K answers equal); ``highlight`` names the line drawn thickest."""
    data = [
        {
            "type": "scatter", "mode": "lines", "x": x, "y": y, "name": name,
            "line": {"color": SERIES[i % len(SERIES)], "dash": DASHES[i % len(DASHES)],
                     "width": 5 if name == highlight else 2},
            "hovertemplate": "%{x:.3g}: %{y:.1%}<extra>" + name + "</extra>",
        }
        for i, (name, y) in enumerate(curves.items())
    ]  # fmt: skip
    return figure(
        data,
        title,
        400,
        xaxis={"title": x_title},
        yaxis={"title": "P(all answers equal)", "range": [0, 1.02], "tickformat": ".0%"},
    )


@cached_figure
def stages_figure(summary: pd.DataFrame) -> dict:
    """Stacked bars per stage: groups with signal (blue) and without (grey, hatched)."""
    data = [
        {
            "type": "bar", "x": summary["stage"].to_numpy(), "y": summary["with_signal"].to_numpy(),
            "name": "groups with signal", "marker": {"color": POSITIVE},
            "text": summary["with_signal"].to_numpy(), "textposition": "inside",
        },
        {
            "type": "bar",
            "x": summary["stage"].to_numpy(), "y": summary["without_signal"].to_numpy(),
            "name": "all-equal groups (no signal)",
            "marker": {"color": NEUTRAL, "pattern": {"shape": NEGATIVE_PATTERN}},
            "text": [n or "" for n in summary["without_signal"]], "textposition": "inside",
        },
    ]  # fmt: skip
    return figure(data, "The batch at each stage", 400, barmode="stack", yaxis={"title": "groups"})


@cached_figure
def pass_rates_figure(before: pd.DataFrame, after: np.ndarray) -> dict:
    """Pass rates of the first batch (with / without signal) and of the refilled batch.

    before: columns p, signal (bool).
    """
    axes, notes = panels(["first batch", "refilled batch"])
    bins = {"start": 0, "end": 1, "size": 0.05}
    data = [
        {
            "type": "histogram", "x": before.loc[before["signal"], "p"].to_numpy(), "xbins": bins,
            "name": "with signal", "marker": {"color": POSITIVE},
        },
        {
            "type": "histogram", "x": before.loc[~before["signal"], "p"].to_numpy(), "xbins": bins,
            "name": "all-equal (dropped)",
            "marker": {"color": NEUTRAL, "pattern": {"shape": NEGATIVE_PATTERN}},
        },
        {
            "type": "histogram", "x": after, "xbins": bins, "xaxis": "x2", "yaxis": "y2",
            "name": "refilled batch (all with signal)", "marker": {"color": BAND_EDGE},
        },
    ]  # fmt: skip
    for suffix in ("", "2"):
        axes[f"xaxis{suffix}"].update(title="prompt's pass rate p", range=[0, 1])
    axes["yaxis"]["title"] = "prompts"
    axes["yaxis2"]["matches"] = "y"
    return figure(
        data,
        "",
        430,
        barmode="stack",
        annotations=notes,
        margin={"t": 40, "b": 110},
        legend={"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0, "xanchor": "left"},
        **axes,
    )
