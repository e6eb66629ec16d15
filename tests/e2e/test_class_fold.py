"""The projector at 1280x720, presenting: the question, the count and, once closed, the
distribution sit above the 720 px fold, in type a back row reads; the join code stays
large for late arrivals. Element boxes are measured, not guessed.

The checks are made inside the class round that tests/e2e/test_class_mode.py already runs
(``check_fold`` at each stage: open, distribution, revote, group), not in a walk of their
own. Screenshots: artifacts/screenshots/class_fold_*.png."""

from __future__ import annotations

from tests.e2e.conftest import assert_healthy, settle, shot
from tests.e2e.test_class_screens import PROJECTOR

FOLD = PROJECTOR["height"]
MIN_TEXT_PX = 20
"""Smallest type on the projector: the body size of presentation mode (21 px)."""


def box(page, selector: str) -> dict:
    element = page.locator(selector).first
    element.wait_for()
    return element.bounding_box()


def above_the_fold(page, selector: str) -> dict:
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= FOLD, (selector, b)
    return b


def smallest_text_px(page, selector: str) -> float:
    """The smallest computed font size of any visible text inside ``selector``'s elements
    (math left out: KaTeX sets sub- and superscripts smaller, by design)."""
    return page.evaluate(
        """sel => Math.min(...[...document.querySelectorAll(sel)].flatMap(root =>
            [...root.querySelectorAll('*')].filter(e => !e.closest('.katex')
                && e.getBoundingClientRect().width > 0
                && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
              .map(e => parseFloat(getComputedStyle(e).fontSize))))""",
        selector,
    )


LARGEST_COUNT = "150 of 150"
"""The answer count of the largest class bench/bench_class.py runs (two replicas)."""


def wrapped_figures(page) -> list[str]:
    """The large figures of the projector's count lines that break over two lines (an
    inline box that wraps has more than one client rectangle), each measured as it is and
    with the largest class's count in it ("12 of 12" once broke as "12 of" / "12")."""
    return page.evaluate(
        """largest => [...document.querySelectorAll('.cls-count b')].flatMap(b => {
            const shown = b.textContent, broken = [];
            for (const text of [shown, largest]) {
              b.textContent = text;
              if (b.getClientRects().length > 1) broken.push(text);
            }
            b.textContent = shown;
            return broken;
          })""",
        LARGEST_COUNT,
    )


def check_fold(room, stage: str, *, chart: bool) -> None:
    settle(room, 800)
    assert room.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0
    above_the_fold(room, '[data-testid="stMain"] h1')
    above_the_fold(room, ".cls-count")
    assert wrapped_figures(room) == [], "a count's figure breaks over two lines"
    code = above_the_fold(room, ".cls-code")
    assert code["height"] >= 40, "the join code stays large"
    above_the_fold(room, '[data-testid="stImage"] img')
    if chart:
        room.locator(".js-plotly-plot").first.wait_for()
        above_the_fold(room, ".js-plotly-plot")
        assert smallest_text_px(room, ".js-plotly-plot .xtick, .js-plotly-plot .ytick") >= 18
    assert smallest_text_px(room, ".st-key-cls-room") >= MIN_TEXT_PX
    shot(room, f"class_fold_{stage}")
    assert_healthy(room)
