"""grpo_core.latex: formulas carry the trace's own numbers."""

import math

from grpo_core import advantage_trace
from grpo_core.latex import advantage_latex, mean_latex, std_latex


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
