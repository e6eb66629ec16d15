"""grpo_core.verifier, the worked example, and every number the content files quote."""

import math
import re
import time

import numpy as np
import pytest

import content
from content.citations import cite
from grpo_core import CONVENTIONS, group_advantages
from grpo_core.precision import float32_advantages
from grpo_core.verifier import (
    DEFAULT_WORKED_EXAMPLE,
    MAX_CHARS,
    Grade,
    extract_final_answer,
    grade,
    load_worked_example,
    parse_number,
)

# The content as the pages show it: claim links and {{figures}} rendered.
GUIDE = cite(content.read_text("guide.md"))
CHEATSHEET = cite(content.read_text("cheatsheet.md"))
LENGTH = cite(content.read_text("length_normalisation.md"))
LINK = re.compile(r'\[([^\]]+)\]\(\S+(?: "[^"]*")?\)')


def plain(text: str) -> str:
    """``text`` with every Markdown link reduced to its words (sources are links now)."""
    return LINK.sub(r"\1", text)


# The answer key of content/worked_example.toml (reference 173).
STRICT_CORRECT = {
    "a1": True,  # concise, formatted
    "a2": True,  # "Answer: 173." with a trailing period
    "a3": True,  # wrong answer line, then a corrected last one
    "a4": False,  # right number in prose, no answer line
    "a5": False,  # 155
    "a6": False,  # 137
    "a7": False,  # 53
    "a8": False,  # long and meandering, 215
}
LENIENT_CORRECT = {**STRICT_CORRECT, "a4": True}
WELL_FORMATTED = {key: key != "a4" for key in STRICT_CORRECT}


def fmt(x: float, digits: int = 4, sign: bool = True) -> str:
    """A number as the content files write it: "+1.4997", "-0.7244"."""
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


# --- extraction ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: 173", "173"),
        ("work\nAnswer: 173", "173"),
        ("Answer: 1,234", "1234"),
        ("Answer: 1,234,567.50", "1234567.5"),
        ("Answer: -7", "-7"),
        ("Answer: \u22127", "-7"),  # Unicode minus sign
        ("Answer: +7", "7"),
        ("Answer: 42.0", "42"),
        ("Answer: 42.000", "42"),
        ("Answer: 0.50", "0.5"),
        ("Answer: .5", "0.5"),
        ("Answer: 007", "7"),
        ("Answer: -0.0", "0"),
        ("Answer: 173.", "173"),  # trailing period
        ("  Answer:173  ", "173"),
        ("answer: 5", "5"),
        ("ANSWER : 5", "5"),
        ("Answer: 1\nmore thoughts\nAnswer: 2", "2"),  # the last answer line wins
        ("Answer: 2\nAnswer: nothing", "2"),  # a non-number answer line is prose
        ("Answer: 5\r\n", "5"),
        ("no answer here, only 173", None),
        ("", None),
        ("Answer:", None),
        ("Answer: .", None),
        ("Answer: 173 books", None),  # units make it prose
        ("**Answer:** 173", None),
        ("<p>Answer: 173</p>", None),
        ("Answer: 1,23", None),  # a malformed thousands separator
        ("Answer: 1e3", None),  # no exponents
        ("The Answer: 5", None),  # must start the line
    ],
)
def test_extract_final_answer(text, expected):
    assert extract_final_answer(text) == expected


@pytest.mark.parametrize(
    ("a", "b"), [("42.0", "42"), ("1,000", "1000"), ("-0", "0"), ("0.10", ".1"), ("007", "7")]
)
def test_equal_numbers_have_equal_canonical_forms(a, b):
    assert parse_number(a) == parse_number(b) is not None


@pytest.mark.parametrize("text", ["", "abc", "1e5", "1 2", "--1", "1,2345", None, 5])
def test_parse_number_rejects_non_numbers(text):
    assert parse_number(text) is None


def test_huge_numbers_compare_exactly():
    # 40 significant digits: no float or 28-digit Decimal rounding can make them equal.
    a = "1234567890123456789012345678901234567890"
    b = a[:-1] + "1"
    assert grade(f"Answer: {a}", a).correct
    assert not grade(f"Answer: {b}", a).correct


