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


@pytest.mark.parametrize(
    ("qid", "point", "answer", "made"),
    [
        # the direction's own word inside an opposite phrase: "reduces the weight"
        (
            "followup-dr-grpo",
            0,
            "The std division reduces the weight of questions with low variance, so easy and "
            "hard questions get smaller advantages.",
            False,
        ),
        (
            "followup-dr-grpo",
            0,
            "The std division increases the weight of easy and hard questions.",
            True,
        ),
        # lenient against harsh
        (
            "followup-length",
            1,
            "Long wrong answers get a stronger penalty per token, short ones a weaker one.",
            False,
        ),
        ("followup-length", 1, "Long wrong answers get a weaker penalty per token.", True),
        # the wide-spread groups shrunk, the low-variance ones weighted more
        (
            "followup-batch-switch",
            3,
            "Low-variance prompts get more weight, because the batch std shrinks the "
            "high-variance groups.",
            False,
        ),
        (
            "followup-batch-switch",
            3,
            "Groups with a bigger reward spread get bigger advantages.",
            True,
        ),
    ],
)
def test_a_direction_bound_to_another_subject_earns_nothing(qid, point, answer, made):
    assert grade_followup(qid, answer).hits[point] is made
