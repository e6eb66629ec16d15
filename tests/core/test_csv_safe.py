"""The formula guard: text a spreadsheet would run gets an apostrophe; numbers stay numbers."""

import csv
import io

import pandas as pd
import pytest

from grpo_core.csv_safe import csv_cell, frame_csv


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", '=HYPERLINK("x")'])
def test_formula_text_is_guarded(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["plain", "", "<think>a</think>", " =not first", "1+1"])
def test_other_text_is_unchanged(text):
    assert csv_cell(text) == text


def test_a_frame_guards_its_text_and_header_and_keeps_its_numbers():
    frame = pd.DataFrame(
        {"prompt": ["=1+1", "ok"], "step": [-1, 2], "std": [-0.5, 0.25], "=evil": ["@x", None]}
    )
    frame["text"] = pd.array(["+cmd", "fine"], dtype="string")
    rows = list(csv.reader(io.StringIO(frame_csv(frame).decode())))
    assert rows[0] == ["prompt", "step", "std", "'=evil", "text"]
    assert rows[1] == ["'=1+1", "-1", "-0.5", "'@x", "'+cmd"]
    assert rows[2] == ["ok", "2", "0.25", "", "fine"]
