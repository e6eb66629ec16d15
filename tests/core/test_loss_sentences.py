"""grpo_core.loss_sentences: each sentence quotes the numbers of the results it is given."""

import numpy as np

from grpo_core import loss_sentences as say
from grpo_core.format import fmt, plural
from grpo_core.loss import policy_loss
from grpo_core.loss_lab import kl_estimators, toy_batch


def run(toy, *, on_policy=False, **options):
    logp = toy.old_logp if on_policy else toy.logp
    return policy_loss(logp, toy.old_logp, toy.advantages, toy.mask, **options)


def test_on_policy_under_grpo_says_zero_loss_but_a_push():
    toy = toy_batch([1, 0, 1, 0], [3, 5, 4, 6], step=0.5)
    first = run(toy, on_policy=True, loss_type="grpo")
    text = say.on_policy(toy, first, "grpo")
    assert "The loss is 0:" in text
    assert "Yet the gradient is not zero: 18 tokens get a push" in text
    assert "A loss of 0 says the pushes up and down balance" in text


def test_on_policy_says_the_advantages_average_0_not_their_rounding():
    # rewards whose z-scores sum to 3e-17 in float64, not 0
    toy = toy_batch([0.3, 0.9, 0.1, 0.5], [3, 5, 4, 6], step=0.5)
    text = say.on_policy(toy, run(toy, on_policy=True, loss_type="grpo"), "grpo")
    assert "The loss is 0:" in text and "the advantages average 0." in text


def test_on_policy_under_dapo_quotes_the_token_mean():
    toy = toy_batch([1, 0, 1, 0], [3, 5, 4, 6], step=0.5)
    first = run(toy, on_policy=True)
    text = say.on_policy(toy, first, "dapo")
    assert f"The loss is {fmt(first.loss)}" in text and "not 0 only because" in text


def test_clip_ratio_quotes_the_range_and_the_later_fractions():
    toy = toy_batch([1, 0, 1, 0], [3, 5, 4, 6], step=1.5)
    now, first = run(toy), run(toy, on_policy=True)
    text = say.clip_ratio(now, first, 1.5, (0.2, 0.28))
    assert "inside [0.8, 1.28]" in text and "clip fraction is 0%" in text
    assert f"{fmt(100 * now.clip_fraction.region, 3)}% of tokens clipped" in text
    assert say.clip_ratio(first, first, 0.0, (0.2, 0.2)).endswith(
        "Move the step slider to take it."
    )


def test_clip_higher_counts_unlikely_right_tokens():
    toy = toy_batch([1, 0, 1, 0], [8, 8, 8, 8], step=0.3, seed=1)
    now = run(toy, epsilon_high=0.28)
    other = run(toy, epsilon_high=0.2)
    text = say.clip_higher(toy, now, other, (0.28, 0.2))
    unlikely = (toy.advantages[:, None] > 0) & (toy.mask > 0) & (np.exp(toy.old_logp) < 0.2)
    assert unlikely.any()
    assert f"the {plural(int(unlikely.sum()), 'token')} sampled with p_old < 0.2" in text
    high = int(np.count_nonzero((now.clip == 2) & unlikely))
    assert f"With ε_high = 0.28, {high} of the unlikely ones" in text


def test_sequence_ratio_names_the_longest_answer():
    toy = toy_batch([1, 0, 1, 0], [20, 4, 5, 6], step=0.8)
    token = run(toy, loss_type="grpo")
    sequence = run(toy, loss_type="grpo", importance_sampling_level="sequence")
    text = say.sequence_ratio(toy, token, sequence)
    assert text.startswith("Answer 1 is the longest (20 tokens")
    assert f"exp(mean log r) = {fmt(sequence.ratio[0, 0])}" in text


def test_kl_estimates_and_clip_counts():
    toy = toy_batch([1, 0, 1], [3, 4, 5], step=0.5)
    k = kl_estimators(toy.old_logp, toy.ref_logp, toy.mask)
    text = say.kl_estimates(k, toy.mask, 0.5, 0.25)
    assert "On the 12 sampled tokens" in text and "from 0.25 to 0.5" in text
    assert "has no hard clip" in say.clipped_counts(run(toy, loss_type="sapo"), "sapo")
    assert say.clipped_counts(run(toy), "dapo").endswith("of 12 tokens")


def test_versus_defaults_quotes_both_losses_and_the_largest_change():
    toy = toy_batch([1, 0, 1, 0], [3, 5, 4, 6], step=0.8)
    default, now = run(toy), run(toy, loss_type="grpo", epsilon_high=0.28)
    text = say.versus_defaults(default, now, ["loss_type grpo", "epsilon_high 0.28"])
    assert text.startswith(
        "Against TRL's defaults, loss_type grpo, epsilon_high 0.28 moves the loss"
    )
    assert f"from {fmt(default.loss)} to {fmt(now.loss)}" in text
    assert say.versus_defaults(default, default, []).startswith("These are TRL's defaults")


def test_an_all_equal_group_has_no_gradient_and_the_sentence_says_so():
    toy = toy_batch([1, 1, 1, 1], [5, 6, 4, 7], step=0.5)
    first = run(toy, on_policy=True)
    text = say.on_policy(toy, first, "dapo")
    assert not first.grad.any()
    assert "Here the gradient is 0 too" in text and "not zero" not in text


def test_clip_ratio_names_cispos_cap_and_the_unclipped_losses():
    toy = toy_batch([1, 0, 1, 0], [6, 6, 6, 6], step=0.5)
    cispo = run(toy, loss_type="cispo", epsilon_high=5.0)
    text = say.clip_ratio(
        cispo, run(toy, on_policy=True, loss_type="cispo"), 0.5, (0.2, 5.0), "cispo"
    )
    assert "below CISPO's weight cap ε_high = 5" in text and "[0.8, 6]" not in text
    sapo = run(toy, loss_type="sapo")
    assert "sapo has no clip" in say.clip_ratio(sapo, sapo, 0.5, (0.2, 0.2), "sapo")
    seq = run(toy, importance_sampling_level="sequence")
    assert "of answers clipped" in say.clip_ratio(seq, seq, 0.5, (0.2, 0.2), "dapo", "sequence")


def test_clip_higher_says_when_both_ceilings_stop_the_same_tokens():
    toy = toy_batch([1, 0, 1, 0], [8, 8, 8, 8], step=3.0, seed=1)
    now, other = run(toy, epsilon_high=0.2), run(toy, epsilon_high=0.28)
    text = say.clip_higher(toy, now, other, (0.2, 0.28), "(a note.) ")
    assert text.startswith("(a note.) Unlikely tokens move most.")
    assert "Here both ceilings stop the same ones" in text
