"""practice.session: a seeded order, answers, the score, the pass mark and retries."""

from collections import Counter

import pytest

from practice.bank import load_bank
from practice.session import (
    certificate_earned,
    missed,
    missed_questions,
    next_question,
    option_order,
    progress,
    record_answer,
    retry_missed,
    score,
    start_quiz,
)

BANK = load_bank()
IDS = [q.id for q in BANK]


def test_start_quiz_order_is_a_seeded_permutation():
    a, b = start_quiz(IDS, 42), start_quiz(reversed(IDS), 42)
    assert a.order == b.order and sorted(a.order) == sorted(IDS)
    assert start_quiz(IDS, 43).order != a.order
    assert a.full and not a.finished and next_question(a) == a.order[0]


def test_record_score_missed_and_retry():
    state = start_quiz(IDS, 1)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n % 5 != 0)  # every fifth is wrong
    s = score(state)
    assert state.finished and next_question(state) is None
    assert s.total == len(IDS) and s.answered == len(IDS)
    assert s.correct == len(IDS) - len(range(0, len(IDS), 5))
    assert missed(state) == state.order[::5]
    assert [q.id for q in missed_questions(state, BANK)] == list(state.order[::5])
    retry = retry_missed(state)
    assert sorted(retry.order) == sorted(state.order[::5]) and not retry.answers
    assert not retry.full and retry.seed == 2


def test_first_answer_stands_and_unknown_ids_are_refused():
    state = start_quiz(IDS, 1)
    qid = state.order[0]
    state = record_answer(state, qid, False)
    assert record_answer(state, qid, True).answers[qid] == 0
    with pytest.raises(ValueError, match="not part of this quiz"):
        record_answer(state, "no-such-question", True)


def test_pass_needs_eighty_percent_of_a_full_finished_quiz():
    ids = [f"q{n}" for n in range(10)]
    state = start_quiz(ids, 0)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n >= 2)  # 8 of 10
    assert score(state).passing and certificate_earned(state)
    state = start_quiz(ids, 0)
    for n, qid in enumerate(state.order):
        state = record_answer(state, qid, n >= 3)  # 7 of 10
    assert not score(state).passing and not certificate_earned(state)
    partial = start_quiz(ids, 0, only=ids[:5])
    for qid in partial.order:
        partial = record_answer(partial, qid, True)
    assert score(partial).passing and not certificate_earned(partial)


def test_start_quiz_validates():
    with pytest.raises(ValueError, match="seed"):
        start_quiz(IDS, -1)
    with pytest.raises(ValueError, match="not in the bank"):
        start_quiz(IDS, 0, only=["nope"])
    with pytest.raises(ValueError, match="distinct"):
        start_quiz(["a", "a"], 0)
    with pytest.raises(ValueError, match="nothing to retry"):
        retry_missed(start_quiz(IDS, 0))


def test_progress_is_the_share_answered():
    state = start_quiz(["a", "b", "c", "d"], 3)
    assert progress(state) == 0
    state = record_answer(state, state.order[0], False)
    assert progress(state) == 0.25
    for qid in state.order:
        state = record_answer(state, qid, True)
    assert progress(state) == 1


# --- the options' order -------------------------------------------------------------------

WITH_OPTIONS = [q for q in BANK if q.kind in ("choice", "redflag")]


def test_option_order_is_a_permutation_fixed_by_seed_and_id():
    for q in WITH_OPTIONS:
        order = option_order(q, 42)
        assert sorted(order) == list(range(len(q.options))), q.id
        assert option_order(q, 42) == order
    assert all(option_order(q, 42) == () for q in BANK if not q.options)


def test_option_order_varies_across_seeds_and_questions():
    q = WITH_OPTIONS[0]
    assert len({option_order(q, seed) for seed in range(50)}) > 5
    same_size = [p for p in WITH_OPTIONS if len(p.options) == len(q.options)]
    assert len({option_order(p, 7) for p in same_size}) > 1


def test_option_order_depends_only_on_the_seed_and_the_question():
    """Not on the bank's order: the same question in a reversed bank gets the same order."""
    before = {q.id: option_order(q, 3) for q in WITH_OPTIONS}
    assert {q.id: option_order(q, 3) for q in reversed(WITH_OPTIONS)} == before


def test_the_right_answer_is_shown_at_every_position_about_equally():
    """Over the bank and many quizzes no position holds the right answer much more than
    1/n_options of the time, whatever the bank file's order."""
    for n_options in {len(q.options) for q in WITH_OPTIONS}:
        items = [q for q in WITH_OPTIONS if len(q.options) == n_options]
        counts = Counter(
            option_order(q, seed).index(q.answer) for q in items for seed in range(300)
        )
        total = sum(counts.values())
        assert set(counts) == set(range(n_options)), n_options
        assert max(counts.values()) / total < 1 / n_options + 0.05, (n_options, counts)


def test_option_order_refuses_a_bad_seed():
    with pytest.raises(ValueError, match="seed"):
        option_order(WITH_OPTIONS[0], -1)


def test_a_follow_up_counts_as_the_fraction_of_its_points():
    from fractions import Fraction

    state = start_quiz(IDS, 1)
    a, b, c = state.order[:3]
    state = record_answer(record_answer(state, a, True), b, Fraction(3, 4))
    state = record_answer(state, c, Fraction(1, 3))
    sc = score(state)
    assert sc.correct == Fraction(25, 12) and sc.answered == 3
    assert sc.shown == "2.08"
    assert missed(state) == (b, c)
    for bad in (1.5, -1, Fraction(5, 4), 0.5, "1", None):
        with pytest.raises(ValueError):
            record_answer(state, state.order[3], bad)
