"""Mastery per topic: recall per day, current recall, weakest topics, and the topic ->
teaching page map (every bank topic mapped to a page that exists)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from practice.bank import load_bank
from practice.mastery import (
    TopicRecall,
    overall_by_day,
    recall_by_day,
    teaching_pages,
    topic_recall,
    topics_of,
    weakest_topics,
)
from practice.store.base import Attempt
from ui.nav import PAGES

ROOT = Path(__file__).resolve().parents[2]
TOPICS = {"m1": "mean", "m2": "mean", "s1": "std", "e1": "eps"}


def at(day: int, hour: int = 9) -> float:
    return datetime(2027, 3, day, hour, tzinfo=UTC).timestamp()


ATTEMPTS = [
    Attempt("m1", "choice", 0.0, 5, 1, at(1)),
    Attempt("m1", "choice", 1.0, 5, 3, at(1, 10)),
    Attempt("s1", "choice", 0.0, 5, 1, at(1)),
    Attempt("m2", "choice", 1.0, 5, 3, at(2)),
    Attempt("e1", "choice", 0.5, 5, 2, at(2)),
    Attempt("gone", "choice", 0.0, 5, 1, at(2)),  # no longer in the bank
]


def test_every_bank_topic_is_taught_on_a_page_that_exists():
    pages = teaching_pages()
    nav_files = {entry[0] for entries in PAGES.values() for entry in entries}
    assert {q.topic for q in load_bank()} <= set(pages)
    for topic, page in pages.items():
        assert page in nav_files and (ROOT / "pages" / f"{page}.py").exists(), topic


def test_recall_by_day_is_the_mean_score_per_day_and_topic():
    table = recall_by_day(ATTEMPTS, TOPICS)
    rows = [tuple(r) for r in table[["day", "topic", "attempts", "recall"]].itertuples(index=False)]
    assert rows == [
        (date(2027, 3, 1), "mean", 2, 0.5),
        (date(2027, 3, 1), "std", 1, 0.0),
        (date(2027, 3, 2), "eps", 1, 0.5),
        (date(2027, 3, 2), "mean", 1, 1.0),
    ]
    assert recall_by_day([], TOPICS).empty


def test_overall_by_day_is_the_mean_of_every_attempt_that_day():
    # day 1: 0, 1, 0 -> 1/3; day 2: 1, 0.5 (the question left the bank is left out) -> 0.75
    assert overall_by_day(ATTEMPTS, TOPICS) == {date(2027, 3, 1): 1 / 3, date(2027, 3, 2): 0.75}
    assert overall_by_day([], TOPICS) == {}


def test_current_recall_uses_each_questions_latest_attempt():
    assert topic_recall(ATTEMPTS, TOPICS) == [
        TopicRecall("eps", 0.5, 1), TopicRecall("mean", 1.0, 2), TopicRecall("std", 0.0, 1),
    ]  # fmt: skip


def test_weakest_topics_lowest_first_and_never_a_mastered_one():
    assert [t.topic for t in weakest_topics(ATTEMPTS, TOPICS)] == ["std", "eps"]
    assert [t.topic for t in weakest_topics(ATTEMPTS, TOPICS, n=1)] == ["std"]
    assert weakest_topics([], TOPICS) == []


def test_topics_of_the_bank():
    bank = load_bank()
    assert topics_of(bank)[bank[0].id] == bank[0].topic