# --- grading -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "correct", "well_formatted"),
    [
        ("2 + 2 = 4\nAnswer: 4", True, True),
        ("Answer: 4.0", True, True),
        ("Answer: 5", False, True),
        ("The answer is 4.", False, False),  # strict: prose does not count
        ("Answer: 4\nHope that helps!", True, False),  # read, but not the last line
        ("Answer: 4\n\n   \n", True, True),  # trailing blank lines are fine
    ],
)
def test_grade_strict(text, correct, well_formatted):
    g = grade(text, "4")
    assert (g.correct, g.well_formatted) == (correct, well_formatted)
    assert g.reward == (1.0 if correct else 0.0)


@pytest.mark.parametrize(
    ("text", "extracted"),
    [
        ("The answer is 4.", "4"),
        ("I get 3, then 4", "4"),
        ("240-60 is what I wrote down", "60"),  # a hyphen between numbers is not a sign
        ("it is -4", "-4"),
        ("total: 1,234.", "1234"),
        ("Answer: 5\nactually it is 4", "5"),  # an answer line still wins
        ("no digits at all", None),
    ],
)
def test_grade_lenient_falls_back_to_the_last_number(text, extracted):
    g = grade(text, "4", strict=False)
    assert g.extracted == extracted
    assert g.correct == (extracted == "4")


@pytest.mark.parametrize(("reference", "text"), [(173, "Answer: 173"), (2.5, "Answer: 2.50")])
def test_numeric_references(reference, text):
    assert grade(text, reference).correct


def test_format_bonus_is_added_only_when_well_formatted():
    assert grade("Answer: 4", "4", format_bonus=0.1).reward == pytest.approx(1.1)
    assert grade("Answer: 5", "4", format_bonus=0.1).reward == pytest.approx(0.1)
    assert grade("It is 4", "4", format_bonus=0.1, strict=False).reward == 1.0
    assert grade("It is 5", "4", format_bonus=0.1).reward == 0.0
    assert grade("Answer: 4", "4").reward == 1.0  # no bonus by default


@pytest.mark.parametrize(
    "kwargs",
    [{"format_bonus": math.nan}, {"format_bonus": "0.1"}, {"format_bonus": True}, {"strict": 1}],
)
def test_bad_options_are_value_errors(kwargs):
    with pytest.raises(ValueError):
        grade("Answer: 4", "4", **kwargs)


@pytest.mark.parametrize("reference", ["four", "", None, True, math.inf, "1e3"])
def test_bad_reference_is_a_value_error(reference):
    with pytest.raises(ValueError, match="reference"):
        grade("Answer: 4", reference)


