"""In a real browser: the policy-loss page draws its heatmaps, answers from live numbers,
follows its link's settings, and stays readable on a phone and on a 1280x720 projector; a
probability typed into the by-hand editor moves the ratio, the clip, the loss and the push
(checked against grpo_core on the same edit) at 1440 px, at 390 px and presenting."""

import numpy as np
import pandas as pd
import pytest

from grpo_core import loss_lab
from grpo_core.format import fmt
from grpo_core.loss import FREE, HIGH, LOW, policy_loss
from tests.e2e.conftest import (
    assert_healthy,
    chart_marks,
    download_of,
    open_cell_editor,
    open_path,
    settle,
    shot,
    type_into_cell_editor,
)

pytestmark = pytest.mark.e2e
CHARTS = 6  # ratio, clip region, push, per-token loss, KL term; the k1/k2/k3 bars


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


def test_policy_loss_page_at_1440(app_url, clean_page):
    page = clean_page({"width": 1440, "height": 5000})  # the whole page
    page.set_default_timeout(60_000)
    open_path(page, app_url, "/policy-loss")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert chart_marks(page) > 0  # the k1/k2/k3 bars
    assert page.locator(".js-plotly-plot .hm, .js-plotly-plot .heatmaplayer image").count() >= 4
    assert metric(page, "Tokens clipped") != "0%"  # one step later, some tokens are clipped
    assert "Yet the gradient is not zero" in main_text(page)
    assert "These are TRL's defaults" in main_text(page)
    page.get_by_text("Enter the probabilities by hand").click()
    settle(page)
    assert page.locator('[data-testid="stDataFrame"]').count() >= 1  # the editor is drawn
    shot(page, "policy_loss_1440")

    # the first, on-policy step under grpo: ratio 1, loss 0, nothing clipped, still a push
    open_path(page, app_url, "/policy-loss?pl.step=0&pl.loss_type=grpo")
    assert_healthy(page)
    assert metric(page, "Loss on the first step") == "0"
    assert metric(page, "Tokens clipped") == "0%"
    assert "A loss of 0 says the pushes up and down balance" in main_text(page)
    shot(page, "policy_loss_on_policy_grpo")

    # GSPO on the long answer, from the link; the page answers at sequence level
    open_path(page, app_url, "/policy-loss?pl.preset=long-answer&pl.level=sequence&pl.beta=0.1")
    assert_healthy(page)
    assert "Answer 1 is the longest (20 tokens" in main_text(page)
    page.get_by_text("Every token as a table").click()
    settle(page)
    assert_healthy(page)
    assert "pl.level=sequence" in page.url and "pl.preset=long-answer" in page.url

    # a link with values the page cannot take: said so, defaults shown, page up
    open_path(page, app_url, "/policy-loss?pl.step=lots&pl.loss_type=ppo")
    assert_healthy(page)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "cannot use" in alerts
    assert page.locator(".js-plotly-plot").count() == CHARTS


def test_policy_loss_page_on_a_phone(app_url, clean_page):
    # A phone's width; tall, so the screenshot holds the whole page (Streamlit scrolls inside).
    page = clean_page({"width": 390, "height": 9000}, is_mobile=True)
    page.set_default_timeout(60_000)
    open_path(page, app_url, "/policy-loss")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert no_sideways_scroll(page)
    shot(page, "policy_loss_390")
    open_editor(page)
    toy = preset_batch()
    after = page_loss(loss_lab.with_probabilities(toy, set_on_policy(page, toy)))
    assert_healthy(page)
    assert metric(page, "Loss after the step") == fmt(after.loss)
    assert heatmap(page, "Clipped?")[1][0] == LOW
    assert no_sideways_scroll(page)
    shot(page, "policy_loss_390_hand_editor")


def test_policy_loss_page_presenting_at_1280x720(app_url, clean_page):
    page = clean_page({"width": 1280, "height": 720})
    page.set_default_timeout(60_000)
    open_path(page, app_url, "/policy-loss?present=1")
    assert_healthy(page)
    assert page.locator(".js-plotly-plot").count() == CHARTS
    assert no_sideways_scroll(page)
    shot(page, "policy_loss_presenting_1280x720")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    settle(page)
    shot(page, "policy_loss_presenting_1280x720_heatmaps")
    open_editor(page)
    page.get_by_text("Enter the probabilities by hand").scroll_into_view_if_needed()
    toy = preset_batch()
    after = page_loss(loss_lab.with_probabilities(toy, set_on_policy(page, toy)))
    assert_healthy(page)
    shot(page, "policy_loss_presenting_1280x720_editor")
    assert metric(page, "Tokens clipped") == f"{fmt(100 * after.clip_fraction.region, 3)}%"
    assert no_sideways_scroll(page)
    page.locator('[data-testid="stMetric"]').first.scroll_into_view_if_needed()
    settle(page)
    shot(page, "policy_loss_presenting_1280x720_after_edit")


# --- the by-hand editor: a typed probability moves ratio, clip, loss and push ---------------

P_NEW = 3  # the editor's columns: answer, token, p_old, p_new


def preset_batch() -> loss_lab.ToyBatch:
    """The page's default group: the "binary" preset, η = 0.5, seed 0."""
    _, rewards, lengths = loss_lab.PRESETS["binary"]
    return loss_lab.toy_batch(rewards, lengths, step=0.5, seed=0)


