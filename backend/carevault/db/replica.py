"""An optional streaming replica for reads (CAREVAULT_READ_DATABASE_URL; docs/scaling.md).

Routes marked with `reads_from_replica` (lists, searches, the change feed) read from the
replica while everything they write (their audit event) goes to the primary, in the same
request session: a `RoutingSession` sends a statement that only reads (a SELECT with no
data-modifying CTE and no FOR UPDATE) to the replica once the route has been switched to
it, and everything else (INSERTs, flushes, `db.connection()` without a statement) to the
primary. `carevault.audit.service.AuditedRows` splits its one-statement read-and-audit in
two for such a session: rows from the replica, their event on the primary, committed before
the answer is sent (no event, no answer).

A request is switched to the replica only when `ReplicaRouter.route` allows it:

- the replica answered its last check (every `interval` seconds, in the background), is in
  recovery, and has replayed every WAL position the primary had more than `max_lag`
  seconds ago;
- the same credential has not written within `read_your_writes` seconds (tracked in this
  process: a write and the next read on another instance are not tied together).

Otherwise it reads from the primary, as without a replica. Nothing here holds PHI.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select, visitors

from carevault.db.fastpath import locks_rows

log = logging.getLogger(__name__)

# Session.info key: the replica's (sync) engine, set once the request is switched to it.
READ_BIND = "carevault.read_bind"
_ATTRIBUTE = "__carevault_reads_from_replica__"
# Credentials remembered for read-your-writes before the stale ones are swept.
_SWEEP_AT = 10_000

E = TypeVar("E", bound=Callable[..., Any])


def reads_from_replica(endpoint: E) -> E:
    """Mark a route whose reads may go to the replica (under `@declare`). Its writes (the
    audit event) still go to the primary."""
    setattr(endpoint, _ATTRIBUTE, True)
    return endpoint


def is_replica_route(endpoint: Callable[..., Any] | None) -> bool:
    return bool(getattr(endpoint, _ATTRIBUTE, False))


def reads_only(clause: Any) -> bool:
    """Whether `clause` can run on a hot standby: a SELECT that locks nothing and has no
    INSERT, UPDATE or DELETE anywhere in it (a data-modifying CTE)."""
    if not isinstance(clause, Select) or locks_rows(clause):
        return False
    return not any(getattr(element, "is_dml", False) for element in visitors.iterate(clause))


class RoutingSession(Session):
    """A session bound to the primary that sends reading statements to `info[READ_BIND]`
    when set (see the module docstring)."""

    def get_bind(
        self, mapper: Any = None, *, clause: Any = None, bind: Any = None, **kw: Any
    ) -> Any:
        replica = self.info.get(READ_BIND)
        if (
            replica is not None
            and bind is None
            and clause is not None
            and not self._flushing
            and reads_only(clause)
        ):
            return replica
        return super().get_bind(mapper, clause=clause, bind=bind, **kw)


def read_bind(db: AsyncSession) -> Engine | None:
    """The replica's engine when `db` reads from it, else None."""
    bind: Engine | None = db.sync_session.info.get(READ_BIND)
    return bind


def credential_key(authorization: str | None, session_cookie: str | None) -> bytes | None:
    """What identifies a request's credential for read-your-writes: a digest, never the
    secret itself."""
    secret = authorization or session_cookie
    if not secret:
        return None
    return hashlib.blake2b(secret.encode(), digest_size=16).digest()


def parse_lsn(value: str | None) -> int | None:
    """`16/B374D848` as a number of bytes."""
    if not value:
        return None
    high, _, low = value.partition("/")
    return (int(high, 16) << 32) + int(low, 16)


@dataclass
class ReplicaStatus:
    # unknown (not checked yet), streaming, lagging, unreachable, not_in_recovery
    state: str = "unknown"
    lag_seconds: float | None = None
    behind_bytes: int | None = None
    replay_paused: bool | None = None
    checked_at: datetime | None = None
    checked: float = 0.0  # monotonic
    error: str | None = None  # an exception's class, never its message


@dataclass
class RouteCounts:
    replica: int = 0
    primary: int = 0  # replica routes that read from the primary
    read_your_writes: int = 0  # ... because the credential had just written
    unusable: int = 0  # ... because the replica was down, behind or not checked lately


# A check starts at most (its own time limit, one interval) + one interval after the last.
STALE_AFTER_INTERVALS = 2.5


def read_your_writes_floor(max_lag: float, interval: float) -> float:
    """The shortest read-your-writes window that guarantees a credential's next replica read
    sees its write: a write is sampled by the next check (one interval), must be replayed
    within `max_lag` of that sample for the replica to be used, and the state used may be
    STALE_AFTER_INTERVALS old."""
    return max_lag + (1 + STALE_AFTER_INTERVALS) * interval


