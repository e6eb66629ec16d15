"""Reward playground: sampling, conventions, bad cells, links, CSV."""

import math

import numpy as np
import pytest

from grpo_core import group_advantages
from tests.app.conftest import open_page, texts

PAGE = "pages/playground.py"
TRL_BINARY = 0.5 / (math.sqrt(2 / 7) + 1e-4)  # [1,0,1,1,0,0,1,0] under TRL
DEFAULT_PROMPT_2 = ["0.9", "0.2", "0.5", "0.7", "0.1", "0.4", "0.8", "0.3"]


def table(at):
    return at.dataframe[-1].value  # the step table comes after the grid


def set_grid(at, columns):
    at.session_state["rewards_grid"] = columns
    at.session_state["grid_version"] = at.session_state["grid_version"] + 1
    at.run()


def test_default_rewards_show_trl_numbers():
    at = open_page(PAGE)
    assert not at.exception
    frame = table(at)
    first = frame[frame.prompt == 1]
    np.testing.assert_allclose(first.advantage.abs(), TRL_BINARY, rtol=1e-12)
    assert first["mean"].iloc[0] == 0.5
    assert any("0.935 std above" in t for t in texts(at, "markdown"))
    assert len(at.get("plotly_chart")) == 2


def test_sampling_fills_the_grid_from_a_scenario():
    at = open_page(PAGE)
    at.selectbox(key="pg.scenario").set_value("one-success")
    at.number_input(key="pg.seed").set_value(3)
    at.number_input(key="pg.k").set_value(16).run()
    at.button(key="pg.sample").click().run()
    assert not at.exception
    grid = at.session_state["rewards_grid"]
    assert len(grid) == 2 and all(len(c) == 16 for c in grid)
    assert all(sum(float(x) for x in c) == 1 for c in grid)
    frame = table(at)
    assert frame.advantage.max() == pytest.approx(
        group_advantages([1] + [0] * 15, convention="trl")[0]
    )


def test_changing_the_convention_changes_the_numbers():
    at = open_page(PAGE)
    at.selectbox(key="w.settings.convention").set_value("zscore").run()
    frame = table(at)
    np.testing.assert_allclose(frame[frame.prompt == 1].advantage.abs(), 1.0)
    assert at.query_params["c"] == "zscore"


def test_custom_settings_override_the_convention():
    at = open_page(PAGE)
    at.toggle(key="w.settings.custom").set_value(True).run()
    at.radio(key="w.settings.ddof").set_value(0)
    at.text_input(key="w.settings.eps").set_value("0").run()
    frame = table(at)
    np.testing.assert_allclose(frame[frame.prompt == 1].advantage.abs(), 1.0)
    at.text_input(key="w.settings.eps").set_value("lots").run()
    assert any(
        "eps must be a number ≥ 0 such as 1e-4, not 'lots'" in w for w in texts(at, "warning")
    )
    assert not at.exception


@pytest.mark.parametrize(("eps", "clip"), [("inf", "1e999"), ("nan", "-1"), ("", "**0**")])
def test_a_bad_eps_or_clip_is_named_in_its_own_words(eps, clip):
    """The reward parser's messages spoke of rewards ("inf is infinite; rewards must be
    finite") under the eps box; each setting's warning names the setting and what was typed."""
    at = open_page(PAGE)
    at.toggle(key="w.settings.custom").set_value(True).run()
    at.text_input(key="w.settings.eps").set_value(eps)
    at.text_input(key="w.settings.clip").set_value(clip).run()
    warnings = [w for w in texts(at, "warning") if w.startswith(("eps", "clip"))]
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith("eps must be a number ≥ 0 such as 1e-4, not ")
    assert warnings[1].startswith("clip must be a positive number, or blank for no clamp, not ")
    assert not any("reward" in w for w in warnings), warnings
    assert "\\*\\*0\\*\\*" in warnings[1] or clip != "**0**"  # typed text shown verbatim
    assert not at.exception


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("abc", "Prompt 1, answer 2: 'abc' is not a number"),
        ("nan", "Prompt 1, answer 2: NaN is not a reward"),
        ("inf", "Prompt 1, answer 2: inf is infinite"),
        ("1e400", "Prompt 1, answer 2: 1e400 is infinite"),
        ("<script>alert(1)</script>", "is not a number"),
    ],
)
def test_a_bad_cell_is_named_and_the_rest_still_computes(cell, message):
    at = open_page(PAGE)
    set_grid(at, [["1", cell, "0", "1"], ["2", "3", "4", "5"]])
    assert not at.exception
    assert any(message in w for w in texts(at, "warning"))
    frame = table(at)
    assert frame[frame.prompt == 1].reward.tolist() == [1.0, 0.0, 1.0]  # the cell is left out
    assert len(frame[frame.prompt == 2]) == 4
    assert at.session_state["rewards_grid"][0][1] == cell  # the typed text is kept


