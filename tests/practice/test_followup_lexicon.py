"""practice.followup_lexicon: a concept's words, shared by every key point that names it."""

import pytest

from practice.bank import load_bank
from practice.followup_lexicon import CONCEPTS, expand
from practice.followup_phrase import compile_phrase
from practice.grading import grade_followup

FOLLOWUPS = [q for q in load_bank() if q.kind == "followup"]


def test_a_reference_stands_for_its_concepts_phrasings_each_once():
    out = expand(("bias", "@amplify", "inflat*"))
    assert out[0] == "bias" and "blow* up" in out and "magnif*" in out
    assert len(out) == len(set(out)) and out.count("inflat*") == 1


def test_an_unknown_concept_is_named():
    with pytest.raises(ValueError, match="@nonsense is not a concept"):
        expand(("@nonsense",))
    with pytest.raises(ValueError):
        expand(["@amplify"])


def test_every_reference_of_the_bank_is_a_concept_and_every_phrasing_compiles():
    used = set()
    for q in FOLLOWUPS:
        for p in q.key_points:
            groups = (*p.needs, *p.or_needs, p.actor, p.rivals, p.or_actor, p.unless)
            for group in groups:
                used |= {x[1:] for x in group if x.startswith("@")}
                assert all(compile_phrase(x) for x in expand(group))
    assert used <= set(CONCEPTS)
    assert used, "the bank names concepts"


def test_concepts_are_lower_case_phrasings_that_compile():
    for name, phrasings in CONCEPTS.items():
        assert phrasings and len(phrasings) == len(set(phrasings)), name
        for p in phrasings:
            assert p == p.lower().strip() and compile_phrase(p), (name, p)


@pytest.mark.parametrize(
    ("qid", "point", "answer"),
    [
        # one concept (amplify), one word of it, three points that need it
        ("followup-why-std", 2, "Prompts with a tiny spread get magnified by the division."),
        ("followup-float32", 2, "The std division magnifies that rounding jitter."),
        (
            "followup-batch-switch",
            2,
            "With batch scaling, low-variance groups are no longer magnified.",
        ),
        # irregular past and an article the phrasing leaves out
        (
            "followup-why-std",
            2,
            "Prompts with a tiny spread got blown up; their small differences blew up.",
        ),
        ("followup-identical-rewards", 1, "Without the epsilon you'd get 0/0."),
        (
            "followup-identical-rewards",
            2,
            "It happens with binary rewards when the model solves it every time or never.",
        ),
        ("followup-identical-rewards", 0, "They add zero to the policy gradient."),
        ("followup-batch-switch", 0, "Centering remains group-wise."),
    ],
)
def test_a_concepts_word_earns_every_point_that_needs_it(qid, point, answer):
    assert grade_followup(qid, answer).hits[point], answer


def test_a_phrasings_last_article_is_kept():
    """'subtract* a' (an offset) is not any subtraction: the article is its meaning."""
    assert not grade_followup("followup-float32", "Subtracting the mean is fine, so use it.").hits[
        3
    ]


@pytest.mark.parametrize(
    ("qid", "point", "answer", "made"),
    [
        # a "!" phrasing stands denied or not: eps is there so the division is *not* 0/0
        ("followup-identical-rewards", 1, "The eps is just there so it's not NaN.", True),
        ("followup-identical-rewards", 1, "eps is moot here: you never divide by zero.", False),
        ("followup-why-std", 3, "sigma -> 0 needs eps, or the division blows up.", True),
        # an actor named in an aside right after the match binds it
        (
            "followup-factor",
            2,
            "With PyTorch it's the sample std; the population std (numpy's default) is larger.",
            True,
        ),
        (
            "followup-factor",
            2,
            "With PyTorch it's the population std, and numpy is different.",
            False,
        ),
        # a sentence that relates its terms with a verb or a sign is no list
        (
            "followup-length",
            1,
            "If it's wrong, negative, the long one is penalised less per token.",
            True,
        ),
        ("followup-length", 0, "Token weight ∝ 1/|o_i|.", True),
        (
            "followup-no-critic",
            0,
            "token-level credit assignment (A is constant over the response)",
            True,
        ),
        ("followup-no-critic", 0, "token-level credit assignment (the response)", False),
        # a long string of keywords: a short item with a preposition is one more keyword
        (
            "followup-walkthrough",
            3,
            "K rollouts, rewards, group mean, group std, z-score, broadcast to tokens, ratio.",
            False,
        ),
        (
            "followup-walkthrough",
            3,
            "K rollouts, rewards, z-score, broadcast to all its tokens.",
            True,
        ),
        # code: a tensor's statistic, a subscripted statistic, a numeric eps
        ("followup-walkthrough", 2, "A = (r - r.mean(dim=1)) / (r.std(dim=1) + 1e-4)", True),
        ("followup-walkthrough", 2, "A_i = (R_i - μ_G) / (σ_G + 1e-6)", True),
        # a count for K, the reverse factor bound to GRPO, a fraction of dead groups that grows
        (
            "followup-walkthrough",
            0,
            "Generate 8 completions and score each with the verifier.",
            True,
        ),
        ("followup-rloo-vs-grpo", 1, "GRPO's centred advantage is (K-1)/K times RLOO's.", True),
        ("followup-rloo-vs-grpo", 1, "RLOO's advantage is (K-1)/K times GRPO's.", False),
        (
            "followup-dapo-resample",
            1,
            "The fraction of all-correct groups grows as the model improves.",
            True,
        ),
    ],
)
def test_general_readings(qid, point, answer, made):
    assert grade_followup(qid, answer).hits[point] is made, answer
