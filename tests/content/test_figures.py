"""Numbers in content/ are computed: placeholders filled from content.figures (grpo_core),
and every decimal still typed is either an input or a figure checked here."""

import math

import numpy as np
import pytest

import content
from content import citations as quoted
from content import figures
from grpo_core import group_advantages
from grpo_core.precision import float32_advantages
from tests.content import prose

FIGURES = figures.figures()

# Decimals typed in prose that are not computed figures: inputs of an example, library
# settings, or constants. file -> {literal: why}.
TYPED = {
    "guide.md": {
        "0.0": "TRL's default beta from v0.19.0, a setting (cited: trl-beta-default)",
        "0.01": "OpenRLHF's default KL coefficient (--algo.kl.init_coef), a setting (cited)",
        "0.04": "TRL's default beta up to v0.18, a setting (cited: trl-beta-default)",
        "0.05": "TRL's RLOOTrainer default beta, a setting (cited: trl-rloo-kl)",
        "0.1": "the walkthrough's format bonus, an input (content.figures.FORMAT_BONUS)",
        "0.2": "PPO's clip range, a hyper-parameter (cited)",
        "0.5": "a pass rate p = 0.5, an input",
        "0.69": "the noisy judge's scores, inputs (content.figures.NOISY_JUDGE)",
        "0.70": "the noisy judge's scores, inputs (content.figures.NOISY_JUDGE)",
        "0.71": "the noisy judge's scores, inputs (content.figures.NOISY_JUDGE)",
        "1.2": "the near tie's 1.2e-7, an input (content.figures.NEAR_TIE)",
    },
    "cheatsheet.md": {
        "0.0": "TRL's default beta from v0.19, a setting (cited: trl-beta-default)",
        "0.01": "OpenRLHF's default KL coefficient, a setting (cited)",
        "0.04": "TRL's default beta up to v0.18, a setting (cited: trl-beta-default)",
        "0.05": "TRL's RLOOTrainer default beta, a setting (cited: trl-rloo-kl)",
        "0.5": "a pass rate p = 0.5, an input",
        "1.2e-7": "the near tie's gap, an input (content.figures.NEAR_TIE)",
    },
    "lab.toml": {
        "0.1": "the rewards of the K = 7 float32 example, an input",
        "0.2": "example rewards in the typing help, inputs",
        "0.5": "example rewards in the typing help, and a pass rate p = 0.5, inputs",
        "0.7": "example rewards in the typing help, inputs",
        "0.9": "example rewards in the typing help, inputs",
        "1.00000012": "the near tie's odd reward, an input (content.figures.NEAR_TIE)",
    },
    "walkthrough.toml": {"0.01": "an illustrative reward spread, an input"},
    "questions.toml": {
        "0.0": "TRL's default beta from v0.19.0, a setting (cited: trl-beta-default)",
        "0.04": "TRL's default beta up to v0.18, a setting (cited: trl-beta-default)",
        "0.05": "TRL's RLOOTrainer default beta, a setting (cited: trl-rloo-kl)",
        "0.001": "reward differences of 0.001 near 1e6, an input",
        "0.01": "reward differences of about 0.01, an input",
        "0.2": "the rewards (0.2, 0.9, 0.4, 0.5), inputs",
        "0.4": "the rewards (0.2, 0.9, 0.4, 0.5), inputs",
        "0.9": "rewards 0.9 in (0.2, 0.9, 0.4, 0.5) and (0.9, 1, 1, 1), inputs",
        "0.5": "an input reward, a pass rate p = 0.5, the std of a binary group at p = 0.5 "
        "and of (0, 1) (checked below) and the mean of (0.2, 0.9, 0.4, 0.5)",
        "1.2": "the near tie's 1.2e-7, an input",
        "1.0": "an all-equal group's reward, an input",
        "3.4e38": "float32's largest number, a constant (np.finfo(np.float32).max)",
    },
}