def test_a_lone_reward_is_left_out_under_trl_but_passes_through_verl():
    at = open_page(PAGE)
    set_grid(at, [["1", "", ""], ["2", "3", "4"]])
    assert any("Prompt 1 has only one reward (K=1)" in w for w in texts(at, "warning"))
    assert table(at).prompt.unique().tolist() == [2]
    at.selectbox(key="w.settings.convention").set_value("verl").run()
    frame = table(at)
    assert frame[frame.prompt == 1].advantage.iloc[0] == pytest.approx(1 / (1 + 1e-6))


def test_all_blank_grid_says_what_to_do():
    at = open_page(PAGE)
    set_grid(at, [["", ""], ["", ""]])
    assert not at.exception
    assert any("Enter at least two rewards" in i for i in texts(at, "info"))


def test_all_equal_prompt_is_explained():
    at = open_page(PAGE)
    set_grid(at, [["1", "1", "1"], ["0", "1", "0"]])
    assert any("teaches nothing" in t for t in texts(at, "markdown"))


def test_link_reproduces_rewards_and_settings():
    at = open_page(PAGE, query={"r": "1_2_3~0.5_0.5_1", "c": "verl"})
    assert not at.exception
    assert at.session_state["rewards_grid"] == [["1", "2", "3"], ["0.5", "0.5", "1"]]
    frame = table(at)
    expected = group_advantages([[1, 2, 3], [0.5, 0.5, 1]], convention="verl").ravel()
    np.testing.assert_allclose(frame.advantage, expected)
    assert at.query_params["r"] == "1_2_3~0.5_0.5_1"


@pytest.mark.parametrize(
    "query",
    [
        {"r": "<script>alert(1)</script>"},
        {"r": "1_2~" * 10_000},
        {"c": "ppo"},
        {"r": "1_nan", "c": "trl"},
        {"ddof": "7", "scale": "everything", "eps": "-1"},
    ],
)
def test_malformed_link_gets_a_message_and_defaults(query):
    at = open_page(PAGE, query=query)
    assert not at.exception
    assert texts(at, "warning"), "a malformed link must be explained"
    assert len(table(at)) >= 2


def test_ten_thousand_rewards_in_a_link_are_refused_in_plain_words():
    at = open_page(PAGE, query={"r": "_".join(["1"] * 10_000)})
    assert any("characters long" in w or "answers" in w for w in texts(at, "warning"))
    assert not at.exception


def test_csv_download_holds_every_step():
    at = open_page(PAGE)
    assert at.get("download_button")
    csv = table(at).to_csv(index=False)
    assert csv.splitlines()[0].startswith("prompt,answer,reward,mean")


