"""practice.bank: the real bank has what every kind needs; load_bank names what is malformed."""

from collections import Counter

import pytest

from practice.bank import load_bank
from practice.questions import KINDS, TOPICS

BANK = load_bank()


REQUIRED_TOPICS = {
    "formula", "mean", "std", "eps", "ddof", "binary", "dr-grpo", "dapo", "rloo", "batch",
    "critic", "length", "float32",
}  # fmt: skip


def test_bank_has_forty_items_of_every_kind_and_topic():
    assert len(BANK) >= 40
    assert set(Counter(q.kind for q in BANK)) == set(KINDS)
    assert set(TOPICS) >= REQUIRED_TOPICS
    assert {q.topic for q in BANK} == set(TOPICS)


def test_bank_ids_are_unique():
    ids = [q.id for q in BANK]
    assert len(ids) == len(set(ids))


def test_every_question_has_what_its_kind_needs():
    for q in BANK:
        assert q.prompt.strip(), q.id
        if q.kind in ("choice", "redflag"):
            assert len(q.options) >= 2, q.id
            assert 0 <= q.answer < len(q.options), q.id
            assert all(o.why.strip() and o.text.strip() for o in q.options), q.id
            assert q.explanation, q.id
        elif q.kind == "blanks":
            assert q.blanks, q.id
        elif q.kind == "numeric":
            assert q.drill is not None, q.id
        else:
            assert q.model_answer and q.key_points, q.id


# --- load_bank validation -----------------------------------------------------------------

GOOD_CHOICE = """
[[question]]
id = "c1"
kind = "choice"
topic = "mean"
prompt = "p"
explanation = "e"
[[question.options]]
text = "a"
why = "because"
correct = true
[[question.options]]
text = "b"
why = "because not"
"""


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.replace('kind = "choice"', 'kind = "essay"'), r"'c1'.*field 'kind'"),
        (lambda s: s.replace('topic = "mean"', 'topic = "cooking"'), r"'c1'.*field 'topic'"),
        (lambda s: s.replace('id = "c1"', 'id = "Bad Id"'), r"question 1: field 'id'"),
        (lambda s: s.replace('why = "because not"', 'why = ""'), r"options\[1\]\.why"),
        (lambda s: s.replace("correct = true", "correct = false"), r"exactly one option"),
        (lambda s: s.replace('prompt = "p"', 'prompt = ""'), r"field 'prompt'"),
        (lambda s: s.replace('prompt = "p"', 'prompt = "p"\nexplaination = "x"'), "explaination"),
        (lambda s: s + s, r"question 2: field 'id': 'c1' is used twice"),
        (lambda s: s + "[[[", r"not valid TOML"),
        (lambda s: "", r"no \[\[question\]\]"),
    ],
)
def test_load_bank_names_the_bad_item_and_field(tmp_path, edit, message):
    path = tmp_path / "bank.toml"
    path.write_text(edit(GOOD_CHOICE), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_bank(path)


@pytest.mark.parametrize(
    ("drill", "field"),
    [
        ('{ convention = "trl-batch", k = [4, 4], rewards = "binary", ask = 1 }', "convention"),
        ('{ convention = "trl", k = [1, 4], rewards = "binary", ask = 1 }', "drill.k"),
        ('{ convention = "trl", k = [4, 40], rewards = "binary", ask = 1 }', "drill.k"),
        ('{ convention = "trl", k = [4, 6], rewards = "gaussian", ask = 1 }', "drill.rewards"),
        ('{ convention = "trl", k = [4, 6], rewards = "binary", ask = 5 }', "drill.ask"),
        ('{ convention = "trl", k = [4, 6], rewards = "binary", ask = 1, tol = 0 }', "drill.tol"),
    ],
)
def test_load_bank_rejects_bad_drills(tmp_path, drill, field):
    path = tmp_path / "bank.toml"
    text = '[[question]]\nid = "d"\nkind = "numeric"\ntopic = "mean"\nprompt = "p"\n'
    path.write_text(text + f'explanation = "e"\ndrill = {drill}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=rf"'d'.*{field}"):
        load_bank(path)


def test_load_bank_rejects_a_blank_whose_model_answer_fails(tmp_path):
    path = tmp_path / "bank.toml"
    path.write_text(
        '[[question]]\nid = "b"\nkind = "blanks"\ntopic = "rloo"\nprompt = "p"\n'
        'explanation = "e"\n[[question.blanks]]\nlabel = "x"\nanswer = "batch mean"\n'
        'grader = "group-mean"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"blanks\[0\]\.answer.*own grader"):
        load_bank(path)


# --- numeric drills -----------------------------------------------------------------------
