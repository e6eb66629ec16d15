"""The lab's budgets, on a real SQLite store with a hand-moved clock: per address, in all,
free for this machine's own address, and refused in plain words with when to retry."""

from __future__ import annotations

import pytest

from practice import limits
from practice.limits import Budget, OverBudget, spend, wait_text
from practice.store import open_store
from tests.practice.store.conftest import FakeClock

SMALL = Budget("model", 60, 3, 5, "runs of the real model")


@pytest.fixture
def clock():
    return FakeClock(1_800_000_000.0 - 40)  # 40 s before a minute's end


@pytest.fixture
def store(tmp_path, clock):
    return open_store(f"sqlite://{tmp_path}/grpo.sqlite3", clock=clock)


def test_one_address_is_held_to_its_share_and_told_when_to_retry(store, clock):
    for _ in range(3):
        spend(store, SMALL, "203.0.113.5")
    with pytest.raises(OverBudget) as refused:
        spend(store, SMALL, "203.0.113.5")
    assert str(refused.value) == (
        "Your network has made 3 runs of the real model in a minute, the most the lab takes "
        "from one network: try again in 40 s."
    )
    spend(store, SMALL, "198.51.100.1")  # another network still runs
    clock.now += 40
    spend(store, SMALL, "203.0.113.5")


def test_everyone_together_is_held_to_the_budget_in_all(store):
    for i in range(5):
        spend(store, SMALL, f"198.51.100.{i}")
    with pytest.raises(OverBudget, match="The lab is busy: it takes 5 runs of the real model"):
        spend(store, SMALL, "198.51.100.99")


def test_this_machine_counts_in_no_budget(store):
    """A learner's own server, the tests and the benchmarks reach the app from loopback."""
    for _ in range(10):
        spend(store, SMALL, "")
    spend(store, SMALL, "203.0.113.5")
    assert store.spend("model::*", 60).count == 2, "only the other machine's run counted"


def test_a_cost_counts_as_that_many_runs(store):
    spend(store, SMALL, "203.0.113.5", cost=3)
    with pytest.raises(OverBudget):
        spend(store, SMALL, "203.0.113.5")


def test_a_scope_counts_apart(store):
    """Joins are counted per class session: one school's two classes do not share."""
    for _ in range(limits.JOIN.per_address):
        spend(store, limits.JOIN, "203.0.113.5", scope="ABCDEF")
    with pytest.raises(OverBudget, match="joins of this class in 10 seconds"):
        spend(store, limits.JOIN, "203.0.113.5", scope="ABCDEF")
    spend(store, limits.JOIN, "203.0.113.5", scope="GHJKMN")


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.2, "1 s"), (40, "40 s"), (119.4, "119 s"), (1800, "30 min")]
)
def test_a_wait_reads_in_seconds_or_minutes(seconds, text):
    assert wait_text(seconds) == text


def test_every_budget_gives_one_address_no_more_than_everyone():
    budgets = [b for b in vars(limits).values() if isinstance(b, Budget)]
    assert len(budgets) >= 4
    for budget in budgets:
        assert budget.per_address is not None and budget.per_address > 0
        assert budget.in_all is None or budget.per_address <= budget.in_all


def test_refused_joins_are_counted_per_session(store):
    assert limits.refused_joins(store, "ABCDEF") == 0
    limits.note_refused_join(store, "ABCDEF")
    limits.note_refused_join(store, "ABCDEF")
    limits.note_refused_join(store, "GHJKMN")
    assert limits.refused_joins(store, "ABCDEF") == 2
