"""Learner progress in the Redis store (``LearnerStore``; mixed into ``RedisStore``).

Keys (so Redis must persist them: ``appendonly yes``), none with a TTL once used: a new
key's record expires ``learner_rules.UNUSED_DAYS`` after it was made, and its first write
(``_used``) takes the expiry off:
``grpo:learner:<key>`` (hash: created, and ``parameters``, the learner's own FSRS
parameters as JSON when they keep some), ``grpo:learner:<key>:attempts`` (list of
attempts as JSON, oldest first), ``grpo:learner:<key>:cards`` (hash question id ->
card state as JSON) and ``grpo:learner:<key>:flags`` (hash flag id -> "I made this point"
flag as JSON, with ``:flag_order``, a list of flag ids, oldest first). Writes that touch
several keys run in a MULTI/EXEC transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict

from practice.flags import Flag, flag_id, from_json
from practice.review_fit import OwnParameters
from practice.store.base import (
    Attempt,
    TextRefused,
    UnknownLearner,
    card_text,
    check_attempt,
    is_learner_key,
    new_learner_key,
)
from practice.store.flag_store import MAX_FLAGS, flag_text
from practice.store.learner_rules import MAX_ATTEMPTS, UNUSED_SECONDS, check_new_card
from practice.store.parameter_store import parameters_from_text, parameters_text

PARAMETERS_FIELD = "parameters"
"""The field of the learner's record hash that keeps their own FSRS parameters."""


def learner_keys(key: str) -> tuple[str, str, str]:
    """The learner's record, attempts and cards keys."""
    root = f"grpo:learner:{key}"
    return root, f"{root}:attempts", f"{root}:cards"


def flag_keys(key: str) -> tuple[str, str]:
    """The learner's flags hash and flag order list keys."""
    root = f"grpo:learner:{key}"
    return f"{root}:flags", f"{root}:flag_order"


class LearnerRedis:
    """``LearnerStore`` on ``RedisStore``'s client (``self.r``)."""

    def _learner(self, key) -> tuple[str, str, str]:
        if not is_learner_key(key) or not self.r.exists(learner_keys(key)[0]):
            raise UnknownLearner()
        return learner_keys(key)

    def _used(self, key) -> tuple[str, str, str]:
        """``_learner(key)``, and the key is kept: its record's expiry is taken off."""
        keys = self._learner(key)
        self.r.persist(keys[0])
        return keys

    def create_learner(self) -> str:
        while True:
            key = new_learner_key()
            if self.r.hsetnx(learner_keys(key)[0], "created", repr(self.clock())):
                self.r.expire(learner_keys(key)[0], UNUSED_SECONDS)
                return key

    def learner_exists(self, key) -> bool:
        return is_learner_key(key) and bool(self.r.exists(learner_keys(key)[0]))

    def add_attempt(self, key: str, attempt: Attempt) -> None:
        text = json.dumps(asdict(check_attempt(attempt)))
        attempts = self._used(key)[1]
        with self.r.pipeline(transaction=True) as p:  # the key keeps its last MAX_ATTEMPTS
            p.rpush(attempts, text)
            p.ltrim(attempts, -MAX_ATTEMPTS, -1)
            p.execute()

    def attempts(self, key: str) -> list[Attempt]:
        return [Attempt(**json.loads(t)) for t in self.r.lrange(self._learner(key)[1], 0, -1)]

    def card(self, key: str, question_id: str) -> dict | None:
        text = self.r.hget(self._learner(key)[2], question_id)
        return json.loads(text) if text is not None else None

    def set_card(self, key: str, question_id: str, state: Mapping) -> None:
        text = card_text(question_id, state)
        cards = self._used(key)[2]
        if not self.r.hexists(cards, question_id):
            check_new_card(self.r.hlen(cards))
        self.r.hset(cards, question_id, text)

    def cards(self, key: str) -> dict[str, dict]:
        stored = self.r.hgetall(self._learner(key)[2])
        return {qid: json.loads(stored[qid]) for qid in sorted(stored)}

    def replace_progress(
        self,
        key: str,
        attempts: Sequence[Attempt],
        cards: Mapping[str, Mapping],
        parameters: OwnParameters | None = None,
    ) -> None:
        texts = [json.dumps(asdict(check_attempt(a))) for a in attempts]
        states = {qid: card_text(qid, state) for qid, state in cards.items()}
        own = None if parameters is None else parameters_text(parameters)
        record, attempts_key, cards_key = self._used(key)
        with self.r.pipeline(transaction=True) as p:
            p.delete(attempts_key, cards_key)
            if texts:
                p.rpush(attempts_key, *texts)
            if states:
                p.hset(cards_key, mapping=states)
            if own is None:
                p.hdel(record, PARAMETERS_FIELD)
            else:
                p.hset(record, PARAMETERS_FIELD, own)
            p.execute()

    def set_parameters(self, key: str, own: OwnParameters | None) -> None:
        text = None if own is None else parameters_text(own)
        record = self._used(key)[0]
        if text is None:
            self.r.hdel(record, PARAMETERS_FIELD)
        else:
            self.r.hset(record, PARAMETERS_FIELD, text)

    def parameters(self, key: str) -> OwnParameters | None:
        return parameters_from_text(self.r.hget(self._learner(key)[0], PARAMETERS_FIELD))

    def set_flag(self, key: str, flag: Flag) -> None:
        text, fid = flag_text(flag), flag_id(flag)
        self._used(key)
        stored, order = flag_keys(key)
        if not flag.flagged:
            with self.r.pipeline(transaction=True) as p:
                p.hdel(stored, fid)
                p.lrem(order, 0, fid)
                p.execute()
            return
        new = not self.r.hexists(stored, fid)
        if new and self.r.hlen(stored) >= MAX_FLAGS:
            raise TextRefused(f"At most {MAX_FLAGS} flagged answers are kept.")
        with self.r.pipeline(transaction=True) as p:
            if new:  # a flag keeps its place when changed (as SQLite's rowid)
                p.lrem(order, 0, fid)
                p.rpush(order, fid)
            p.hset(stored, fid, text)
            p.execute()

    def flags(self, key: str) -> list[Flag]:
        self._learner(key)
        stored, order = flag_keys(key)
        texts = self.r.hgetall(stored)
        return [from_json(texts[fid]) for fid in self.r.lrange(order, 0, -1) if fid in texts]

    def delete_learner(self, key: str) -> None:
        if is_learner_key(key):
            self.r.delete(*learner_keys(key), *flag_keys(key))
