"""A class session's results as CSV: one row per answer of every round.

Columns: question, round, student, answer, confidence, correct, reward, advantage, time
(confidence: how sure the student said they were, empty when they did not). The advantage
is filled in for "be the group" rounds (the room as one group under the round's own
convention). Every text cell a student or the bank wrote is guarded against formula
injection: a spreadsheet runs a cell starting with = + - @ (or a tab or carriage return)
as a formula, so such a cell gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from grpo_core.csv_safe import csv_cell
from grpo_core.format import shortest
from practice.class_group import room_group
from practice.class_round import (
    RoundSpec,
    answer_label,
    decode_spec,
    drill_of,
    grade_answer,
    shown_order,
)
from practice.questions import Question
from practice.store.base import Answer, Round

COLUMNS = (
    "question",
    "round",
    "student",
    "answer",
    "confidence",
    "correct",
    "reward",
    "advantage",
    "time",
)


def shown_answer(question: Question, answer: str, order: Sequence[int] = ()) -> str:
    """The answer as a person reads it: the letter its option was shown with (``order``),
    the typed number, or the blanks joined with " | "."""
    if question.kind in ("choice", "redflag"):
        return answer_label(question, None, answer, order)
    if question.kind == "blanks":
        try:
            texts = json.loads(answer)
        except ValueError:
            return answer
        return " | ".join(str(t) for t in texts) if isinstance(texts, list) else answer
    return answer


@dataclass(frozen=True)
class RoundAnswers:
    round: Round
    answers: Sequence[Answer]


def result_rows(
    rounds: Iterable[RoundAnswers], question: Callable[[str], Question | None]
) -> list[tuple]:
    """One row per stored answer, in round order, with the columns of ``COLUMNS``: each
    round's advantages under the convention that round was opened with, the one its
    phones and the projector showed."""
    rows = []
    for item in rounds:
        spec: RoundSpec | None = decode_spec(item.round.question)
        q = question(spec.question_id) if spec else None
        if q is None:
            continue
        drill = drill_of(q, spec.seed)
        grades = [grade_answer(q, drill, a.answer) for a in item.answers]
        advantages = [None] * len(grades)
        if spec.group and grades:
            group = room_group([g.reward for g in grades], spec.convention)
            advantages = [float(x) for x in group.advantages]
        for a, g, adv in zip(item.answers, grades, advantages, strict=True):
            rows.append(
                (
                    q.id,
                    item.round.number,
                    a.label,
                    shown_answer(q, a.answer, shown_order(q, spec)),
                    a.confidence,
                    g.correct,
                    g.reward,
                    adv,
                    a.at,
                )
            )
    return rows


def results_csv(rows: Iterable[tuple]) -> str:
    """The rows as CSV text with a header; text cells guarded, times in UTC ISO 8601."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for qid, number, label, answer, confidence, correct, reward, advantage, at in rows:
        writer.writerow(
            [
                csv_cell(qid),
                number,
                csv_cell(label),
                csv_cell(answer),
                confidence,
                "yes" if correct else "no",
                shortest(reward),
                "" if advantage is None else f"{advantage:.4f}",
                datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds"),
            ]
        )
    return out.getvalue()
