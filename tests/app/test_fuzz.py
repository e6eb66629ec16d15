"""Hostile strings and numbers into every input of every page, and into the URL: no
exception on any page, ever. Pages come from ui/nav.py (whatever exists at run time)."""

from __future__ import annotations

import random

import pytest

from tests.app.conftest import PAGES, open_page

HOSTILE_TEXT = [
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>",
    "' OR 1=1 --",
    "\x00\x07\x1b[31m",
    "\u202eevil\u202c",
    "nan",
    "-inf",
    "1e309",
    "-0",
    "1/0",
    "$\\frac{1}{0}$ \\def\\x{\\x}\\x",
    "{{7*7}} ${7*7} %s %n",
    "../../etc/passwd",
    "🧪" * 30,
    "9" * 5000,
    "1_0_1~0.5_x~~",
    "",
    " ",
]
HOSTILE_NUMBERS = [1e308, -1e308, 0, -1, 2**53, 1e-300]
"""What a browser can send: its number box refuses NaN and infinity, and clamps to the
widget's bounds (Streamlit's own number_input raises on NaN from a forged message)."""
URL_KEYS = [
    "r", "c", "ddof", "eps", "scale", "clip", "p", "id", "k", "seed", "g", "step", "q",
    "mode", "page", "lengths", "outcome",
]  # fmt: skip


def hostile_query(rng: random.Random) -> dict:
    query = {key: rng.choice(HOSTILE_TEXT) for key in URL_KEYS}
    query["r"] = rng.choice(["1_0" * 3000, "nan_inf~1e309", "~~~", "1_" * 70 + "1"])
    return query


def url_keys_of(at) -> list[str]:
    """The keys of widgets bound to the URL are the page's own query parameters."""
    keys = []
    for kind in ("text_input", "number_input", "selectbox", "slider", "toggle", "checkbox"):
        keys += [w.key for w in getattr(at, kind) if w.key]
    return keys


def test_non_finite_numbers_in_the_url_are_dropped():
    """ui.state drops ?x=inf / nan / 1e999 (Streamlit's int number_input raises on them)
    but leaves the parameters the app checks itself, and every other value."""
    from ui.state import drop_non_finite_numbers

    query = {"seed": "inf", "k": "nan", "n": "1e999", "eps": "inf", "ok": "12", "t": "x"}
    drop_non_finite_numbers(query)
    assert query == {"eps": "inf", "ok": "12", "t": "x"}


@pytest.mark.parametrize("page", PAGES)
def test_hostile_url_never_raises(page):
    rng = random.Random(f"url-{page}")
    at = open_page(page)
    query = hostile_query(rng) | {k: rng.choice(HOSTILE_TEXT) for k in url_keys_of(at)}
    at = open_page(page, query=query)
    assert not at.exception, f"{page} with {query}: {at.exception}"


PRACTICE_PAGES = ("pages/quiz.py", "pages/interview.py", "pages/verify.py")


@pytest.mark.parametrize("page", PRACTICE_PAGES)
def test_practice_text_fields_are_bounded_on_the_server_not_in_the_browser(page):
    """A browser's max_chars silently drops a long paste (the server never sees it): the
    practice pages' text fields have none and bound the text themselves, saying so."""
    at = open_page(page)
    if page == "pages/interview.py":
        at.button(key="iv.start_btn").click().run()
    fields = list(at.text_input) + list(at.text_area)
    assert fields and not [w.key for w in fields if w.max_chars], page


@pytest.mark.parametrize("page", PAGES)
def test_hostile_inputs_never_raise(page):
    rng = random.Random(f"inputs-{page}")
    at = open_page(page)
    assert not at.exception
    for _ in range(2):
        changed = False
        for widget in list(at.text_input) + list(at.text_area):
            if widget.disabled:
                continue
            value = rng.choice([*HOSTILE_TEXT, rng.choice(HOSTILE_TEXT) * 2000])
            if widget.max_chars:  # the browser cuts these; the practice pages have none
                value = value[: widget.max_chars]
            widget.input(value)
            changed = True
        for widget in at.number_input:
            if widget.disabled:
                continue
            value = rng.choice(
                [v for v in (widget.min, widget.max) if v is not None] + HOSTILE_NUMBERS
            )
            low = -1e308 if widget.min is None else widget.min
            high = 1e308 if widget.max is None else widget.max
            widget.set_value(min(max(value, low), high))
            changed = True
        if not changed:
            break
        at.run()
        assert not at.exception, f"{page}: {at.exception}"