def test_several_rewards_mode_shows_gdpos_collapse():
    at = open_page(PAGE, state={"rewards_grid": [["1", "0", "0", "1"]]})
    at.toggle(key="pg.multi").set_value(True).run()
    assert not at.exception
    both = at.dataframe[-2].value  # the comparison comes before the step table
    assert both["correctness"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert both["format"].tolist() == [0.0, 1.0, 1.0, 0.0]
    summed = both["sum then normalise"].to_numpy()
    assert summed[0] == summed[1] == summed[2]
    assert both["normalise then sum"][0] > both["normalise then sum"][1]
    verdict = (
        "Summed first, 3 answers share an advantage with an answer that scored a "
        "different combination; normalised first, 0 answers do."
    )
    assert any(verdict in t for t in texts(at, "markdown"))
    assert len(at.get("plotly_chart")) == 3


def test_a_link_opens_the_several_rewards_mode_and_keeps_it():
    at = open_page(PAGE, query={"pg.multi": "true"})
    assert not at.exception
    assert at.toggle(key="pg.multi").value
    assert len(at.get("plotly_chart")) == 3, "the GDPO comparison is drawn"


@pytest.mark.parametrize("convention", ["nemo-rl", "reinforce-pp"])
def test_the_new_conventions_run_in_the_playground(convention):
    at = open_page(PAGE, query={"c": convention})
    assert not at.exception
    frame = table(at)
    rewards = [[1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.2, 0.5, 0.7, 0.1, 0.4, 0.8, 0.3]]
    expected = group_advantages(rewards, convention=convention).ravel()
    np.testing.assert_allclose(frame["advantage"], expected)


def bar_labels(at) -> list[list[str]]:
    """The bars' labels of each chart on the page (rewards, advantages), as Plotly gets them."""
    import json

    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    return [next(t["x"] for t in s["data"] if t["type"] == "bar") for s in specs]


def test_a_cell_left_out_keeps_every_answers_number():
    """The bug report: 'abc' in prompt 1, answer 2 of the default rewards. The other seven
    keep their rows' numbers in the sentences, the charts, the captions, the table and the
    link. TRL: mean 4/7, sample std 0.5345, eps 1e-4 -> +0.8016 and -1.069."""
    at = open_page(PAGE)
    set_grid(at, [["1", "abc", "1", "1", "0", "0", "1", "0"], DEFAULT_PROMPT_2])
    assert not at.exception
    assert any("Prompt 1, answer 2: 'abc' is not a number" in w for w in texts(at, "warning"))
    said = [t for t in texts(at, "markdown") if "scored 0.802 std above" in t]
    assert len(said) == 2  # the chosen prompt's sentence and the expander's
    for sentence in said:
        assert "Answers 1, 3, 4 and 7 scored 0.802 std above the group's mean" in sentence
        assert "answers 5, 6 and 8 pushed down most (A = -1.069)" in sentence
    numbers = ["#1", "#3", "#4", "#5", "#6", "#7", "#8"]
    assert bar_labels(at) == [numbers, numbers]
    assert any(
        "Values: #1 +0.8016, #3 +0.8016, #4 +0.8016, #5 −1.069" in c for c in texts(at, "caption")
    )
    frame = table(at)
    assert frame[frame.prompt == 1].answer.tolist() == [1, 3, 4, 5, 6, 7, 8]
    # The link leaves the cell out but keeps its place: opened, answer 3 is still answer 3.
    assert at.query_params["r"].startswith("1__1_1_0_0_1_0~")
    again = open_page(PAGE, query={"r": at.query_params["r"]})
    assert again.session_state["rewards_grid"][0] == ["1", "", "1", "1", "0", "0", "1", "0"]
    assert bar_labels(again) == [numbers, numbers]
    assert any("Answers 1, 3, 4 and 7 scored" in t for t in texts(again, "markdown"))


def test_an_empty_cell_or_a_lone_reward_keeps_the_numbers_too():
    at = open_page(PAGE)
    set_grid(at, [["", "0", "1", "", "1"], ["", "", "7", "", ""]])  # prompt 2: K=1, left out
    frame = table(at)
    assert frame.answer.tolist() == [2, 3, 5] and frame.prompt.unique().tolist() == [1]
    assert bar_labels(at) == [["#2", "#3", "#5"], ["#2", "#3", "#5"]]
    assert any(t.startswith("**Prompt 1.** Answers 3 and 5 scored") for t in texts(at, "markdown"))
    at.selectbox(key="w.settings.convention").set_value("verl").run()  # the lone one counts
    frame = table(at)
    assert frame[frame.prompt == 2].answer.tolist() == [3]
