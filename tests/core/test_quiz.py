"""grpo_core.quiz: formula-blank grading, the real question bank, drills and the session."""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core import group_advantages
from grpo_core.quiz import (
    KINDS,
    TOPICS,
    DrillTemplate,
    certificate_earned,
    check_formula_blanks,
    decode_progress,
    encode_progress,
    grade_blanks,
    grade_choice,
    grade_drill,
    grade_formula_blanks,
    grade_numeric,
    load_bank,
    make_drill,
    missed,
    missed_questions,
    next_question,
    normalise_answer,
    parse_number,
    record_answer,
    retry_missed,
    score,
    start_quiz,
)

BANK = load_bank()

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
    assert grade_formula_blanks(answer, "σ").mean_feedback.startswith("Right")


@pytest.mark.parametrize("answer", STD_ANSWERS)
def test_std_blank_accepts_notation(answer):
    assert check_formula_blanks("mean", answer) == (True, True)
    assert grade_formula_blanks("μ", answer).std_feedback.startswith("Right")


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
    fb = grade_formula_blanks(mean_answer, std_answer)
    assert not fb.correct
    wrong = [text for ok, text in [(fb.mean_correct, fb.mean_feedback),
                                   (fb.std_correct, fb.std_feedback)] if not ok]  # fmt: skip
    assert len(wrong) >= 1
    assert any(phrase in text for text in wrong), wrong


def test_batch_std_is_wrong_although_it_contains_std():
    assert check_formula_blanks("mean", "batch std") == (True, False)
    assert check_formula_blanks("batch mean", "std") == (False, True)


def test_feedback_for_wrong_blank_says_what_the_blank_is():
    fb = grade_formula_blanks("V(s)", "variance")
    assert "same prompt" in fb.mean_feedback and "same prompt" in fb.std_feedback


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
    fb = grade_formula_blanks(answer, answer)
    for text in (fb.mean_feedback, fb.std_feedback):
        assert "<script" not in text and "onerror" not in text and "\x00" not in text


def test_five_megabyte_answer_says_too_long():
    fb = grade_formula_blanks("mean" * 1_250_000, "std")
    assert not fb.mean_correct and fb.std_correct
    assert "Too long" in fb.mean_feedback


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=250), st.text(max_size=250))
def test_grading_never_raises_on_any_text(mean_answer, std_answer):
    fb = grade_formula_blanks(mean_answer, std_answer)
    assert isinstance(fb.mean_correct, bool) and isinstance(fb.std_correct, bool)
    assert fb.mean_feedback and fb.std_feedback


# --- the real bank ------------------------------------------------------------------------

REQUIRED_TOPICS = {
    "formula", "mean", "std", "eps", "ddof", "binary", "dr-grpo", "dapo", "rloo", "batch",
    "critic", "length", "float32",
}  # fmt: skip


def test_bank_has_forty_items_of_every_kind_and_topic():
    assert len(BANK) >= 40
    assert set(Counter(q.kind for q in BANK)) == set(KINDS)
    assert set(TOPICS) >= REQUIRED_TOPICS
    assert {q.topic for q in BANK} == set(TOPICS)


def test_bank_ids_are_unique():
    ids = [q.id for q in BANK]
    assert len(ids) == len(set(ids))


def test_every_question_has_what_its_kind_needs():
    for q in BANK:
        assert q.prompt.strip(), q.id
        if q.kind in ("choice", "redflag"):
            assert len(q.options) >= 2, q.id
            assert 0 <= q.answer < len(q.options), q.id
            assert all(o.why.strip() and o.text.strip() for o in q.options), q.id
            assert q.explanation, q.id
        elif q.kind == "blanks":
            assert q.blanks, q.id
        elif q.kind == "numeric":
            assert q.drill is not None, q.id
        else:
            assert q.model_answer and q.key_points, q.id


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
    assert not result.correct and "includes R_i itself" in result.feedback


@pytest.mark.parametrize("answer", ["x" * 5_000_000, None, "\x00", "<script>alert(1)</script>"])
def test_accepted_list_blanks_survive_hostile_input(answer):
    q = next(q for q in BANK if q.id == "blanks-gae")
    results = grade_blanks(q, [answer, answer])
    assert not any(r.correct for r in results)


def test_grade_choice_gives_the_chosen_options_explanation():
    q = next(q for q in BANK if q.id == "choice-who-goes-up")
    right = grade_choice(q, q.answer)
    assert right.correct and right.feedback == q.options[q.answer].why
    wrong = grade_choice(q, (q.answer + 1) % len(q.options))
    assert not wrong.correct and wrong.feedback
    with pytest.raises(ValueError, match="between 0 and"):
        grade_choice(q, 9)


