"""practice.followup_numbers: a number quantifying a point's evidence must be one it states."""

import pytest

from practice.followup_numbers import misquantified, quantities, stated
from practice.followup_text import normalise, tokens
from practice.grading import grade_followup

FLOAT32 = "followup-float32"


def is_misquantified(sentence: str, phrase: str, values) -> bool:
    n = normalise(sentence)
    at = n.index(phrase)
    return misquantified(tokens(n), (at, at + len(phrase)), frozenset(values))


def test_numbers_inside_a_formula_are_terms_not_values():
    assert [v for _, v in quantities(tokens(normalise("2^-23, K/(K-1) and 1/eps")))] == []
    assert stated(("float32 has ~7 significant digits; spacing 0.0625 near 1e6",)) == {
        7.0,
        0.0625,
        1e6,
    }


@pytest.mark.parametrize(
    ("sentence", "phrase", "wrong"),
    [
        ("float32 keeps about 16 significant digits", "digits", True),  # before, adjectives between
        ("float32 keeps about 7 significant digits", "digits", False),
        ("float32 gives 6-7 digits", "digits", False),  # within the tolerance
        ("the spacing is about 0.1 there", "spacing", True),  # after, through linking words
        ("the spacing near 1e6 is coarse", "spacing", False),  # 1e6 is a stated value
        ("differences of 0.001 cannot be resolved", "resolved", False),  # a verb between
        ("the float32 spacing is 0.0625", "spacing", False),
        ("you cannot resolve 0.001 at 1e6", "resolve", False),  # what is lost, not how much
        ("machine eps is 1.19e-7", "machine eps", False),  # the order of a stated 1e-7
    ],
)
def test_a_number_quantifies_the_words_next_to_it(sentence, phrase, wrong):
    assert is_misquantified(sentence, phrase, {7, 0.0625, 1e6, 1e-7}) is wrong


def test_a_point_that_states_no_value_takes_any_number():
    assert not is_misquantified("float32 keeps about 16 significant digits", "digits", ())


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("float32 only has about 7 significant digits, so 1e6 + 0.001 is lost.", True),
        ("float32 keeps about 16 significant digits, so 1e6 + 0.001 is fine.", False),
        # the right word ("mantissa") in a clause that gives another word a wrong value
        ("float32 only keeps about three significant digits in the mantissa.", False),
        ("float64 keeps about 7 significant digits and float32 about 16.", False),
    ],
)
def test_a_wrong_value_next_to_the_right_concept_earns_no_numeric_point(answer, made):
    assert grade_followup(FLOAT32, answer).hits[0] is made


@pytest.mark.parametrize(
    ("qid", "point", "answer"),
    [
        # "eps damps spreads near zero" states 0, a relation: an eps of 1e-4 is no wrong value
        ("followup-why-std", 3, "An eps of 1e-4 keeps the division finite when the std is 0."),
        # "~112 GB at 7B" is one setting's figure: another memory figure still saves the critic
        ("followup-no-critic", 2, "No critic saves memory: about 28 GB for a 7B value model."),
    ],
)
def test_only_a_point_about_a_value_checks_the_numbers_beside_its_words(qid, point, answer):
    assert grade_followup(qid, answer).hits[point]
