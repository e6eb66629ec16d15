"""practice.followup_phrase: a phrasing as a token pattern, found in an answer's tokens."""

import pytest

from practice.followup_phrase import compile_phrase, find
from practice.followup_text import normalise, tokens


def found(phrase: str, text: str) -> list[str]:
    n = normalise(text)
    return [n[a:b] for a, b in find(phrase, tokens(n))]


@pytest.mark.parametrize(
    ("phrase", "text", "quote"),
    [
        ("rescal*", "we rescaled them", ["rescaled"]),
        ("divid* .. std", "divide every reward by the std", ["divide every reward by the std"]),
        ("divid* .. std", "divide one two three four five std", []),  # five words: too far
        ("without eps", "without the eps it is 0/0", ["without the eps"]),  # article left out
        ("divide by the std", "divide by std", ["divide by std"]),  # the phrasing's article
        ("subtract* a", "subtract the mean", []),  # a last article is the phrasing's meaning
        ("r_i-mean", "r_i - mean_g", ["r_i-mean_g"]),  # a subscripted statistic
        ("!0/0", "so it's not 0/0", ["0/0"]),  # "!" is no part of the pattern
        ("up-weight*", "low-spread groups are upweighted", ["upweighted"]),
    ],
)
def test_a_phrasing_is_found_as_tokens(phrase, text, quote):
    assert found(phrase, text) == quote


def test_compiled_items():
    assert compile_phrase("divid* .. std") == (("prefix", "divid"), ("gap", ""), ("key", "std"))
    assert compile_phrase("normalis*") == compile_phrase("normaliz*")  # one spelling


def test_nothing_is_found_in_nothing():
    assert find("std", tokens("")) == []
    assert find(".. std", tokens(normalise("the std"))) == []  # a gap cannot open a phrasing


def test_a_match_never_cuts_a_term_short():
    """ "divid* by k" is not in "divides by K-1" (the sample std's divisor, not the
    population's), but it is in "divides by K, not K-1"."""
    assert not find("divid* by k", tokens(normalise("numpy divides by K-1")))
    assert find("divid* by k", tokens(normalise("torch divides by K, numpy by K-1")))