# Decimals the quiz bank quotes as results: literal -> the figures it must round to (any).
QUIZ_FIGURES = {
    "0.0009": ("near_tie.float64.trl",),
    "0.0012": ("near_tie.float32.trl",),
    "0.0625": ("float32.spacing_1e6",),
    "0.085": ("near_tie.float64.verl",),
    "0.112": ("near_tie.float32.verl",),
    "0.26": ("binary.one_in_16.population.wrong",),
    "0.7070": ("k2.trl",),
    "0.707": ("k2.advantage",),
    "0.7071": ("k2.advantage",),
    "0.71": ("batch.group.both",),
    "0.866": ("ddof_shrink.k4",),
    "0.935": ("ddof_shrink.k8",),
    "0.975": ("quiz.mean_almost_all_right",),
    "1.155": ("ddof_factor.k4",),
    "1.414": ("ddof_factor.k2",),
    "1.475": ("near_tie.float64.openrlhf",),
    "1.5": ("near_tie.float64.openrlhf", "worked.exact.correct"),
    "1.7": ("near_tie.float32.openrlhf",),
    "1.707": ("near_tie.float32.openrlhf",),
    "1.069": ("ddof_factor.k8",),
    "3.75": ("binary.one_in_16.sample",),
    "3.87": ("binary.one_in_16.population",),
    "11.2": ("binary.k128.unclipped",),
    "49.8": ("batch.trl.divisor",),
}


def rounds_to(literal: str, figure: figures.Figure) -> bool:
    places = len(literal.split(".")[1]) if "." in literal else 0
    return math.isclose(round(abs(figure.value), places), float(literal), abs_tol=1e-12)


def test_every_placeholder_names_a_figure():
    unknown = [
        (u.file, u.where, name)
        for u in prose.all_text()
        for name in prose.PLACEHOLDER.findall(u.text)
        if name not in FIGURES
    ]
    assert unknown == []


def test_every_figure_is_quoted_somewhere():
    used = {name for u in prose.all_text() for name in prose.PLACEHOLDER.findall(u.text)}
    used |= {name for names in QUIZ_FIGURES.values() for name in names}
    assert set(FIGURES) - used == set()


def test_no_decimal_is_typed_unless_it_is_an_input_or_a_checked_figure():
    typed = []
    for unit in prose.all_text():
        allowed = TYPED.get(unit.file, {})
        checked = QUIZ_FIGURES if unit.file == prose.QUIZ else {}
        typed += [
            (unit.file, unit.where, x)
            for x in prose.decimals(unit.text)
            if x not in allowed and x not in checked
        ]
    assert typed == []


def test_every_allowed_literal_is_still_used():
    seen = {(u.file, x) for u in prose.all_text() for x in prose.decimals(u.text)}
    for file, literals in TYPED.items():
        for literal in literals:
            assert (file, literal) in seen, (file, literal)
    for literal in QUIZ_FIGURES:
        assert (prose.QUIZ, literal) in seen, literal


@pytest.mark.parametrize("literal", sorted(QUIZ_FIGURES))
def test_quiz_numbers_agree_with_grpo_core(literal):
    assert any(rounds_to(literal, FIGURES[name]) for name in QUIZ_FIGURES[literal]), literal


def test_fill_puts_the_computed_number_in_and_leaves_unknown_names():
    assert quoted.fill("+{{worked.trl.correct}} and {{no.such.figure}}") == (
        "+1.4997 and {{no.such.figure}}"
    )
    assert quoted.fill("{{ k2.advantage }}") == "0.7071"


def test_format_keeps_decimals_and_trims_when_asked():
    assert figures.Figure(1.5, 4).text == "1.5000"
    assert figures.Figure(-0.0625, 4, trim=True).text == "-0.0625"
    assert figures.Figure(0.25, 4, trim=True).text == "0.25"
    assert figures.Figure(0.7238, 0, percent=True).text == "72"


# --- the figures the expert review asked for, against independent computations ----------


