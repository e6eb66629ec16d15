"""Peer instruction's numbers: the rule of thumb after a first vote, the transitions and
the normalised gain after the re-vote."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from practice.class_peer import MOVE_ON_FROM, RETEACH_BELOW, next_step, transitions


@pytest.mark.parametrize(
    ("right", "voted", "start"),
    [(0, 10, "0 % right: few"), (2, 10, "20 %"), (3, 10, "30 % right: few"),
     (4, 10, "40 % right: the middle band"),
     (6, 10, "60 %"), (7, 10, "70 % right: most got it"), (10, 10, "100 %")],
)  # fmt: skip
def test_the_rule_of_thumb_follows_the_share_right(right, voted, start):
    assert next_step(right, voted).startswith(start)
    share = right / voted
    text = next_step(right, voted)
    assert ("Teach the idea again" in text) == (share < RETEACH_BELOW)
    assert ("move on" in text) == (share >= MOVE_ON_FROM)
    assert next_step(0, 0) == "Nobody has voted yet."


def test_transitions_count_only_students_who_voted_twice():
    first = {"a": True, "b": False, "c": False, "d": True, "e": False}
    second = {"a": True, "b": True, "c": False, "d": False, "f": True}
    t = transitions(first, second)
    assert (t.right_right, t.wrong_right, t.right_wrong, t.wrong_wrong) == (1, 1, 1, 1)
    assert t.n == 4 and t.pre == 0.5 and t.post == 0.5 and t.gain == 0.0
    assert transitions({"a": False, "b": False}, {"a": True, "b": False}).gain == 0.5
    assert transitions({"a": True}, {"a": True}).gain is None, "all right already"
    assert transitions({}, {"a": True}).gain is None


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_the_gain_is_the_share_of_possible_improvement(votes):
    first = {str(i): a for i, (a, _) in enumerate(votes)}
    second = {str(i): b for i, (_, b) in enumerate(votes)}
    t = transitions(first, second)
    assert t.n == len(votes)
    pre = sum(a for a, _ in votes) / len(votes)
    post = sum(b for _, b in votes) / len(votes)
    if pre == 1:
        assert t.gain is None
    else:
        assert t.gain == pytest.approx((post - pre) / (1 - pre))
        assert -pre / (1 - pre) - 1e-9 <= t.gain <= 1 + 1e-9


def test_confidence_is_split_by_right_and_wrong():
    from practice.class_peer import NOT_SAID, confidence_split

    votes = [("certain", True), ("certain", False), ("certain", False), ("guessing", True),
             ("", False), ("bogus", True)]  # fmt: skip
    assert confidence_split(votes) == [
        ("guessing", 1, 0),
        ("certain", 1, 2),
        (NOT_SAID, 1, 1),
    ], "confidently wrong students stand out; levels nobody gave are left out"
    assert confidence_split([]) == []
