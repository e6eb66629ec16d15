"""A class session's seats in the Redis store (mixed into ``RedisStore``): the class size
(field ``size`` of the session hash; ``DEFAULT_CLASS_SIZE`` until set), the seats taken
(field ``seated``, counted up by a join's Lua script only while below the size, so two
replicas' joins never pass it together) and the lecturer's removal of a seat with its
answers (one Lua script: the tallies stay equal to the answers)."""

from __future__ import annotations

from practice.store.class_rules import DEFAULT_CLASS_SIZE, ClassFull, check_class_size
from practice.store.nicknames import nickname_key

_TAKE_SEAT = """
-- KEYS: session; ARGV: default size. 0 when full, else 1 (and the seat is counted).
local size = tonumber(redis.call('HGET', KEYS[1], 'size') or ARGV[1])
local seated = tonumber(redis.call('HGET', KEYS[1], 'seated') or '0')
if seated >= size then return 0 end
redis.call('HINCRBY', KEYS[1], 'seated', 1)
return 1
"""

_REMOVE = """
-- KEYS: session, students, order, names, rate; ARGV: token, key prefix, nickname key
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('LREM', KEYS[3], 0, ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
if ARGV[3] ~= '' then redis.call('HDEL', KEYS[4], ARGV[3]) end
if tonumber(redis.call('HGET', KEYS[1], 'seated') or '0') > 0 then
  redis.call('HINCRBY', KEYS[1], 'seated', -1)
end
local last = tonumber(redis.call('HGET', KEYS[1], 'rounds') or '0')
for n = 1, last do
  local r = ARGV[2] .. ':'
  local old = redis.call('HGET', r .. 'a:' .. n, ARGV[1])
  if old then
    if redis.call('HINCRBY', r .. 'c:' .. n, old, -1) <= 0 then
      redis.call('HDEL', r .. 'c:' .. n, old)
    end
    redis.call('HDEL', r .. 'a:' .. n, ARGV[1])
    redis.call('HDEL', r .. 't:' .. n, ARGV[1])
    redis.call('HDEL', r .. 'f:' .. n, ARGV[1])
  end
end
return 1
"""


class SeatsRedis:
    """``class_size``, ``set_class_size`` and ``remove_student`` on ``RedisStore``."""

    def _seat_keys(self, code: str) -> str:
        return f"grpo:class:{code}"

    def take_seat(self, code: str) -> None:
        """Count one more seat of live session ``code``; ClassFull when none is left."""
        root = self._seat_keys(code)
        if not self.r.eval(_TAKE_SEAT, 1, f"{root}:s", DEFAULT_CLASS_SIZE):
            raise ClassFull(self.class_size(code))

    def free_seat(self, code: str) -> None:
        """Give back a seat ``take_seat`` counted for a join that was then refused."""
        self.r.hincrby(f"{self._seat_keys(code)}:s", "seated", -1)

    def set_class_size(self, code: str, seats: int) -> None:
        seats = check_class_size(seats)
        live = self._live(code)
        self.r.hset(f"{self._seat_keys(live.code)}:s", "size", seats)

    def class_size(self, code: str) -> int:
        live = self._live(code)
        return int(self.r.hget(f"{self._seat_keys(live.code)}:s", "size") or DEFAULT_CLASS_SIZE)

    def remove_student(self, code: str, token: str) -> bool:
        live = self._live(code)
        root = self._seat_keys(live.code)
        label = self.r.hget(f"{root}:students", token) if isinstance(token, str) else None
        if label is None:
            return False
        keys = [f"{root}:{part}" for part in ("s", "students", "order", "names", "rate")]
        return bool(self.r.eval(_REMOVE, len(keys), *keys, token, root, nickname_key(label)))
