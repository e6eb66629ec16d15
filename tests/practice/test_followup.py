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
    # the recipes that stopped dividing by the group std divide by the batch std instead
    frozenset({"followup-batch-switch", "followup-drop-std"}),
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


# --- relations: who does what, negation, clauses, two sentences ----------------------------

RLOO = "followup-rloo-vs-grpo"


def hits(qid: str, answer: str) -> tuple[bool, ...]:
    return grade_followup(qid, answer).hits


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("RLOO's baseline is the mean of the other K−1 rewards.", True),
        ("RLOO averages the other K minus one rewards; GRPO averages all K.", True),
        ("GRPO uses the mean of the other K-1 samples, while RLOO uses all K.", False),
        ("RLOO averages all K, GRPO the other K−1.", False),
        ("Because GRPO's baseline excludes the current sample, RLOO's includes it.", False),
        ("Leave-one-out: each sample's baseline is the mean of the others.", True),
    ],
)
def test_direction_the_actor_named_before_the_relation_decides(answer, made):
    assert hits(RLOO, answer)[0] is made


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("numpy's std defaults to ddof=0 while torch.std uses ddof=1.", True),
        ("np.std defaults to ddof=1 and torch.std to ddof=0.", False),
        ("If yours are bigger you use torch's default std and the blog used ddof=0.", False),
        ("One side uses the population std (ddof=0, NumPy's default).", True),
    ],
)
def test_direction_numpys_and_torchs_defaults_swapped_earn_nothing(answer, made):
    assert hits("followup-factor", answer)[2] is made


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("Dr. GRPO divides by a constant, and DAPO uses a token-level loss.", True),
        ("DAPO uses a token-level loss instead of a per-answer average.", True),
        ("Dr. GRPO uses a token-level average, and DAPO divides by a fixed constant.", False),
    ],
)
def test_or_actor_each_half_of_a_point_has_its_own_actor(answer, made):
    assert hits("followup-length", answer)[2] is made


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("RLOO does not divide by the std.", True),
        ("RLOO skips the std division.", True),
        ("It just subtracts the baseline, without the std.", True),
        ("RLOO divides by the std.", False),
        ("RLOO doesn't skip the std division either.", False),
        ("GRPO does not divide by the std.", False),
        ("Dr. GRPO drops the std division.", False),
    ],
)
def test_a_negated_point_is_made_by_denying_its_relation(answer, made):
    assert hits(RLOO, answer)[3] is made


def test_a_negator_after_the_and_denies_only_what_follows():
    answer = "Every advantage is zero and the prompt gives no policy-gradient signal."
    assert hits("followup-identical-rewards", answer)[0]
    assert not hits("followup-identical-rewards", "The advantages are not zero.")[0]
    assert not hits("followup-batch-switch", "The group mean is no longer subtracted.")[0]


def test_a_point_may_be_made_across_two_adjacent_sentences_not_three():
    two = "Some prompts have a tiny spread. Dividing by the std blows them up."
    assert hits("followup-why-std", two)[2]
    three = (
        "Some prompts have a tiny spread. That is common late in training. "
        "Dividing by the std blows them up."
    )
    assert not hits("followup-why-std", three)[2]
    assert not hits("followup-no-critic", "Critic. Memory.")[2], "one-word sentences"


def test_clause_points_need_their_concepts_in_one_clause():
    assert hits("followup-batch-switch", "The std is computed over the whole batch.")[1]
    split = "The batch is large, but the std stays per group."
    assert not hits("followup-batch-switch", split)[1]


def test_each_concept_needs_its_own_words():
    assert not hits("followup-float32", "Catastrophic cancellation with the mean.")[1]


@pytest.mark.parametrize(
    ("answer", "point"),
    [
        ("Dividing by the std biases the update towards prompts that are too easy.", 0),
        ("Dividing by the standard deviation up-weights near-saturated, easy or hard prompts.", 0),
        ("The 1/|o_i| normalisation penalises long wrong answers less per token.", 1),
        ("Dr. GRPO normalises by a constant and uses R minus the mean instead.", 2),
    ],
)
def test_inflections_and_spellings_match(answer, point):
    assert hits("followup-dr-grpo", answer)[point]


