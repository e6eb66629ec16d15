"""The Epsilon and variants lab: four pages, their numbers against closed forms, bad input,
links."""

import base64
import json
import math

import numpy as np
import pytest

from grpo_core import CONVENTIONS, group_advantages
from grpo_core.binary import std_weight, zero_spread_probability
from grpo_core.compare import scaling_comparison
from grpo_core.format import cell, signed, tex
from tests.app.conftest import latex, open_page, texts
from ui import lab
from ui.state import DEFAULT_GRID

EPS, CONV, DIF, DYN = (
    "pages/epsilon.py",
    "pages/conventions.py",
    "pages/difficulty.py",
    "pages/dynamic-sampling.py",
)
NEAR_TIE_CENTRED = np.array([-3e-8, 9e-8, -3e-8, -3e-8])  # [1, 1 + 1.2e-7, 1, 1] - mean
NEAR_TIE_STD = 6e-8  # sqrt(3 (3e-8)² + (9e-8)²) / 3), ddof=1


def number(text: str) -> float:
    """A table cell back to a float (real minus signs, ∞)."""
    return float(text.replace("−", "-").replace("∞", "inf"))


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def chart(at, key: str) -> dict:
    """The Plotly figure a chart element sends to the browser, arrays decoded."""
    spec = json.loads(
        next(c for c in at.get("plotly_chart") if c.proto.id.endswith(key)).proto.spec
    )

    def decode(x):
        if isinstance(x, dict) and "bdata" in x:
            return np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
        if isinstance(x, dict):
            return {k: decode(v) for k, v in x.items()}
        if isinstance(x, list):
            return [decode(v) for v in x]
        return x

    return decode(spec)