def test_near_tie_in_float64_and_float32():
    assert FIGURES["near_tie.float64.verl"].text == "0.085"
    assert [FIGURES[f"near_tie.float32.{n}"].text for n in ("trl", "verl", "openrlhf")] == [
        "0.0012",
        "0.112",
        "1.707",
    ]
    a32 = float32_advantages(figures.NEAR_TIE, eps=1e-9)
    assert a32.sum() != 0 and (a32[[0, 2, 3]] == 0).all()


def test_near_tie_float32_figures_are_what_torch_computes_on_cpu():
    # the trainers' own arithmetic: torch float32, Tensor.mean and Tensor.std (ddof = 1)
    torch = pytest.importorskip("torch")
    rewards = torch.tensor([figures.NEAR_TIE], dtype=torch.float32)
    centred = rewards - rewards.mean(1, keepdim=True)
    for name, eps in (("trl", 1e-4), ("verl", 1e-6), ("openrlhf", 1e-9)):
        advantages = (centred / (rewards.std(1, keepdim=True) + eps)).numpy().ravel()
        assert advantages[[0, 2, 3]].tolist() == [0.0, 0.0, 0.0]
        np.testing.assert_allclose(
            advantages[1], float32_advantages(figures.NEAR_TIE, eps=eps)[1], rtol=1e-6
        )
        quoted = float(FIGURES[f"near_tie.float32.{name}"].text)  # rounded for prose
        np.testing.assert_allclose(advantages[1], quoted, rtol=1e-2)


def test_batch_scaling_is_not_reinforce_plus_plus():
    rewards = np.array(figures.BATCH_EXAMPLE)
    trl = group_advantages(rewards, convention="trl-batch")
    centred = rewards - rewards.mean(1, keepdims=True)
    assert np.allclose(trl, centred / (rewards.std(ddof=1) + 1e-4))
    assert FIGURES["batch.trl.divisor"].text == "49.8"
    # OpenRLHF's REINFORCE++-baseline: centre, clip to ±10, whiten with the population std
    clipped = np.clip(centred, -10, 10)
    assert FIGURES["batch.reinforce_pp.divisor"].text == f"{clipped.std():.2f}" == "7.08"
    assert FIGURES["batch.reinforce_pp.unclipped"].text == f"{centred.std():.1f}" == "35.4"
    assert np.allclose(
        group_advantages(rewards, convention="reinforce-pp"), clipped / clipped.std()
    )


def test_binary_group_totals_shrink_toward_the_edges():
    k = 16
    for p, name in ((1 / 16, "one_in_16"), (0.5, "half")):
        assert math.isclose(FIGURES[f"binary.total.{name}"].value, 2 * k * math.sqrt(p * (1 - p)))
    assert FIGURES["binary.total.one_in_16"].text == "7.7"


def test_every_content_file_renders_with_its_figures():
    for name in prose.MARKDOWN:
        assert "{{" not in quoted.fill(content.read_text(name))


def test_nemo_kl_and_gdpo_figures_by_hand():
    # NeMo-RL on (1, 0, 0, 0): the winner undivided, each loser -1/3 over sqrt(1/3) + 1e-6
    assert FIGURES["nemo.one_of_four.correct"].value == 1.0
    assert FIGURES["nemo.one_of_four.wrong"].value == pytest.approx(
        (-1 / 3) / (math.sqrt(1 / 3) + 1e-6)
    )
    # KL estimators at a log ratio of 0.5 and -0.5
    assert FIGURES["kl.k2"].value == 0.125 and FIGURES["kl.k1.negative"].value == -0.5
    assert FIGURES["kl.k3"].value == pytest.approx(math.exp(-0.5) - 0.5)
    assert FIGURES["kl.k3.negative"].value == pytest.approx(math.exp(0.5) - 1.5)
    # GDPO example: the sums (1, 1, 1, 0) tie the first three answers under TRL's default
    assert FIGURES["gdpo.sum.tied"].text == "0.500" and FIGURES["gdpo.sum.worst"].text == "-1.500"
    split = [FIGURES[f"gdpo.split.{n}"].value for n in ("correct", "formatted", "worst")]
    assert split[0] > split[1] > 0 > split[2]
