"""Every Plotly figure of the app, one module per page or family of pages (``group`` for
home, playground and walkthrough).

One way to build and cache a figure (``common.cached_figure``): a builder turns numbers
from grpo_core into a plain Plotly dict ({"data": [...], "layout": {...}}), nothing
computed; the decorator validates it once per distinct input and hands pages a copy.
Pages draw them with ``common.show``.
"""
