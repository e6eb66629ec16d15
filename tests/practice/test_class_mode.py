"""Class mode's engine: rounds graded into rewards, the room as one group, the CSV, the
signed lecturer link."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grpo_core import advantage_trace, group_advantages
from practice.bank import load_bank
from practice.class_group import room_group, why
from practice.class_link import (
    is_lecturer,
    lecturer_query,
    lecturer_tag,
    projector_query,
)
from practice.class_results import RoundAnswers, result_rows, results_csv
from practice.class_round import (
    MAX_BARS,
    RoundSpec,
    answer_label,
    decode_spec,
    distribution,
    drill_of,
    encode_blanks,
    grade_answer,
    new_spec,
    shown_order,
)
from practice.store.base import Answer, Round

BANK = {q.id: q for q in load_bank()}
SECRET = "a-test-secret-of-32-bytes-000000"


def test_a_round_spec_round_trips_and_junk_is_none():
    spec = RoundSpec("drill-trl-binary", True, 7)
    assert decode_spec(spec.encode()) == spec
    for junk in ("", "{", "[]", '{"q": 1}', "null"):
        assert decode_spec(junk) is None


def test_choice_answers_grade_and_count_by_letter():
    q = BANK["choice-which-rewards"]
    assert grade_answer(q, None, str(q.answer)).reward == 1.0
    wrong = grade_answer(q, None, "1")
    assert not wrong.correct and wrong.reward == 0.0 and wrong.feedback
    for junk in ("", "9", "-1", "<b>", "1" * 500):
        assert grade_answer(q, None, junk).reward == 0.0
    bars = distribution(q, None, {"0": 3, "1": 2, "junk": 1})
    assert [(b.label, b.count, b.correct) for b in bars] == [
        ("A", 3, True), ("B", 2, False), ("C", 0, False), ("D", 0, False)
    ]  # fmt: skip


def test_a_numeric_round_draws_one_drill_from_its_seed():
    q = BANK["drill-trl-binary"]
    drill = drill_of(q, 11)
    assert drill_of(q, 11) == drill, "every replica draws the same numbers"
    right = grade_answer(q, drill, f"{drill.expected:.4f}")
    assert right.correct and right.reward == 1.0
    assert grade_answer(q, drill, "not a number").reward == 0.0
    assert answer_label(q, drill, "0.5") == "0.50"
    assert answer_label(q, drill, "x") == "not a number"


@pytest.mark.parametrize(
    ("typed", "label"),
    [("1e308", "1e308"), ("-9.99e306", "-9.99e306"), ("123456.7", "1.23e5"), ("99999", "99999.00")],
)
def test_a_huge_typed_number_is_a_short_label_on_the_projector(typed, label):
    """Red team: one student's "1e308" was a 312-character bar label ("to 2 decimals"),
    which squeezed the projector's chart of the room's answers to a strip."""
    q = BANK["drill-trl-binary"]
    assert answer_label(q, drill_of(q, 11), typed) == label


def test_formula_blanks_give_partial_credit():
    q = BANK["blanks-grpo"]
    both = grade_answer(q, None, encode_blanks(["group mean", "group std"]))
    half = grade_answer(q, None, encode_blanks(["group mean", "batch std"]))
    assert (both.correct, both.reward) == (True, 1.0)
    assert (half.correct, half.reward) == (False, 0.5)
    assert grade_answer(q, None, '["only one"]').reward == 0.0
    assert "✓" in answer_label(q, None, encode_blanks(["mean", "std"]))


@pytest.mark.parametrize("convention", ["trl", "dr-grpo", "rloo", "verl"])
def test_the_room_group_is_grpo_core_on_the_rooms_rewards(convention):
    rewards = [1, 0, 0, 1, 0, 0.5]
    group = room_group(rewards, convention)
    assert group.k == 6
    np.testing.assert_allclose(group.advantages, group_advantages(rewards, convention=convention))
    assert group.mean == pytest.approx(np.mean(rewards))
    trace = advantage_trace(rewards, convention=convention)
    np.testing.assert_allclose(group.centred, trace.centred)
    assert not group.note
    assert why(group, 0).startswith("Your advantage is +")
    assert why(group, 1).startswith("Your advantage is −")


def test_one_student_or_an_equal_room_says_no_signal_instead_of_failing():
    alone = room_group([1.0], "trl")
    assert alone.advantages.tolist() == [0.0] and "one student" in alone.note
    equal = room_group([1, 1, 1, 1], "trl")
    assert equal.advantages.tolist() == [0, 0, 0, 0] and "no spread, no signal" in equal.note
    assert why(equal, 2) == equal.note
    assert room_group([], "trl").note


def test_hundreds_of_students_are_one_group():
    rewards = np.random.default_rng(0).integers(0, 2, 700)
    group = room_group(rewards, "trl")
    assert group.k == 700 and abs(group.advantages.sum()) < 1e-9


def test_the_csv_has_every_answer_and_guards_formulas():
    q = BANK["choice-which-rewards"]
    rnd = Round(1, RoundSpec(q.id, True, 0).encode(), False, "answer", None, 0.0)
    answers = [
        Answer("t1", "=HYPERLINK(evil)", str(q.answer), 1_800_000_000.0, "certain"),
        Answer("t2", "Bob", "1", 1_800_000_001.0),
    ]
    rows = result_rows([RoundAnswers(rnd, answers)], BANK.get)
    text = results_csv(rows)
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["question", "round", "student", "answer", "confidence", "correct",
                        "reward", "advantage", "time"]  # fmt: skip
    assert table[1][:7] == [q.id, "1", "'=HYPERLINK(evil)", "A", "certain", "yes", "1"]
    assert table[2][2:7] == ["Bob", "B", "", "no", "0"]
    assert float(table[1][7]) == pytest.approx(0.7071, abs=1e-4)
    assert table[1][8] == "2027-01-15T08:00:00+00:00"


def test_the_lecturer_link_is_signed_and_a_changed_url_is_refused():
    tag = lecturer_tag("ABC234", 1.5, secret=SECRET)
    assert is_lecturer("ABC234", 1.5, tag, secret=SECRET)
    assert not is_lecturer("ABC235", 1.5, tag, secret=SECRET), "another session's code"
    assert not is_lecturer("ABC234", 2.5, tag, secret=SECRET), "a later session, same code"
    assert not is_lecturer("ABC234", 1.5, tag, secret=SECRET + "x"), "another deployment"
    for forged in ("", None, tag[:-1], tag + "A", "x" * 5000, ["list"]):
        assert not is_lecturer("ABC234", 1.5, forged, secret=SECRET)
    assert lecturer_query("ABC234", 1.5, secret=SECRET) == f"class=ABC234&lecturer={tag}"


@given(st.text(max_size=80))
def test_any_text_as_a_lecturer_tag_is_refused_without_raising(text):
    """Compared as bytes: non-ASCII, lone surrogates and bidi marks never raise."""
    assert not is_lecturer("ABC234", 1.5, text, secret=SECRET)
    assert not is_lecturer("ABC234", 1.5, text + "\udcff", secret=SECRET)


def test_the_projector_link_carries_no_secret():
    assert projector_query("ABC234") == "class=ABC234&screen=projector&present=1"


def test_a_round_shuffles_options_once_for_the_whole_room():
    q = BANK["choice-which-rewards"]
    spec = new_spec(q, False, 12345, "trl")
    assert sorted(spec.order) == list(range(len(q.options)))
    assert decode_spec(spec.encode()) == spec, "every replica reads the same order"
    assert shown_order(q, spec) == spec.order
    rights = {shown_order(q, new_spec(q, False, seed, "trl")).index(q.answer) for seed in range(40)}
    assert len(rights) == len(q.options), "the right answer is not always A"
    old = RoundSpec(q.id, False, 1)  # a round stored before shuffling: the bank's order
    assert shown_order(q, decode_spec(old.encode())) == tuple(range(len(q.options)))
    assert shown_order(q, RoundSpec(q.id, False, 1, "trl", (0, 0, 1, 2))) == (0, 1, 2, 3)


def test_the_distribution_and_the_csv_use_the_letters_the_room_saw():
    q = BANK["choice-which-rewards"]
    order = (2, 0, 3, 1)  # A shows option 2, B shows option 0 (the right one), ...
    bars = distribution(q, None, {"0": 3, "2": 1}, order)
    assert [(b.label, b.count, b.correct) for b in bars] == [
        ("A", 1, False), ("B", 3, True), ("C", 0, False), ("D", 0, False)
    ]  # fmt: skip
    assert answer_label(q, None, "0", order) == "B"
    rnd = Round(1, RoundSpec(q.id, False, 0, "trl", order).encode(), False, "answer", None, 0.0)
    rows = result_rows([RoundAnswers(rnd, [Answer("t", "Ann", "0", 0.0)])], BANK.get)
    assert rows[0][3] == "B" and rows[0][5] is True


def test_typed_numbers_are_counted_as_at_most_ten_labelled_bars():
    q = BANK["drill-trl-binary"]
    drill = drill_of(q, 11)
    tally = {f"{i / 10}": 20 - i for i in range(15)} | {f"{drill.expected:.4f}": 30}
    bars = distribution(q, drill, tally)
    assert len(bars) == MAX_BARS and bars[0].correct and bars[0].count == 30
    assert bars[-1].label == "7 other answers" and bars[-1].count == sum(range(6, 13))
    assert sum(b.count for b in bars) == sum(tally.values())
    assert [b.label for b in distribution(q, drill, {"0.5": 2, "x": 1})] == ["0.50", "not a number"]


def test_the_csv_uses_each_rounds_own_convention():
    q = BANK["choice-which-rewards"]
    answers = [Answer("t1", "a", str(q.answer), 0.0), Answer("t2", "b", "9", 0.0)]
    rows = {}
    for convention in ("trl", "dr-grpo"):
        rnd = Round(1, RoundSpec(q.id, True, 0, convention).encode(), False, "answer", None, 0.0)
        rows[convention] = result_rows([RoundAnswers(rnd, answers)], BANK.get)
    for convention, got in rows.items():
        expected = group_advantages([1.0, 0.0], convention=convention)
        assert [r[7] for r in got] == pytest.approx(expected)
    assert rows["trl"][0][7] != rows["dr-grpo"][0][7]


@pytest.mark.parametrize("confidence", ["", "guessing", "fairly sure", "certain"])
def test_a_pending_vote_keeps_its_confidence_and_reads_the_old_form(confidence):
    from practice.class_link import PendingVote, pending_text, read_pending

    vote = PendingVote(3, "sid-_x", '["a~b", "c"]', confidence)
    assert read_pending(pending_text(vote)) == vote
    assert read_pending("2~old-id~1") == PendingVote(2, "old-id", "1", "")
    for junk in ("", "x~y~z", "1~id!9~0", "1~~0", None, "1~id"):
        assert read_pending(junk) is None


def test_a_countdown_reads_like_a_clock():
    from practice.class_round import clock_text, time_left

    assert [clock_text(x) for x in (75.2, 60, 9.01, 0.0, -3)] == ["1:16", "1:00", "0:10", "0:00",
                                                                 "0:00"]  # fmt: skip
    assert time_left(None, 5.0) is None and time_left(10.0, 12.0) == 0.0
    assert time_left(10.0, 7.5) == 2.5