def frame(at, column: str):
    """The table that has ``column`` (a table without selections carries no key)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


# --- Epsilon lab ---------------------------------------------------------------------------


def test_epsilon_near_tie_at_trl_eps_is_damped_closed_form():
    at = open_page(EPS)
    assert not at.exception
    assert metric(at, "Group std (ddof=1)") == "6e-8"
    assert metric(at, "Regime at your eps") == "damped"
    table = frame(at, "advantage at your eps")
    expected = NEAR_TIE_CENTRED / (NEAR_TIE_STD + 1e-4)
    assert table["advantage at your eps"].tolist() == [cell(a) for a in expected]
    assert [number(z) for z in table["z-score (eps → 0)"]] == [-0.5, 1.5, -0.5, -0.5]
    assert [number(d) for d in table["(R − mean) / eps"]] == pytest.approx(
        [-3e-4, 9e-4, -3e-4, -3e-4]
    )


def test_epsilon_chart_marks_regimes_and_library_eps():
    at = open_page(EPS)
    fig = chart(at, "eps.chart")
    labels = [a["text"] for a in fig["layout"]["annotations"]]
    for label in ("TRL 1e-4", "verl 1e-6", "OpenRLHF 1e-9", "your eps<br>1e-4"):
        assert label in labels
    assert "z-score<br>std ≫ eps" in labels and "damped<br>std ≪ eps" in labels
    rects = [s for s in fig["layout"]["shapes"] if s["type"] == "rect"]
    # z-score left of std / 10 = 6e-9, damped right of 10 std = 6e-7
    assert rects[0]["x0"] == 1e-12 and rects[0]["x1"] == pytest.approx(6e-9)
    assert rects[1]["x0"] == pytest.approx(6e-7) and rects[1]["x1"] == 1
    lines = {s["x0"] for s in fig["layout"]["shapes"] if s["type"] == "line"}
    assert {1e-4, 1e-6, 1e-9} <= lines
    assert fig["layout"]["xaxis"]["type"] == "log"
    diamonds = fig["data"][-1]
    expected = NEAR_TIE_CENTRED / (NEAR_TIE_STD + 1e-4)
    np.testing.assert_allclose(diamonds["y"], expected, rtol=1e-6)  # 1.00000012 is not exact
    # answers 1, 3 and 4 tie, so they share one line: two lines and the diamonds
    assert len(fig["data"]) == 3 and fig["data"][0]["name"].startswith("answers 1, 3, 4")


@pytest.mark.parametrize(
    ("eps", "regime"), [(1e-9, "z-score"), (1e-8, "transition"), (1e-6, "damped"), (1.0, "damped")]
)
def test_epsilon_slider_moves_the_regime(eps, regime):
    at = open_page(EPS)
    at.select_slider(key="eps.value").set_value(eps).run()
    assert metric(at, "Regime at your eps") == regime
    table = frame(at, "advantage at your eps")
    expected = NEAR_TIE_CENTRED / (NEAR_TIE_STD + eps)
    np.testing.assert_allclose(
        [number(a) for a in table["advantage at your eps"]], expected, rtol=1e-3
    )


def test_epsilon_zero_warns_and_gives_the_z_score_and_0_over_0():
    at = open_page(EPS)
    at.checkbox(key="eps.zero").check().run()
    assert not at.exception
    assert any("eps = 0 is not what any trainer uses" in w for w in texts(at, "warning"))
    assert any("With eps = 0 this is 0/0" in w for w in texts(at, "warning"))
    assert [number(a) for a in frame(at, "advantage at your eps")["advantage at your eps"]] == [
        -0.5, 1.5, -0.5, -0.5,
    ]  # fmt: skip
    assert frame(at, "advantage at your eps")["(R − mean) / eps"].tolist() == [
        "−∞",
        "∞",
        "−∞",
        "−∞",
    ]
    assert any(r"\frac{0}{0}" in x for x in latex(at))
    assert "your eps<br>0" not in str(chart(at, "eps.chart")["layout"]["annotations"])
    # float32 on an all-equal (after the cast) group with eps = 0: 0/0
    assert metric(at, "Relative error of float32") == "NaN"


def test_epsilon_all_equal_group_is_exactly_zero_and_float32_rounding_shows():
    at = open_page(EPS)
    assert any("exactly 0" in s for s in texts(at, "success"))
    assert any(x.endswith(r"\frac{0}{1 \times 10^{-4}} = 0") for x in latex(at))
    outcomes = frame(at, "convention or setting").set_index("convention or setting")["advantage"]
    assert all(outcomes[name] == "0" for name in CONVENTIONS)
    assert outcomes["float32, eps = 0"] == "NaN (0/0)"
    at.number_input(key="eps.tie").set_value(0.1)
    at.number_input(key="eps.k").set_value(7).run()
    outcomes = frame(at, "convention or setting").set_index("convention or setting")["advantage"]
    # float32's mean of seven 0.1s leaves one residue c in every R - mean: c / std = ±sqrt(6/7)
    assert abs(number(outcomes["float32, eps = 0"])) == pytest.approx(math.sqrt(6 / 7), rel=1e-3)


def test_epsilon_float32_loses_the_spread_at_1e6():
    at = open_page(EPS)
    assert metric(at, "float32 spacing at the largest reward") == "0.0625"
    assert metric(at, "Different rewards, float64 → float32") == "4 → 1"
    assert metric(at, "Relative error of float32") == "1"
    table = frame(at, "A in float32")
    assert set(table["as float32 stores it"]) == {"1000000"}
    expected = np.array([-1.5, -0.5, 0.5, 1.5]) * 1e-3 / (math.sqrt(5e-6 / 3) + 1e-4)
    assert table["A in float64"].tolist() == [cell(a) for a in expected]
    assert any("become one value in float32" in m for m in texts(at, "markdown"))


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1, abc, 2", "reward 2: 'abc' is not a number"),
        ("1, nan, 2", "reward 2: NaN is not a reward"),
        ("1, inf, 2", "reward 2: inf is infinite"),
        ("1, <script>alert(1)</script>, 2", "is not a number"),
        ("1; 2", "2 prompts were typed; at most 1"),
        (", ".join(["1"] * 70), "has 70 rewards; at most 64"),
    ],
)
def test_epsilon_bad_rewards_are_named_and_the_page_keeps_working(typed, message):
    at = open_page(EPS)
    at.text_input(key="eps.group").set_value(typed).run()
    assert not at.exception
    assert any(message in w for w in texts(at, "warning"))
    assert at.get("plotly_chart") or texts(at, "info")


def test_epsilon_an_item_left_out_keeps_the_others_numbers():
    at = open_page(EPS)
    at.text_input(key="eps.group").set_value("1, x, 1.00000012, 1, 1")
    at.text_input(key="eps.big").set_value("1000000, ?, 1000000, 1000001").run()
    assert not at.exception
    assert frame(at, "advantage at your eps")["answer"].tolist() == [1, 3, 4, 5]
    names = [t.get("name", "") for t in chart(at, "eps.chart")["data"]]
    assert "answers 1, 4, 5 (R = 1)" in names and "answer 3 (R = 1.00000012)" in names
    assert frame(at, "A in float64")["answer"].tolist() == [1, 3, 4]
    assert any("answer 4's advantage is" in m for m in texts(at, "markdown"))


@pytest.mark.parametrize("typed", ["", "5", "x"])
def test_epsilon_fewer_than_two_rewards_says_what_to_do(typed):
    at = open_page(EPS)
    at.text_input(key="eps.group").set_value(typed)
    at.text_input(key="eps.big").set_value(typed).run()
    assert not at.exception
    assert sum("Type at least two rewards" in i for i in texts(at, "info")) == 2


def test_epsilon_float32_refuses_rewards_beyond_its_range():
    at = open_page(EPS)
    at.text_input(key="eps.big").set_value("1, 1e39").run()
    assert not at.exception
    assert any("beyond float32's range" in w for w in texts(at, "warning"))


def test_epsilon_all_equal_typed_group_has_no_regime_shading():
    at = open_page(EPS)
    at.text_input(key="eps.group").set_value("2, 2, 2").run()
    assert metric(at, "Regime at your eps") == "no spread"
    assert not [s for s in chart(at, "eps.chart")["layout"]["shapes"] if s["type"] == "rect"]


def test_epsilon_many_answers_share_one_grey_trace():
    at = open_page(EPS)
    at.text_input(key="eps.group").set_value(", ".join(str(i) for i in range(64))).run()
    assert not at.exception
    data = chart(at, "eps.chart")["data"]
    assert [d["name"] for d in data] == ["64 answers, one line each", "at your eps"]
    assert len(frame(at, "advantage at your eps")) == 64


def test_epsilon_link_sets_eps_and_rewards_and_ignores_junk():
    at = open_page(EPS, query={"eps.value": "1e-6", "eps.group": "0, 1, 2"})
    assert metric(at, "Your eps") == "1e-6"
    assert len(frame(at, "advantage at your eps")) == 3
    at = open_page(EPS, query={"eps.value": "lots", "eps.k": "999", "eps.zero": "maybe"})
    assert not at.exception
    assert metric(at, "Your eps") == "1e-4"
    assert at.number_input(key="eps.k").value == 4


def test_a_link_reads_the_minus_sign_either_way_and_is_written_with_ascii():
    """The page writes "−"; a link pasted with it opens the same view as one with "-", and
    the links the page writes use "-" only (a typed "−" went into the URL as %E2%88%92,
    and the reward box bound to the URL refused "−2" and showed its default)."""
    for minus in ("-", "−"):
        at = open_page(EPS, query={"eps.tie": f"{minus}2", "eps.group": f"1, {minus}1, 0"})
        assert not at.exception
        assert at.number_input(key="eps.tie").value == -2
        assert at.text_input(key="eps.group").value == "1, -1, 0"
        assert len(frame(at, "advantage at your eps")) == 3
        assert not any("cannot use" in w for w in texts(at, "warning"))
    at.text_input(key="eps.big").set_value("1e6, −1e6, 3").run()
    assert at.query_params["eps.big"] == "1e6, -1e6, 3"
    assert at.text_input(key="eps.big").value == "1e6, -1e6, 3"


# --- Library conventions -------------------------------------------------------------------


def test_conventions_default_to_the_playgrounds_rewards():
    at = open_page(CONV)
    assert not at.exception
    table = frame(at, "trl")
    rewards = [[float(x) for x in row] for row in DEFAULT_GRID]
    for name in CONVENTIONS:
        expected = group_advantages(rewards, convention=name).ravel()
        assert table[name].tolist() == [cell(a) for a in expected], name
    sentences = " ".join(texts(at, "markdown"))
    assert "zscore's numbers are 1.069 times verl's" in sentences
    assert "sqrt(8/7) = 1.069" in sentences
    assert len(chart(at, "conv.chart")["data"]) == len(CONVENTIONS)


def test_every_notebook_cell_prints_the_tables_numbers():
    at = open_page(CONV)
    rewards = np.array([[float(x) for x in row] for row in DEFAULT_GRID])
    cells = [c.value for c in at.code][: len(CONVENTIONS)]  # then the share link
    for name, code_cell in zip(CONVENTIONS, cells, strict=True):
        assert CONVENTIONS[name].code in code_cell
        namespace = {}
        exec(code_cell.replace("print(A)", ""), namespace)
        np.testing.assert_allclose(
            namespace["A"], group_advantages(rewards, convention=name), rtol=1e-12, atol=1e-15
        )


def test_conventions_groups_of_one_verl_passes_them_through():
    at = open_page(CONV, query={"conv.source": "Type rewards", "conv.rewards": "3; 5"})
    assert not at.exception
    table = frame(at, "trl")
    assert [number(a) for a in table["verl"]] == pytest.approx([3 / (1 + 1e-6), 5 / (1 + 1e-6)])
    assert table["trl"].tolist() == ["refused", "refused"]
    assert table["zscore"].tolist() == ["0", "0"]
    assert any("verl passes each lone reward through" in m for m in texts(at, "markdown"))
    labels = "trl, trl-batch, dr-grpo, openrlhf, rloo, reinforce-pp"
    assert at.expander[0].label == f"Refused by {labels}: why"
    assert table["nemo-rl"].tolist() == ["0", "0"]  # NeMo-RL: a lone answer is its own baseline
    assert "needs at least 2 answers per prompt" in at.expander[0].markdown[0].value
    # no rectangular array to rebuild: the cells show each convention's line alone
    assert [c.value for c in at.code][:-1] == [c.code for c in CONVENTIONS.values()]


def test_conventions_uneven_prompts_and_a_lone_reward():
    at = open_page(CONV)
    at.segmented_control(key="conv.source").set_value("typed").run()
    at.text_input(key="conv.rewards").set_value("7; 1, 0, 1, 1; 0.9, 0.2, x, 0.5, 0.7").run()
    assert not at.exception
    warnings = " ".join(texts(at, "warning"))
    assert "prompt 3, reward 3: 'x' is not a number" in warnings
    assert "Prompt 1 has a single reward and is left out" in warnings
    table = frame(at, "trl")
    assert table["prompt"].tolist() == [2] * 4 + [3] * 4
    expected = np.concatenate(
        [group_advantages(g, convention="trl") for g in ([1, 0, 1, 1], [0.9, 0.2, 0.5, 0.7])]
    )
    assert table["trl"].tolist() == [cell(a) for a in expected]
    assert any("K/(K-1) = 4/3 = 1.333" in m for m in texts(at, "markdown"))


def test_conventions_playground_bad_cells_are_counted():
    at = open_page(CONV, state={"rewards_grid": [["1", "oops", "0", "1"], ["2", "2", "2", "2"]]})
    assert not at.exception
    assert any("1 playground cell(s) are not numbers" in w for w in texts(at, "warning"))
    assert any("Prompt 2 has all-equal rewards" in m for m in texts(at, "markdown"))


def test_conventions_keep_each_answers_number_when_a_cell_is_left_out():
    """The playground's 'oops' in prompt 1, answer 2, or a typed 'x': the table and the
    charts number the other answers as typed (1, 3, 4), not 1..3."""
    at = open_page(CONV, state={"rewards_grid": [["1", "oops", "0", "1"], ["2", "5", "", "3"]]})
    assert not at.exception
    table = frame(at, "verl")
    assert table.answer.tolist() == [1, 3, 4, 1, 2, 4]
    labels = chart(at, "conv.chart")["data"][0]["x"]
    assert list(labels) == ["P1 #1", "P1 #3", "P1 #4", "P2 #1", "P2 #2", "P2 #4"]
    at.segmented_control(key="conv.source").set_value("typed").run()
    at.text_input(key="conv.rewards").set_value("1, x, 0, 1; 2, 3").run()
    assert frame(at, "verl").answer.tolist() == [1, 3, 4, 1, 2]
    at.text_input(key="conv.a").set_value("0, ?, 1, 0, 1").run()
    scaling = chart(at, "conv.scaling_chart")["data"][0]["x"]
    assert list(scaling) == ["P1 #1", "P1 #3", "P1 #4", "P1 #5"]


@pytest.mark.parametrize("typed", ["", "<b>hi</b>", ";;;"])
def test_conventions_nothing_usable_says_what_to_do(typed):
    at = open_page(CONV, query={"conv.source": "Type rewards"})
    at.text_input(key="conv.rewards").set_value(typed).run()
    assert not at.exception
    assert any("Enter some rewards" in i for i in texts(at, "info"))


def test_batch_vs_group_scaling_on_two_reward_scales():
    at = open_page(CONV)
    s = scaling_comparison([0, 1, 0, 1, 0, 100, 50, 100], group_ids=[1] * 4 + [2] * 4)
    table = frame(at, "mean |A|, group")
    for mode in ("group", "batch", "none"):
        assert table[f"mean |A|, {mode}"].tolist() == [cell(x) for x in s.mean_abs[mode]]
    assert table["mean |A|, none"].tolist() == ["0.5", "37.5"]
    assert table["group std"].tolist() == [cell(x) for x in np.std(
        [[0, 1, 0, 1], [0, 100, 50, 100]], axis=1, ddof=1)]  # fmt: skip
    reading = " ".join(texts(at, "markdown"))
    assert f"batch std {cell(s.batch_std)}" in reading
    fig = chart(at, "conv.scaling_chart")
    assert len(fig["data"]) == 6  # 3 panels x 2 prompts
    np.testing.assert_allclose(fig["data"][2]["y"], s.frame["batch"][:4], rtol=1e-12)


def test_scaling_needs_two_rewards_per_prompt():
    at = open_page(CONV)
    at.text_input(key="conv.b").set_value("5").run()
    assert not at.exception
    assert any("at least two rewards" in i for i in texts(at, "info"))


# --- Difficulty bias & Dr. GRPO ----------------------------------------------------------


POPULATION = {"dif.ddof": "K (ddof=0)"}


def test_difficulty_defaults_to_the_apps_convention_and_says_so():
    at = open_page(DIF)
    assert not at.exception
    assert metric(at, "GRPO, right answer") == "+3.75"  # sqrt(15) * sqrt(15/16)
    trl = group_advantages([1.0] + [0.0] * 15, convention="trl")[0]
    assert any("std divides by K − 1 here" in i and signed(trl) in i for i in texts(at, "info"))


def test_difficulty_one_success_in_sixteen():
    at = open_page(DIF, query=POPULATION)
    assert not at.exception
    assert metric(at, "Pass rate p") == "0.0625"
    assert metric(at, "Weight 1 / std") == cell(16 / math.sqrt(15))
    assert metric(at, "GRPO, right answer") == "+3.873"  # sqrt(15)
    assert metric(at, "GRPO, wrong answer") == "−0.2582"  # -1/sqrt(15)
    assert metric(at, "Dr. GRPO, right answer") == "+0.9375"
    assert metric(at, "Dr. GRPO, wrong answer") == "−0.0625"
    assert latex(at)[0].endswith(r"\frac{0 - 0.0625}{0.2421} = -0.2582")
    bullets = " ".join(texts(at, "markdown"))
    assert "largest weight GRPO gives a group is 4.13" in bullets


def test_difficulty_sample_std_and_k2():
    at = open_page(DIF, query=POPULATION)
    at.segmented_control(key="dif.ddof").set_value(1).run()
    assert metric(at, "GRPO, right answer") == "+3.75"  # times sqrt(15/16)
    assert metric(at, "GRPO, wrong answer") == "−0.25"
    at.number_input(key="dif.k").set_value(2).run()
    assert not at.exception
    assert metric(at, "Pass rate p") == "0.5"
    assert metric(at, "GRPO, right answer") == "+0.7071"  # ±1/sqrt(2)
    assert metric(at, "GRPO, wrong answer") == "−0.7071"


def test_difficulty_charts_are_the_closed_forms():
    at = open_page(DIF, query={"dif.k": "8", "dif.right": "2 of 8", **POPULATION})
    weight = chart(at, "dif.weight_chart")["data"]
    p = np.asarray(weight[0]["x"])
    np.testing.assert_allclose(weight[0]["y"], std_weight(p), rtol=1e-12)
    rings = weight[1]
    assert set(np.round(np.asarray(rings["x"]) * 8, 9)) <= set(range(1, 8))
    np.testing.assert_allclose(rings["y"], std_weight(np.asarray(rings["x"])), rtol=1e-12)
    assert weight[2]["x"] == [0.25] and weight[2]["y"] == pytest.approx([1 / math.sqrt(0.1875)])
    lines = {d["name"]: d for d in chart(at, "dif.advantages_chart")["data"]}
    grpo_right = lines["GRPO, right (+) answer"]
    np.testing.assert_allclose(
        grpo_right["y"], np.sqrt((1 - grpo_right["x"]) / grpo_right["x"]), rtol=1e-12
    )
    dr_wrong = lines["Dr. GRPO, wrong (−) answer"]
    np.testing.assert_allclose(dr_wrong["y"], -np.asarray(dr_wrong["x"]), rtol=1e-12)


def test_difficulty_sampled_groups_follow_the_seed():
    first = open_page(DIF, query={"dif.seed": "3"})
    again = open_page(DIF, query={"dif.seed": "3"})
    other = open_page(DIF, query={"dif.seed": "4"})
    assert frame(first, "true pass rate").equals(frame(again, "true pass rate"))
    assert not frame(first, "true pass rate").equals(frame(other, "true pass rate"))


def test_difficulty_junk_link_falls_back_to_defaults():
    at = open_page(DIF, query={"dif.k": "ten", "dif.right": "99 of 16", "dif.ddof": "2"})
    assert not at.exception
    assert metric(at, "Pass rate p") == "0.0625"


# --- Zero-spread groups & DAPO -----------------------------------------------------------


def test_zero_spread_probability_closed_form():
    at = open_page(DYN)
    assert not at.exception
    assert latex(at)[0].endswith(r"0.9^{8} + (1 - 0.9)^{8} = 0.4305")  # 0.9^8 + 0.1^8
    assert any("**43.0%**" in m for m in texts(at, "markdown"))
    at.number_input(key="dyn.k").set_value(16)
    at.slider(key="dyn.p").set_value(0.5).run()
    assert latex(at)[0].endswith(f"= {tex(2 / 2**16)}")  # 2 x 0.5^16
    by_k = chart(at, "dyn.by_k")["data"][0]
    np.testing.assert_allclose(by_k["y"], 0.5 ** np.arange(1, 65) * 2, rtol=1e-12)


def test_dynamic_sampling_batch_stages():
    at = open_page(DYN, query={"dyn.pool": "polarised", "dyn.batch": "128", "dyn.k": "4"})
    assert not at.exception
    stages = frame(at, "stage")
    assert stages["groups"].tolist()[0] == 128 and stages["groups"].tolist()[2] == 128
    kept = stages["with signal"].tolist()[0]
    assert stages["groups"].tolist()[1] == kept and stages["all-equal"].tolist()[0] == 128 - kept
    assert metric(at, "Groups with signal, first batch") == f"{kept} of 128"
    assert stages["answers generated"].tolist()[0] == 128 * 4
    extra = stages["answers generated"].tolist()[2] - 512
    assert extra % 512 == 0 and extra > 0  # whole extra batches of 128 prompts x 4 answers
    rounds = extra // 512
    batches = f"{rounds} extra batch{'' if rounds == 1 else 'es'}"  # not "1 extra batch(es)"
    assert any(f"all with signal, {batches})." in c for c in texts(at, "caption"))


def test_dynamic_sampling_junk_link_falls_back_to_defaults():
    at = open_page(DYN, query={"dyn.pool": "<script>", "dyn.batch": "-3", "dyn.p": "2"})
    assert not at.exception
    assert at.selectbox(key="dyn.pool").value == "spread"
    assert at.slider(key="dyn.p").value == 0.9


# --- the words ------------------------------------------------------------------------------


def test_numbers_quoted_in_the_lab_content():
    # as the pages show them: claim links and {{figures}} rendered by lab.words
    text = " ".join(lab.words(page, name) for page in lab.CONTENT for name in lab.CONTENT[page])
    assert f"{zero_spread_probability(0.95, 16):.0%}" == "44%" and "44% of the time" in text
    assert std_weight(0.5) == 2 and "2 for a prompt solved half the time" in text
    assert np.spacing(np.float32(1e6)) == 0.0625 and "0.0625 apart" in text
    assert std_weight(1 / 16) / std_weight(0.5) == pytest.approx(2, rel=0.04)  # "twice"


def test_epsilon_steps_through_the_regimes_with_buttons():
    from grpo_core.eps import regime_tour

    at = open_page("pages/epsilon.py")
    tour = regime_tour(6e-8)  # the default near tie's std
    for regime in (2, 1, 0):  # from TRL's 1e-4: damped, transition, z-score
        at.button(key="eps.prev").click().run()
        assert at.session_state["eps.value"] == tour[regime][1]
    assert at.button(key="eps.prev").disabled
    at.button(key="eps.next").click().run()
    assert at.session_state["eps.value"] == tour[1][1]
    assert not at.exception


def test_conventions_show_nemo_rl_and_reinforce_pp_with_their_sources():
    at = open_page(CONV, query={"conv.source": "Type rewards", "conv.rewards": "1, 0, 0, 0"})
    assert not at.exception
    table = frame(at, "trl")
    expected = [1.0, *[(-1 / 3) / ((1 / 3) ** 0.5 + 1e-6)] * 3]  # shown to 4 digits
    assert [number(a) for a in table["nemo-rl"]] == pytest.approx(expected, abs=5e-5)
    assert "reinforce-pp" in table.columns
    text = " ".join(texts(at, "markdown"))
    assert "nemo-rl (NeMo-RL's default)" in text and "reinforce-pp (OpenRLHF's" in text
    assert "float64 and without any KL term" in text
