"""The lecturer's own questions: typed on the spot, imported and exported as TOML in the
bank's format; a bad file is refused whole with a message naming its line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import content
from practice.class_questions import (
    MAX_OPTIONS,
    MAX_QUESTIONS,
    NumberQuestion,
    SetProblem,
    decode_set,
    merged,
    next_id,
    parse_set,
    question_of,
    set_toml,
    typed_choice,
    typed_number,
)
from practice.class_round import distribution, drill_of, grade_answer
from practice.store.class_rules import MAX_SET_CHARS
from ui.quiz_widgets import by_id

BANK_IDS = set(by_id())
GOOD = """# two questions
[[question]]
id = "own-speed"
kind = "choice"
prompt = "Which is right?"

[[question.options]]
text = "this"
correct = true

[[question.options]]
text = "that"
why = "It is not."

[[question]]
id = "own-pi"
kind = "number"
topic = "eps"
prompt = "pi to two decimals?"
answer = 3.14
tol = 0.005
"""


def test_a_typed_choice_keeps_its_filled_options_and_the_right_one():
    q = typed_choice("own-1", "Which $\\varepsilon$?", ["1e-4", "", "1e-8", "  "], 2)
    assert [o.text for o in q.options] == ["1e-4", "1e-8"] and q.answer == 1
    assert q.kind == "choice" and q.explanation == ""
    assert grade_answer(q, None, "1").correct and not grade_answer(q, None, "0").correct


@pytest.mark.parametrize(
    ("options", "right", "message"),
    [
        (["only"], 0, "needs 2 to 6 options"),
        ([str(i) for i in range(MAX_OPTIONS + 1)], 0, "needs 2 to 6 options"),
        (["a", "", "c"], 1, "the right option is empty"),
        (["a", "<img src=x onerror=alert(1)>"], 0, "HTML is not allowed"),
        (["a", "![x](http://evil/x.png)"], 0, "images are not allowed"),
        (["a", "b\u202e"], 0, "control character"),
        (["a", "b\ud800"], 0, "control character"),
        (["a", "x" * 301], 0, "too long"),
    ],
)
def test_a_typed_choice_that_cannot_be_asked_gets_a_plain_message(options, right, message):
    with pytest.raises(SetProblem, match=message):
        typed_choice("own-1", "Which?", options, right)


def test_a_typed_number_is_graded_within_its_tolerance():
    q = typed_number("own-2", "How many students?", 42, 0.5)
    assert isinstance(q, NumberQuestion) and q.kind == "numeric"
    drill = drill_of(q, 123)
    assert drill.expected == 42 and drill.tol == 0.5
    assert grade_answer(q, drill, "42.4").correct and not grade_answer(q, drill, "43").correct
    assert not grade_answer(q, drill, "<script>").correct
    bars = distribution(q, drill, {"42": 3, "40": 1})
    assert [(b.label, b.count, b.correct) for b in bars] == [
        ("42.00", 3, True),
        ("40.00", 1, False),
    ]


@pytest.mark.parametrize(
    ("value", "tol", "message"),
    [(1.0, 0.0, "more than 0"), (float("nan"), 0.1, "finite"), (1e13, 1.0, "finite"),
     (1.0, True, "must be a number"), ("1", 0.1, "must be a number")],
)  # fmt: skip
def test_a_number_question_needs_a_finite_value_and_a_positive_tolerance(value, tol, message):
    with pytest.raises(SetProblem, match=message):
        typed_number("own-1", "How much?", value, tol)


def test_the_next_typed_id_is_free():
    assert next_id([]) == "own-1" and next_id(["own-1", "own-3"]) == "own-2"


def test_a_set_exports_and_imports_unchanged():
    questions = parse_set(GOOD)
    assert [q.id for q in questions] == ["own-speed", "own-pi"]
    assert questions[1].value == 3.14 and questions[1].topic == "eps"
    assert parse_set(set_toml(questions)) == questions


_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="<!\u202e\u202d"),
    min_size=1,
    max_size=60,
).filter(str.strip)


@given(prompt=_TEXT, options=st.lists(_TEXT, min_size=2, max_size=6), right=st.integers(0, 5),
       value=st.floats(-1e6, 1e6), tol=st.floats(1e-9, 1e3))  # fmt: skip
def test_any_typed_question_survives_export_and_import(prompt, options, right, value, tol):
    """Quotes, backslashes, LaTeX, emoji, TOML's own syntax in the text: all round-trip."""
    choice = typed_choice("own-1", prompt, options, right % len(options), explanation=prompt)
    number = typed_number("own-2", prompt + ' """ \\', value, tol)
    assert parse_set(set_toml([choice, number])) == (choice, number)


def test_the_banks_own_choice_items_import_as_they_are():
    bank = content.path("questions.toml").read_text(encoding="utf-8")
    items = bank.split("\n[[question]]\n")[1:]
    choices = "".join("\n[[question]]\n" + i for i in items if 'kind = "choice"' in i)
    questions = parse_set(choices)
    assert len(questions) > 20 and all(q == by_id()[q.id] for q in questions)


def header_lines(text: str, header: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if line == header]


