"""practice.followup_negation: where a negator's reach starts and stops."""

import pytest

from practice.followup import _clause_of, _clauses, normalise
from practice.followup_negation import denied, ellipsis_subject, negated


def is_negated(sentence: str, phrase: str) -> bool:
    n = normalise(sentence)
    at = n.index(phrase)
    span = (at, at + len(phrase))
    return negated(n, _clause_of(_clauses(n), at), span, [])


@pytest.mark.parametrize(
    ("sentence", "phrase", "is_denied"),
    [
        ("the std is not divided", "divided", True),
        ("the group mean is no longer subtracted", "group mean", True),  # just after it
        ("the advantages are 0 and give no signal", "advantages", False),  # past an "and"
        ("instead of the std it uses the range", "std", True),
        # a new subject after "and" ends the negator's reach
        ("its reward isn't part of it and the baseline is independent", "baseline", False),
        # a label's colon ends it
        ("nothing useful: the advantages are all 0", "advantages", False),
        # a relative pronoun after the match starts another clause
        ("advantages of normal size that mean nothing", "normal size", False),
        # "without" reaches no further than a subject pronoun
        ("without it you'd divide by 0", "divide by 0", False),
        ("without the std division the scale leaks", "std", True),
        # an "or" before the negator: another alternative, not a denial
        ("the model solves it every time or never", "every time", False),
        ("it is not solved every time", "every time", True),
    ],
)
def test_a_negators_reach(sentence, phrase, is_denied):
    assert is_negated(sentence, phrase) is is_denied


def test_a_negator_inside_a_matched_phrasing_belongs_to_it():
    n = normalise("rloo does not divide by the std")
    at = n.index("divide")
    span, own = (at, at + 6), (n.index("does"), at + 6)
    assert negated(n, (0, len(n)), span, [])
    assert not negated(n, (0, len(n)), span, [own])


def test_a_denial_is_also_made_by_a_verb_of_leaving_out():
    n = normalise("rloo skips the std")
    span = (n.index("std"), len(n))
    assert denied(n, (0, len(n)), span, [], denial=True)
    assert not denied(n, (0, len(n)), span, [], denial=False)


@pytest.mark.parametrize(
    ("sentence", "who"),
    [
        ("grpo divides by the std, which rloo never does", "rloo"),
        ("grpo z-scores with the std and rloo doesn't", "rloo"),
        ("grpo divides by the std", None),
    ],
)
def test_a_clause_after_the_match_denies_it_for_someone(sentence, who):
    n = normalise(sentence)
    at = n.index("std")
    assert ellipsis_subject(n, (at, at + 3)) == who