@pytest.mark.parametrize(
    "ratio",
    [
        *("1.155", "1.1547", "1.155x", "√(4/3)", "sqrt(4/3)"),
        *("(4/3)^0.5", "(4/3)**0.5", "square root of 4/3"),
    ],
)
def test_number_forms_of_the_factor_match(ratio):
    assert hits("followup-factor", f"It is ddof=0 versus ddof=1: a ratio of {ratio}.")[1]


@pytest.mark.parametrize("k_minus_1", ["K−1", "K-1", "K - 1", "K minus one", "k minus 1"])
def test_symbol_and_word_forms_of_k_minus_1_match(k_minus_1):
    assert hits(RLOO, f"RLOO uses the mean of the other {k_minus_1} rewards.")[0]


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("float32 has only about 7 significant digits, unlike float64.", True),
        ("Float64 has about 7 significant digits, float32 about 16.", False),
    ],
)
def test_direction_every_concept_is_bound_to_the_actor_named_before_it(answer, made):
    assert hits("followup-float32", answer)[0] is made


def test_a_clause_ends_at_because():
    answer = "Identical rewards get huge advantages because the std is 0."
    assert not hits("followup-identical-rewards", answer)[0]
    assert hits("followup-identical-rewards", "Identical rewards give advantages of 0.")[0]


def test_over_is_a_fraction_only_between_symbols():
    answer = "The advantage is constant over every token of the answer."
    assert hits("followup-no-critic", answer)[0]
    assert hits(RLOO, "RLOO's advantage is K over K-1 times GRPO's centred reward.")[1]
    assert hits("followup-walkthrough", "Take the mean and std over the group.")[1]


@pytest.mark.parametrize(
    "answer",
    [
        "It's the std: one side uses the population std and the other the sample std.",
        "ddof=0 vs ddof=1, np.std vs torch.std.",
    ],
)
def test_blaming_the_std_convention_blames_the_divisor(answer):
    assert hits("followup-factor", answer)[0]


def test_a_z_score_within_the_group_is_the_walkthroughs_statistics_and_formula():
    answer = "Sample K answers, reward them, z-score the rewards within the group."
    assert hits("followup-walkthrough", answer)[1:3] == (True, True)
    assert not hits("followup-walkthrough", "Sample K answers and reward them.")[1]


