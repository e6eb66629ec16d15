"""Flags: only missed points can be flagged; the export is one JSON line per flagged answer."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from practice.flags import MAX_FLAGGED_CHARS, export_flags, flag


def test_a_flag_records_the_flagged_and_the_credited_points():
    f = flag("followup-factor", "my answer", [True, False, False], [3, 2, 3])
    assert (f.flagged, f.credited, f.text) == ((2, 3), (1,), "my answer")
    assert json.loads(export_flags([f])) == {
        "question": "followup-factor",
        "text": "my answer",
        "points_flagged": [2, 3],
        "points_credited": [1],
    }


@pytest.mark.parametrize("points", [[1], [0], [4]])
def test_only_a_missed_point_can_be_flagged(points):
    with pytest.raises(ValueError, match="missed key point"):
        flag("q", "a", [True, False, False], points)


def test_an_answer_with_nothing_flagged_is_not_exported():
    assert export_flags([flag("q", "a", [False], [])]) == ""


@given(st.text(max_size=6000))
def test_any_text_is_kept_bounded_and_round_trips(text):
    f = flag("q", text, [False, False], [1])
    assert json.loads(export_flags([f]))["text"] == text[:MAX_FLAGGED_CHARS]
