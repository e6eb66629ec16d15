"""Figures of the Review page: a learner's recall per topic, day by day."""

from __future__ import annotations

from ui.figures.common import DASHES, LINE_PX, MARKERS, cached_figure, figure, legend_rows
from ui.theme import INK, SERIES

TICK_PX = 14
"""Dates and percentages on the axes: the body size (Streamlit's chart theme sets 12 px)."""
PLOT_PX = 360
"""The height of the recall figure without its legend."""
MAX_DATE_TICKS = 8
"""Dates labelled on the x axis at most (40 days of labels stand on end and crowd)."""
ALL_TOPICS = "All topics (mean)"


@cached_figure
def recall_figure(
    days: tuple[str, ...],
    topics: tuple[str, ...],
    recall,
    titles,
    shown: tuple[str, ...] | None = None,
    overall: tuple[float | None, ...] | None = None,
) -> dict:
    """Lines of recall (mean score, 0-1) per topic over ``days`` (ISO dates).

    ``recall``: tuple per topic of tuples per day, None where the topic was not practised
    that day (the line skips it); ``titles``: topic -> title shown in the legend, set
    above the plot (``figure``), the figure as much taller as the legend has rows on a
    phone, so the legend never covers the plot or an axis title. ``shown``: the topics
    drawn at first (None: all); the others wait in the legend, a tap away, so a long
    history of many topics is not a tangle. ``overall``: the recall of all topics per day,
    drawn first as a thick grey line.
    """
    mean = (
        []
        if overall is None
        else [
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": list(days),
                "y": list(overall),
                "name": ALL_TOPICS,
                "connectgaps": True,
                "line": {"color": INK, "width": 4},
                "marker": {"size": 7},
                "hovertemplate": "%{x}: %{y:.0%}<extra>all topics</extra>",
            }
        ]
    )
    data = mean + [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "x": list(days),
            "y": list(values),
            "name": dict(titles).get(topic, topic),
            "connectgaps": True,
            "line": {"color": SERIES[i % len(SERIES)], "dash": DASHES[i % len(DASHES)]},
            "marker": {"symbol": MARKERS[i % len(MARKERS)], "size": 9},
            "hovertemplate": "%{x}: %{y:.0%}<extra>%{fullData.name}</extra>",
            "visible": True if shown is None or topic in shown else "legendonly",
        }
        for i, (topic, values) in enumerate(zip(topics, recall, strict=True))
    ]
    return figure(
        data,
        "Recall per topic, by day",
        PLOT_PX + LINE_PX * legend_rows(data),
        # half a day of room each side: the first and last dates are not cut on a phone
        xaxis={
            "title": "day (UTC)",
            "type": "category",
            "range": [-0.5, len(days) - 0.5],
            "nticks": MAX_DATE_TICKS,
            "tickfont": {"size": TICK_PX},
        },
        yaxis={
            "title": "recall",
            "range": [-0.05, 1.05],
            "tickformat": ".0%",
            "tickfont": {"size": TICK_PX},
        },
    )