@pytest.mark.parametrize(
    ("change", "header", "message"),
    [
        (('tol = 0.005', 'tol = -1'), ("[[question]]", 1), "'tol': must be more than 0"),
        (('kind = "number"', 'kind = "blanks"'), ("[[question]]", 1), "holds choice"),
        (('text = "that"', 'text = "<script>alert(1)</script>"'), ("[[question.options]]", 1),
         "HTML is not allowed"),
        (('correct = true', 'correct = "yes"'), ("[[question.options]]", 0),
         "must be true or false"),
        (('id = "own-pi"', 'id = "own-speed"'), ("[[question]]", 1), "used twice"),
        (('prompt = "pi', 'colour = "red"\nprompt = "pi'), ("[[question]]", 1),
         "'colour': is not a field"),
    ],
)  # fmt: skip
def test_a_bad_item_names_its_line(change, header, message):
    """The line of the item's [[question]], or of the option's table when an option is wrong."""
    text = GOOD.replace(*change)
    with pytest.raises(SetProblem, match=message) as err:
        parse_set(text)
    line = header_lines(text, header[0])[header[1]]
    assert str(err.value).startswith(f"Line {line} ")


def test_invalid_toml_names_its_line():
    text = GOOD.replace('prompt = "Which is right?"', 'prompt = "Which is right?')
    with pytest.raises(SetProblem, match=r"^Line 5: this is not valid TOML"):
        parse_set(text)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x" * 5_000_000, r"The file is 5\.0 MB: a question set is at most 100 KB"),
        (b'[[question]]\nid = "a"\n\xff\xfe', r"Line 3: the file is not UTF-8 text"),
        (b"", "no \\[\\[question\\]\\] items"),
        (b'title = "x"\n', "only \\[\\[question\\]\\] items"),
        ("".join(f'[[question]]\nid = "q{i}"\n' for i in range(MAX_QUESTIONS + 1)).encode(),
         "at most 100"),
    ],
)  # fmt: skip
def test_a_hostile_or_empty_file_gets_a_message(data, message):
    with pytest.raises(SetProblem, match=message):
        text = decode_set(data)
        if not parse_set(text):
            raise SetProblem("The file has no [[question]] items.")
    assert MAX_SET_CHARS == 100_000


@pytest.mark.parametrize(
    "tex",
    [r"$\rule{5000px}{5000px}$", r"$\Huge A$", r"$a \\[90cm] b$", r"$\kern{900em}$",
     r"$\href{https://evil.example}{here}$", r"$\def\x{\x\x}\x$", r"$\mathrlap{X}$"],
)  # fmt: skip
def test_tex_that_draws_out_of_its_place_is_refused_naming_the_line(tex):
    """Red team: an imported set whose prompt held $\\rule{5000px}{5000px}$ covered the
    projector (and every phone) with a black box once its round opened."""
    text = GOOD.replace('"Which is right?"', f"'Which is right? {tex}'")
    with pytest.raises(SetProblem, match=r"^Line 2 \(question 1\): field 'prompt': the TeX"):
        parse_set(text)
    option = GOOD.replace('text = "that"', f"text = '{tex}'")
    with pytest.raises(SetProblem, match="field 'options\\[1\\]\\.text': the TeX"):
        parse_set(option)
    assert parse_set(GOOD.replace('"Which is right?"', r"'$\frac{a}{b} \\ \left(x\right)$'"))


def test_importing_adds_to_the_set_and_refuses_a_clash_naming_the_line():
    kept = parse_set(GOOD)
    more = GOOD.replace("own-speed", "own-more")
    assert [q.id for q in merged(kept, more, BANK_IDS)] == ["own-speed", "own-pi", "own-more"]
    assert merged(kept, GOOD, BANK_IDS) == kept, "the same file twice adds nothing"
    changed = GOOD.replace("answer = 3.14", "answer = 3.0")
    with pytest.raises(SetProblem, match="already a question of this session's set") as err:
        merged(kept, changed, BANK_IDS)
    assert str(err.value).startswith(f"Line {header_lines(changed, '[[question]]')[1]} ")
    bank_clash = GOOD.replace("own-speed", "choice-which-rewards")
    with pytest.raises(SetProblem, match=re.escape("already a question of the bank")):
        merged((), bank_clash, BANK_IDS)


_TOML_BITS = st.sampled_from(
    ["[[question]]\n", "[[question.options]]\n", 'id = "own-x"\n', 'kind = "choice"\n',
     'kind = "number"\n', "answer = 1e308\n", "tol = nan\n", 'text = "<b>"\n', "correct = true\n",
     'prompt = """\n', "x = [\n", "\x00", "é", "\ud800", "\n"]
)  # fmt: skip


@given(st.one_of(st.text(max_size=300), st.lists(_TOML_BITS, max_size=30).map("".join)))
def test_any_text_parses_or_gets_a_message(text):
    """Hostile or broken text never raises anything but SetProblem (a ValueError)."""
    try:
        questions = parse_set(text)
    except SetProblem as err:
        assert str(err)
    else:
        assert all(q.prompt and q.id for q in questions)


@given(
    st.dictionaries(
        st.sampled_from(
            ["id", "kind", "prompt", "options", "answer", "tol", "topic", "explanation", "junk"]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.floats(),
            st.text(max_size=20),
            st.lists(st.dictionaries(st.text(max_size=8), st.text(max_size=8)), max_size=7),
        ),
    )
)
def test_any_table_is_a_question_or_a_message(item):  # fmt: skip
    try:
        question_of(item)
    except SetProblem as err:
        assert str(err)