def test_normalise_answer_bounds_the_work():
    assert normalise_answer("x" * 201) is None
    assert normalise_answer(None) is None
    assert normalise_answer(r"\frac{1-p}{p}") == normalise_answer("frac{1 - P}{p}")


# --- load_bank validation -----------------------------------------------------------------

GOOD_CHOICE = """
[[question]]
id = "c1"
kind = "choice"
topic = "mean"
prompt = "p"
explanation = "e"
[[question.options]]
text = "a"
why = "because"
correct = true
[[question.options]]
text = "b"
why = "because not"
"""


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.replace('kind = "choice"', 'kind = "essay"'), r"'c1'.*field 'kind'"),
        (lambda s: s.replace('topic = "mean"', 'topic = "cooking"'), r"'c1'.*field 'topic'"),
        (lambda s: s.replace('id = "c1"', 'id = "Bad Id"'), r"question 1: field 'id'"),
        (lambda s: s.replace('why = "because not"', 'why = ""'), r"options\[1\]\.why"),
        (lambda s: s.replace("correct = true", "correct = false"), r"exactly one option"),
        (lambda s: s.replace('prompt = "p"', 'prompt = ""'), r"field 'prompt'"),
        (lambda s: s.replace('prompt = "p"', 'prompt = "p"\nexplaination = "x"'), "explaination"),
        (lambda s: s + s, r"question 2: field 'id': 'c1' is used twice"),
        (lambda s: s + "[[[", r"not valid TOML"),
        (lambda s: "", r"no \[\[question\]\]"),
    ],
)
def test_load_bank_names_the_bad_item_and_field(tmp_path, edit, message):
    path = tmp_path / "bank.toml"
    path.write_text(edit(GOOD_CHOICE), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_bank(path)


@pytest.mark.parametrize(
    ("drill", "field"),
    [
        ('{ convention = "trl-batch", k = [4, 4], rewards = "binary", ask = 1 }', "convention"),
        ('{ convention = "trl", k = [1, 4], rewards = "binary", ask = 1 }', "drill.k"),
        ('{ convention = "trl", k = [4, 40], rewards = "binary", ask = 1 }', "drill.k"),
        ('{ convention = "trl", k = [4, 6], rewards = "gaussian", ask = 1 }', "drill.rewards"),
        ('{ convention = "trl", k = [4, 6], rewards = "binary", ask = 5 }', "drill.ask"),
        ('{ convention = "trl", k = [4, 6], rewards = "binary", ask = 1, tol = 0 }', "drill.tol"),
    ],
)
def test_load_bank_rejects_bad_drills(tmp_path, drill, field):
    path = tmp_path / "bank.toml"
    text = '[[question]]\nid = "d"\nkind = "numeric"\ntopic = "mean"\nprompt = "p"\n'
    path.write_text(text + f'explanation = "e"\ndrill = {drill}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=rf"'d'.*{field}"):
        load_bank(path)


def test_load_bank_rejects_a_blank_whose_model_answer_fails(tmp_path):
    path = tmp_path / "bank.toml"
    path.write_text(
        '[[question]]\nid = "b"\nkind = "blanks"\ntopic = "rloo"\nprompt = "p"\n'
        'explanation = "e"\n[[question.blanks]]\nlabel = "x"\nanswer = "batch mean"\n'
        'grader = "group-mean"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"blanks\[0\]\.answer.*own grader"):
        load_bank(path)


# --- numeric drills -----------------------------------------------------------------------

DRILLS = [q for q in BANK if q.kind == "numeric"]


@pytest.mark.parametrize("question", DRILLS, ids=lambda q: q.id)
def test_drill_expected_value_is_group_advantages(question):
    rng = np.random.default_rng(7)
    for _ in range(20):
        d = make_drill(question.drill, rng)
        assert question.drill.k_min <= len(d.rewards) <= question.drill.k_max
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

IDS = [q.id for q in BANK]


def test_start_quiz_order_is_a_seeded_permutation():
    a, b = start_quiz(IDS, 42), start_quiz(reversed(IDS), 42)
    assert a.order == b.order and sorted(a.order) == sorted(IDS)
    assert start_quiz(IDS, 43).order != a.order
    assert a.full and not a.finished and next_question(a) == a.order[0]


def test_record_score_missed_and_retry():
    state = start_quiz(IDS, 1)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n % 5 != 0)  # every fifth is wrong
    s = score(state)
    assert state.finished and next_question(state) is None
    assert s.total == len(IDS) and s.answered == len(IDS)
    assert s.correct == len(IDS) - len(range(0, len(IDS), 5))
    assert missed(state) == state.order[::5]
    assert [q.id for q in missed_questions(state, BANK)] == list(state.order[::5])
    retry = retry_missed(state)
    assert sorted(retry.order) == sorted(state.order[::5]) and not retry.answers
    assert not retry.full and retry.seed == 2


def test_first_answer_stands_and_unknown_ids_are_refused():
    state = start_quiz(IDS, 1)
    qid = state.order[0]
    state = record_answer(state, qid, False)
    assert record_answer(state, qid, True).answers[qid] is False
    with pytest.raises(ValueError, match="not part of this quiz"):
        record_answer(state, "no-such-question", True)


def test_pass_needs_eighty_percent_of_a_full_finished_quiz():
    ids = [f"q{n}" for n in range(10)]
    state = start_quiz(ids, 0)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n >= 2)  # 8 of 10
    assert score(state).passing and certificate_earned(state)
    state = start_quiz(ids, 0)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n >= 3)  # 7 of 10
    assert not score(state).passing and not certificate_earned(state)
    partial = start_quiz(ids, 0, only=ids[:5])
    for qid in partial.order:
        partial = record_answer(partial, qid, True)
    assert score(partial).passing and not certificate_earned(partial)


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1])
def test_progress_round_trip_is_short(seed):
    state = start_quiz(IDS, seed)
    for n, qid in enumerate(state.order[:20]):
        state = record_answer(state, qid, n % 3 != 0)
    text = encode_progress(state)
    assert len(text) <= 40 and text.isascii()
    assert all(c.isalnum() or c in "-_" for c in text)
    assert decode_progress(text, IDS) == state


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=7, max_size=7), st.integers(0, 2**32 - 1))
def test_progress_round_trip_any_state(codes, seed):
    ids = [f"q{n}" for n in range(7)]
    pool = [q for q, c in zip(ids, codes, strict=True) if c] or ids
    state = start_quiz(ids, seed, only=pool)
    for q, c in zip(ids, codes, strict=True):
        if c >= 2 and q in pool:
            state = record_answer(state, q, c == 2)
    assert decode_progress(encode_progress(state), ids) == state


