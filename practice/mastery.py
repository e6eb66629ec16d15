"""Mastery per topic: how well a learner recalls each topic of the bank, day by day.

A topic is the bank's own ``topic`` field (``practice.questions.TOPICS``). Recall is the
mean score (1 right, 0 wrong, partial credit in between) of attempts:
- ``recall_by_day``: per UTC day and topic, of that day's attempts (the chart);
- ``overall_by_day``: per UTC day, of all that day's attempts (the chart's mean line);
- ``topic_recall``: per topic, of each question's latest attempt (how it stands now);
- ``weakest_topics``: the topics with the lowest current recall, each with the page that
  teaches it (``content/topics.toml``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd

import content
from practice.questions import Question
from practice.review import latest_attempts
from practice.store.base import Attempt

TOPIC_PAGES_FILE = "topics.toml"


def teaching_pages() -> dict[str, str]:
    """topic -> the page file stem (in ``pages/``) that teaches it, from content/topics.toml."""
    return dict(content.read_toml(TOPIC_PAGES_FILE)["pages"])


def topics_of(bank: Sequence[Question]) -> dict[str, str]:
    """question id -> its topic."""
    return {q.id: q.topic for q in bank}


def recall_by_day(attempts: Sequence[Attempt], topics: Mapping[str, str]) -> pd.DataFrame:
    """One row per (UTC day, topic) with attempts: columns ``day`` (datetime.date),
    ``topic``, ``attempts`` (count) and ``recall`` (mean score in [0, 1]); sorted by day,
    then topic. Attempts at questions no longer in the bank are left out."""
    rows = [
        {
            "day": datetime.fromtimestamp(a.at, UTC).date(),
            "topic": topics[a.question_id],
            "score": a.score,
        }
        for a in attempts
        if a.question_id in topics
    ]
    if not rows:
        return pd.DataFrame({"day": [], "topic": [], "attempts": [], "recall": []})
    table = pd.DataFrame(rows).groupby(["day", "topic"], sort=True)["score"]
    return table.agg(attempts="count", recall="mean").reset_index()


def overall_by_day(attempts: Sequence[Attempt], topics: Mapping[str, str]) -> dict:
    """UTC day (datetime.date) -> mean score of that day's attempts at bank questions,
    in day order."""
    days: dict = {}
    for a in attempts:
        if a.question_id in topics:
            days.setdefault(datetime.fromtimestamp(a.at, UTC).date(), []).append(a.score)
    return {day: sum(s) / len(s) for day, s in sorted(days.items())}


@dataclass(frozen=True)
class TopicRecall:
    topic: str
    recall: float
    """Mean score of the latest attempt at each answered question of the topic, in [0, 1]."""
    answered: int
    """Questions of the topic answered at least once."""


def topic_recall(attempts: Sequence[Attempt], topics: Mapping[str, str]) -> list[TopicRecall]:
    """Current recall of every topic with an answered question, in topic order."""
    scores: dict[str, list[float]] = {}
    for qid, attempt in latest_attempts(attempts).items():
        if qid in topics:
            scores.setdefault(topics[qid], []).append(attempt.score)
    return [TopicRecall(t, sum(s) / len(s), len(s)) for t, s in sorted(scores.items())]


def weakest_topics(
    attempts: Sequence[Attempt], topics: Mapping[str, str], n: int = 3
) -> list[TopicRecall]:
    """The ``n`` topics with the lowest current recall below 1 (fewest answered first on a tie)."""
    weak = [t for t in topic_recall(attempts, topics) if t.recall < 1.0]
    return sorted(weak, key=lambda t: (t.recall, t.answered, t.topic))[:n]
