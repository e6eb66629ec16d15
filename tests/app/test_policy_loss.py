"""The "From advantage to update" page: it draws, answers from live numbers, follows its
widgets and links, and starts from the playground's or the walkthrough's group."""

import pytest

from grpo_core.loss import LOSS_TYPES
from tests.app.conftest import open_page, texts

PAGE = "pages/policy-loss.py"
CHARTS = 6  # five heatmaps and the k1/k2/k3 bars


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label))


def page_text(at) -> str:
    return "\n".join(texts(at, "markdown") + texts(at, "caption"))


def charts(at) -> int:
    return len(at.get("plotly_chart"))


def test_default_view_draws_and_answers():
    at = open_page(PAGE)
    assert not at.exception, at.exception
    assert charts(at) == CHARTS
    assert metric(at, "Tokens clipped") != "0%"  # one step later, some ratios left the range
    text = page_text(at)
    assert "Yet the gradient is not zero" in text
    assert "With num_iterations = 1 every batch is used once" in text
    assert "Unlikely tokens move most" in text
    assert "share one ratio, exp(mean log r)" in text
    assert "k1 is negative on" in text
    assert "Grouped bars per answer: k1 (solid)" in text
    assert "claim:" not in text  # claim links point at their sources
    assert len(at.get("download_button")) == 1


def test_first_step_under_grpo_has_zero_loss_but_a_gradient():
    at = open_page(PAGE, query={"pl.step": "0", "pl.loss_type": "grpo"})
    assert not at.exception, at.exception
    assert metric(at, "Loss after the step") == "0"
    assert metric(at, "Tokens clipped") == "0%"
    assert metric(at, "Largest push") != "0"
    assert "A loss of 0 says the pushes up and down balance" in page_text(at)


def test_every_loss_type_and_level_renders():
    at = open_page(PAGE)
    for loss_type in LOSS_TYPES:
        for level in ("token", "sequence"):
            at.selectbox(key="pl.loss_type").set_value(loss_type)
            at.radio(key="pl.level").set_value(level)
            at.run()
            assert not at.exception, (loss_type, level, at.exception)
            assert charts(at) == CHARTS
            assert loss_type in page_text(at)


def test_kl_delta_and_clip_higher_change_the_numbers():
    at = open_page(PAGE)
    before = metric(at, "Loss after the step")
    at.slider(key="pl.beta").set_value(0.2).run()
    assert not at.exception
    assert metric(at, "Loss after the step") != before
    at.toggle(key="pl.use_delta").set_value(True).run()
    at.slider(key="pl.delta").set_value(1.1).run()
    assert not at.exception
    assert "by δ" in page_text(at)
    at.slider(key="pl.eps_high").set_value(0.28).run()  # Clip-Higher: compared with 0.2
    assert "With ε_high = 0.28," in page_text(at)
    assert "Against TRL's defaults, epsilon_high 0.28, delta 1.1, beta 0.2" in page_text(at)


def test_starts_from_the_playground_group():
    grid = [["3", "1", "2", "0", "5"]]
    at = open_page(PAGE, query={"pl.source": "playground"}, state={"rewards_grid": grid})
    assert not at.exception, at.exception
    assert "5 answers from the playground's prompt 1: rewards 3, 1, 2, 0, 5" in page_text(at)


def test_the_playground_group_says_which_grid_rows_its_answers_are():
    grid = [["3", "x", "2", "", "5"]]
    at = open_page(PAGE, query={"pl.source": "playground"}, state={"rewards_grid": grid})
    assert not at.exception, at.exception
    assert (
        "3 answers from the playground's prompt 1 (its answers 1, 3, 5, here 1 to 3): "
        "rewards 3, 2, 5" in page_text(at)
    )


def test_playground_without_a_group_falls_back_to_the_preset():
    grid = [["1", ""], ["x", "2"]]
    at = open_page(PAGE, query={"pl.source": "playground"}, state={"rewards_grid": grid})
    assert not at.exception
    assert any("no prompt with two rewards" in t for t in texts(at, "info"))
    assert "from the preset" in page_text(at)


def test_starts_from_the_walkthrough_group():
    at = open_page(PAGE, query={"pl.source": "walkthrough"})
    assert not at.exception, at.exception
    assert "8 answers from the walkthrough's eight graded answers" in page_text(at)


@pytest.mark.parametrize("preset", ["one-success", "long-answer", "all-equal"])
def test_presets(preset):
    at = open_page(PAGE, query={"pl.preset": preset})
    assert not at.exception, at.exception
    if preset == "all-equal":
        assert metric(at, "Largest push") == "0"  # zero advantages, no KL: nothing moves
    if preset == "long-answer":
        assert "Answer 1 is the longest (20 tokens" in page_text(at)


def test_a_bad_link_value_leaves_the_defaults_and_the_page_up():
    # The browser test checks the message (tests/e2e/test_policy_loss.py).
    at = open_page(PAGE, query={"pl.step": "lots", "pl.loss_type": "ppo"})
    assert not at.exception, at.exception
    assert charts(at) == CHARTS
    assert at.selectbox(key="pl.loss_type").value == "dapo"
    assert at.slider(key="pl.step").value == 0.5


def test_the_csv_has_one_row_per_real_token_and_the_heatmaps_numbers():
    from grpo_core.loss import policy_loss
    from grpo_core.loss_lab import toy_batch
    from ui.loss_page import token_table

    toy = toy_batch([1, 0, 1], [3, 4, 2], step=1.0)
    result = policy_loss(toy.logp, toy.old_logp, toy.advantages, toy.mask)
    table = token_table(toy, result)
    assert len(table) == 9 and table["answer"].tolist() == [1, 1, 1, 2, 2, 2, 2, 3, 3]
    assert set(table["region"]) <= {"free", "low", "high", "delta"}
    real = toy.mask > 0
    assert table["push_on_logp"].tolist() == (-result.grad[real]).tolist()
    assert table["ratio"].tolist() == result.ratio[real].tolist()


def test_an_all_equal_group_is_not_said_to_have_a_gradient():
    at = open_page(PAGE, query={"pl.preset": "all-equal"})
    assert not at.exception, at.exception
    text = page_text(at)
    assert "Here the gradient is 0 too" in text and "Yet the gradient is not zero" not in text


def test_the_answers_fit_losses_without_a_clip_range_and_sequence_level():
    at = open_page(PAGE, query={"pl.preset": "one-success", "pl.loss_type": "cispo"})
    assert not at.exception, at.exception
    text = page_text(at)
    assert "below CISPO's weight cap ε_high = 5" in text and "[0.8, 6]" not in text
    assert "(cispo has no clip range, so this is dapo's.) Unlikely tokens" in text
    at = open_page(PAGE, query={"pl.loss_type": "vespo", "pl.level": "sequence"})
    text = page_text(at)
    assert "vespo has no clip at all" in text
    assert "it is at token level, where Clip-Higher acts on single tokens.)" in text
    at = open_page(PAGE, query={"pl.level": "sequence"})
    assert "of answers clipped" in page_text(at)