class ReplicaRouter:
    def __init__(
        self,
        primary: AsyncEngine,
        replica: AsyncEngine,
        *,
        max_lag_seconds: float,
        read_your_writes_seconds: float,
        interval: float = 1.0,
    ) -> None:
        self.primary = primary
        self.replica = replica
        self.max_lag_seconds = max_lag_seconds
        self.read_your_writes_seconds = read_your_writes_seconds
        self.interval = interval
        self.status = ReplicaStatus()
        self.counts = RouteCounts()
        self._writes: dict[bytes, float] = {}
        # Primary WAL positions seen by the checks and not yet replayed: (monotonic, lsn).
        self._pending: deque[tuple[float, int]] = deque()
        self._task: asyncio.Task[None] | None = None
        self._abandoned: set[asyncio.Future[ReplicaStatus]] = set()

    # --- decisions, per request (no I/O) ---------------------------------------------------

    def usable(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        status = self.status
        return (
            status.state == "streaming"
            # A check stuck or not running: the state is not trusted (settings.py's floor on
            # the read-your-writes window counts this staleness).
            and now - status.checked <= STALE_AFTER_INTERVALS * self.interval
        )

    def route(self, credential: bytes | None) -> Engine | None:
        """The replica's engine for a replica route's reads, or None for the primary."""
        now = time.monotonic()
        if credential is not None and self.recently_wrote(credential, now):
            self.counts.primary += 1
            self.counts.read_your_writes += 1
            return None
        if not self.usable(now):
            self.counts.primary += 1
            self.counts.unusable += 1
            return None
        self.counts.replica += 1
        return self.replica.sync_engine

    def wrote(self, credential: bytes) -> None:
        now = time.monotonic()
        if len(self._writes) >= _SWEEP_AT:
            horizon = now - self.read_your_writes_seconds
            self._writes = {k: at for k, at in self._writes.items() if at > horizon}
        self._writes[credential] = now

    def recently_wrote(self, credential: bytes, now: float | None = None) -> bool:
        at = self._writes.get(credential)
        now = time.monotonic() if now is None else now
        return at is not None and now - at < self.read_your_writes_seconds

    def suspect(self, error: str) -> None:
        """A request reading from the replica lost its connection or timed out: reads go to
        the primary until the next check finds the replica well again."""
        self._set("unreachable", time.monotonic(), error=f"request: {error}")

    # --- the background check -------------------------------------------------------------

    async def check(self) -> ReplicaStatus:
        """Read the primary's WAL position, then the replica's replay position; the lag is
        how long ago the primary had the oldest position the replica has not replayed."""
        now = time.monotonic()
        try:
            async with asyncio.timeout(self.interval):
                async with self.primary.connect() as connection:
                    primary_lsn = parse_lsn(
                        (
                            await connection.execute(text("SELECT pg_current_wal_lsn()::text"))
                        ).scalar_one()
                    )
                    await connection.rollback()
        except Exception as exc:  # the primary's own readiness reports it
            self.status.error = f"primary: {type(exc).__name__}"
            return self.status
        if primary_lsn is not None and (not self._pending or primary_lsn > self._pending[-1][1]):
            self._pending.append((now, primary_lsn))
        try:
            async with asyncio.timeout(self.interval):
                async with self.replica.connect() as connection:
                    row = (
                        await connection.execute(
                            text(
                                "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, "
                                "CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() "
                                "END"
                            )
                        )
                    ).one()
                    await connection.rollback()
        except Exception as exc:
            self._set("unreachable", now, error=type(exc).__name__)
            return self.status
        in_recovery, replay, paused = row
        replayed = parse_lsn(replay)
        if not in_recovery or replayed is None:
            self._set("not_in_recovery", now)
            return self.status
        while self._pending and self._pending[0][1] <= replayed:
            self._pending.popleft()
        lag = now - self._pending[0][0] if self._pending else 0.0
        behind = max(0, primary_lsn - replayed) if primary_lsn is not None else None
        state = "lagging" if lag > self.max_lag_seconds else "streaming"
        self._set(state, now, lag=lag, behind=behind, paused=bool(paused))
        return self.status

    def _set(
        self,
        state: str,
        now: float,
        *,
        lag: float | None = None,
        behind: int | None = None,
        paused: bool | None = None,
        error: str | None = None,
    ) -> None:
        if state != self.status.state and self.status.state != "unknown":
            log.warning("read replica: %s (was %s)", state, self.status.state)
        self.status = ReplicaStatus(
            state=state,
            lag_seconds=None if lag is None else round(lag, 3),
            behind_bytes=behind,
            replay_paused=paused,
            checked_at=datetime.now(UTC),
            checked=now,
            error=error,
        )
        if len(self._pending) > 10_000:  # the replica is far behind: keep the oldest
            while len(self._pending) > 10_000:
                self._pending.pop()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._keep_checking(), name="carevault-replica")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _keep_checking(self) -> None:
        while True:
            # Each check bounds its own statements; on a frozen server the cancellation
            # itself can hang, so a check still running after two more intervals is left
            # to end on its own (not waited for) and the replica counted unreachable.
            task = asyncio.ensure_future(self.check())
            done, _ = await asyncio.wait({task}, timeout=3 * self.interval)
            if task in done:
                if not task.cancelled() and task.exception() is not None:
                    # A bug must not stop the checks; the class only.
                    log.warning("read replica check failed: %s", type(task.exception()).__name__)
            else:
                task.cancel()
                self._abandoned.add(task)
                task.add_done_callback(self._abandoned.discard)
                self._set("unreachable", time.monotonic(), error="TimeoutError")
            await asyncio.sleep(self.interval)
