"""practice.drills: the expected value is group_advantages, the worked solution has the numbers."""

import inspect
import math

import numpy as np
import pytest

import practice.drills
from grpo_core import get_convention, group_advantages
from practice.bank import load_bank
from practice.drills import make_drill
from practice.grading import grade_drill
from practice.questions import DrillTemplate

BANK = load_bank()

DRILLS = [q for q in BANK if q.kind == "numeric"]
ADVANTAGE_DRILLS = [q for q in DRILLS if q.drill.quantity == "advantage"]


@pytest.mark.parametrize("question", ADVANTAGE_DRILLS, ids=lambda q: q.id)
def test_drill_expected_value_is_group_advantages(question):
    rng = np.random.default_rng(7)
    for _ in range(20):
        d = make_drill(question.drill, rng)
        assert question.drill.min_group_size <= len(d.rewards) <= question.drill.max_group_size
        a = group_advantages(d.rewards, convention=question.drill.convention)
        assert d.expected == a[question.drill.ask - 1]
        assert grade_drill(d, f"{d.expected:.4f}").correct
        assert not grade_drill(d, f"{d.expected + 3 * d.tol + 0.1:.4f}").correct
        if question.drill.rewards == "binary":
            assert set(d.rewards) == {0.0, 1.0}
        elif question.drill.rewards == "tie":
            assert len(set(d.rewards)) == 1 and d.expected == 0
        else:
            assert len(set(d.rewards)) > 1


def test_trl_drill_worked_solution_has_the_numbers():
    template = DrillTemplate("trl", 4, 4, "binary", 2, 0.01)
    rng = np.random.default_rng(0)
    d = next(d for d in (make_drill(template, rng) for _ in range(50)) if d.rewards[1] == 0)
    r = np.array(d.rewards)
    assert d.mean == pytest.approx(r.mean(), abs=1e-15)
    assert d.std == pytest.approx(r.std(ddof=1), rel=1e-12)
    assert d.denominator == pytest.approx(d.std + 1e-4, rel=1e-12)
    assert d.centred == pytest.approx(r[1] - r.mean(), abs=1e-15)
    text = "\n".join(d.solution)
    assert f"{r.mean():.4f}".rstrip("0").rstrip(".") in d.solution[1]
    assert f"{d.std:.4f}".rstrip("0").rstrip(".") in text
    assert "10^{-4}" in text and "ddof = 1" in text and "K - 1" in text
    assert d.solution[-1].endswith(f"{d.expected:.4f}".rstrip("0").rstrip("."))
    assert "A_{2}" in d.prompt and "TRL" in d.prompt


def test_known_drill_solution_line_by_line():
    # R = (1, 0, 1, 1): mean 0.75, centred -0.75, std sqrt(0.75 / 3) = 0.5, A = -0.75 / 0.5001
    template = DrillTemplate("trl", 4, 4, "binary", 2, 0.01)
    rng = np.random.default_rng(0)
    d = next(
        d for d in (make_drill(template, rng) for _ in range(200)) if d.rewards == (1, 0, 1, 1)
    )
    assert d.solution[1].endswith("= 0.75")
    assert d.solution[2].endswith("= -0.75")
    assert r"\sqrt{\frac{0.75}{3}} = 0.5" in d.solution[3]
    assert d.solution[4].endswith("= 0.5001")
    assert d.expected == pytest.approx(-0.75 / 0.5001, rel=1e-12)
    assert d.solution[5].endswith("-1.4997")


def test_rloo_and_dr_grpo_solutions_skip_the_std():
    rng = np.random.default_rng(3)
    rloo = make_drill(DrillTemplate("rloo", 4, 4, "continuous", 1, 0.005), rng)
    r = np.array(rloo.rewards)
    assert rloo.baseline == pytest.approx((r.sum() - r[0]) / 3, abs=1e-12)
    assert rloo.std is None and any("j \\ne 1" in line for line in rloo.solution)
    dr = make_drill(DrillTemplate("dr-grpo", 4, 4, "continuous", 1, 0.005), rng)
    assert dr.expected == pytest.approx(dr.rewards[0] - np.mean(dr.rewards), abs=1e-15)
    assert "no division" in dr.solution[-1]


def test_drill_names_the_ddof_mistake():
    template = DrillTemplate("trl", 3, 3, "binary", 1, 0.01)
    d = make_drill(template, np.random.default_rng(1))
    population = group_advantages(d.rewards, convention="trl", ddof=0)[0]
    result = grade_drill(d, f"{population:.4f}")
    assert not result.correct and "ddof = 0" in result.feedback
    flipped = grade_drill(d, f"{-d.expected:.4f}")
    assert not flipped.correct and "sign" in flipped.feedback


def test_drills_are_fresh_and_reproducible():
    template = DrillTemplate("verl", 4, 6, "continuous", 1, 0.01)
    a = [make_drill(template, np.random.default_rng(5)).rewards for _ in range(2)]
    assert a[0] == a[1]
    rng = np.random.default_rng(5)
    assert len({make_drill(template, rng).rewards for _ in range(10)}) > 1


def test_no_nan_in_any_drill_solution():
    rng = np.random.default_rng(11)
    for q in DRILLS:
        d = make_drill(q.drill, rng)
        assert math.isfinite(d.expected)
        assert not any("nan" in line or "inf" in line for line in d.solution)


@pytest.mark.parametrize("convention", ["trl", "verl", "openrlhf"])
def test_drill_prompt_reads_eps_from_the_conventions(convention):
    d = make_drill(DrillTemplate(convention, 3, 3, "binary", 1, 0.01), np.random.default_rng(0))
    exponent = round(math.log10(get_convention(convention).eps))
    assert f"eps = $10^{{{exponent}}}$" in d.prompt
    assert "10^{-" not in inspect.getsource(practice.drills)  # restated nowhere
