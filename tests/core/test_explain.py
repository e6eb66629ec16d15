"""grpo_core.explain: sentences and formulas carry the trace's own numbers."""

import math

from grpo_core import advantage_trace
from grpo_core.explain import (
    advantage_latex,
    describe_group,
    digits_to_tell_apart,
    fmt,
    mean_latex,
    std_latex,
    tex,
)


def test_fmt_and_tex():
    assert [fmt(x) for x in (0, 0.5, -0.93523938, 1e-7, 123456.0)] == [
        "0", "0.5", "-0.9352", "1e-7", "1.235e5",
    ]  # fmt: skip
    assert tex(1.2e-7) == r"1.2 \times 10^{-7}"


def test_issue_example_formula_with_numbers():
    trace = advantage_trace([[1, 0, 1, 1, 0, 0, 1, 0]], convention="trl")
    assert advantage_latex(trace, 0, 2) == (
        r"A_{3} = \frac{R_{3} - \bar R}{\sigma + \varepsilon} = "
        r"\frac{1 - 0.5}{0.5345 + 1 \times 10^{-4}} = 0.9352"
    )
    assert mean_latex(trace, 0).endswith("{8} = 0.5")
    assert "{8 - 1}" in std_latex(trace, 0) and std_latex(trace, 0).endswith("0.5345")


def test_sentences_follow_the_numbers():
    trace = advantage_trace([[1, 1, 1, 1], [0, 0, 0, 1]], convention="trl")
    assert "teaches nothing" in describe_group(trace, 0)
    sentence = describe_group(trace, 1)
    assert sentence.startswith("Answer 4 scored 1.5 std above its group's mean")
    assert "answers 1, 2 and 3 pushed down most" in sentence
    assert "1 of 4 answers go up, 3 go down" in sentence


def test_damped_and_clamped_are_said():
    near = advantage_trace([1.0, 1.0 + 1e-6], convention="trl")
    assert "below eps" in describe_group(near, 0)
    one_in_128 = advantage_trace([1.0] + [0.0] * 127, convention="openrlhf")
    assert "Clamped to ±10" in describe_group(one_in_128, 0)


def test_verl_lone_reward_sentence():
    trace = advantage_trace([3.0], convention="verl")
    assert "passes through" in describe_group(trace, 0)
    assert math.isclose(trace.advantages[0], 3 / (1 + 1e-6))


def test_near_tie_prints_enough_digits():
    assert digits_to_tell_apart([1.0, 1.00000012]) == 8
    trace = advantage_trace([1, 1 + 1.2e-7, 1, 1], convention="trl")
    assert "1.00000012" in mean_latex(trace, 0)


def test_centring_sums_vectors_and_the_ddof_ratio():
    from grpo_core.explain import (
        centring_latex,
        group_sums,
        sample_to_population_ratio,
        vector_latex,
    )

    trace = advantage_trace([1.0, 2.0, 6.0], convention="rloo")
    assert centring_latex(trace, 0, 0) == r"R_{1} - \bar R_{-1} = 1 - 4 = -3"
    trl = advantage_trace([[1, 0, 1, 1, 0, 0, 1, 0]], convention="trl")
    assert centring_latex(trl, 0, 1) == r"R_{2} - \bar R = 0 - 0.5 = -0.5"
    assert all(abs(s) < 1e-12 for s in group_sums(trl, 0))
    assert sample_to_population_ratio(8) == math.sqrt(7 / 8)
    assert vector_latex("A", list(range(13))).endswith(r"11, \dots)")
