"""Quizzes in the Redis store (``QuizStore``; mixed into ``RedisStore``).

Keys, none with a TTL: ``grpo:quiz:<id>`` (hash: seed, questions joined by newlines,
created) and ``grpo:quiz:<id>:answers`` (hash question id -> credit, written with
``HSETNX``, so the first answer stands atomically; ``:order`` keeps the answering order).
Certification attempts: ``grpo:attempt:<id>`` (hash: learner, token, previous seed,
started, then submitted and cert, each set with ``HSETNX`` so the first stands),
``grpo:attempts:<learner>`` (the learner's latest attempt id),
``grpo:attempt-open:<learner>`` (set with ``NX`` while one is open: one at a time) and
``grpo:cert-short:<short>`` (the full ID a short form names).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

from practice.store.attempts import AttemptRefused, StoredAttempt, new_attempt_token, same_token
from practice.store.base import (
    StoredQuiz,
    TextRefused,
    UnknownQuiz,
    check_new_quiz,
    credit_text,
    is_learner_key,
    is_quiz_id,
    new_quiz_id,
)
from practice.store.learner_rules import UNUSED_SECONDS


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
                with self.r.pipeline(transaction=True) as p:  # unanswered, it goes in a week
                    p.hset(root, mapping={"seed": seed, "created": repr(self.clock())})
                    p.expire(root, UNUSED_SECONDS)
                    p.execute()
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
            self.r.persist(root)  # answered: the quiz is kept
        return Fraction(self.r.hget(answers_key, question_id))

    # --- certification attempts ------------------------------------------------------------

    def create_attempt(
        self, learner: str, seed: int, previous_seed: int | None, question_ids: Sequence[str]
    ) -> tuple[str, str]:
        if not is_learner_key(learner):
            raise AttemptRefused("A certification attempt needs a learner key.")
        check_new_quiz(seed, question_ids)
        open_key = f"grpo:attempt-open:{learner}"
        if not self.r.set(open_key, "starting", nx=True, ex=60):  # one open attempt per learner
            raise AttemptRefused("An attempt of yours is open: finish it first.")
        quiz_id, token = self.create_quiz(seed, question_ids), new_attempt_token()
        self.r.persist(quiz_keys(quiz_id)[0])  # an attempt's quiz is kept
        self.r.set(open_key, quiz_id)
        record = {"learner": learner, "token": token, "started": repr(self.clock())}
        if previous_seed is not None:
            record["previous_seed"] = previous_seed
        self.r.hset(f"grpo:attempt:{quiz_id}", mapping=record)
        self.r.set(f"grpo:attempts:{learner}", quiz_id)
        return quiz_id, token

    def attempt(self, attempt_id) -> StoredAttempt | None:
        if not is_quiz_id(attempt_id):
            return None
        h = self.r.hgetall(f"grpo:attempt:{attempt_id}")
        if "learner" not in h:
            return None
        previous = int(h["previous_seed"]) if "previous_seed" in h else None
        submitted = float(h["submitted"]) if "submitted" in h else None
        return StoredAttempt(
            attempt_id, h["learner"], previous, float(h["started"]), submitted, h.get("cert")
        )

    def latest_attempt(self, learner) -> StoredAttempt | None:
        if not is_learner_key(learner):
            return None
        return self.attempt(self.r.get(f"grpo:attempts:{learner}"))

    def attempt_token(self, attempt_id: str, learner: str) -> str | None:
        if not is_quiz_id(attempt_id) or not is_learner_key(learner):
            return None
        owner, token = self.r.hmget(f"grpo:attempt:{attempt_id}", ["learner", "token"])
        return token if same_token(owner, learner) else None

    def _held(self, attempt_id, token) -> dict:
        h = self.r.hgetall(f"grpo:attempt:{attempt_id}") if is_quiz_id(attempt_id) else {}
        if not same_token(h.get("token"), token):
            raise AttemptRefused("Only the browser that took this attempt can do that.")
        return h

    def answer_attempt(self, attempt_id: str, token: str, question_id: str, credit) -> Fraction:
        if "submitted" in self._held(attempt_id, token):
            raise AttemptRefused("This attempt was submitted: its answers are final.")
        return self.answer_quiz(attempt_id, question_id, credit)

    def submit_attempt(self, attempt_id: str, token: str) -> float:
        self._held(attempt_id, token)
        root, answers_key, order_key = quiz_keys(attempt_id)
        for qid in self.r.hget(root, "questions").split("\n"):
            if self.r.hsetnx(answers_key, qid, "0"):
                self.r.rpush(order_key, qid)
        key = f"grpo:attempt:{attempt_id}"
        if self.r.hsetnx(key, "submitted", repr(self.clock())):
            self.r.delete(f"grpo:attempt-open:{self.r.hget(key, 'learner')}")
        return float(self.r.hget(key, "submitted"))

    def set_certificate(self, attempt_id: str, token: str, cert_id: str, short: str) -> str:
        if "submitted" not in self._held(attempt_id, token):
            raise AttemptRefused("Submit the attempt first.")
        key = f"grpo:attempt:{attempt_id}"
        if self.r.hsetnx(key, "cert", cert_id):
            self.r.set(f"grpo:cert-short:{short}", cert_id)
        return self.r.hget(key, "cert")

    def certificate_by_short(self, short) -> str | None:
        if not isinstance(short, str) or not 8 <= len(short) <= 64:
            return None
        return self.r.get(f"grpo:cert-short:{short}")
