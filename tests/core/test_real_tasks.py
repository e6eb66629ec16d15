"""The verifier of the real model's tasks: number, one word, exact format."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grpo_core import real_tasks
from grpo_core.real_tasks import Task, checked_task, grade

ADD = Task("What is 3 + 4?", "7", "number")
PARIS = Task("Capital of France?", "Paris", "word")
CAT = Task("CAT in capitals", "CAT", "exact")


@pytest.mark.parametrize(
    ("task", "answer", "reward", "extracted"),
    [
        (ADD, "3 + 4 = 7", 1.0, "7"),
        (ADD, "The answer is 7.", 1.0, "7"),
        (ADD, "Answer: 7\nor maybe 8", 1.0, "7"),
        (ADD, "It is 12.", 0.0, "12"),
        (ADD, "seven", 0.0, None),
        (PARIS, "Paris.", 1.0, "Paris"),
        (PARIS, "paris is the capital", 1.0, "paris"),
        (PARIS, "The capital is Paris.", 1.0, "Paris"),
        (PARIS, "Parisian food", 0.0, None),
        (PARIS, "Lyon", 0.0, None),
        (CAT, "CAT", 1.0, "CAT"),
        (CAT, " CAT. ", 1.0, "CAT"),
        (CAT, "Cat", 0.0, "Cat"),
        (CAT, "CAT CAT", 0.0, "CAT CAT"),
    ],
)
def test_grades_with_the_reason(task, answer, reward, extracted):
    verdict = grade(task, answer)
    assert verdict.reward == reward
    assert verdict.extracted == extracted
    assert repr(task.expected) in verdict.reason
    assert ("does not match" in verdict.reason) == (reward == 0.0)


@given(st.one_of(st.text(max_size=300), st.none(), st.integers()))
def test_hostile_answers_never_raise(answer):
    for task in (ADD, PARIS, CAT):
        assert grade(task, answer).reward in (0.0, 1.0)


def test_every_preset_is_a_valid_task():
    for task in real_tasks.TASKS:
        assert checked_task(task.prompt, task.expected, task.kind).expected == task.expected
        assert task.label


@pytest.mark.parametrize(
    ("prompt", "expected", "kind", "message"),
    [
        ("", "7", "number", "Type a prompt"),
        ("x" * 201, "7", "number", "201 characters; 200 at most"),
        ("What?", "", "number", "Type the answer"),
        ("What?", "seven", "number", "not a number"),
        ("What?", "two words", "word", "must be one word"),
        ("What?", "7", "regex", "must be one of"),
    ],
)
def test_bad_tasks_get_a_plain_message(prompt, expected, kind, message):
    with pytest.raises(ValueError, match=message):
        checked_task(prompt, expected, kind)