def test_progress_of_a_retry_round_trips():
    state = start_quiz(IDS, 9)
    for qid in state.order:
        state = record_answer(state, qid, qid.startswith("choice"))
    retry = record_answer(retry_missed(state), retry_missed(state).order[0], True)
    assert decode_progress(encode_progress(retry), IDS) == retry


@pytest.mark.parametrize(
    "junk",
    [None, 12, "", "q1", "q2AAAA", "hello", "q1!!!!", "q1" + "A" * 10_000, "x" * 1_000_000,
     "q1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "\x00", "q1😀"],
)  # fmt: skip
def test_decode_progress_junk_is_none(junk):
    assert decode_progress(junk, IDS) is None


def test_decode_progress_refuses_a_changed_bank_and_tampering():
    state = record_answer(start_quiz(IDS, 3), start_quiz(IDS, 3).order[0], True)
    text = encode_progress(state)
    assert decode_progress(text, [*IDS, "a-new-question"]) is None
    assert decode_progress(text, IDS[1:]) is None
    for i in range(2, len(text)):
        tampered = text[:i] + ("B" if text[i] != "B" else "C") + text[i + 1 :]
        decoded = decode_progress(tampered, IDS)
        assert decoded is None or decoded != state


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_decode_progress_never_raises(text):
    result = decode_progress(text, IDS)
    assert result is None or result.order


def test_start_quiz_validates():
    with pytest.raises(ValueError, match="seed"):
        start_quiz(IDS, -1)
    with pytest.raises(ValueError, match="not in the bank"):
        start_quiz(IDS, 0, only=["nope"])
    with pytest.raises(ValueError, match="distinct"):
        start_quiz(["a", "a"], 0)
    with pytest.raises(ValueError, match="nothing to retry"):
        retry_missed(start_quiz(IDS, 0))


def test_no_nan_in_any_drill_solution():
    rng = np.random.default_rng(11)
    for q in DRILLS:
        d = make_drill(q.drill, rng)
        assert math.isfinite(d.expected)
        assert not any("nan" in line or "inf" in line for line in d.solution)


def test_progress_is_the_share_answered():
    from grpo_core.quiz import progress

    state = start_quiz(["a", "b", "c", "d"], 3)
    assert progress(state) == 0
    state = record_answer(state, state.order[0], False)
    assert progress(state) == 0.25
    for qid in state.order:
        state = record_answer(state, qid, True)
    assert progress(state) == 1
