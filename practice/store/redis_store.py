"""The shared store: Redis (the ``redis`` client), for replicas that must see one class.

Keys, all under ``grpo:class:<code>`` and all expiring with the session:
``:s`` (hash: created, expires, ended, joined, rounds, locked), ``:students`` (hash token ->
label), ``:order`` (list of tokens, in joining order), ``:names`` (hash nickname key -> 1: the
nicknames taken), ``:joins`` (hash "minute client" -> joins: the join rate), ``:r:<n>``
(hash: question, open, reveal, revote_of, opened, closes), ``:a:<n>`` / ``:t:<n>`` /
``:f:<n>`` (hash token -> answer / time / confidence), ``:c:<n>`` (hash answer -> count:
the tally), ``:qs`` (string: the lecturer's own question set), ``:seen`` (hash
"token submit_id" -> 1) and ``:rate`` (hash token -> "second:count"). The sorted set
``grpo:class-sessions`` (code by expiry) lets ``purge_expired`` find what the clock says is over.

A submit and the opening of a round are Lua scripts: Redis runs each atomically, so a
replace-and-tally can never interleave with another and the tally equals the answers.
Expiry is checked against the store's clock (injectable, for tests) and also set as a
Redis TTL, so Redis frees the memory by itself. Class sessions tolerate a Redis run as a
cache (``--save ''``); learner progress (``redis_learner``, under ``grpo:learner:``) never
expires and needs append-only persistence (``appendonly yes``), as do quizzes
(``redis_quiz``, under ``grpo:quiz:``).
"""

from __future__ import annotations

import math
import time

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from practice.store.base import (
    MAX_ANSWER_CHARS,
    MAX_CLIENT_CHARS,
    MAX_JOINS_PER_MINUTE,
    MAX_NICKNAME_CHARS,
    MAX_SUBMITS_PER_SECOND,
    SESSION_TTL,
    Answer,
    ClassSession,
    Clock,
    JoinsLimited,
    JoinsLocked,
    RateLimited,
    Receipt,
    Round,
    RoundClosed,
    StoreRefusal,
    Student,
    UnknownSession,
    check_id,
    check_reveal,
    check_text,
    join_window,
    new_code,
    new_token,
    normal_code,
)
from practice.store.class_rules import MAX_SET_CHARS, check_confidence, check_seconds, is_open
from practice.store.nicknames import check_nickname, label_for, nickname_key
from practice.store.redis_budgets import BudgetRedis
from practice.store.redis_learner import LearnerRedis
from practice.store.redis_quiz import QuizRedis
from practice.store.redis_seats import SeatsRedis

INDEX = "grpo:class-sessions"
CONNECT_SECONDS = 2.0
REPLY_SECONDS = 5.0
RETRIES = 3
"""A refused or dropped connection, or a Redis still loading its append-only file, is
retried this often, with backoff from 0.05 s to 0.5 s (under 1 s in all), before the
caller sees it (``is_outage``); a timeout (``REPLY_SECONDS``) is not retried. Submits
carry a submit id, so a retried submit counts once."""

_SUBMIT = """
-- KEYS: session, students, round, answers, times, tally, seen, rate, confidences
-- ARGV: now, token, answer, seen field, submits allowed a second, confidence
local s = redis.call('HMGET', KEYS[1], 'expires', 'ended')
if not s[1] or tonumber(s[1]) <= tonumber(ARGV[1]) then return 'unknown' end
if redis.call('HEXISTS', KEYS[7], ARGV[4]) == 1 then return 'duplicate' end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 'unknown' end
local r = redis.call('HMGET', KEYS[3], 'open', 'closes')
if s[2] == '1' or r[1] ~= '1' then return 'closed' end
if r[2] and r[2] ~= '' and tonumber(ARGV[1]) >= tonumber(r[2]) then return 'closed' end
local second = tostring(math.floor(tonumber(ARGV[1])))
local count = 1
local rate = redis.call('HGET', KEYS[8], ARGV[2])
if rate then
  local sec, c = string.match(rate, '^(%d+):(%d+)$')
  if sec == second then count = tonumber(c) + 1 end
end
redis.call('HSET', KEYS[8], ARGV[2], second .. ':' .. count)
if count > tonumber(ARGV[5]) then return 'rate' end
local old = redis.call('HGET', KEYS[4], ARGV[2])
if old then
  if redis.call('HINCRBY', KEYS[6], old, -1) <= 0 then redis.call('HDEL', KEYS[6], old) end
end
redis.call('HSET', KEYS[4], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[5], ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[6], ARGV[3], 1)
redis.call('HSET', KEYS[7], ARGV[4], '1')
if ARGV[6] == '' then redis.call('HDEL', KEYS[9], ARGV[2])
else redis.call('HSET', KEYS[9], ARGV[2], ARGV[6]) end
local ttl = math.ceil(tonumber(s[1]) - tonumber(ARGV[1]))
for i = 3, 9 do redis.call('EXPIRE', KEYS[i], ttl) end
return 'ok'
"""

