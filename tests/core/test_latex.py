"""grpo_core.latex: formulas carry the trace's own numbers."""

import math

from grpo_core import advantage_trace
from grpo_core.latex import (
    advantage_latex,
    breakable,
    mean_latex,
    std_latex,
    std_sum_latex,
    vector_latex,
)


def test_issue_example_formula_with_numbers():
    trace = advantage_trace([[1, 0, 1, 1, 0, 0, 1, 0]], convention="trl")
    assert advantage_latex(trace, 0, 2) == (
        r"A_{3} = \frac{R_{3} - \bar R}{\sigma + \varepsilon} = "
        r"\frac{1 - 0.5}{0.5345 + 1 \times 10^{-4}} = 0.9352"
    )
    assert mean_latex(trace, 0).endswith("{8} = 0.5")
    assert "{8 - 1}" in std_latex(trace, 0) and std_latex(trace, 0).endswith("0.5345")


def test_near_tie_prints_enough_digits():
    trace = advantage_trace([1, 1 + 1.2e-7, 1, 1], convention="trl")
    assert "1.00000012" in mean_latex(trace, 0)


def test_centring_sums_vectors_and_the_ddof_ratio():
    from grpo_core.compare import sample_to_population_ratio
    from grpo_core.latex import centring_latex, vector_latex

    trace = advantage_trace([1.0, 2.0, 6.0], convention="rloo")
    assert centring_latex(trace, 0, 0) == r"R_{1} - \bar R_{-1} = 1 - 4 = -3"
    trl = advantage_trace([[1, 0, 1, 1, 0, 0, 1, 0]], convention="trl")
    assert centring_latex(trl, 0, 1) == r"R_{2} - \bar R = 0 - 0.5 = -0.5"
    assert all(abs(s) < 1e-12 for s in trl.group_sums(0))
    assert sample_to_population_ratio(8) == math.sqrt(7 / 8)
    assert vector_latex("A", list(range(13))).endswith(r"11, \dots)")


def test_std_as_a_sum_that_wraps_gives_the_same_numbers():
    trace = advantage_trace([1, 0, 1, 1, 0, 0, 1, 0], convention="trl")
    narrow = std_sum_latex(trace, 0)
    assert narrow == (
        r"S = (0.5)^2 + (-0.5)^2 + (0.5)^2 + (0.5)^2 + (-0.5)^2 + (-0.5)^2 + (0.5)^2"
        r" + (-0.5)^2 = 2, \quad \sigma = \sqrt{S / (8 - 1)} = 0.5345"
    )
    assert std_latex(trace, 0).endswith("0.5345")  # the wide form agrees
    whiteboard = advantage_trace([2, 4, 4, 4, 5, 5, 7, 9], convention="zscore")
    assert std_sum_latex(whiteboard, 0).endswith(r"= 32, \quad \sigma = \sqrt{S / 8} = 2")
    long = advantage_trace(list(range(12)), convention="zscore")  # elided, total of all 12
    assert r"\dots" in std_sum_latex(long, 0) and "= 143," in std_sum_latex(long, 0)
    one = advantage_trace([3.0], convention="verl")
    assert std_sum_latex(one, 0) == std_latex(one, 0)


def test_breakable_allows_a_break_after_commas_outside_braces():
    assert breakable("A = (1, -2, 3)") == r"A = (1,\allowbreak -2,\allowbreak 3)"
    assert breakable(r"\frac{a, b}{c}, d") == r"\frac{a, b}{c},\allowbreak d"
    assert breakable(vector_latex("R", [1, 0])) == r"R = (1,\allowbreak 0)"


def test_the_std_divided_by_is_the_conventions_own():
    import numpy as np

    from grpo_core.format import tex
    from grpo_core.latex import scale_std_latex

    nemo = advantage_trace([1, 0, 0, 1], convention="nemo-rl")
    others = np.std([0, 0, 1], ddof=1)  # answer 1 is divided by the std of the other three
    assert scale_std_latex(nemo, 0, 0) == (
        r"\sigma_{-1} = \sqrt{\frac{(0 - 0.3333)^2 + (0 - 0.3333)^2 + (1 - 0.3333)^2}{2}}"
        rf" = {tex(others)}"
    )
    assert math.isclose(nemo.advantages[0], (1 - 1 / 3) / (others + nemo.convention.eps))
    agree = advantage_trace([1, 0, 0, 0], convention="nemo-rl")  # the others agree: 0
    assert scale_std_latex(agree, 0, 0).endswith("}{2}} = 0")
    two = advantage_trace([1, 0], convention="nemo-rl")
    assert "one other reward" in scale_std_latex(two, 0, 0)
    batch = advantage_trace([[1, 0, 0, 1], [3, 0, 0, 0]], convention="reinforce-pp")
    assert scale_std_latex(batch, 1, 0).endswith(
        rf"= {tex(batch.batch_std)} \quad "
        r"(c_n = \operatorname{clip}(R_n - \bar R_{\text{prompt}}),\ N = 8)"
    )
    trl = advantage_trace([[1, 0, 1, 1]], convention="trl")
    assert scale_std_latex(trl, 0, 2) == std_latex(trl, 0)
    assert scale_std_latex(trl, 0, 2, narrow=True) == std_sum_latex(trl, 0)


def test_formulas_name_the_answer_by_its_number():
    """Answer 2 of the playground's default prompt 1 left out: the third reward is R_4."""
    from grpo_core.latex import centring_latex, scale_std_latex

    trace = advantage_trace([1, 1, 1, 0, 0, 1, 0], convention="trl")
    numbers = [1, 3, 4, 5, 6, 7, 8]
    assert centring_latex(trace, 0, 2, numbers) == r"R_{4} - \bar R = 1 - 0.5714 = 0.4286"
    assert advantage_latex(trace, 0, 2, numbers).startswith(r"A_{4} = \frac{R_{4} - \bar R}")
    assert advantage_latex(trace, 0, 2).startswith(r"A_{3} = ")  # no numbers: 1..K
    nemo = advantage_trace([1, 0, 0.5], convention="nemo-rl")
    assert scale_std_latex(nemo, 0, 1, numbers=[2, 5, 6]).startswith(r"\sigma_{-5} = ")
