"""practice.loss_drills: every policy-loss drill's answer, recomputed by hand from the numbers
its prompt shows, equals the value grpo_core.loss computed; mistakes are named; the bank's
loss drills join the quiz's grading, the certification families and the Anki deck."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.format import decimal_tex as num
from practice.anki import note_for
from practice.bank import load_bank
from practice.drills import make_drill
from practice.grading import grade_drill
from practice.loss_drills import RATIOS, WORDINGS
from practice.questions import LOSS_QUANTITIES, DrillTemplate
from practice.variants import draw, load_families

BANK = load_bank()
LOSS_DRILLS = [q for q in BANK if q.kind == "numeric" and q.drill.quantity != "advantage"]
NUMBER = r"[-+]?\d+(?:\.\d+)?"


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(NUMBER, text)]


def _clip(r: float, a: float, eps_low: float, eps_high: float) -> tuple[float, bool]:
    """Per-token loss -min(rA, clip(r)A) and whether the min took the clipped term."""
    clipped = min(max(r, 1 - eps_low), 1 + eps_high)
    loss = -min(r * a, clipped * a)
    return loss, (a > 0 and r > 1 + eps_high) or (a < 0 and r < 1 - eps_low)


def _eps_high(setup: str) -> float:
    return 0.28 if "Clip-Higher" in setup else 0.2


def _max_len(setup: str) -> int | None:
    m = re.search(r"max_completion_length = (\d+)", setup)
    return int(m[1]) if m else None


def by_hand(drill) -> float:
    """The drill's answer from its prompt's numbers, by the textbook formulas."""
    p = dict(drill.params)
    q = drill.quantity
    if q == "ratio":
        return math.exp(float(p["new"]) - float(p["old"]))
    if q == "sequence-ratio":
        return math.exp(np.mean(_numbers(p["log_ratios"])))
    if q == "kl-k3":
        d = float(p["ref"]) - float(p["logp"])
        return math.exp(d) - d - 1
    if q == "clip-fraction":
        eps_high, clipped, total = _eps_high(p["setup"]), 0, 0
        for answer in p["group"].split("; "):
            a = float(re.search(rf"A = ({NUMBER})", answer)[1])
            ratios = _numbers(answer.split("r = ")[1])
            clipped += sum(_clip(r, a, 0.2, eps_high)[1] for r in ratios)
            total += len(ratios)
        return clipped / total
    if q == "loss":
        rows = [_numbers(re.sub(r"answer \d+:", "", answer)) for answer in p["group"].split("; ")]
        lengths = [int(n) for n, _, _ in rows]
        losses = [_clip(r, a, 0.2, 0.2)[0] for _, a, r in rows]
        weighted = sum(n * x for n, x in zip(lengths, losses, strict=True))
        if drill.convention == "grpo":
            return sum(losses) / len(rows)
        if drill.convention == "dr_grpo":
            return weighted / (len(rows) * _max_len(p["setup"]))
        return weighted / sum(lengths)
    assert q == "token-gradient"
    lengths = [int(n) for n in p["lengths"].split(", ")]
    a, r, i = float(p["adv"]), float(p["ratio"]), int(p["ask"]) - 1
    _, clipped = _clip(r, a, 0.2, 0.2)
    if drill.convention == "grpo":
        weight = 1 / (len(lengths) * lengths[i])
    elif drill.convention == "dr_grpo":
        weight = 1 / (len(lengths) * _max_len(p["setup"]))
    else:
        weight = 1 / sum(lengths)
    return 0.0 if clipped else -a * r * weight


def test_the_bank_has_a_drill_of_every_loss_quantity():
    assert {q.drill.quantity for q in LOSS_DRILLS} == set(LOSS_QUANTITIES)
    assert {q.drill.convention for q in LOSS_DRILLS if q.drill.quantity == "loss"} >= {
        "grpo",
        "dapo",
        "dr_grpo",
    }


@pytest.mark.parametrize("question", LOSS_DRILLS, ids=lambda q: q.id)
def test_the_answer_is_what_the_prompt_shows_computed_by_hand(question):
    rng = np.random.default_rng(2026)
    for _ in range(40):
        d = make_drill(question.drill, rng)
        assert d.quantity == question.drill.quantity and d.tol == question.drill.tol
        assert d.expected == pytest.approx(by_hand(d), abs=1e-12)
        assert all(v in d.prompt for _, v in d.params if isinstance(v, str))
        assert grade_drill(d, f"{d.expected:.4f}").correct
        assert not grade_drill(d, f"{d.expected + 2 * d.tol + 1e-3:.4f}").correct
        assert d.expected == 0 or num(d.expected) in d.solution[-1]
        assert not any("nan" in line or "inf" in line for line in d.solution)
        for value, _ in d.mistakes:  # every named mistake is wrong at the tolerance
            assert abs(value - d.expected) > d.tol


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(LOSS_QUANTITIES),
    st.sampled_from(("grpo", "bnpo", "dr_grpo", "dapo")),
    st.integers(2, 5),
    st.integers(0, 2**32 - 1),
)
def test_any_template_draws_a_drill_that_passes_its_own_grader(quantity, loss_type, k, seed):
    template = DrillTemplate(loss_type, 2, k, "", 1, 0.001, quantity)
    d = make_drill(template, np.random.default_rng(seed))
    assert math.isfinite(d.expected)
    assert d.expected == pytest.approx(by_hand(d), abs=1e-12)
    assert grade_drill(d, repr(d.expected)).correct
    assert d.prompt == WORDINGS[quantity].format(**dict(d.params))


def test_the_same_generator_state_gives_the_same_drill():
    template = DrillTemplate("dapo", 2, 4, "", 1, 0.005, "loss")
    a = make_drill(template, np.random.default_rng(3))
    assert a == make_drill(template, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    assert len({make_drill(template, rng).prompt for _ in range(20)}) > 15


def test_the_clip_fraction_names_the_sign_blind_count():
    template = DrillTemplate("dapo", 4, 4, "", 1, 0.005, "clip-fraction")
    rng = np.random.default_rng(0)
    for _ in range(50):
        d = make_drill(template, rng)
        blind = [v for v, text in d.mistakes if "every ratio outside" in text]
        if blind:
            result = grade_drill(d, f"{blind[0]:.4f}")
            assert not result.correct and "advantage pushes it further out" in result.feedback
            return
    pytest.fail("no drill where counting every ratio out of range is wrong")


def test_a_clipped_token_has_no_gradient_and_the_mistake_says_so():
    template = DrillTemplate("dapo", 3, 3, "", 1, 0.0005, "token-gradient")
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(200):
        d = make_drill(template, rng)
        clipped = d.solution[1].endswith(r"\text{clipped}")
        seen.add(clipped)
        if clipped:
            assert d.expected == 0
            p = dict(d.params)
            unclipped = (
                -float(p["adv"]) * float(p["ratio"]) / sum(int(n) for n in p["lengths"].split(", "))
            )
            result = grade_drill(d, f"{unclipped:.6f}")
            assert not result.correct and "flat in r" in result.feedback
    assert seen == {True, False}


def test_the_loss_drill_names_the_other_aggregation():
    template = DrillTemplate("grpo", 3, 3, "", 1, 0.005, "loss")
    rng = np.random.default_rng(4)
    d = next(d for d in (make_drill(template, rng) for _ in range(50)) if len(d.mistakes) >= 3)
    value = next(v for v, t in d.mistakes if "dapo aggregation" in t)
    assert "dapo aggregation" in grade_drill(d, f"{value:.4f}").feedback


def test_ratios_leave_out_the_clip_bounds():
    assert not {0.8, 1.2, 1.28} & set(RATIOS)


def test_a_bad_loss_type_is_a_plain_error():
    with pytest.raises(ValueError, match="loss_type"):
        make_drill(DrillTemplate("trl", 2, 3, "", 1, 0.01, "loss"), np.random.default_rng(0))


def test_loss_drills_join_the_anki_deck_with_their_answer():
    for q in LOSS_DRILLS:
        fields = note_for(q).fields
        assert "A_1" not in fields[1] and "≈" in fields[1]


def test_the_certification_has_a_loss_drill_family():
    families = [f for f in load_families() if f.drill and f.drill.quantity != "advantage"]
    assert families
    for family in families:
        variants = [draw(family, seed) for seed in range(40)]
        for v in variants:
            assert v.drill.expected == pytest.approx(by_hand(v.drill), abs=1e-12)
            assert all(val in v.question.prompt for _, val in v.drill.params)
        assert len({v.wording for v in variants}) == len(family.wordings)
