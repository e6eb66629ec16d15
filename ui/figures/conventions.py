"""Figures of the library conventions page: the same rewards through every trainer's
convention, and through each way of scaling (group, batch, none)."""

from __future__ import annotations

import pandas as pd

from grpo_core.format import signed
from ui.figures.common import (
    cached_figure,
    figure,
    hline,
    panels,
)
from ui.theme import (
    SERIES,
)


@cached_figure
def conventions_figure(long: pd.DataFrame, refusals: dict[str, str]) -> dict:
    """Grouped bars: a group per answer, a bar per convention (``ConventionComparison.long``)."""
    labels = [f"P{p} #{a}" for p, a in zip(long["prompt"], long["answer"], strict=True)]
    long = long.assign(label=labels)
    data = [
        {
            "type": "bar",
            "x": rows["label"].to_numpy(),
            "y": rows["advantage"].to_numpy(),
            "name": f"{name} (refuses these)" if name in refusals else name,
            # Past the palette's seven colours, a hatch tells the repeated colours apart.
            "marker": {
                "color": SERIES[i % len(SERIES)],
                "pattern": {"shape": ("", "/", "x")[i // len(SERIES) % 3]},
            },
            "hovertemplate": "%{x}: A = %{y:.4g}<extra>" + name + "</extra>",
        }
        for i, (name, rows) in enumerate(long.groupby("convention", sort=False))
    ]
    # The legend is left to ``figure``: under the title, with room for its rows on a phone
    # (placed above the plot at the right, its five phone rows overprinted the title).
    return figure(
        data,
        "The same rewards through every convention",
        560,
        barmode="group",
        xaxis={"title": "prompt and answer", "type": "category"},
        yaxis={"title": "advantage A"},
        shapes=[hline(0.0)],
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
                    "type": "bar",
                    "x": [f"P{prompt} #{a}" for a in rows["answer"]],
                    "y": values,
                    "xaxis": f"x{suffix}",
                    "yaxis": f"y{suffix}",
                    "name": f"Prompt {prompt}",
                    "legendgroup": str(prompt),
                    "showlegend": col == 0,
                    # Past the palette's seven colours, a hatch tells the repeated colours apart.
                    "marker": {
                        "color": SERIES[i % len(SERIES)],
                        "pattern": {"shape": ("", "/", "x")[i // len(SERIES) % 3]},
                    },
                    "text": [signed(v) for v in values],
                    "textposition": "outside",
                    "cliponaxis": False,
                    "hovertemplate": "%{x}: A = %{y:.4g}<extra>" + mode + "</extra>",
                }
            )
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