def page_loss(toy: loss_lab.ToyBatch):
    """What the page computes with TRL's defaults (its loss controls untouched)."""
    return policy_loss(
        toy.logp,
        toy.old_logp,
        toy.advantages,
        toy.mask,
        ref_logp=toy.ref_logp,
        max_completion_length=loss_lab.MAX_TOKENS,
    )


def edit_probability(page, row: int, column: int, text: str) -> None:
    """Type ``text`` into the hand editor's cell (0-based row and column): select the first
    cell, walk to the cell with the arrow keys (the grid's columns are as wide as their
    text, so no position is assumed), open its editor with Enter, replace, commit."""
    grid = page.locator('[data-testid="stExpanderDetails"] [data-testid="stDataFrame"]').first
    grid.locator("[role=columnheader]").nth(P_NEW).wait_for(state="attached")
    walk = ("ArrowRight",) * column + ("ArrowDown",) * row
    open_cell_editor(page, grid, 12, 35 + 17, (0, 0), walk)  # rows are 35 px high
    type_into_cell_editor(page, text)


def heatmap(page, title: str) -> list[list]:
    """The z values of the heatmap titled ``title`` (rows: answers, columns: tokens)."""
    return page.evaluate(
        """(title) => {
            const plot = [...document.querySelectorAll('.js-plotly-plot')]
                .find((d) => (d.layout.title?.text || '').replace(/<[^>]*>/g, '')
                    .startsWith(title));
            return Array.from(plot._fullData[0].z, (row) => Array.from(row));
        }""",
        title,
    )


def csv_rows(page) -> pd.DataFrame:
    return pd.read_csv(download_of(page, page.get_by_role("button", name="Download CSV")))


def open_editor(page) -> None:
    page.get_by_text("Enter the probabilities by hand").click()
    settle(page)


def set_on_policy(page, toy) -> tuple:
    """Type answer 1, token 1's p_old as its p_new (ratio 1: the clipped token is freed)
    and answer 2, token 1's p_new to a tenth of p_old (ratio 0.1 < 1 − ε with A < 0:
    clipped low); returns the edits as the page applies them."""
    p_old_1, p_old_2 = np.exp(toy.old_logp[0, 0]), np.exp(toy.old_logp[1, 0])
    first, second = f"{p_old_1:.6f}", f"{p_old_2 / 10:.6f}"
    edit_probability(page, 0, P_NEW, first)
    second_row = int(toy.lengths[0])  # answer 2's first token, after answer 1's tokens
    edit_probability(page, second_row, P_NEW, second)
    return ((1, 1, float(p_old_1), float(first)), (2, 1, float(p_old_2), float(second)))


def test_the_hand_editor_moves_ratio_clip_loss_and_push_at_1440(app_url, clean_page):
    page = clean_page({"width": 1440, "height": 5000})
    page.set_default_timeout(60_000)
    open_path(page, app_url, "/policy-loss")
    toy = preset_batch()
    before = page_loss(toy)
    assert before.clip[0, 0] == HIGH and before.clip[1, 0] == FREE  # what the edits change
    assert metric(page, "Loss after the step") == fmt(before.loss)
    open_editor(page)
    edits = set_on_policy(page, toy)
    assert_healthy(page)
    after = page_loss(loss_lab.with_probabilities(toy, edits))
    assert after.clip[0, 0] == FREE and after.clip[1, 0] == LOW
    # the metrics, the heatmaps and the CSV all show the edited numbers
    assert metric(page, "Loss after the step") == fmt(after.loss) != fmt(before.loss)
    assert metric(page, "Tokens clipped") == f"{fmt(100 * after.clip_fraction.region, 3)}%"
    ratio, push = heatmap(page, "Ratio"), heatmap(page, "Push on log p")
    clip, loss = heatmap(page, "Clipped?"), heatmap(page, "Per-token loss")
    assert np.exp(ratio[0][0]) == pytest.approx(after.ratio[0, 0], rel=1e-9)  # log-scaled
    assert (clip[0][0], clip[1][0]) == (FREE, LOW)
    assert push[0][0] == pytest.approx(-after.grad[0, 0], rel=1e-9) and push[0][0] > 0
    assert push[1][0] == 0 and before.grad[1, 0] != 0  # clipped: no gradient
    assert loss[0][0] == pytest.approx(after.per_token[0, 0], rel=1e-9)
    rows = csv_rows(page).set_index(["answer", "token"])
    assert rows.loc[(1, 1), "ratio"] == pytest.approx(after.ratio[0, 0], rel=1e-9)
    assert rows.loc[(1, 1), "region"] == "free" and rows.loc[(2, 1), "region"] == "low"
    assert rows.loc[(2, 1), "push_on_logp"] == 0
    assert rows["per_token_loss"].to_numpy() == pytest.approx(after.per_token[toy.mask > 0])
    shot(page, "policy_loss_hand_editor_1440")
    # a probability the page cannot take: said so, the computed ones shown, page up
    edit_probability(page, 0, P_NEW, "0")
    refused = page.locator('[data-testid="stAlert"]', has_text="These probabilities cannot be used")
    refused.first.wait_for()  # the edit's run, on a busy machine
    assert_healthy(page)
    assert metric(page, "Loss after the step") == fmt(before.loss)