@pytest.mark.parametrize(
    ("qid", "point", "answer", "made"),
    [
        ("followup-batch-switch", 0, "Centring stays per group; the std covers the batch.", True),
        ("followup-batch-switch", 0, "It centres with the batch mean, per group std.", False),
        ("followup-walkthrough", 1, "Take the mean and std over the group, not the batch.", True),
        # the group's own statistics, swapped in the formula: point 3's contrary, not point 2's
        ("followup-walkthrough", 1, "Divide by the group mean and subtract the group std.", True),
        ("followup-walkthrough", 2, "Divide by the group mean and subtract the group std.", False),
        ("followup-float32", 3, "Cast the rewards to float64 before normalising.", True),
        ("followup-float32", 3, "Cast the rewards to bf16 before normalising.", False),
        ("followup-identical-rewards", 0, "Every advantage is 0, not NaN.", True),
        ("followup-identical-rewards", 0, "Every advantage is 0 or NaN.", False),
        ("followup-dr-grpo", 0, "The std division up-weights easy and hard prompts.", True),
        ("followup-dr-grpo", 0, "The std division down-weights easy and hard prompts.", False),
        (
            "followup-walkthrough",
            1,
            "Normalise with a softmax over the group's mean and std.",
            False,
        ),
        ("followup-walkthrough", 2, "A_i = (mu - r_i)/sigma for each answer.", False),
        (
            "followup-identical-rewards",
            1,
            "eps is small, so 0 divided by eps is a very big number.",
            False,
        ),
        (
            "followup-identical-rewards",
            1,
            "Without eps: NaN or a very large number; eps gives 0/eps = 0.",
            True,
        ),
        ("followup-identical-rewards", 3, "DAPO's dynamic sampling leaves them in.", False),
        ("followup-identical-rewards", 3, "DAPO's dynamic sampling drops such groups.", True),
        # dynamic sampling is DAPO's, not Dr. GRPO's; DAPO does not drop the std
        ("followup-identical-rewards", 3, "Dr. GRPO's dynamic sampling drops such groups.", False),
        ("followup-identical-rewards", 3, "DAPO removed the std so the eps issue is gone.", False),
        ("followup-factor", 0, "A constant factor from an eps difference in the std.", False),
        ("followup-float32", 0, "float32 has a fixed absolute precision, about 1e-7.", False),
        ("followup-why-std", 1, "Dividing by the std puts every prompt on the same scale.", True),
        (
            "followup-why-std",
            1,
            "The std division makes the estimator unbiased: unit variance.",
            False,
        ),
        ("followup-no-critic", 0, "Every token of an answer shares one advantage.", True),
        (
            "followup-no-critic",
            0,
            "PPO's critic only gives one value per answer, GRPO gets per-token advantages.",
            False,
        ),
        # a point's weak words alone: restating the factor, differences lost without the mean
        ("followup-factor", 0, "It's a constant, so it only changes the scale.", False),
        ("followup-float32", 1, "Differences of 1e-3 on top of 1e6 are lost.", False),
        ("followup-float32", 1, "Subtracting the mean leaves only rounding noise.", True),
    ],
)
def test_a_points_contrary_in_its_scope_voids_it_unless_denied(qid, point, answer, made):
    assert hits(qid, answer)[point] is made


def test_notes_and_formulas_are_read_as_relations():
    notes = "- mean: still per group\n- std: whole batch (single value) instead of per group"
    assert hits("followup-batch-switch", notes)[:2] == (True, True), "a label's colon"
    formula = "batch: A = (r - mean_g)/std_batch."
    assert not is_list(normalise(formula)), "an equation relates its terms"
    assert hits("followup-batch-switch", formula)[1], "a formula's parentheses are no clause"
    assert is_list(normalise("baseline variance scale reward")), "words alone still list"


def test_the_bank_reads_actor_rivals_or_actor_and_negated(tmp_path):
    text = """
[[question]]
id = "f"
kind = "followup"
topic = "rloo"
prompt = "Why?"
explanation = ""
model_answer = "RLOO does not divide by the std."
[[question.points]]
text = "no std"
actor = ["rloo"]
rivals = ["grpo"]
negated = true
needs = [["divid* .. std"]]
"""
    path = tmp_path / "bank.toml"
    path.write_text(text, encoding="utf-8")
    (question,) = load_bank(path)
    point = question.key_points[0]
    assert (point.actor, point.rivals, point.negated) == (("rloo",), ("grpo",), True)
    assert point.unless == ()
    path.write_text(text.replace("negated = true", 'negated = true\nunless = ["grpo"]'))
    assert load_bank(path)[0].key_points[0].unless == ("grpo",)
    path.write_text(text.replace("negated = true", 'negated = "yes"'), encoding="utf-8")
    with pytest.raises(ValueError, match="true or false"):
        load_bank(path)
    path.write_text(text.replace('actor = ["rloo"]\n', "").replace("negated = true\n", ""))
    with pytest.raises(ValueError, match="at least two concept groups"):
        load_bank(path)


# --- session 5: direction inside a phrasing, negation's reach, participles, contraries ----


