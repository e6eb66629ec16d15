"""Step-by-step walkthrough: steps, numbers substituted into the formulas, whiteboard."""

from tests.app.conftest import latex, open_page, texts

PAGE = "pages/walkthrough.py"


def step_through(at, steps):
    for _ in range(steps):
        at.button(key="wt.next").click().run()
    return at


def test_six_steps_with_numbers():
    at = open_page(PAGE)
    assert not at.exception
    assert latex(at)[0] == "R = (1, 0, 1, 1, 0, 0, 1, 0)"
    step_through(at, 1)
    assert latex(at)[0].endswith("{8} = 0.5")
    step_through(at, 3)
    assert at.session_state["wt.step"] == 5
    assert latex(at)[0].endswith(r"\frac{1 - 0.5}{0.5345 + 1 \times 10^{-4}} = 0.9352")
    step_through(at, 1)
    assert at.button(key="wt.next").disabled
    at.button(key="wt.prev").click().run()
    assert at.session_state["wt.step"] == 5


def test_follow_another_answer_and_prompt():
    at = open_page(PAGE)
    at.selectbox(key="wt.prompt").set_value(1)
    at.selectbox(key="wt.answer").set_value(4).run()
    step_through(at, 4)
    assert latex(at)[0].startswith("A_{5}")
    assert "0.1 - 0.4875" in latex(at)[0]


def test_whiteboard_example_is_round():
    at = open_page(PAGE)
    at.segmented_control(key="wt.source").set_value("whiteboard").run()
    step_through(at, 1)
    assert latex(at)[0].endswith("{8} = 5")
    step_through(at, 2)
    assert latex(at)[0].endswith("(4)^2}{8}} = 2")
    step_through(at, 2)
    assert latex(at)[0] == "A = (-1.5, -0.5, -0.5, -0.5, 0, 0, 1, 2)"


def test_uses_the_playgrounds_rewards_and_explains_a_tie():
    at = open_page(PAGE, state={"rewards_grid": [["3", "3", "3"]]})
    step_through(at, 4)
    assert any("exactly 0" in i for i in texts(at, "info"))


def test_no_usable_rewards_points_to_the_playground():
    at = open_page(PAGE, state={"rewards_grid": [["x", ""]]})
    assert not at.exception
    assert any("no usable rewards" in i for i in texts(at, "info"))
