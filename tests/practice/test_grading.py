"""practice.grading: the formula blanks (notations, red flags, hostile input), the other
kinds of blank, choices and typed numbers."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.answer_text import normalise_answer
from practice.bank import load_bank
from practice.grading import (
    check_formula_blanks,
    grade_blank,
    grade_blanks,
    grade_choice,
    grade_numeric,
    parse_number,
    without_verdict,
)
from practice.questions import Blank
from practice.statistic import classify_statistic

BANK = load_bank()
MEAN_BLANK = Blank("first blank", "group mean", grader="group-mean")
STD_BLANK = Blank("second blank", "group std", grader="group-std")


def formula_blanks(mean_answer, std_answer):
    """The two blanks of A_i = (R_i - ___) / (___ + eps), graded as the quiz grades them."""
    return grade_blank(MEAN_BLANK, mean_answer), grade_blank(STD_BLANK, std_answer)


# --- the GRPO template: synonyms ----------------------------------------------------------

MEAN_ANSWERS = [
    "mean", "MEAN", "  Group   Mean ", "mu", "Mu", "μ", "µ", r"\mu", r"\mu_g", "$\\mu_{g}$",
    "mu_group", "mean(R)", "mean(r_1..r_K)", "mean(R_1, ..., R_K)", r"\bar{R}", r"\bar r",
    r"\overline{R}", "R̄", "x̄", "avg", "average", "group average", "group mean",
    "mean of group rewards", "the group's average reward", "mean of all K rewards",
    "mean of the group", "E[R]", r"\mathbb{E}[R]", r"\mathrm{mean}(\mathbf{r})", "mean_g",
    "arithmetic mean", "expected reward", "expected value of R", "R.mean(dim=1)",
    r"\frac{1}{K}\sum_{j=1}^{K} R_j", r"\frac{\sum_j R_j}{K}", "sum(r)/k",
]  # fmt: skip
STD_ANSWERS = [
    "std", "STD", "sigma", "Sigma", "σ", r"\sigma", r"\sigma_g", "σ_g", "std_g", "std(R)",
    "stdev", "sd", "standard deviation", "Std Dev", "group std", "group standard deviation",
    "std of the group rewards", "sample std", "population std", "sqrt(var(R))",
    r"\sqrt{\mathrm{Var}(R)}", "√var(R)", "torch.std(r, dim=1)", "np.std(R, ddof=1)",
    "rewards.std()", r"\sqrt{\frac{1}{K-1}\sum_j (R_j-\bar R)^2}",
    "sqrt(mean((r - mean(r))^2))", "Var(R)^0.5", "var(r)**(1/2)",
]  # fmt: skip


@pytest.mark.parametrize("answer", MEAN_ANSWERS)
def test_mean_blank_accepts_notation(answer):
    assert check_formula_blanks(answer, "std") == (True, True)
    assert formula_blanks(answer, "σ")[0].feedback.startswith("Right")


@pytest.mark.parametrize("answer", STD_ANSWERS)
def test_std_blank_accepts_notation(answer):
    assert check_formula_blanks("mean", answer) == (True, True)
    assert formula_blanks("μ", answer)[1].feedback.startswith("Right")


# --- red flags and wrong answers, with the reason -----------------------------------------

RED_FLAGS = [
    # (mean answer, std answer, a phrase of the feedback on the wrong blank)
    ("batch mean", "std", "whole batch"),
    ("global mean", "std", "whole batch"),
    ("mean over all prompts", "std", "whole batch"),
    ("mean of all rewards", "std", "whole batch"),
    ("running mean", "std", "whole batch"),
    ("μ_B", "std", "whole batch"),
    ("mean", "batch std", "whole batch"),
    ("mean", "std over the batch", "whole batch"),
    ("mean", "σ_batch", "whole batch"),
    ("V(s)", "std", "critic"),
    ("value", "std", "critic"),
    ("critic", "std", "critic"),
    ("baseline from a value model", "std", "critic"),
    ("V_phi(s_t)", "std", "critic"),
    ("mean", "V(s)", "critic"),
    ("mean", "var", "Variance, not standard deviation"),
    ("mean", "variance", "Variance, not standard deviation"),
    ("mean", "Var(R)", "Variance, not standard deviation"),
    ("mean", "sigma^2", "Variance, not standard deviation"),
    ("mean", "σ²", "Variance, not standard deviation"),
    ("mean", r"\sigma^2", "Variance, not standard deviation"),
    ("max", "std", "maximum"),
    ("median", "std", "median"),
    ("min", "std", "minimum"),
    ("K", "std", "group size"),
    ("mean", "K", "group size"),
    ("eps", "std", "eps is already in the template"),
    ("mean", "eps", "eps is already in the template"),
    ("mean", "std + eps", "add it twice"),
    ("", "std", "Empty"),
    ("mean", "", "Empty"),
    ("std", "std", "belongs in the second blank"),
    ("mean", "mean", "belongs in the first blank"),
    ("σ", "μ", "belongs in the second blank"),
    ("mean", "1", "Dr. GRPO"),
    ("mean", "none", "Dr. GRPO"),
    ("sum of rewards", "std", "grows with the group size"),
    ("R_i", "std", "reward itself"),
    ("mean + 1", "std", "Not recognised"),
    ("mean", "standard error", "Not recognised"),
    ("mean", "sqrt(mean(r^2))", "Not recognised"),
]


@pytest.mark.parametrize(("mean_answer", "std_answer", "phrase"), RED_FLAGS)
def test_wrong_answers_rejected_with_reason(mean_answer, std_answer, phrase):
    mean, std = formula_blanks(mean_answer, std_answer)
    assert not (mean.correct and std.correct)
    wrong = [result.feedback for result in (mean, std) if not result.correct]
    assert len(wrong) >= 1
    assert any(phrase in text for text in wrong), wrong


def test_batch_std_is_wrong_although_it_contains_std():
    assert check_formula_blanks("mean", "batch std") == (True, False)
    assert check_formula_blanks("batch mean", "std") == (False, True)


AXIS_AND_SCOPE_FLAGS = [
    # (mean answer, std answer, a phrase of the feedback on the wrong blank), issue 12
    ("np.mean(R, axis=0)", "std", "axis=0 averages answer i across prompts"),
    ("R.mean(0)", "std", "(prompts, K) layout the group is a row"),
    ("mean", "torch.std(R, dim=0)", "axis=0 takes the spread of answer i across prompts"),
    ("mean", "R.var(0)", "Red flag twice: a variance, and over axis=0"),
    ("R.mean(axis=None)", "std", "whole batch"),
    ("mean across groups", "std", "whole batch"),
    ("mean", "std of all groups", "whole batch"),
    ("mean(A)", "std", "advantages A"),
    ("mean", "std of the advantages", "advantages A"),
    ("(sum(R) - R_i)/(K-1)", "std", "RLOO's leave-one-out baseline"),
    ("(sum_j R_j)/(K-1)", "std", "The count does not match the sum"),
    ("mean", "R.std(-1) + 1e-4", "add it twice"),
]


@pytest.mark.parametrize(("mean_answer", "std_answer", "phrase"), AXIS_AND_SCOPE_FLAGS)
def test_axis_and_scope_mistakes_say_why(mean_answer, std_answer, phrase):
    test_wrong_answers_rejected_with_reason(mean_answer, std_answer, phrase)


def test_code_on_the_group_axis_is_right():
    mean, std = formula_blanks("np.mean(R, axis=-1)", "np.std(R, axis=-1, ddof=1)")
    assert mean.correct and std.correct


def test_feedback_for_wrong_blank_says_what_the_blank_is():
    mean, std = formula_blanks("V(s)", "variance")
    assert "same prompt" in mean.feedback and "same prompt" in std.feedback


# --- hostile input ------------------------------------------------------------------------

HOSTILE = [
    "m" * 5_000_000,
    "mean" + " " * 300,
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "mean\x00",
    "\x00",
    "std\x1b[31m",
    "😀",
    "mean 😀",
    "李雷",
    "\u202emean",
    "\ud800",
    None,
    123,
    b"mean",
    ["mean"],
    "((((((((((" * 19,
    "_" * 199,
    "\\" * 199,
    "$" * 199,
]


@pytest.mark.parametrize("answer", HOSTILE, ids=lambda a: repr(a)[:20])
def test_hostile_input_never_raises_and_is_wrong(answer):
    assert check_formula_blanks(answer, answer) == (False, False)
    for text in (result.feedback for result in formula_blanks(answer, answer)):
        assert "<script" not in text and "onerror" not in text and "\x00" not in text


def test_five_megabyte_answer_says_too_long():
    mean, std = formula_blanks("mean" * 1_250_000, "std")
    assert not mean.correct and std.correct
    assert "Too long" in mean.feedback


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=250), st.text(max_size=250))
def test_grading_never_raises_on_any_text(mean_answer, std_answer):
    mean, std = formula_blanks(mean_answer, std_answer)
    assert isinstance(mean.correct, bool) and isinstance(std.correct, bool)
    assert mean.feedback and std.feedback
    assert check_formula_blanks(mean_answer, std_answer) == (mean.correct, std.correct)


# --- blanks of the bank and choices ---------------------------------------------------------


def test_model_answers_of_every_blank_pass_their_graders():
    for q in (q for q in BANK if q.kind == "blanks"):
        results = grade_blanks(q, [b.answer for b in q.blanks])
        assert all(r.correct for r in results), q.id


def test_grpo_template_question_uses_the_formula_grader():
    q = next(q for q in BANK if q.id == "blanks-grpo")
    assert [b.grader for b in q.blanks] == ["group-mean", "group-std"]
    right, wrong = grade_blanks(q, [r"\bar R", "batch std"])
    assert right.correct and not wrong.correct and "whole batch" in wrong.feedback


def test_accepted_list_blanks_normalise_latex_and_spacing():
    q = next(q for q in BANK if q.id == "blanks-binary")
    results = grade_blanks(q, ["p (1 - p)", r"\frac{1 - p}{p}", "P/(1-P)"])
    assert all(r.correct for r in results)
    swapped = grade_blanks(q, ["p(1-p)", "p/(1-p)", "(1-p)/p"])
    assert not swapped[1].correct and "Swapped" in swapped[1].feedback


def test_rloo_blank_explains_the_classic_mistake():
    q = next(q for q in BANK if q.id == "blanks-rloo-baseline")
    assert grade_blanks(q, [r"\frac{1}{K-1}\sum_{j\neq i} R_j"])[0].correct
    assert grade_blanks(q, ["(sum(R) - R_i) / (K - 1)"])[0].correct
    (result,) = grade_blanks(q, ["mean(R)"])
    assert not result.correct and "includes Rᵢ itself" in result.feedback


def test_list_blanks_accept_what_the_model_answer_means():
    binary = next(q for q in BANK if q.id == "blanks-binary")
    results = grade_blanks(binary, ["p - p^2", r"\frac{1}{p}-1", "1/(1/p - 1)"])
    assert all(r.correct for r in results)
    rloo = next(q for q in BANK if q.id == "blanks-rloo-baseline")
    for answer in ["average of the other answers", "(R.sum(-1, keepdims=True) - R)/(K-1)"]:
        assert grade_blanks(rloo, [answer])[0].correct, answer


def test_list_blanks_give_the_mistake_feedback_to_what_means_the_same():
    binary = next(q for q in BANK if q.id == "blanks-binary")
    swapped = grade_blanks(binary, ["p(1+p)", "p(1-p)^{-1}", "1/p - 1"])
    assert not any(r.correct for r in swapped)
    assert "variance of a 0/1 reward" in swapped[0].feedback
    assert "Swapped" in swapped[1].feedback and "Swapped" in swapped[2].feedback
    rloo = next(q for q in BANK if q.id == "blanks-rloo-baseline")
    (result,) = grade_blanks(rloo, ["average of all K rewards in the group"])
    assert not result.correct and "includes Rᵢ itself" in result.feedback


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [("(R.sum(0) - R)/(K-1)", "axis=0"), ("mean of the other groups", "whole batch"),
     ("V(s)", "critic"), ("advantage mean", "advantages A")],
)  # fmt: skip
def test_list_blank_of_a_group_statistic_names_the_red_flag(answer, phrase):
    rloo = next(q for q in BANK if q.id == "blanks-rloo-baseline")
    (result,) = grade_blanks(rloo, [answer])
    assert not result.correct and phrase in result.feedback and "model answer" in result.feedback


def test_questions_with_code_answers_state_the_rewards_layout():
    """Code is graded under the (prompts, K) layout, so every question whose answers may be
    code (a blank graded by meaning as a group statistic, or code options) says so."""
    for q in BANK:
        code_blank = any(
            b.grader is not None or classify_statistic(b.answer) in ("mean", "std", "loo-mean")
            for b in q.blanks
        )
        code_options = any("`A = " in o.text or "`R." in o.text for o in q.options)
        if code_blank or code_options:
            assert re.search(r"`\((num_)?prompts, K\)`", q.prompt), q.id


@pytest.mark.parametrize("answer", ["x" * 5_000_000, None, "\x00", "<script>alert(1)</script>"])
def test_accepted_list_blanks_survive_hostile_input(answer):
    q = next(q for q in BANK if q.id == "blanks-gae")
    results = grade_blanks(q, [answer, answer])
    assert not any(r.correct for r in results)


def test_grade_choice_gives_the_chosen_options_explanation():
    q = next(q for q in BANK if q.id == "choice-who-goes-up")
    right = grade_choice(q, q.answer)
    assert right.correct and right.feedback == without_verdict(q.options[q.answer].why)
    assert not right.feedback.lower().startswith(("right", "wrong"))  # one verdict, the page's
    wrong = grade_choice(q, (q.answer + 1) % len(q.options))
    assert not wrong.correct and wrong.feedback
    with pytest.raises(ValueError, match="between 0 and"):
        grade_choice(q, 9)


def test_normalise_answer_bounds_the_work():
    assert normalise_answer("x" * 201) is None
    assert normalise_answer(None) is None
    assert normalise_answer(r"\frac{1-p}{p}") == normalise_answer("frac{1 - P}{p}")


# --- typed numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.935", 0.935), (" .935 ", 0.935), ("-1.2e-3", -1.2e-3), ("−0.5", -0.5), ("+2", 2.0),
     ("1E3", 1000.0), ("-3/4", -0.75), ("≈ 0.94", 0.94), ("0", 0.0), ("٣", 3.0)],
)  # fmt: skip
def test_parse_number_reads_what_people_type(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    ["", "abc", "0.9.3", "1/0", "inf", "nan", "1e999", "0,935", "1_000", "0x10", "--1",
     "1" * 41, "\x00", None, True, [1.0], "<b>1</b>"],
)  # fmt: skip
def test_parse_number_rejects_junk(text):
    assert parse_number(text) is None


def test_grade_numeric_tolerance_and_feedback():
    assert grade_numeric("0.935", 0.935239, tol=0.01).correct
    assert grade_numeric("0.94", 0.935239, tol=0.01).correct
    miss = grade_numeric("0.95", 0.935239, tol=0.01)
    assert not miss.correct and miss.value == 0.95 and "0.9352" in miss.feedback
    comma = grade_numeric("0,935", 0.935239, tol=0.01)
    assert not comma.correct and "dot" in comma.feedback
    junk = grade_numeric("x" * 5_000_000, 0.9, tol=0.01)
    assert not junk.correct and junk.value is None and "Not a number" in junk.feedback


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), st.floats(), st.integers(), st.none()))
def test_grade_numeric_never_raises(text):
    result = grade_numeric(text, 0.5, tol=0.01)
    assert isinstance(result.correct, bool)


# --- the session --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("why", "reason"),
    [
        ("Right: the group is one prompt's K answers.", "The group is one prompt's K answers."),
        ("wrong. the batch mean mixes prompts", "The batch mean mixes prompts"),
        ("The std keeps them scale-free.", "The std keeps them scale-free."),
    ],
)
def test_an_options_reason_loses_its_own_verdict(why, reason):
    assert without_verdict(why) == reason
