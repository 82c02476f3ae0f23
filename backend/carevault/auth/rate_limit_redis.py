"""Request limits shared by every worker and instance, in Redis (CAREVAULT_REDIS_URL).

One Lua script per request (EVALSHA: one round trip) checks and spends every bucket of the
request atomically, with GCRA (the generic cell rate algorithm): each bucket keeps one
number, its theoretical arrival time (TAT); a unit costs `window / limit` seconds of it, and
a request fits while the TAT it would leave is no more than one window ahead of now. That
is the same budget as the in-process limiter's (`limit` units a minute, all of it usable as
a burst), but it refills smoothly instead of at a window's edge, so a client cannot spend
two budgets across an edge. The clock is Redis's (`TIME`), so instances whose clocks
differ still agree.

Keys: `carevault:rl:<kind>:<hash>`, where `<hash>` is the first 16 bytes of SHA-256 of the
bucket's own key (`token:<id>`, `session:<id>`, `practice:<id>`): no id, no PHI, no secret
in Redis. Each key expires when its bucket is full again (at most one window and a second),
so an idle credential leaves nothing behind.

Redis down (refused, timed out, any error): the request is admitted by this process's own
in-process limiter (fail open to per-process budgets, never a 500), a warning is logged at
most once every 30 s, and `carevault_rate_limit_redis_failures_total` counts it. While down,
Redis is tried again at most once a second (no request waits on a dead connection more than
that); the first answer puts every request back on the shared budgets.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from carevault.auth.rate_limit import (
    WINDOW_SECONDS,
    Bucket,
    InProcessBackend,
    Window,
)

log = logging.getLogger("carevault.rate_limit")

KEY_PREFIX = "carevault:rl:"
# A request never waits longer than this on Redis before the in-process fallback answers.
TIMEOUT_SECONDS = 0.25
# While Redis is down, try it again at most this often.
RETRY_SECONDS = 1.0
WARN_EVERY_SECONDS = 30.0

# KEYS: one per bucket. ARGV: window (s), cost, then each bucket's limit.
# Answers {admitted (0/1), used_1, reset_1, used_2, reset_2, ...}: `used` the units in
# flight after the request (ceil((tat - now) / interval)), `reset` the seconds until the
# bucket is full again (admitted) or until this request would fit (refused).
GCRA_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local n = #KEYS
local tats = {}
local used = {}
local admitted = 1
for i = 1, n do
  local interval = window / tonumber(ARGV[2 + i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or '0')
  if tat < now then tat = now end
  tats[i] = tat
  -- whole units in flight; the same integer the caller compares with the limit
  used[i] = math.ceil((tat - now) / interval - 1e-9)
  if used[i] + cost > tonumber(ARGV[2 + i]) then admitted = 0 end
end
local out = {admitted}
for i = 1, n do
  local limit = tonumber(ARGV[2 + i])
  local interval = window / limit
  local tat = tats[i]
  local reset
  if admitted == 1 then
    tat = tat + cost * interval
    redis.call('SET', KEYS[i], string.format('%.6f', tat), 'EX', math.ceil(tat - now) + 1)
    used[i] = used[i] + cost
    reset = math.ceil(tat - now)
  else
    reset = math.ceil(tat - now - (limit - cost) * interval)
  end
  if reset < 1 then reset = 1 end
  out[#out + 1] = used[i]
  out[#out + 1] = reset
end
return out
"""


def redis_key(bucket_key: str) -> str:
    """The Redis key of a bucket: its kind, and a hash of the rest (never the id itself)."""
    kind, _, _ = bucket_key.partition(":")
    digest = hashlib.sha256(bucket_key.encode()).hexdigest()[:32]
    return f"{KEY_PREFIX}{kind}:{digest}"


class RedisBackend:
    """GCRA budgets in Redis, shared by every process that points at the same Redis; this
    process's in-process limiter answers while Redis does not."""

    def __init__(self, url: str, *, fallback: InProcessBackend | None = None) -> None:
        self._url = url
        self._client: Any = None
        self._script: Any = None
        self.fallback = fallback or InProcessBackend()
        self.failures = 0  # requests answered by the fallback (a counter for /metrics)
        self.shared = True  # Redis answered the last time it was asked
        # Since when `shared` holds, and the class of the last failure (readiness reads them).
        self.since = datetime.now(UTC)
        self.last_error: str | None = None
        self._retry_at = 0.0
        self.retry_seconds = RETRY_SECONDS
        self._warned_at = -WARN_EVERY_SECONDS

    def _redis(self) -> Any:
        if self._client is None:
            import redis.asyncio as redis  # only when configured
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            self._client = redis.Redis.from_url(
                self._url,
                socket_connect_timeout=TIMEOUT_SECONDS,
                socket_timeout=TIMEOUT_SECONDS,
                # No retries inside the client: a request falls back at once, and the next
                # command (a fresh connection) is the retry.
                retry=Retry(NoBackoff(), 0),
                health_check_interval=30,
            )
            self._script = self._client.register_script(GCRA_SCRIPT)
        return self._client

    async def spend(self, buckets: Sequence[Bucket], cost: int) -> tuple[bool, list[Window]]:
        now = time.monotonic()
        if self.shared or now >= self._retry_at:
            if not self.shared:
                # One request probes a Redis that was down; the others meanwhile do not wait.
                self._retry_at = now + self.retry_seconds
            try:
                return await self._spend_shared(buckets, cost)
            except Exception as exc:  # Redis down or broken: fail open, per process
                self._failed(now, exc)
        self.failures += 1
        return await self.fallback.spend(buckets, cost)

    async def _spend_shared(
        self, buckets: Sequence[Bucket], cost: int
    ) -> tuple[bool, list[Window]]:
        self._redis()
        keys = [redis_key(bucket.key) for bucket in buckets]
        args = [WINDOW_SECONDS, cost, *(bucket.limit for bucket in buckets)]
        async with asyncio.timeout(TIMEOUT_SECONDS * 2):
            answer = await self._script(keys=keys, args=args)
        self._answered()
        values = [int(value) for value in answer]
        windows = [Window(values[1 + 2 * i], values[2 + 2 * i]) for i in range(len(buckets))]
        return bool(values[0]), windows

    def _answered(self) -> None:
        if not self.shared:
            log.warning("Redis answers again: request limits are shared across instances")
            self.shared, self.since = True, datetime.now(UTC)

    async def probe(self) -> bool:
        """PING Redis (readiness, every second or so): a Redis lost while no request came
        is known before the next request meets it, and one back is used again at once."""
        now = time.monotonic()
        try:
            async with asyncio.timeout(TIMEOUT_SECONDS * 2):
                await self._redis().ping()
        except Exception as exc:
            self._failed(now, exc)
            return False
        self._answered()
        return True

    def _failed(self, now: float, exc: Exception) -> None:
        if self.shared:
            self.since = datetime.now(UTC)
        self.last_error = type(exc).__name__
        self.shared = False
        self._retry_at = now + self.retry_seconds
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            # The exception's type only: its text could carry the URL (and a password).
            log.warning(
                "Redis did not answer for request limits (%s): each process counts its own "
                "budgets until it does",
                type(exc).__name__,
            )

    async def close(self) -> None:
        if self._client is not None:
            try:
                await self._client.aclose()
            except Exception:  # closing a dead connection
                log.debug("closing the rate-limit Redis client failed", exc_info=True)
            self._client = None