@pytest.mark.parametrize(
    ("qid", "point", "answer", "made"),
    [
        # a rival named inside an actor's phrasing ("without the std") is no rival
        (
            "followup-why-std",
            0,
            "Without the std, a prompt's update scales with its reward scale.",
            True,
        ),
        # the update's dependence on the reward scale blamed on the std: the other direction
        (
            "followup-why-std",
            0,
            "Centring is fine, but it's the std that makes the update depend on the reward scale.",
            False,
        ),
        # an actor named inside the phrasing itself binds it ("the std")
        ("followup-why-std", 1, "Centring removes the offset, the std removes the scale.", True),
        ("followup-why-std", 1, "Centring already puts every prompt on the same scale.", False),
        # RLOO vs GRPO: the direction of "includes"
        (RLOO, 0, "RLOO's baseline never includes the sample being scored.", True),
        # a negator before "and the ..." (a new subject) denies nothing after it
        (
            RLOO,
            2,
            "Answer i's reward isn't part of it and the baseline doesn't depend on it.",
            True,
        ),
        (RLOO, 2, "The baseline is not independent of the answer.", False),
        # a label's negator ("Nothing useful:") denies nothing after the colon
        ("followup-identical-rewards", 0, "Nothing useful: the advantages are all zero.", True),
        ("followup-identical-rewards", 0, "The advantages are not zero.", False),
        # a negator in a relative clause after the match denies its own clause only
        (
            "followup-float32",
            2,
            "The z-score turns that noise into advantages of normal size that mean nothing.",
            True,
        ),
        # "without it" is denied, not the main clause a subject pronoun opens
        (
            "followup-identical-rewards",
            1,
            "eps matters here: without it you'd divide zero by zero.",
            True,
        ),
        ("followup-identical-rewards", 1, "eps is moot here: you never divide by zero.", False),
        # a relative clause that denies what precedes it for the actor
        (RLOO, 3, "GRPO also divides by the group std, which RLOO never does.", True),
        (RLOO, 3, "GRPO z-scores with the std and RLOO doesn't.", True),
        (RLOO, 3, "GRPO divides by the std, which GRPO never skips.", False),
        # a comma before a participle continues the clause (a clause-scoped point)
        (
            "followup-walkthrough",
            1,
            "A_i = (R_i - mean)/std, computed over the answers for that prompt.",
            True,
        ),
        (
            "followup-walkthrough",
            1,
            "A_i = (R_i - mean)/std, and the mean is over the whole batch.",
            False,
        ),
    ],
)
def test_direction_negation_and_clauses(qid, point, answer, made):
    assert hits(qid, answer)[point] is made


@pytest.mark.parametrize(
    ("qid", "point", "said", "swapped"),
    [
        (
            "followup-identical-rewards",
            3,
            "DAPO's dynamic sampling filters these groups out and resamples.",
            "DAPO keeps these groups and filters out the ones with nonzero spread instead.",
        ),
        (
            "followup-float32",
            0,
            "float32 keeps about 7 significant digits, so the spacing near 1e6 is 0.0625.",
            "float32 keeps about 16 significant digits, so that part is fine.",
        ),
        (
            "followup-batch-switch",
            0,
            "The mean is still per group and the std is over the whole batch.",
            "With 'batch', the mean is computed over the whole batch and the std stays per group.",
        ),
        (
            "followup-why-std",
            2,
            "Dividing by the std up-weights prompts with low reward variance.",
            "The std division shrinks low-variance prompts: they contribute less.",
        ),
        (
            "followup-dr-grpo",
            1,
            "The length normalisation lets long wrong answers off lightly per token.",
            "Length normalisation makes correct answers get longer and incorrect ones get shorter.",
        ),
        (
            "followup-no-critic",
            1,
            "PPO can learn from one rollout per prompt, GRPO needs a whole group of samples.",
            "GRPO gets by with one sample per prompt, whereas PPO needs a whole group of samples.",
        ),
    ],
)
def test_a_swapped_relation_loses_the_point(qid, point, said, swapped):
    assert hits(qid, said)[point], said
    assert not hits(qid, swapped)[point], swapped


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("RLOO, unlike GRPO, compares each answer with the mean of the other K-1 rewards.", True),
        ("GRPO, unlike RLOO, compares each answer with the mean of the other K-1 rewards.", False),
        ("Compared to GRPO, RLOO averages the other K-1 rewards.", True),
        ("GRPO, compared to RLOO, averages the other K-1 rewards.", False),
        # an actor joined with a rival into one subject is not the actor alone
        ("RLOO and GRPO both use the mean of the other K-1 rewards.", False),
    ],
)
def test_an_actor_set_aside_by_a_contrast_is_not_who_the_clause_is_about(answer, made):
    assert hits(RLOO, answer)[0] is made


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("GRPO needs K samples per prompt to estimate its baseline.", True),
        ("With a critic you need many samples per prompt; GRPO needs one.", False),
        # traded away or absent: the critic is not who needs the samples
        ("GRPO trades the critic for sampling: it needs K answers per prompt.", True),
        ("No learned value function, so you pay for it with K samples per prompt.", True),
    ],
)
def test_the_critic_is_a_rival_unless_set_aside(answer, made):
    assert hits("followup-no-critic", answer)[1] is made


