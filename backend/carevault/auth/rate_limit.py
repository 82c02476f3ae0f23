"""Weighted request limits per credential and per practice, with the numbers a client needs
to pace itself (RateLimit-* headers).

Each request spends its operation's cost (carevault.auth.permissions: a read 1, a write 2, a
search, import or batch read 5) from two fixed one-minute budgets:

- its credential's (an API token or a login session): `CAREVAULT_API_RATE_LIMIT_PER_MINUTE`
  units, so one runaway script is stopped without touching anyone else;
- its practice's, for API tokens only (personal and service accounts'):
  `CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE` units, so one practice's integrations,
  however many tokens they spread over, cannot starve the instance. People's sessions are
  not counted there: a practice's own integrations never lock its clinicians out of the UI.

A request is admitted only if its cost fits both budgets, and only an admitted request
spends: a client that keeps retrying while refused does not drain its practice's budget
for its other integrations.

The counting is behind `RateLimitBackend`. `InProcessBackend` counts in this worker's memory
(no round trip on the request path): with several workers each counts on its own, so the
budgets are per worker. The shared backend (`carevault.auth.rate_limit_redis`, used when
CAREVAULT_REDIS_URL is set) implements the same `spend` in Redis, one atomic script per
request that checks every bucket, then adds to all.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WINDOW_SECONDS = 60
# Above this many tracked buckets, windows that have ended are dropped.
_PRUNE_ABOVE = 10_000


@dataclass(frozen=True, slots=True)
class Bucket:
    """One budget: a key no one else shares ("token:<id>", "practice:<id>") and its limit
    in units per window."""

    key: str
    limit: int


@dataclass(frozen=True, slots=True)
class Window:
    """A bucket's window after a `spend`: the units used in it and the seconds to its end."""

    used: int
    reset_seconds: int


class RateLimitBackend(Protocol):
    async def close(self) -> None:
        """Release connections (at shutdown)."""
        ...

    async def spend(self, buckets: Sequence[Bucket], cost: int) -> tuple[bool, list[Window]]:
        """Atomically: if `cost` fits every bucket's current window, add it to each and
        answer True; otherwise change nothing and answer False. With each bucket's window
        (after the spend), in `buckets` order."""
        ...


class InProcessBackend:
    """Fixed windows in this process's memory. Not shared between workers."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._windows: dict[str, tuple[float, int]] = {}

    async def close(self) -> None:
        return None

    async def spend(self, buckets: Sequence[Bucket], cost: int) -> tuple[bool, list[Window]]:
        # No await in here: in one event loop the check and the spend are one step.
        now = self._clock()
        current = []
        for bucket in buckets:
            started, used = self._windows.get(bucket.key, (now, 0))
            if now - started >= WINDOW_SECONDS:
                started, used = now, 0
            current.append((started, used))
        admitted = all(
            used + cost <= bucket.limit for bucket, (_, used) in zip(buckets, current, strict=True)
        )
        windows = []
        for bucket, (started, used) in zip(buckets, current, strict=True):
            if admitted:
                used += cost
            self._windows[bucket.key] = (started, used)
            windows.append(Window(used, max(1, math.ceil(started + WINDOW_SECONDS - now))))
        if len(self._windows) > _PRUNE_ABOVE:
            self._prune(now)
        return admitted, windows

    def _prune(self, now: float) -> None:
        self._windows = {
            key: window for key, window in self._windows.items() if now - window[0] < WINDOW_SECONDS
        }


@dataclass(frozen=True)
class Quota:
    """What one request learnt, of the budget nearest its end (the one that binds): the
    limit, what is left of it, when its window resets; `policies` describes every budget
    that counted the request. `exceeded`: the request was refused."""

    limit: int
    remaining: int
    reset_seconds: int
    exceeded: bool = False
    policies: tuple[str, ...] = ()
    scope: str = "credential"

    def headers(self) -> dict[str, str]:
        policies = self.policies or (f"{self.limit};w={WINDOW_SECONDS}",)
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(max(self.remaining, 0)),
            "RateLimit-Reset": str(self.reset_seconds),
            "RateLimit-Policy": ", ".join(policies),
        }


class RateLimiter:
    def __init__(
        self,
        per_minute: int,
        per_practice_per_minute: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        backend: RateLimitBackend | None = None,
    ) -> None:
        """`per_practice_per_minute`: None, no practice budget."""
        self.per_minute = per_minute
        self.per_practice_per_minute = per_practice_per_minute
        self.backend: RateLimitBackend = backend or InProcessBackend(clock)

    async def take(
        self,
        kind: str,
        credential: uuid.UUID,
        *,
        cost: int = 1,
        practice: uuid.UUID | None = None,
    ) -> Quota:
        """Spend `cost` units of the credential's budget (`kind` is "token" or "session")
        and, when `practice` is given, of that practice's."""
        buckets = [Bucket(f"{kind}:{credential}", self.per_minute)]
        policies = [f"{self.per_minute};w={WINDOW_SECONDS}"]
        if practice is not None and self.per_practice_per_minute is not None:
            buckets.append(Bucket(f"practice:{practice}", self.per_practice_per_minute))
            policies.append(f'{self.per_practice_per_minute};w={WINDOW_SECONDS};comment="practice"')
        # A budget configured below an operation's cost still admits it once a window.
        cost = min(cost, *(bucket.limit for bucket in buckets))
        admitted, windows = await self.backend.spend(buckets, cost)
        # Report the budget that binds: the one that refused (if refused), or the one with
        # the least left.
        if admitted:
            index = min(range(len(buckets)), key=lambda i: buckets[i].limit - windows[i].used)
        else:
            index = next(
                (i for i in range(len(buckets)) if windows[i].used + cost > buckets[i].limit), 0
            )
        bucket, window = buckets[index], windows[index]
        return Quota(
            bucket.limit,
            bucket.limit - window.used,
            window.reset_seconds,
            exceeded=not admitted,
            policies=tuple(policies),
            scope="practice" if index else "credential",
        )


class RateLimitHeaders:
    """Pure ASGI: adds the RateLimit-* headers of the quota the request's authentication
    counted (`request.state.rate_limit`) to its response. Unauthenticated requests have none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_quota(message: Message) -> None:
            if message["type"] == "http.response.start":
                quota = scope.get("state", {}).get("rate_limit")
                headers = message.get("headers", [])
                if isinstance(quota, Quota) and not any(
                    k == b"ratelimit-limit" for k, _ in headers
                ):
                    extra = [(k.lower().encode(), v.encode()) for k, v in quota.headers().items()]
                    message["headers"] = [*headers, *extra]
            await send(message)

        await self.app(scope, receive, send_with_quota)
