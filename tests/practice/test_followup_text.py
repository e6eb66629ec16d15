"""practice.followup_text: one spelling for symbols, numbers and formulas; stems; offsets."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from practice.followup_text import american, normalise, rewrite, stem, tokens


def keys(text: str) -> list[str]:
    return [t.key for t in tokens(normalise(text))]


@pytest.mark.parametrize(
    ("forms", "one"),
    [
        (["K−1", "K-1", "K - 1", "K minus one", "k minus 1"], "k-1"),
        (
            ["√(4/3)", "sqrt(4/3)", "(4/3)^0.5", "(4/3)**0.5", "square root of 4/3", "sqrt 4/3"],
            "sqrt(4/3)",
        ),
        (["(K/(K-1))^0.5", "√(K/(K−1))", "square root of K/(K-1)"], "sqrt(k/(k-1))"),
        (["K/(K-1)", "K over K-1", "K/(K − 1)"], "k/(k-1)"),
        (["1.155", "1.1547", "1.15470"], "1.155"),
        (["σ", "sigma", "standard deviation", "stdev", "std"], "std"),
        (["ε", "epsilon", "eps"], "eps"),
        (["np", "numpy"], "numpy"),
        (["PyTorch", "torch"], "torch"),
        (["fp32", "float 32", "single precision", "float32"], "float32"),
        (["Dr. GRPO", "Dr GRPO", "dr.grpo"], "drgrpo"),
        (["unbiased=False", "correction=0", "ddof=0"], "ddof=0"),
        (["mu", "μ", "mean", "mean(r)", "mean(rewards)"], "mean"),
        (["std(r)", "std(r_i)", "sigma"], "std"),
        (["any more", "anymore"], "anymore"),
        (["doesn't", "does not"], "does not"),
        (["isn't", "is not"], "is not"),
        (["can't", "cannot"], "cannot"),
        (["non-zero", "nonzero", "non zero"], "nonzero"),
        (["avg", "average"], "average"),
        (["SD", "std", "standard dev"], "std"),
        (["r_bar", "r-bar", "x̄", "\\bar{r}", "mean"], "mean"),
        (["seven", "7"], "7"),
        (["a million", "one million", "1,000,000", "10^6"], "1e6"),
        (["std + 1e-8", "std+eps", "std + ε"], "std+eps"),
        (["1 over |o_i|", "1/|o_i|"], "1/|o_i|"),
        (["σ→0", "std->0"], "std->0"),
        (["r.mean(dim=1, keepdim=True)", "rewards.mean()", "mean"], "mean"),
        (["np.std(r, ddof=1)"], "numpy.std(r, ddof=1)"),  # a library's call keeps its ddof
        (["a ÷ std", "a÷std", "a divided by std"], "a divided by std"),
        (["Σ_j r_j", "∑_j r_j", "sum_j r_j"], "sum_j r_j"),  # a capital sigma is a sum, not σ
        (["1,000,000.123", "1000000.123"], "1000000.123"),  # thousands separators: one number
        (["\\bar r", "\\bar{r}", "r_bar"], "mean"),
        (["substract", "subtract"], "subtract"),  # common misspellings
        (["divison", "division"], "division"),
        (["penality", "penalty"], "penalty"),
    ],
)
def test_forms_read_the_same(forms, one):
    assert {rewrite(normalise(f))[0] for f in forms} == {one}


def test_inflections_and_british_spellings_share_a_stem():
    assert stem("biases") == stem("bias") == stem("biased")
    assert stem("normalisation") == stem("normalizes") == stem("normalised")
    assert american("centred") == "centered" and american("favour") == "favor"
    assert keys("low-spread groups") == keys("low spread group")
    assert keys("K-1") == ["k", "-", "1"], "a hyphen before a digit stays"


def test_an_irregular_past_is_its_verbs_present():
    assert keys("it blew up") == keys("it blows up") == keys("it blown up")
    assert keys("the rewards were kept") == keys("the rewards were keep")
    assert keys("it meant nothing") != keys("it mean nothing"), "meant is no mean"


def test_a_hyphen_joins_a_prefix_to_its_word():
    assert keys("up-weighted") == keys("upweighted") == ["upweight"]
    assert keys("re-sampling") == keys("resampling")
    assert keys("over-samples") == keys("oversamples")
    assert keys("low-spread") == ["low", "spread"], "not a prefix: two words"


def test_every_token_points_back_into_the_normalised_text():
    text = normalise("RLOO's √(4/3) and K minus one, then σ.")
    for t in tokens(text):
        assert 0 <= t.start < t.end <= len(text)
    assert text[tokens(text)[0].start : tokens(text)[0].end] == "rloo's"


def test_a_double_dash_is_a_dash_not_two_minuses():
    assert "\u2014" in normalise("no critic -- it saves memory")
    assert normalise("R_i - mean") == "r_i-mean"


@given(st.text(max_size=300))
def test_never_raises_and_offsets_stay_in_range(text):
    n = normalise(text)
    for t in tokens(n):
        assert 0 <= t.start <= t.end <= len(n)


def test_tokens_are_a_tuple_that_hashes_like_one():
    """Tokens hash once (a speed-up for the phrasing cache), equal to and hashing as the
    plain tuple of the same tokens."""
    toks = tokens(normalise("the std of the group's rewards"))
    assert toks == tuple(toks) and hash(toks) == hash(tuple(toks)) == hash(toks)
    assert isinstance(toks[1:3], tuple)
