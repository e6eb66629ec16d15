"""grpo_core.sentences: generated explanations carry the numbers the engine computed."""

import math

import numpy as np
import pytest

from grpo_core import advantage_trace, group_advantages
from grpo_core.sentences import (
    describe_group,
    explain_differences,
    explain_difficulty_bias,
)

R4 = [1.0, 2.0, 3.0, 6.0]  # mean 3, centred [-2, -1, 0, 3], sum of squares 14
NEAR_TIE = [1.0, 1.0 + 1.2e-7, 1.0, 1.0]  # a near tie: TRL's, verl's, OpenRLHF's eps differ
TWO_SCALES = [[0.0, 1.0, 0.0, 1.0], [0.0, 100.0, 50.0, 100.0]]


def test_explain_ddof_factor_at_k4():
    text = " ".join(explain_differences(R4))
    assert "zscore's numbers are 1.155 times verl's" in text
    assert "sqrt(4/3) = 1.155" in text
    assert "4/3 = 1.333 times dr-grpo's" in text  # rloo
    assert "trl-batch equals trl" in text
    assert "did not bite" in text


def test_explain_eps_on_the_notes_near_tie():
    text = " ".join(explain_differences(NEAR_TIE))
    for name, lib in [("trl", "TRL"), ("verl", "verl"), ("openrlhf", "OpenRLHF")]:
        largest = np.abs(group_advantages(NEAR_TIE, convention=name)).max()
        assert f"{largest:.3g} in {lib}" in text
    assert "eps decides the numbers" in text
    assert "pulls the ratio" in text  # the ddof ratio is distorted by eps here


def test_explain_openrlhf_clamp_and_batch_std():
    one_in_128 = np.zeros(128)
    one_in_128[0] = 1
    text = " ".join(explain_differences(one_in_128))
    clip = "OpenRLHF's reward clip cut 1 normalised reward to ±10 (the largest would have been 11.2"
    assert clip in text
    text = " ".join(explain_differences(TWO_SCALES))
    batch_std = np.std(np.asarray(TWO_SCALES), ddof=1)
    assert f"batch std {batch_std:.3g}" in text and "(0.577, 47.9)" in text


def test_explain_all_equal_prompt_and_every_sentence_has_a_source():
    sentences = explain_differences([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])
    assert sentences[0] == (
        "Prompt 1 has all-equal rewards: every convention gives exactly 0 there, "
        "no learning signal."
    )
    assert all("Source: " in s for s in sentences[1:])
    assert explain_differences([2.0] * 4) == [
        "The group has all-equal rewards: every convention gives exactly 0 there, "
        "no learning signal."
    ]


def test_explain_difficulty_bias_with_sample_std_and_k():
    text = " ".join(explain_difficulty_bias((1 / 16,), ddof=1, group_size=16))
    assert "K/(K-1) = 16/15" in text and "1.94 at p = 0.5" in text  # 2 sqrt(15/16)
    assert "right answer 3.75 and a wrong one -0.25" in text  # sqrt(15) sqrt(15/16)
    text = " ".join(explain_difficulty_bias((0.5,), group_size=16))
    assert "largest weight GRPO gives a group is 4.13" in text  # 16 / sqrt(15)
    with pytest.raises(ValueError, match="needs the group size K"):
        explain_difficulty_bias((0.5,), ddof=1)


def test_sentences_follow_the_numbers():
    trace = advantage_trace([[1, 1, 1, 1], [0, 0, 0, 1]], convention="trl")
    assert "teaches nothing" in describe_group(trace, 0)
    sentence = describe_group(trace, 1)
    assert sentence.startswith("Answer 4 scored 1.5 std above the group's mean")
    assert "answers 1, 2 and 3 pushed down most" in sentence
    assert "1 of 4 answers go up, 3 go down" in sentence


def test_damped_and_clamped_are_said():
    near = advantage_trace([1.0, 1.0 + 1e-6], convention="trl")
    assert "below eps" in describe_group(near, 0)
    one_in_128 = advantage_trace([1.0] + [0.0] * 127, convention="openrlhf")
    assert "Clipped to ±10 (OpenRLHF's reward clip)" in describe_group(one_in_128, 0)


