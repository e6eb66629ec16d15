"""practice.followup_items and the grader on listed sentences: a point is earned inside one
item that relates its words, never across items, and a keyword list still earns nothing."""

import pytest

from practice.followup import _FUNCTION_WORDS, is_list, normalise
from practice.followup_items import labelled_items, list_items, relates
from practice.grading import grade_followup


def items(sentence: str) -> list[str]:
    n = normalise(sentence)
    return [n[a:b].strip() for a, b in list_items(n)]


def test_items_are_cut_at_commas_semicolons_arrows_bullets_and_dashes():
    assert items("a b, c d; e -> f * g — h") == ["a b", "c d", "e", "f", "g", "h"]
    assert items("K/(K-1), sqrt(4/3)") == ["k/(k-1)", "sqrt(4/3)"], "a fraction is one item"
    assert items("one item") == ["one item"]
    with pytest.raises(ValueError):
        list_items(None)


@pytest.mark.parametrize(
    ("item", "relating"),
    [
        ("A_i = (R_i - mean)/(std + eps)", True),  # an equation
        ("same A_i for every token of answer i", True),  # "for" relates
        ("ability to learn from 1 sample per prompt", True),
        ("the std of all rewards", False),  # only a noun phrase's glue
        ("centring per group", False),
        ("noisy baseline", False),  # too short to relate two terms
        ("precision float32 significant digits mean cancel noise std blow up shift", False),
    ],
)
def test_an_item_relates_with_an_equation_or_a_relating_function_word(item, relating):
    assert relates(normalise(item), _FUNCTION_WORDS, is_list) is relating


def test_a_point_is_earned_inside_one_relating_item_of_a_list():
    notes = (
        "K rollouts, scalar rewards, A_i = (R_i - mean)/(std + eps), "
        "same A_i for every token of answer i."
    )
    assert is_list(normalise(notes))
    made = grade_followup("followup-walkthrough", notes).hits
    assert made[2] and made[3], "the formula and the per-token advantage are items of their own"
    assert not made[0], "K and the rewards sit in two items that relate nothing"


def test_a_keyword_list_still_earns_nothing():
    salad = "Batch std, group mean, per group, unit scale, low-spread groups, larger advantages."
    assert grade_followup("followup-batch-switch", salad).score == 0.0
    salad = "per-token credit assignment, GAE, value network, memory, noisy baseline, critic bias"
    assert grade_followup("followup-no-critic", salad).score == 0.0


@pytest.mark.parametrize(
    ("sentence", "listed"),
    [
        # a comma item opened by a connective or a verb is a clause of its own
        ("Zero advantage, so no reward signal, and they still waste rollout compute.", False),
        ("Sample K answers, get the rewards, subtract the group mean.", False),
        # "and" with a noun phrase is still a list
        (
            "I'd name Bessel's correction, K/(K-1), numpy vs torch, and the std versus the mean.",
            True,
        ),
        # an arrow relates its sides
        ("Zero advantage -> zero policy-gradient contribution.", False),
        ("std, scale, z-score, eps", True),
    ],
)
def test_clauses_after_commas_and_arrows_are_not_lists(sentence, listed):
    assert is_list(normalise(sentence)) is listed


def test_an_arrow_relates_a_point_made_in_notes():
    assert grade_followup("followup-identical-rewards", "Zero advantage -> no gradient.").hits[0]


def test_a_noun_phrase_joined_by_and_does_nothing_and_a_third_acting_is_no_list():
    assert is_list(
        normalise("The key concepts are the std, the reward scale, the z-score, Dr. GRPO and eps.")
    )
    assert not is_list(
        normalise("If it's wrong, negative, the long one is penalised less per token.")
    )


def test_a_short_labelled_list_is_read_item_by_item_with_its_label():
    notes = normalise("Lost: per-token credit, bootstrapping, a learned baseline.")
    assert labelled_items(notes, 3) == [
        "lost: per-token credit",
        "lost: bootstrapping",
        "lost: a learned baseline.",
    ]
    heading = normalise("Group vs batch: std, variance, robust, bias, eps, advantages, global.")
    assert labelled_items(heading, 3) == [], "a heading over a string of keywords labels nothing"
    assert labelled_items(normalise("the std, the mean, the eps"), 3) == [], "no label"


def test_a_labelled_lists_items_earn_their_points():
    answer = "Lost: per-token credit, bootstrapping, cross-prompt generalisation of V."
    assert grade_followup("followup-no-critic", answer).hits[0]


@pytest.mark.parametrize(
    ("qid", "point", "answer"),
    [
        (
            "followup-dapo-resample",
            0,
            "Dynamic sampling, zero spread, over-sample, filter, accuracy zero or one, effective "
            "batch, gradient variance, token-level, DAPO resampling of the zero advantage groups "
            "for the batch of prompts with the std.",
        ),
        (
            "followup-identical-rewards",
            0,
            "It involves zero advantages, eps, 0/0, all-pass groups, accuracy, and DAPO's dynamic "
            "sampling.",
        ),
    ],
)
def test_in_a_string_of_keywords_only_an_item_with_a_verb_states_anything(qid, point, answer):
    assert not grade_followup(qid, answer).hits[point]


def test_an_item_with_a_verb_in_a_string_of_keywords_still_states_its_point():
    answer = "eps, 0/0, all-pass groups, accuracy, KL, the advantages are all zero, DAPO."
    assert grade_followup("followup-identical-rewards", answer).hits[0]
