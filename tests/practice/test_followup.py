"""practice.followup and grade_followup: the contract, relations, negation, lists, bounds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.bank import load_bank
from practice.followup import MAX_FOLLOWUP_CHARS, is_list, normalise, sentences
from practice.grading import grade_followup

FOLLOWUPS = [q for q in load_bank() if q.kind == "followup"]


@pytest.mark.parametrize("question", FOLLOWUPS, ids=lambda q: q.id)
def test_the_model_answer_earns_every_point(question):
    result = grade_followup(question.id, question.model_answer)
    assert result.score == 1.0 and all(result.hits) and not result.missed
    assert len(result.hits) == len(question.key_points)
    assert all(m.quote and m.quote.rstrip("…") in question.model_answer for m in result.matches)


@pytest.mark.parametrize("question", FOLLOWUPS, ids=lambda q: q.id)
def test_the_words_of_the_points_as_a_list_earn_nothing(question):
    firsts = [group[0] for point in question.key_points for group in point.needs]
    words = ", ".join(firsts)
    assert grade_followup(question.id, words).score == 0.0


# Dr. GRPO's criticism is half about length normalisation: the two answers share points.
OVERLAPPING = {
    frozenset({"followup-dr-grpo", "followup-length"}),
    # why divide by the std, and why recipes stopped: the same trade-off from two sides
    frozenset({"followup-why-std", "followup-drop-std"}),
}


def test_another_questions_model_answer_earns_little():
    for q in FOLLOWUPS:
        for other in FOLLOWUPS:
            if other.id != q.id and frozenset({q.id, other.id}) not in OVERLAPPING:
                assert grade_followup(q.id, other.model_answer).score <= 0.5, (q.id, other.id)


def test_score_is_the_fraction_of_points_and_hits_follow_the_bank_order():
    r = grade_followup(
        "followup-why-std",
        "Dividing by the group std puts every prompt on the same scale, like a z-score.",
    )
    assert r.hits == (False, True, False, False) and r.score == 0.25
    assert r.matches[1].words == ("dividing", "same scale")
    assert len(r.missed) == 3


def test_negation_cancels_a_point():
    said = "Dividing by the group std puts every prompt on the same scale."
    denied = "Dividing by the group std does not put every prompt on the same scale."
    assert grade_followup("followup-why-std", said).hits[1]
    assert not grade_followup("followup-why-std", denied).hits[1]
    assert grade_followup("followup-rloo-vs-grpo", "RLOO does not divide by the std.").hits[3]
    assert not grade_followup("followup-rloo-vs-grpo", "RLOO divides by the std.").hits[3]


def test_red_flags_are_named_unless_the_question_is_about_them():
    r = grade_followup("followup-walkthrough", "You subtract the batch mean from each reward.")
    assert r.red_flags and "batch" in r.red_flags[0]
    r = grade_followup("followup-walkthrough", "You subtract the group mean, not the batch mean.")
    assert not r.red_flags
    r = grade_followup("followup-batch-switch", "Every group is divided by the batch std.")
    assert not r.red_flags


@pytest.mark.parametrize("junk", [None, 3, b"std", "", "   ", ["std"]])
def test_junk_is_graded_zero_with_a_problem(junk):
    r = grade_followup("followup-why-std", junk)
    assert r.score == 0.0 and not any(r.hits) and r.problem


def test_only_the_first_4000_characters_are_read():
    model = FOLLOWUPS[0].model_answer
    r = grade_followup(FOLLOWUPS[0].id, "x " * MAX_FOLLOWUP_CHARS + model)
    assert r.score == 0.0 and "4000" in r.problem
    assert grade_followup(FOLLOWUPS[0].id, model + " y" * 5000).score == 1.0


def test_an_unknown_question_is_a_page_error():
    with pytest.raises(ValueError):
        grade_followup("blanks-grpo", "mean")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=600))
def test_never_raises_and_stays_in_range(text):
    r = grade_followup("followup-float32", text)
    assert 0.0 <= r.score <= 1.0 and len(r.hits) == 4


def test_sentences_lists_and_normalising():
    assert sentences("Dr. GRPO drops it. E.g. this.\n- a bullet") == [
        "Dr. GRPO drops it.",
        "E.g. this.",
        "a bullet",
    ]
    assert normalise("ddof = 1 and R_i − mean") == "ddof=1 and r_i-mean"
    assert is_list(normalise("std, scale, z-score, eps"))
    assert not is_list(normalise("Dividing by the std puts every prompt on one scale."))


def test_the_bank_refuses_a_point_the_model_answer_does_not_earn(tmp_path):
    text = """
[[question]]
id = "f"
kind = "followup"
topic = "std"
prompt = "Why?"
explanation = ""
model_answer = "Because the std scales it."
[[question.points]]
text = "eps"
needs = [["eps"], ["zero"]]
"""
    path = tmp_path / "bank.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="does not earn"):
        load_bank(path)
    path.write_text(text.replace('needs = [["eps"], ["zero"]]', 'needs = [["eps"]]'))
    with pytest.raises(ValueError, match="at least two concept groups"):
        load_bank(path)
