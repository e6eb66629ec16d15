"""ui.class_lecturer.countdowns: the test server's shorter countdown, and no other."""

import pytest

from ui.class_lecturer import COUNTDOWNS, SHORTEST_COUNTDOWN_ENV, countdowns


def test_without_the_variable_the_choices_are_unchanged():
    assert countdowns({}) == COUNTDOWNS == (None, 10, 20, 30, 45, 60, 90, 120, 180, 300)


def test_the_variable_adds_a_shorter_first_choice():
    assert countdowns({SHORTEST_COUNTDOWN_ENV: " 5 "}) == (None, 5, *COUNTDOWNS[1:])


@pytest.mark.parametrize("value", ["", "0", "10", "45", "-3", "2.5", "1e3", "abc", "٣"])
def test_anything_but_1_to_9_seconds_is_ignored(value):
    assert countdowns({SHORTEST_COUNTDOWN_ENV: value}) == COUNTDOWNS
