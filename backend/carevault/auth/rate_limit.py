"""Request limits per API token and per login session, with the numbers a client needs to
pace itself (RateLimit-* headers).

A fixed one-minute window per credential, counted in this worker's memory: no database round
trip on the request path. With several workers (or hosts) each counts on its own, so one
credential can reach the limit once per worker; the default sits far above what a person or
an autosaving editor sends (an autosave every two seconds is 30 a minute) and far below what
a runaway script does, which is what it is for.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WINDOW_SECONDS = 60
# Above this many tracked credentials, windows that have ended are dropped.
_PRUNE_ABOVE = 10_000


@dataclass(frozen=True)
class Quota:
    """What one request learnt: the limit, what is left of it, when the window resets."""

    limit: int
    remaining: int
    reset_seconds: int

    @property
    def exceeded(self) -> bool:
        return self.remaining < 0

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(max(self.remaining, 0)),
            "RateLimit-Reset": str(self.reset_seconds),
            "RateLimit-Policy": f"{self.limit};w={WINDOW_SECONDS}",
        }


class RateLimiter:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._windows: dict[tuple[str, uuid.UUID], tuple[float, int]] = {}

    def take(self, kind: str, credential: uuid.UUID) -> Quota:
        """Count one request of the credential (`kind` is "token" or "session")."""
        now = self._clock()
        key = (kind, credential)
        started, used = self._windows.get(key, (now, 0))
        if now - started >= WINDOW_SECONDS:
            started, used = now, 0
        used += 1
        self._windows[key] = (started, used)
        if len(self._windows) > _PRUNE_ABOVE:
            self._prune(now)
        reset = max(1, math.ceil(started + WINDOW_SECONDS - now))
        return Quota(self.per_minute, self.per_minute - used, reset)

    def _prune(self, now: float) -> None:
        self._windows = {
            key: window for key, window in self._windows.items() if now - window[0] < WINDOW_SECONDS
        }


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
