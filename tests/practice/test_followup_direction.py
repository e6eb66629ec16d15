"""practice.followup_direction: a point's direction is the one bound to its subject."""

import pytest

from practice.grading import grade_followup

WHY_STD = "followup-why-std"


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("Dividing by the std up-weights groups whose rewards barely vary.", True),
        # the subject's own clause holds the opposite direction
        (
            "Groups with a large spread get amplified, and nearly-unanimous groups get shrunk.",
            False,
        ),
        # no direction in the subject's clause: the first one after it binds
        (
            "Groups with a small spread, say one wrong answer in sixteen, get their advantages "
            "shrunk, and groups with a big spread get amplified.",
            False,
        ),
        # an opposite direction said of something else does not void it
        (
            "The std division blows up groups whose rewards barely vary; Dr. GRPO down-weights "
            "them back by dropping it.",
            True,
        ),
        # a denied opposite binds nothing
        ("Low-spread groups get amplified by the std division and are never down-weighted.", True),
    ],
)
def test_the_direction_nearest_the_subject_decides(answer, made):
    assert grade_followup(WHY_STD, answer).hits[2] is made
