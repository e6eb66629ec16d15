"""Share links: every view's link carries what the view depends on, and nothing private."""

from urllib.parse import parse_qs

import pytest

from tests.app.conftest import PAGES, ROOT, latex, open_page, texts
from ui import state

CONV, PLAY, WALK = "pages/conventions.py", "pages/playground.py", "pages/walkthrough.py"
PRIVATE = {"p": "q1progress", "lecturer": "lect", "student": "stud", "learner": "me"}


def link(at) -> str:
    """The share link's text (the last code block of the page)."""
    return at.code[-1].value


def test_private_params_are_named():
    assert {"p", "lecturer", "student", "learner"} <= state.PRIVATE_PARAMS
    assert state.shareable({"r": "1_0", "p": "x", "learner": "y"}) == {"r": "1_0"}


@pytest.mark.parametrize("page", PAGES)
def test_no_share_link_carries_a_private_param(page):
    at = open_page(page, query={**PRIVATE, "present": "1"})
    assert not at.exception
    own = at.session_state.get("learner.key")
    links = [  # AppTest has no base URL; the learner's own link is shown to them on purpose
        c.value for c in at.code if c.value.startswith("?") and c.value != f"?learner={own}"
    ]
    for text in links:
        assert not set(parse_qs(text[1:])) & set(PRIVATE), text
        assert parse_qs(text[1:]).get("present") == ["1"]  # the view, as it is presented
    # every page that draws a share link drew one (the guide's needs a section chosen)
    draws_one = "controls.share_link()" in (ROOT / page).read_text() and "guide" not in page
    assert bool(links) == draws_one, page


def test_conventions_link_carries_the_playground_rewards_it_borrowed():
    at = open_page(CONV, state={"rewards_grid": [["1", "2", "3"], ["0", "1", ""]]})
    assert at.query_params["r"] == "1_2_3~0_1"
    assert "r=1_2_3~0_1" in link(at)
    assert "c" not in at.query_params  # the comparison does not depend on the convention
    at.segmented_control(key="conv.source").set_value("typed").run()
    assert "r" not in at.query_params


def test_conventions_opened_from_its_link_shows_the_lecturers_rewards():
    at = open_page(CONV, query={"r": "1_2_3~0_1"})
    assert not at.exception
    assert at.dataframe[0].value["reward"].tolist() == ["1", "2", "3", "0", "1"]


def test_walkthrough_link_carries_step_example_prompt_and_answer():
    query = {"wt.step": "5", "wt.source": "A real math problem", "wt.answer": "3", "c": "verl"}
    at = open_page(WALK, query=query)
    assert not at.exception
    assert at.session_state["wt.step"] == 5 and at.session_state["wt.answer"] == 3
    assert latex(at)[0].startswith("A_{4} =")
    for key, value in query.items():
        assert at.query_params[key] == value
    assert "r" not in at.query_params  # the real problem does not borrow the playground's
    at.button(key="wt.next").click().run()
    assert at.session_state["wt.step"] == 6 and at.query_params["wt.step"] == "6"
    assert "wt.step=6" in link(at)


def test_walkthrough_on_your_rewards_carries_them_and_the_convention():
    at = open_page(WALK, query={"r": "1_0_0~2_3_5", "c": "zscore", "wt.prompt": "1"})
    assert not at.exception
    assert at.session_state["wt.prompt"] == 1
    assert latex(at)[0] == "R = (2, 3, 5)"
    assert {"r=1_0_0~2_3_5", "c=zscore", "wt.prompt=1"} <= set(link(at).split("?")[1].split("&"))
    at.segmented_control(key="wt.source").set_value("whiteboard").run()
    assert "r" not in at.query_params and "c" not in at.query_params


def test_walkthrough_ignores_a_step_out_of_range():
    at = open_page(WALK, query={"wt.step": "99", "wt.answer": "x"})
    assert not at.exception
    assert at.session_state["wt.step"] == 1 and at.query_params["wt.step"] == "1"


def test_playground_link_keeps_the_valid_rewards_and_names_the_cells_left_out():
    at = open_page(PLAY, state={"rewards_grid": [["1", "abc", "0", "1"], ["x", "y"]]})
    assert at.query_params["r"] == "1__0_1~"  # answer 2 left out, its place kept
    assert any(
        "The link leaves out 3 cells that are not a number: prompt 1, answer 2; prompt 2, "
        "answer 1; prompt 2, answer 2" in w
        for w in texts(at, "warning")
    )
    again = open_page(PLAY, query={"r": at.query_params["r"]})
    assert again.session_state["rewards_grid"] == [["1", "", "0", "1"], ["", "", "", ""]]
    assert again.dataframe[-1].value.reward.tolist() == [1.0, 0.0, 1.0]
    assert again.dataframe[-1].value.answer.tolist() == [1, 3, 4]  # numbered as when shared