def test_a_steps_number_is_no_sentence_and_the_steps_around_it_stay_adjacent():
    steps = "1. sample G outputs for the prompt\n2. reward each one\n3. mean & std over those G"
    assert sentences(steps) == [
        "sample G outputs for the prompt",
        "reward each one",
        "mean & std over those G",
    ]
    assert hits("followup-walkthrough", steps)[0], "K samples, a reward each: two adjacent steps"


@pytest.mark.parametrize(
    ("answer", "made"),
    [
        ("RLOO does not divide by the std.", True),
        # a denial's or_needs says it positively of the rival that does it
        ("RLOO averages the other K-1. GRPO averages all K, then divides by the std.", True),
        ("GRPO averages all K and RLOO the other K-1, then RLOO divides by the std.", False),
        ("RLOO divides by the std.", False),
        ("Both RLOO and GRPO then divide by the std.", False),
    ],
)
def test_a_denial_is_also_made_by_the_rival_doing_it(answer, made):
    assert hits(RLOO, answer)[3] is made


@pytest.mark.parametrize(
    ("question", "answer", "hits"),
    [
        (  # the two placements swapped: neither is GRPO's nor PPO's
            "followup-kl-placement",
            "GRPO puts the KL into the reward before the group normalisation, while PPO-style "
            "RLHF adds it to the loss as a separate term.",
            (False, False, False, False),
        ),
        (
            "followup-kl-placement",
            "PPO-style RLHF subtracts beta times the KL from the reward; GRPO adds it to the loss "
            "instead, so the advantages are untouched.",
            (True, True, False, False),
        ),
        (  # "it" is no actor: "GRPO ... it uses one ratio" stays GRPO's
            "followup-gspo-vs-grpo",
            "GRPO is the one with the sequence-level ratio, so it uses one ratio per completion, "
            "the geometric mean, and clips the whole answer. GSPO goes token by token.",
            (False, False, False, False),
        ),
        (  # GDPO's order reversed: over the batch first, the group last
            "followup-gdpo",
            "GDPO normalises each reward over the whole batch first, then normalises the sum "
            "within the group.",
            (False, False, False),
        ),
        (  # the cause of a zero clip fraction reversed
            "followup-clip-fraction",
            "It's 0 because you're doing several updates per batch, so the ratio stays at 1.",
            (False, False, False),
        ),
        (
            "followup-drop-std",
            "They just subtract the group mean now and don't divide by anything.",
            (False, False, True, False),
        ),
    ],
)
def test_the_newer_follow_ups_read_who_does_what(question, answer, hits):
    """The six follow-ups session 14's writers answered: a swapped relation earns nothing,
    the right one earns its points (``content/questions.toml``)."""
    assert grade_followup(question, answer).hits == hits