def test_verl_lone_reward_sentence():
    trace = advantage_trace([3.0], convention="verl")
    assert "passes through" in describe_group(trace, 0)
    assert math.isclose(trace.advantages[0], 3 / (1 + 1e-6))


def test_step_values_for_nemo_rl_divide_by_the_others_std_or_skip():
    from grpo_core.sentences import step_values

    trace = advantage_trace([1.0, 0.0, 0.0, 0.0], convention="nemo-rl")
    winner, loser = step_values(trace, 0, 0), step_values(trace, 0, 1)
    # the winner's three siblings agree: std 0, so no division
    assert winner["baseline"] == "0" and winner["others_std"].startswith("0, because the other 3")
    assert winner["divided"] == "Answer 1's others have no spread, so it is not divided: A = 1."
    # a loser's others are (1, 0, 0): mean 1/3, sample std sqrt(1/3) over K - 2 = 2
    assert loser["baseline"] == "0.3333" and loser["others_std"] == "0.5774"
    assert loser["divided"] == "Answer 2: -0.3333 / (0.5774 + 1e-6) = -0.5773."
    assert winner["advantage_sum"] == "-0.732"  # 1 - 3 x 0.5774: not 0
    pair = step_values(advantage_trace([1.0, 0.0], convention="nemo-rl"), 0, 0)
    assert "NeMo-RL sets it to 0" in pair["others_std"] and "not divided: A = 1" in pair["divided"]


def test_step_values_for_reinforce_pp_name_the_clip_and_the_batch_std():
    from grpo_core.sentences import step_values

    trace = advantage_trace(TWO_SCALES, convention="reinforce-pp")
    wide = step_values(trace, 1, 1)  # centred 100 - 62.5 = 37.5, cut to 10
    assert wide["clip_note"] == "answer 2's 37.5 is cut to 10"
    assert wide["batch_std"] == f"{trace.batch_std:.4g}" and wide["answers"] == "8 answers"
    narrow = step_values(trace, 0, 1)
    assert narrow["clip_note"] == "answer 2's 0.5 lies inside ±10, so it is kept"
    assert narrow["others_std"] == narrow["divided"] == ""  # NeMo-RL's clauses only
    assert step_values(advantage_trace(R4), 0, 0)["clip_note"] == "no clip applies"


def test_several_top_answers_read_as_a_plural():
    """ "Answers 1, 3, 4 and 7 scored 0.935 std above its group's mean" (the playground's
    default prompt): "the group's" fits one answer or several."""
    trace = advantage_trace([[1, 0, 1, 1, 0, 0, 1, 0]], convention="trl")
    sentence = describe_group(trace, 0)
    assert sentence.startswith("Answers 1, 3, 4 and 7 scored 0.935 std above the group's mean")
    assert " its " not in sentence


def test_answers_keep_their_numbers_when_a_cell_is_left_out():
    """The playground's default prompt 1 with answer 2 left out ('abc'): the seven rewards
    1,1,1,0,0,1,0 are answers 1,3,4,5,6,7,8. TRL: mean 4/7, sample std 0.5345, eps 1e-4:
    (1 - 4/7) / 0.5346 = 0.8016 and (0 - 4/7) / 0.5346 = -1.069."""
    trace = advantage_trace([1, 1, 1, 0, 0, 1, 0], convention="trl")
    numbers = [1, 3, 4, 5, 6, 7, 8]
    sentence = describe_group(trace, 0, numbers)
    assert sentence.startswith("Answers 1, 3, 4 and 7 scored 0.802 std above the group's mean")
    assert "(A = 0.8016); answers 5, 6 and 8 pushed down most (A = -1.069)" in sentence
    assert describe_group(trace, 0).startswith("Answers 1, 2, 3 and 6")  # no numbers: 1..K
    from grpo_core.sentences import step_values

    third = step_values(trace, 0, 2, numbers)  # the third reward is answer 4
    assert third["i"] == "4" and third["advantage"] == "0.8016" and third["k"] == "7"
    nemo = step_values(advantage_trace([1, 0, 0], convention="nemo-rl"), 0, 0, [2, 5, 6])
    assert nemo["divided"].startswith("Answer 2's others have no spread")
    with pytest.raises(ValueError, match="one number per answer: 2 for 7 answers"):
        describe_group(trace, 0, [1, 2])
