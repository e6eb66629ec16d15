"""The TOML guard: hostile nesting and dotted keys are refused in linear time, naming the
line; every file the bank and a question set are made of passes."""

from __future__ import annotations

import time
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content import read_text
from practice.class_questions import SetProblem, parse_set
from practice.toml_guard import MAX_KEY_DOTS, MAX_TOML_DEPTH, nesting_problem

HOSTILE = {  # each at most a question set's 100 KB
    "arrays": "x = " + "[" * 30_000 + "]" * 30_000,
    "inline tables": "x = " + "{a=" * 20_000 + "1" + "}" * 20_000,
    "dotted key": "a" + ".a" * 40_000 + " = 1",
    "dotted header": "[" + "a." * 40_000 + "a]",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_nesting_is_a_message_naming_its_line_at_once(name):
    """Red team: the arrays and inline tables raised RecursionError out of parse_set (a
    traceback on the lecturer screen), the dotted key took 36 s of the server's CPU."""
    text = "# a comment\n" + HOSTILE[name] + "\n"
    start = time.process_time()
    with pytest.raises(SetProblem, match=r"^Line 2: "):
        parse_set(text)
    assert time.process_time() - start < 1.0


def test_brackets_and_dots_inside_strings_and_comments_do_not_count():
    deep = "[" * 50 + "." * 50
    text = (
        f"[[question]]\nprompt = \"{deep}\"  # {deep}\nwhy = '{deep}'\n"
        f'explanation = """\n{deep}\n\\"""{deep}"""\nnote = \'\'\'{deep}\n\'\'\'\n'
    )
    assert nesting_problem(text) is None
    tomllib.loads(text)  # and it is TOML as the guard read it


def test_the_limits_are_exact():
    assert nesting_problem("x = " + "[" * MAX_TOML_DEPTH + "]" * MAX_TOML_DEPTH) is None
    assert nesting_problem("x = " + "[" * (MAX_TOML_DEPTH + 1)).startswith("Line 1: brackets")
    assert nesting_problem("a" + ".a" * MAX_KEY_DOTS + " = 1") is None
    assert nesting_problem("a" + ".a" * (MAX_KEY_DOTS + 1) + " = 1").startswith("Line 1: a key")


@pytest.mark.parametrize("name", ["questions.toml", "variants.toml", "topics.toml"])
def test_every_content_file_passes(name):
    assert nesting_problem(read_text(name)) is None


@given(st.text(max_size=300))
def test_never_raises(text):
    assert nesting_problem(text) is None or nesting_problem(text).startswith("Line ")
