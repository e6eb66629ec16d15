"""Quizzes in the Redis store (``QuizStore``; mixed into ``RedisStore``).

Keys, none with a TTL: ``grpo:quiz:<id>`` (hash: seed, questions joined by newlines,
created) and ``grpo:quiz:<id>:answers`` (hash question id -> credit, written with
``HSETNX``, so the first answer stands atomically; ``:order`` keeps the answering order).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

from practice.store.base import (
    StoredQuiz,
    TextRefused,
    UnknownQuiz,
    check_new_quiz,
    credit_text,
    is_quiz_id,
    new_quiz_id,
)


def quiz_keys(quiz_id: str) -> tuple[str, str, str]:
    """The quiz's record, answers and answering-order keys."""
    root = f"grpo:quiz:{quiz_id}"
    return root, f"{root}:answers", f"{root}:order"


class QuizRedis:
    """``QuizStore`` on ``RedisStore``'s client (``self.r``)."""

    def create_quiz(self, seed: int, question_ids: Sequence[str]) -> str:
        seed, questions = check_new_quiz(seed, question_ids)
        while True:
            quiz_id = new_quiz_id()
            root = quiz_keys(quiz_id)[0]
            if self.r.hsetnx(root, "questions", questions):
                self.r.hset(root, mapping={"seed": seed, "created": repr(self.clock())})
                return quiz_id

    def quiz(self, quiz_id) -> StoredQuiz | None:
        if not is_quiz_id(quiz_id):
            return None
        root, answers_key, order_key = quiz_keys(quiz_id)
        record = self.r.hgetall(root)
        if "seed" not in record:
            return None
        answers = self.r.hgetall(answers_key)
        order = [q for q in self.r.lrange(order_key, 0, -1) if q in answers]
        by_id = MappingProxyType({qid: Fraction(answers[qid]) for qid in order})
        questions = tuple(record["questions"].split("\n"))
        return StoredQuiz(quiz_id, int(record["seed"]), questions, by_id, float(record["created"]))

    def answer_quiz(self, quiz_id: str, question_id: str, credit: Fraction) -> Fraction:
        text = credit_text(credit)
        if not is_quiz_id(quiz_id):
            raise UnknownQuiz()
        root, answers_key, order_key = quiz_keys(quiz_id)
        questions = self.r.hget(root, "questions")
        if questions is None:
            raise UnknownQuiz()
        if question_id not in questions.split("\n"):
            raise TextRefused("That question is not part of this quiz.")
        if self.r.hsetnx(answers_key, question_id, text):
            self.r.rpush(order_key, question_id)
        return Fraction(self.r.hget(answers_key, question_id))
