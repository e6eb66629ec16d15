"""practice.variants: every family loads, every variant passes its own grader, variants
differ (numbers, options, wording), and a retake never repeats the attempt before it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.grading import grade_choice, grade_drill
from practice.session import MAX_SEED
from practice.variants import MIN_WORDINGS, check_variant, draw, load_families

FAMILIES = load_families()
SEEDS = range(300)


def test_the_families_cover_the_kinds_and_most_topics():
    assert len(FAMILIES) >= 12
    assert {f.kind for f in FAMILIES} == {"choice", "numeric"}
    assert len({f.topic for f in FAMILIES}) >= 10
    assert all(len(f.wordings) >= MIN_WORDINGS for f in FAMILIES)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_every_variant_passes_its_own_grader(family):
    for seed in SEEDS:
        variant = draw(family, seed)
        check_variant(variant)
        q = variant.question
        if variant.drill is not None:
            assert grade_drill(variant.drill, variant.model_answer).correct
        else:
            assert grade_choice(q, q.answer).correct
            assert sum(grade_choice(q, i).correct for i in range(len(q.options))) == 1


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_variants_differ_in_numbers_options_and_wording(family):
    variants = [draw(family, seed) for seed in SEEDS]
    assert len({v.question.prompt for v in variants}) >= 100
    assert len({v.model_answer for v in variants}) >= 10
    assert len({v.wording for v in variants}) == len(family.wordings)
    if family.kind == "choice":
        assert len({tuple(o.text for o in v.question.options) for v in variants}) >= 15


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_a_filled_in_phrase_reads_after_the_words_around_it(family):
    """No preposition stands before a phrase that brings its own ("Under with the std
    division, ..." was a scale-invariance prompt)."""
    for seed in range(60):
        prompt = draw(family, seed).question.prompt
        assert not re.search(r"\b(?:[Uu]nder|[Ii]n|[Ff]or|[Ww]ith|[Bb]y) (?:with|under)\b", prompt)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, MAX_SEED), st.integers(0, MAX_SEED))
def test_a_retake_has_other_wording_and_other_answers(seed, previous):
    for family in FAMILIES:
        before, after = draw(family, previous), draw(family, seed, previous=previous)
        assert after.wording != before.wording
        if after.drill is not None:
            assert abs(after.drill.expected - before.drill.expected) > 2 * after.drill.tol
        else:
            assert after.model_answer != before.model_answer


def test_the_same_seed_gives_the_same_variant():
    for family in FAMILIES:
        assert draw(family, 5, previous=9) == draw.__wrapped__(family, 5, previous=9)


def test_a_family_whose_model_answer_fails_is_refused(tmp_path):
    broken = tmp_path / "v.toml"
    broken.write_text(
        '[[family]]\nid = "v-x"\ntopic = "mean"\nkind = "choice"\ngenerator = "who_goes_up"\n'
        'wordings = ["a {rewards}", "b {rewards}", "c {nothing}"]\nexplanation = "x"\n'
        'why.right = "r"\nwhy.above_half = "a"\nwhy.best = "b"\nwhy.below = "c"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="v-x"):
        load_families(broken)
    broken.write_text(broken.read_text().replace('"c {nothing}"', '"c"').replace(
        'why.below = "c"\n', ""))  # fmt: skip
    with pytest.raises(ValueError, match="v-x"):
        load_families(broken)
