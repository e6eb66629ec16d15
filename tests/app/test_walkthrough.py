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


def card(at, answer_id: str) -> str:
    """The header line of one answer's card in the real example."""
    return next(t for t in texts(at, "markdown") if t.startswith(f"**Answer {answer_id}**"))


def test_real_problem_grades_answers_and_regrading_moves_every_advantage():
    at = open_page(PAGE)
    at.segmented_control(key="wt.source").set_value("real").run()
    assert not at.exception
    assert len([t for t in texts(at, "markdown") if t.startswith("**Answer ")]) == 8
    assert "A = +1.207, pushed up" in card(at, "a1")  # 3 of 8 right under TRL
    assert "A = −0.7244, pushed down" in card(at, "a4")
    at.checkbox(key="wt.rg.True.a4").check().run()  # right number, wrong format: regrade it
    assert "A = +0.9352" in card(at, "a1") and "A = +0.9352" in card(at, "a4")
    assert "A = −0.9352" in card(at, "a5")


def test_real_problem_format_bonus_and_lenient_verifier():
    at = open_page(PAGE)
    at.segmented_control(key="wt.source").set_value("real").run()
    at.toggle(key="wt.strict").set_value(False).run()
    assert "A = +0.9352" in card(at, "a4")  # the lenient verifier accepts a4's number
    at.select_slider(key="wt.bonus").set_value(0.1).run()
    assert "reward 1 ·" in card(at, "a4") and "reward 1.1 ·" in card(at, "a1")


def test_eps_zero_says_what_happens_instead_of_keeping_the_division_finite():
    at = open_page(PAGE, query={"c": "zscore"})
    step_through(at, 4)
    words = " ".join(texts(at, "markdown"))
    assert "With eps = 0 nothing guards the division" in words
    assert "keeps the division finite" not in words


def test_nemo_rl_and_reinforce_pp_step_through_with_their_own_formulas():
    at = open_page(PAGE, query={"c": "nemo-rl", "r": "1_0_0_0"})
    step_through(at, 4)
    assert not at.exception
    assert latex(at)[0].endswith(r"\quad \text{(the others agree: undivided)}")
    at = open_page(PAGE, query={"c": "reinforce-pp"})
    step_through(at, 5)
    assert not at.exception
    at.button(key="wt.prev").click().run()
    assert r"\max(\sigma_{\text{batch}}, \varepsilon)" in latex(at)[0]


def test_the_next_after_the_step_moves_on_like_the_top_one():
    at = open_page(PAGE)
    at.button(key="wt.next_below").click().run()
    assert not at.exception and at.session_state["wt.step"] == 2
    step_through(at, 4)
    assert at.button(key="wt.next_below").disabled


def words(at) -> str:
    return " ".join(texts(at, "markdown"))


def test_nemo_rl_steps_say_what_nemo_rl_does_with_the_numbers():
    at = open_page(PAGE, query={"c": "nemo-rl", "r": "1_0_0_0"})
    at.selectbox(key="wt.answer").set_value(1).run()  # a wrong answer: its others differ
    assert "compares each answer with the *other* 3 answers" in words(at)
    step_through(at, 1)
    assert "Answer 2's baseline is the mean of the *other* 3 rewards, 0.3333" in words(at)
    step_through(at, 1)
    assert "R − baseline = 0 − 0.3333 = -0.3333" in words(at) and "unbiased" in words(at)
    step_through(at, 1)
    assert "Bessel-corrected over those K − 1" in words(at) and ": 0.5774." in words(at)
    step_through(at, 1)
    assert "Answer 2: -0.3333 / (0.5774 + 1e-6) = -0.5773." in words(at)
    at.selectbox(key="wt.answer").set_value(0).run()  # the winner: its others agree
    assert "Answer 1's others have no spread, so it is not divided: A = 1." in words(at)
    step_through(at, 1)
    assert "here they sum to -0.732" in words(at)
    assert any("each answer had its own divisor" in c for c in texts(at, "caption"))
    assert "(0 up to rounding)" not in " ".join(texts(at, "caption"))
    assert not at.exception


def test_reinforce_pp_steps_say_what_the_batch_whitening_does():
    at = open_page(PAGE, query={"c": "reinforce-pp", "r": "0_1~0_100"})
    assert not at.exception, at.exception
    assert "here 4 answers over 2 prompts" in words(at)
    at.selectbox(key="wt.prompt").set_value(1)
    at.selectbox(key="wt.answer").set_value(1).run()
    step_through(at, 2)
    assert "answer 2's 50 is cut to 10" in words(at)
    step_through(at, 1)
    assert "σ_batch = 7.08" in words(at) and "population std" in words(at)
    step_through(at, 1)
    assert "is a floor here, not added. Answer 2: A = 1.412." in words(at)
    step_through(at, 1)
    assert "mean 0 and std 1" in words(at) and "they sum to 0" in words(at)


def test_a_convention_set_by_hand_gets_the_generic_words():
    at = open_page(PAGE, query={"c": "trl", "r": "1_0_0_0"})
    assert "compares each answer with the *other*" not in words(at)
    step_through(at, 4)
    assert "keeps the division finite" in words(at)


def test_a_cell_left_out_keeps_every_answers_number():
    """'abc' in prompt 1, answer 2 of the playground: the answers to follow, the formulas,
    the step texts and the charts keep the grid's numbers 1, 3, 4, ..., 8."""
    import json

    grid = [["1", "abc", "1", "1", "0", "0", "1", "0"], ["0.9", "0.2"]]
    at = open_page(PAGE, state={"rewards_grid": grid})
    assert not at.exception
    assert any("Prompt 1, answer 2: 'abc' is not a number" in w for w in texts(at, "warning"))
    choices = at.selectbox(key="wt.answer").options
    assert choices[:3] == ["answer 1 (reward 1)", "answer 3 (reward 1)", "answer 4 (reward 1)"]
    assert len(choices) == 7 and choices[-1] == "answer 8 (reward 0)"
    bars = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]["x"]
    assert bars == ["#1", "#3", "#4", "#5", "#6", "#7", "#8"]
    at.selectbox(key="wt.answer").set_value(1).run()  # the second reward: answer 3
    step_through(at, 2)
    assert latex(at)[0] == r"R_{3} - \bar R = 1 - 0.5714 = 0.4286"
    step_through(at, 2)
    assert latex(at)[0].startswith(r"A_{3} = \frac{R_{3} - \bar R}")
    assert latex(at)[0].endswith(r"\frac{1 - 0.5714}{0.5345 + 1 \times 10^{-4}} = 0.8016")
    step_through(at, 1)
    assert any("Answers 1, 3, 4 and 7 scored 0.802 std" in t for t in texts(at, "markdown"))
    at.selectbox(key="w.settings.convention").set_value("nemo-rl").run()
    at.button(key="wt.prev").click().run()  # step 5 in NeMo-RL's words: "Answer 3: ..."
    assert "Answer 3: " in words(at) and "Answer 2" not in words(at)