_OPEN_ROUND = """
-- KEYS: session; ARGV: now, question, revote_of ('' for none), key prefix, closes ('' none)
local s = redis.call('HMGET', KEYS[1], 'expires', 'ended', 'rounds')
if not s[1] or tonumber(s[1]) <= tonumber(ARGV[1]) or s[2] == '1' then return -1 end
local last = tonumber(s[3] or '0')
if last > 0 then redis.call('HSET', ARGV[4] .. ':r:' .. last, 'open', '0') end
local n = last + 1
redis.call('HSET', KEYS[1], 'rounds', n)
local key = ARGV[4] .. ':r:' .. n
redis.call('HSET', key, 'question', ARGV[2], 'open', '1', 'reveal', 'none',
           'revote_of', ARGV[3], 'opened', ARGV[1], 'closes', ARGV[5])
redis.call('EXPIRE', key, math.ceil(tonumber(s[1]) - tonumber(ARGV[1])))
return n
"""


def _key(code: str, part: str) -> str:
    return f"grpo:class:{code}:{part}"


class RedisStore(SeatsRedis, LearnerRedis, QuizRedis, BudgetRedis):
    """``ClassStore``, ``LearnerStore`` and ``QuizStore`` on the Redis server at ``url``
    (``redis://host:port/db``)."""

    def __init__(self, url: str, *, clock: Clock = time.time):
        self.url = url
        self.clock = clock
        self.r = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=CONNECT_SECONDS,
            socket_timeout=REPLY_SECONDS,
            health_check_interval=30,
            retry=Retry(
                ExponentialBackoff(cap=0.5, base=0.05),
                RETRIES,
                supported_errors=(redis.ConnectionError,),  # a timeout is not waited out twice
            ),
        )
        self._submit = self.r.register_script(_SUBMIT)
        self._open_round = self.r.register_script(_OPEN_ROUND)

    def _live(self, code: str) -> ClassSession:
        code = normal_code(code)
        s = self.r.hgetall(_key(code, "s")) if code else {}
        if not s or float(s["expires"]) <= self.clock():
            raise UnknownSession(code)
        return ClassSession(code, float(s["created"]), float(s["expires"]), s.get("ended") == "1")

    def _ttl(self, live: ClassSession) -> int:
        return max(1, math.ceil(live.expires - self.clock()))

    # --- sessions and students ---------------------------------------------------------------

    def create_session(self) -> ClassSession:
        """A new session; sessions past their expiry are purged first (the store stays bounded)."""
        self.purge_expired()
        now = self.clock()
        expires = now + SESSION_TTL
        while True:
            code = new_code()
            old = self.r.hget(_key(code, "s"), "expires")
            if old is not None and float(old) > now:
                continue
            if old is not None:
                self._delete(code)
            fields = {"created": repr(now), "expires": repr(expires), "ended": "0"}
            if self.r.hsetnx(_key(code, "s"), "expires", fields["expires"]):
                break
        with self.r.pipeline() as p:
            p.hset(_key(code, "s"), mapping=fields)
            p.expire(_key(code, "s"), math.ceil(SESSION_TTL))
            p.zadd(INDEX, {code: expires})
            p.execute()
        return ClassSession(code, now, expires, False)

    def session(self, code: str) -> ClassSession:
        return self._live(code)

    def end_session(self, code: str) -> None:
        live = self._live(code)
        last = int(self.r.hget(_key(live.code, "s"), "rounds") or 0)
        with self.r.pipeline() as p:
            p.hset(_key(live.code, "s"), "ended", "1")
            if last:
                p.hset(_key(live.code, f"r:{last}"), "open", "0")
            p.execute()

    def join(self, code: str, nickname: str = "", client: str = "") -> Student:
        nickname = check_text(nickname, MAX_NICKNAME_CHARS, "nickname")
        client = str(client)[:MAX_CLIENT_CHARS]
        live = self._live(code)
        if live.ended:
            raise UnknownSession(live.code)
        if self.r.hget(_key(live.code, "s"), "locked") == "1":
            raise JoinsLocked()
        ttl = self._ttl(live)
        if client:
            field = f"{join_window(self.clock())} {client}"
            with self.r.pipeline() as p:
                p.hincrby(_key(live.code, "joins"), field, 1)
                p.expire(_key(live.code, "joins"), ttl)
                count, _ = p.execute()
            if count > MAX_JOINS_PER_MINUTE:
                raise JoinsLimited()
        key = nickname_key(nickname)
        names = _key(live.code, "names")
        self.take_seat(live.code)  # ClassFull
        try:  # HSETNX claims the nickname atomically: of two joins with one name, one wins.
            check_nickname(nickname, lambda k: not self.r.hsetnx(names, k, "1"))
        except StoreRefusal:
            self.free_seat(live.code)
            raise
        if key:
            self.r.expire(names, ttl)
        number = self.r.hincrby(_key(live.code, "s"), "joined", 1)
        student = Student(new_token(), label_for(nickname, number))
        with self.r.pipeline() as p:
            p.hset(_key(live.code, "students"), student.token, student.label)
            p.rpush(_key(live.code, "order"), student.token)
            p.expire(_key(live.code, "students"), ttl)
            p.expire(_key(live.code, "order"), ttl)
            p.execute()
        return student

    def lock_joins(self, code: str, locked: bool) -> None:
        live = self._live(code)
        self.r.hset(_key(live.code, "s"), "locked", "1" if locked else "0")

    def joins_locked(self, code: str) -> bool:
        live = self._live(code)
        return self.r.hget(_key(live.code, "s"), "locked") == "1"

    def student(self, code: str, token: str) -> Student | None:
        live = self._live(code)
        label = self.r.hget(_key(live.code, "students"), token) if isinstance(token, str) else None
        return Student(token, label) if label is not None else None

    def students(self, code: str) -> list[Student]:
        live = self._live(code)
        tokens = self.r.lrange(_key(live.code, "order"), 0, -1)
        labels = self.r.hgetall(_key(live.code, "students"))
        return [Student(t, labels[t]) for t in tokens if t in labels]

    # --- rounds ------------------------------------------------------------------------------

    def open_round(
        self, code: str, question: str, revote_of: int | None = None, seconds: float | None = None
    ) -> Round:
        seconds = check_seconds(seconds)
        live = self._live(code)
        now = self.clock()
        closes = None if seconds is None else now + seconds
        prefix = f"grpo:class:{live.code}"
        number = self._open_round(
            keys=[_key(live.code, "s")],
            args=[
                repr(now),
                question,
                "" if revote_of is None else str(revote_of),
                prefix,
                "" if closes is None else repr(closes),
            ],
        )
        if number < 0:
            raise UnknownSession(live.code)
        return Round(int(number), question, True, "none", revote_of, now, closes)

    def close_round(self, code: str, number: int) -> None:
        live = self._live(code)
        if self.r.exists(_key(live.code, f"r:{number}")):
            self.r.hset(_key(live.code, f"r:{number}"), "open", "0")

    def set_reveal(self, code: str, number: int, reveal: str) -> None:
        check_reveal(reveal)
        live = self._live(code)
        if self.r.exists(_key(live.code, f"r:{number}")):
            self.r.hset(_key(live.code, f"r:{number}"), "reveal", reveal)

    def _round(self, code: str, number: int) -> Round | None:
        h = self.r.hgetall(_key(code, f"r:{number}"))
        if not h:
            return None
        revote = int(h["revote_of"]) if h.get("revote_of") else None
        closes = float(h["closes"]) if h.get("closes") else None
        stored_open = h["open"] == "1"
        return Round(
            number,
            h["question"],
            is_open(stored_open, closes, self.clock()),
            h["reveal"],
            revote,
            float(h["opened"]),
            closes,
        )

    def rounds(self, code: str) -> list[Round]:
        live = self._live(code)
        last = int(self.r.hget(_key(live.code, "s"), "rounds") or 0)
        found = (self._round(live.code, n) for n in range(1, last + 1))
        return [r for r in found if r is not None]

    def current_round(self, code: str) -> Round | None:
        live = self._live(code)
        last = int(self.r.hget(_key(live.code, "s"), "rounds") or 0)
        return self._round(live.code, last) if last else None

    # --- answers -----------------------------------------------------------------------------

    def submit(
        self, code: str, number: int, token: str, answer: str, submit_id: str, confidence: str = ""
    ) -> Receipt:
        answer = check_text(answer, MAX_ANSWER_CHARS, "answer")
        confidence = check_confidence(confidence)
        token, submit_id = check_id(token, "student link"), check_id(submit_id, "submit id")
        code = normal_code(code)
        verdict = self._submit(
            keys=[
                _key(code, "s"),
                _key(code, "students"),
                _key(code, f"r:{number}"),
                _key(code, f"a:{number}"),
                _key(code, f"t:{number}"),
                _key(code, f"c:{number}"),
                _key(code, "seen"),
                _key(code, "rate"),
                _key(code, f"f:{number}"),
            ],
            args=[
                repr(self.clock()),
                token,
                answer,
                f"{token} {submit_id}",
                MAX_SUBMITS_PER_SECOND,
                confidence,
            ],
        )
        if verdict == "unknown":
            raise UnknownSession(code)
        if verdict == "closed":
            raise RoundClosed()
        if verdict == "rate":
            raise RateLimited()
        return Receipt(duplicate=verdict == "duplicate")

    def answers(self, code: str, number: int) -> list[Answer]:
        live = self._live(code)
        with self.r.pipeline() as p:
            p.lrange(_key(live.code, "order"), 0, -1)
            p.hgetall(_key(live.code, "students"))
            p.hgetall(_key(live.code, f"a:{number}"))
            p.hgetall(_key(live.code, f"t:{number}"))
            p.hgetall(_key(live.code, f"f:{number}"))
            order, labels, given, times, sure = p.execute()
        return [
            Answer(t, labels.get(t, "?"), given[t], float(times.get(t, 0)), sure.get(t, ""))
            for t in order
            if t in given
        ]

    def tally(self, code: str, number: int) -> dict[str, int]:
        live = self._live(code)
        counts = self.r.hgetall(_key(live.code, f"c:{number}"))
        return {answer: int(n) for answer, n in counts.items() if int(n) > 0}

    def purge_expired(self) -> int:
        codes = self.r.zrangebyscore(INDEX, "-inf", self.clock())
        for code in codes:
            self._delete(code)
        return len(codes)

    def _delete(self, code: str) -> None:
        last = int(self.r.hget(_key(code, "s"), "rounds") or 0)
        parts = ["s", "students", "order", "seen", "rate", "names", "joins", "qs"]
        parts += [f"{kind}:{n}" for n in range(1, last + 1) for kind in "ratcf"]
        self.r.delete(*(_key(code, part) for part in parts))
        self.r.zrem(INDEX, code)

    # --- the lecturer's own questions --------------------------------------------------------

    def set_question_set(self, code: str, text: str) -> None:
        text = check_text(text, MAX_SET_CHARS, "question set")
        live = self._live(code)
        self.r.set(_key(live.code, "qs"), text, ex=self._ttl(live))

    def question_set(self, code: str) -> str:
        live = self._live(code)
        return self.r.get(_key(live.code, "qs")) or ""

    # --- connection ------------------------------------------------------------------------------

    def ping(self) -> None:
        """Return when Redis answers (and has loaded its data); raise its error otherwise."""
        self.r.ping()

    @staticmethod
    def is_outage(err: BaseException) -> bool:
        """Whether ``err`` means Redis is unreachable for now (refused or dropped connection,
        a timeout, ``LOADING`` after a restart), not that the request was wrong."""
        return isinstance(err, redis.ConnectionError | redis.TimeoutError)