HOSTILE = [
    None,
    42,
    3.5,
    ["Answer: 4"],
    b"Answer: 4",
    b"\xff\xfe\x00garbage",
    "",
    "\x00" * 1000,
    "9" * 2_000_000,
    " " * 2_000_000 + "x",
    "Answer: " + "9" * 1_000_000,
    "Answer: 1\n" * 300_000,
    "-" * 1_000_000 + "4",
    "1," * 1_000_000,
    "<script>alert('Answer: 4')</script>\n" * 10_000,
    "<div>" * 500_000,
    "\u202e\u200bAnswer: 4\ufeff",
    "Answer: 4" + "\n" * 1_000_000,
    "\ud800 lone surrogate Answer: 4",
    "Answer:" + " " * 100_000 + "4.",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("strict", [True, False])
def test_hostile_text_never_raises_and_stays_fast(text, strict):
    start = time.perf_counter()
    g = grade(text, "4", format_bonus=0.5, strict=strict)
    extract_final_answer(text)
    assert isinstance(g, Grade)
    assert g.reward in (0.0, 0.5, 1.0, 1.5)
    assert time.perf_counter() - start < 1.0


def test_only_the_tail_is_read():
    # A final answer lives at the end: an answer line before the last MAX_CHARS is ignored,
    # and a line cut in half by the window never reads as an answer line.
    assert extract_final_answer("Answer: 4\n" + "x" * MAX_CHARS) is None
    assert extract_final_answer("x" * MAX_CHARS + "Answer: 4") is None
    assert extract_final_answer("x" * MAX_CHARS + "\nAnswer: 4") == "4"


# --- the worked example --------------------------------------------------------------------


@pytest.fixture(scope="module")
def example():
    return load_worked_example()


def test_worked_example_shape(example):
    assert DEFAULT_WORKED_EXAMPLE.name == "worked_example.toml"
    assert example.reference == "173"
    assert "Answer: <number>" in example.problem
    assert [a.id for a in example.answers] == list(STRICT_CORRECT)
    lengths = {a.id: len(a.text) for a in example.answers}
    assert all(n < 600 for key, n in lengths.items() if key != "a8")
    assert 1000 <= lengths["a8"] <= 1400  # the long, meandering one
    assert all(a.note for a in example.answers)


def test_worked_example_strict_grades(example):
    grades = {a.id: grade(a.text, example.reference) for a in example.answers}
    assert {k: g.correct for k, g in grades.items()} == STRICT_CORRECT
    assert {k: g.well_formatted for k, g in grades.items()} == WELL_FORMATTED
    assert [g.extracted for g in grades.values()] == [
        "173", "173", "173", None, "155", "137", "53", "215"
    ]  # fmt: skip


def test_worked_example_lenient_grades(example):
    grades = {a.id: grade(a.text, example.reference, strict=False) for a in example.answers}
    assert {k: g.correct for k, g in grades.items()} == LENIENT_CORRECT


def test_long_wrong_answer_passes_the_right_number_on_its_way(example):
    a8 = next(a for a in example.answers if a.id == "a8")
    assert "173" in a8.text and not grade(a8.text, "173").correct


def _write(tmp_path, text):
    path = tmp_path / "example.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
problem = "What is 2 + 2?"
reference = "4"
[[answers]]
id = "x"
text = "Answer: 4"
[[answers]]
id = "y"
text = "Answer: 5"
"""


def test_loader_reads_a_minimal_file(tmp_path):
    ex = load_worked_example(_write(tmp_path, GOOD))
    assert (ex.problem, ex.reference, [a.id for a in ex.answers]) == (
        "What is 2 + 2?",
        "4",
        ["x", "y"],
    )
    assert ex.answers[0].note == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("problem = 'unterminated", "not valid TOML"),
        (GOOD.replace('problem = "What is 2 + 2?"', ""), "'problem' must be a non-empty string"),
        (GOOD.replace('"What is 2 + 2?"', '""'), "'problem'"),
        (GOOD.replace('reference = "4"', 'reference = "four"'), "'reference' must be a number"),
        (GOOD.replace('reference = "4"', "reference = 4.5"), "'reference'"),
        (GOOD.replace('reference = "4"', ""), "'reference'"),
        (GOOD.split("[[answers]]")[0] + '[[answers]]\nid = "x"\ntext = "4"\n', "'answers'"),
        (GOOD.replace('id = "y"', 'id = "x"'), r"answer #2\.id 'x' is used twice"),
        (GOOD.replace('text = "Answer: 5"', ""), r"answer #2\.text must be a non-empty string"),
        (GOOD.replace('id = "x"', "id = 3"), r"answer #1\.id"),
        (GOOD.replace('id = "y"', 'id = "y"\ntxt = "typo"'), "answer #2: unknown field 'txt'"),
        (GOOD.replace('id = "y"', 'id = "y"\nnote = 1'), r"answer #2\.note"),
        ("refrence = '4'\n" + GOOD, "unknown field 'refrence'"),
        ('problem = "p"\nreference = "4"\nanswers = [1, 2]', r"answer #1 must be a table"),
    ],
)
def test_loader_rejects_a_malformed_file_naming_the_field(tmp_path, text, message):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=message) as info:
        load_worked_example(path)
    assert str(path) in str(info.value)


def test_loader_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_worked_example(tmp_path / "nope.toml")


# --- every number the content files quote --------------------------------------------------


def trl(rewards):
    return group_advantages(rewards, convention="trl")


def test_guide_worked_example_numbers():
    a = trl([1, 0, 0, 0])
    assert "$R = (1, 0, 0, 0)$" in GUIDE
    assert f"$\\sigma + \\epsilon = {0.5 + CONVENTIONS['trl'].eps}$" in GUIDE
    assert f"$\\hat A = {fmt(a[0])}$" in GUIDE and f"$\\hat A = {fmt(a[1])}$" in GUIDE
    textbook = group_advantages([1, 0, 0, 0], convention="zscore", ddof=1)
    np.testing.assert_allclose(textbook, [1.5, -0.5, -0.5, -0.5], rtol=1e-15)
    assert "exactly +1.5 and -0.5" in GUIDE
    assert np.sum(textbook**2) == pytest.approx(3.0)  # = K - 1
    population = group_advantages([1, 0, 0, 0], convention="zscore")
    assert f"{fmt(population[0])} and {fmt(population[1])}" in GUIDE
    assert f"$\\sigma = {np.std([1, 0, 0, 0]):.4f}$" in GUIDE
    assert f"$\\sqrt{{4/3}} = {population[0] / textbook[0]:.4f}$" in GUIDE
    rescaled = trl([10, 0, 0, 0])
    assert f"advantages are {fmt(rescaled[0])} and {fmt(rescaled[1])}" in GUIDE
    assert np.all(trl([1, 1, 1, 1]) == 0)
    dr = group_advantages([1, 0, 0, 0], convention="dr-grpo")
    rloo = group_advantages([1, 0, 0, 0], convention="rloo")
    assert f"giving {fmt(dr[0], 2)} and {fmt(dr[1], 2)}" in GUIDE
    assert f"giving {fmt(rloo[0])} and {fmt(rloo[1])}" in GUIDE


def test_guide_real_walkthrough_numbers(example):
    strict = [grade(a.text, example.reference).reward for a in example.answers]
    assert strict == [1, 1, 1, 0, 0, 0, 0, 0]
    assert "$(1, 1, 1, 0, 0, 0, 0, 0)$" in GUIDE
    a = trl(strict)
    assert f"get {fmt(a[0])} each, the other five {fmt(a[3])} each" in GUIDE
    lenient = trl([grade(x.text, example.reference, strict=False).reward for x in example.answers])
    assert f"±{fmt(lenient[0], sign=False)}" in GUIDE
    np.testing.assert_allclose(np.abs(lenient), abs(lenient[0]))
    bonus = [grade(x.text, example.reference, format_bonus=0.1).reward for x in example.answers]
    np.testing.assert_allclose(bonus, [1.1, 1.1, 1.1, 0.0, 0.1, 0.1, 0.1, 0.1])
    b = trl(bonus)
    assert f"{fmt(b[0])} for the right answers, {fmt(b[4])} for the wrong ones" in GUIDE
    assert f"{fmt(b[3])} for the right-but-unformatted answer" in GUIDE
    assert b[3] == b.min()


def test_guide_other_numbers():
    for k, ratio in [(2, "1.414"), (4, "1.155"), (8, "1.069")]:
        assert f"{math.sqrt(k / (k - 1)):.3f}" == ratio
        assert f"{ratio} at $K={k}$" in GUIDE
    one_in_16 = [1] + [0] * 15
    population = group_advantages(one_in_16, convention="zscore")
    assert f"winner {fmt(population[0], 2)} with the population std" in GUIDE
    assert f"({fmt(trl(one_in_16)[0])} with TRL's sample std" in plain(GUIDE)
    assert f"each failure {fmt(population[1], 2)}" in GUIDE
    assert f"{1 / math.sqrt(1 / 16 * 15 / 16):.2f} at $p = 1/16$" in GUIDE
    assert f"{1 / math.sqrt(0.25):.0f} at $p = 0.5$" in GUIDE
    assert f"about {round(100 * 0.98**16)}% of its groups" in GUIDE
    k2 = group_advantages([0, 10], convention="zscore", ddof=1)
    assert f"\\pm {abs(k2[0]):.4f}" in GUIDE
    noisy = trl([0.71, 0.70, 0.70, 0.69])
    assert f"advantages near ±{abs(noisy[0]):.1f}" in GUIDE
    _check_library_figures(
        plain(GUIDE),
        "the odd answer gets about {trl} with TRL's $\\epsilon$, {verl} with verl's and "
        "{openrlhf} with OpenRLHF's",
        "the odd answer gets about {trl}, {verl} and {openrlhf} (TRL, verl, OpenRLHF), "
        "the other three exactly 0",
        "the winner's reward is clipped to {clamped} instead of about {unclamped}",
    )


def _check_library_figures(text, float64_sentence, float32_sentence, clip_sentence):
    """The eps, precision and clip figures of the notes, recomputed and looked up with each
    file's wording: the near tie's odd answer in float64 and in float32 (as trainers compute)."""
    near_equal = [1, 1 + 1.2e-7, 1, 1]
    odd64 = {c: group_advantages(near_equal, convention=c)[1] for c in CONVENTIONS}
    odd32 = {c: float32_advantages(near_equal, eps=CONVENTIONS[c].eps) for c in CONVENTIONS}
    # The notes quote them as 0.0009, 0.085, 1.475 (float64) and 0.0012, 0.112, 1.707 (float32).
    shown64 = {"trl": f"{odd64['trl']:.4f}", "verl": f"{odd64['verl']:.3f}"}
    shown64["openrlhf"] = f"{odd64['openrlhf']:.3f}"
    assert shown64 == {"trl": "0.0009", "verl": "0.085", "openrlhf": "1.475"}
    shown32 = {"trl": f"{odd32['trl'][1]:.4f}", "verl": f"{odd32['verl'][1]:.3f}"}
    shown32["openrlhf"] = f"{odd32['openrlhf'][1]:.3f}"
    assert shown32 == {"trl": "0.0012", "verl": "0.112", "openrlhf": "1.707"}
    assert all((odd32[c][[0, 2, 3]] == 0).all() for c in ("trl", "verl", "openrlhf"))
    assert float64_sentence.format(**shown64) in text
    assert float32_sentence.format(**shown32) in text
    one_in_128 = [1] + [0] * 127
    assert group_advantages(one_in_128, convention="openrlhf")[0] == 10.0
    unclamped = group_advantages(one_in_128, convention="openrlhf", clip=math.inf)[0]
    assert clip_sentence.format(clamped=10, unclamped=f"{unclamped:.1f}") in text


def test_guide_structure_and_sources():
    sections = re.split(r"^## ", GUIDE, flags=re.MULTILINE)[1:]
    assert len(sections) >= 8
    slugs = {
        "playground", "walkthrough", "epsilon", "conventions", "difficulty", "dynamic-sampling",
        "critic", "simulator", "quiz", "interview", "cheatsheet", "length-normalisation",
    }  # fmt: skip
    for section in sections:
        last = section.strip().splitlines()[-1]
        m = re.fullmatch(r"Try it: \[[^\]]+\]\(([a-z-]+)\)", last)
        assert m and m.group(1) in slugs, f"section {section.splitlines()[0]!r} ends with {last!r}"
    for text in (GUIDE, CHEATSHEET, LENGTH):
        assert text.count("$$") % 2 == 0
        assert len(re.findall(r"(?<!\$)\$(?!\$)", text.replace("$$", ""))) % 2 == 0
    for arxiv in ["2402.03300", "2501.12948", "2503.20783", "2503.14476", "1707.06347"]:
        assert f"arXiv {arxiv}](https://arxiv.org/abs/{arxiv} " in GUIDE  # a link to it
        assert f"arXiv {arxiv}](https://arxiv.org/abs/{arxiv} " in CHEATSHEET
    for name in ["DeepSeek-R1", "DAPO", "TRL", "verl", "OpenRLHF"]:
        assert name in GUIDE
    words = len(plain(GUIDE).split())  # the prose, without the links' addresses
    # 2,600 until issue 22 added four interview topics (KL placement, REINFORCE++-baseline,
    # dropping the std, GDPO), about 1,150 words; the cap keeps the guide from growing more
    assert 1500 <= words <= 3800


def test_cheatsheet_key_figures():
    for name, library in [("trl", "TRL"), ("verl", "verl"), ("openrlhf", "OpenRLHF")]:
        eps = CONVENTIONS[name].eps
        rows = plain(CHEATSHEET).splitlines()
        row = next(line for line in rows if line.startswith(f"| {library} "))
        assert f"| {CONVENTIONS[name].ddof} | 1e{round(math.log10(eps))} |" in row
    assert "the *reward* to ±10, before the per-token KL |" in plain(CHEATSHEET)
    for k in (2, 4, 8):
        assert f"**{math.sqrt(k / (k - 1)):.3f}** at K={k}" in CHEATSHEET
    textbook = group_advantages([1, 0, 0, 0], convention="zscore", ddof=1)
    assert f"**{textbook[0]:+.1f}** and **{textbook[1]:+.1f}**" in CHEATSHEET
    a = trl([1, 0, 0, 0])
    assert f"{fmt(a[0])} and {fmt(a[1])}" in CHEATSHEET
    one_in_16 = [1] + [0] * 15
    population = group_advantages(one_in_16, convention="zscore")[0]
    assert population == pytest.approx(math.sqrt(15))
    assert f"**{fmt(population, 2)}**" in CHEATSHEET
    sample = group_advantages(one_in_16, convention="zscore", ddof=1)[0]
    assert f"{fmt(sample, 2)} with ddof=1" in CHEATSHEET
    k2 = group_advantages([3, 7], convention="zscore", ddof=1)
    assert f"**±{abs(k2[0]):.4f}**" in CHEATSHEET
    assert f"{1 / math.sqrt(1 / 16 * 15 / 16):.2f} at p=1/16" in CHEATSHEET
    assert f"**{7e9 * 16 / 1e9:.0f} GB**" in CHEATSHEET and "**7B**" in CHEATSHEET
    _check_library_figures(
        plain(CHEATSHEET),
        "float64: about **{trl}** (eps 1e-4), **{verl}** (1e-6), **{openrlhf}** (1e-9)",
        "**{trl}** (TRL), **{verl}** (verl), **{openrlhf}** (OpenRLHF), the other three exactly 0",
        "clips the winner's reward to **{clamped}** instead of about **{unclamped}**",
    )


def test_length_normalisation_numbers():
    lengths, adv = [2, 8], [1.0, -1.0]
    k, l_max = len(lengths), 8
    weights = {
        "GRPO": [1 / (k * n) for n in lengths],
        "DAPO token-level": [1 / sum(lengths)] * k,
        "Dr. GRPO": [1 / (k * l_max)] * k,
    }
    for name, w in weights.items():
        rows = plain(LENGTH).splitlines()
        row = next(line for line in rows if line.startswith(f"| {name} |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        per_token = [wi * ai for wi, ai in zip(w, adv, strict=True)]
        totals = [p * n for p, n in zip(per_token, lengths, strict=True)]
        assert [float(c) for c in cells[2:]] == pytest.approx(per_token + totals), name
    for loss_type in ['"grpo"', '"bnpo"', '"dr_grpo"', '"dapo"']:
        assert f"| `{loss_type}` |" in LENGTH
    assert "2503.20783" in LENGTH and "2503.14476" in LENGTH


def test_verifier_reward_rule():
    from grpo_core.verifier import verifier_reward

    assert verifier_reward(True, True, format_bonus=0.1) == 1.1
    assert verifier_reward(True, False, format_bonus=0.1) == 1.0
    assert verifier_reward(False, True, format_bonus=0.1) == 0.1
    assert verifier_reward(False, False) == 0.0
