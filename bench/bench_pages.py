"""How fast pages respond.

1. Server side, per page: the median time of a rerun after a widget change,
   measured with streamlit's AppTest (the script run a click or keystroke causes).
   Target: every page <= 100 ms.
2. In headless Chromium: the time from navigation to the first drawn chart, for
   our home page and for a bare one-chart Streamlit page served the same way,
   in the same run. Target: ratio <= 1.3.

    .venv/bin/python bench/bench_pages.py [--repeats 15] [--browser-repeats 7]
    .venv/bin/python bench/bench_pages.py --page policy-loss   # one page, no browser
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, free_port, start_streamlit  # noqa: E402
from ui.nav import PAGES  # noqa: E402

# page file stem -> how to change one widget: (widget kind, key, values to cycle through)
CHANGES = {
    "home": None,  # no widget: a plain rerun
    "walkthrough": ("selectbox", "wt.answer", [1, 2, 0]),
    "guide": ("selectbox", "guide.s", ["all", "the-formula", "all"]),
    "length-normalisation": ("number_input", "ln.len_b", [16.0, 8.0, 32.0]),
    "playground": ("selectbox", "w.settings.convention", ["verl", "trl", "openrlhf"]),
    "epsilon": ("select_slider", "eps.value", None),
    "conventions": ("text_input", "conv.b", ["1, 0, 1; 5, 9", "1, 2; 3, 4", "0, 1"]),
    "difficulty": ("number_input", "dif.k", [8, 16, 4]),
    "dynamic-sampling": ("slider", "dyn.p", [0.2, 0.5, 0.8]),
    "critic": ("slider", "cr.bias", [0.3, 0.0, -0.2]),
    "policy-loss": ("slider", "pl.step", [0.3, 0.6, 1.0, 1.4, 0.0]),
    "simulator": ("toggle", None, None),  # a display switch: the cached run is reused
    "quiz": ("text_input", "qz.seed_in", ["42", "7", "123"]),
    "interview": ("number_input", "iv.n", [3, 5, 4]),
    "cheatsheet": None,
    "verify": ("text_input", "vf.id", ["junk", "GRPO1-x", ""]),
}

BARE_PAGE = """
import plotly.graph_objects as go
import streamlit as st
st.title("One chart")
st.plotly_chart(go.Figure(go.Bar(x=[1, 2, 3], y=[1, 3, 2])))
"""


def change_widget(at: AppTest, stem: str, i: int) -> None:
    """Make the i-th change of this page's widget (or nothing for static pages)."""
    spec = CHANGES.get(stem)
    if spec is None:
        return
    kind, key, values = spec
    widgets = getattr(at, kind)
    widget = widgets(key=key) if key else (widgets[0] if len(widgets) else None)
    if widget is None:
        return
    if kind == "toggle":
        widget.set_value(not widget.value)
    elif values:
        widget.set_value(values[i % len(values)])
    elif kind == "select_slider":
        options = widget.options
        widget.set_value(options[i % len(options)])
    elif kind in ("slider", "number_input"):
        low = getattr(widget, "min", None)
        high = getattr(widget, "max", None)
        value = widget.value
        step = getattr(widget, "step", 1) or 1
        new = (
            value + step
            if high is None or value + step <= high
            else (low if low is not None else value)
        )
        widget.set_value(new)


def rerun_ms(page_file: str, stem: str, repeats: int) -> float:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    if stem != "home":
        at.switch_page(page_file)
        at.run()
    times = []
    for i in range(repeats):
        change_widget(at, stem, i)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
        if at.exception:
            raise RuntimeError(f"{page_file}: {at.exception[0].value}")
    return statistics.median(times) * 1e3


def first_chart_ms(browser, url: str) -> float:
    """Navigation start to the first Plotly chart with drawn marks, in a fresh context."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    t = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .trace path", timeout=60_000)
    elapsed = time.perf_counter() - t
    context.close()
    return elapsed * 1e3


def browser_ratio(repeats: int) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE_PAGE)
        ours_port, bare_port = free_port(), free_port()
        ours = start_streamlit(ours_port)
        bare_server = start_streamlit(bare_port, script=str(bare))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                for url in (f"http://127.0.0.1:{ours_port}/", f"http://127.0.0.1:{bare_port}/"):
                    first_chart_ms(browser, url)  # warm up: imports, caches
                ours_ms, bare_ms = [], []
                for _ in range(repeats):
                    ours_ms.append(first_chart_ms(browser, f"http://127.0.0.1:{ours_port}/"))
                    bare_ms.append(first_chart_ms(browser, f"http://127.0.0.1:{bare_port}/"))
                browser.close()
        finally:
            ours.terminate()
            bare_server.terminate()
    return statistics.median(ours_ms), statistics.median(bare_ms)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--browser-repeats", type=int, default=7)
    parser.add_argument("--page", help="measure only this page (file stem); skips the browser")
    args = parser.parse_args()

    print(f"server-side rerun after a widget change (AppTest), median of {args.repeats}:")
    worst = 0.0
    for section, entries in PAGES.items():
        for stem, title, *_ in entries:
            if args.page and stem != args.page:
                continue
            ms = rerun_ms(f"pages/{stem}.py", stem, args.repeats)
            worst = max(worst, ms)
            flag = "" if ms <= 100 else "   <-- over 100 ms"
            print(f"  {section:8s} {title:32s} {ms:7.1f} ms{flag}")
    print(f"  slowest page: {worst:.1f} ms (target <= 100 ms)")
    if args.page:
        return

    if not Path(CHROMIUM).exists():
        print(f"\nbrowser timing skipped: {CHROMIUM} is not installed")
        return
    ours, bare = browser_ratio(args.browser_repeats)
    print(f"\nfirst chart drawn in headless Chromium, median of {args.browser_repeats}:")
    print(f"  our home page           {ours:7.0f} ms")
    print(f"  bare one-chart page     {bare:7.0f} ms")
    print(f"  ratio                   {ours / bare:7.2f}   (target <= 1.30)")


if __name__ == "__main__":
    main()
