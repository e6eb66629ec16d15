"""Flags: only missed points can be flagged; stored as JSON; exported in the evaluation's
TOML format (what ``tests/practice/followup_eval`` reads), with any text."""

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from practice.flags import (
    EXPORT_CATEGORY,
    MAX_FLAGGED_CHARS,
    Flag,
    export_flags,
    flag,
    flag_id,
    from_json,
    to_json,
)


def test_a_flag_records_the_flagged_and_the_credited_points():
    f = flag("followup-factor", "my answer", [True, False, False], [3, 2, 3])
    assert (f.flagged, f.credited, f.text) == ((2, 3), (1,), "my answer")
    (record,) = tomllib.loads(export_flags([f]))["answer"]
    assert record == {
        "question": "followup-factor",
        "category": EXPORT_CATEGORY,
        "points": [1, 2, 3],
        "credited": [1],
        "flagged": [2, 3],
        "text": "my answer",
    }


def test_the_export_reads_as_an_evaluation_set():
    """Same keys as the sets' records (question, category, points, text)."""
    from tests.practice.followup_eval.metrics import load

    sample = load("tuning_independent.toml")[0]
    exported = tomllib.loads(export_flags([flag("q", "a", [False, False], [2])]))["answer"][0]
    assert set(sample) <= set(exported)


@pytest.mark.parametrize("points", [[1], [0], [4]])
def test_only_a_missed_point_can_be_flagged(points):
    with pytest.raises(ValueError, match="missed key point"):
        flag("q", "a", [True, False, False], points)


def test_an_answer_with_nothing_flagged_is_not_exported():
    assert export_flags([flag("q", "a", [False], [])]) == ""


def test_the_same_question_and_text_is_one_flag():
    a = flag("q", "text", [False, False], [1])
    assert flag_id(a) == flag_id(flag("q", "text", [False, False], [1, 2]))
    assert flag_id(a) != flag_id(flag("q", "text ", [False, False], [1]))
    assert flag_id(a) != flag_id(flag("r", "text", [False, False], [1]))


@pytest.mark.parametrize(
    "bad", ["", "[]", '{"question": "q"}', '{"question": "q", "text": "a", "flagged": [0], '
    '"credited": []}', "not json"],
)  # fmt: skip
def test_a_stored_flag_that_is_not_one_is_refused(bad):
    with pytest.raises(ValueError, match="flag"):
        from_json(bad)


@given(st.text(max_size=6000), st.sets(st.integers(1, 4), max_size=4))
def test_any_text_is_kept_bounded_and_round_trips(text, flagged):
    f = flag("q", text, [False] * 4, flagged)
    assert from_json(to_json(f)) == f
    exported = export_flags([f])
    if flagged:
        assert tomllib.loads(exported)["answer"][0]["text"] == text[:MAX_FLAGGED_CHARS]
    assert isinstance(f, Flag)
