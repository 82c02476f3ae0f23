"""An optional streaming replica for reads (CAREVAULT_READ_DATABASE_URL; docs/how-to/scaling.md).

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
  process);
- the request presents no write position (`CareVault-Read-After`, or the UI's cookie), or
  the replica's replay position at its last check has reached it. Every successful write
  answers with the primary's WAL position after its commit, so a write on one instance and
  the next read on another are tied together without anything shared between them.

Otherwise it reads from the primary, as without a replica. The bulk export worker reads its
pages from the replica once it has replayed the position the export started at
(`ReadsAfter`). Nothing here holds PHI: a position is a number of bytes of WAL.
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

from sqlalchemy import Text, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.db import direct
from carevault.db.routing import READ_BIND

log = logging.getLogger(__name__)

_ATTRIBUTE = "__carevault_reads_from_replica__"
# Credentials remembered for read-your-writes before the stale ones are swept.
_SWEEP_AT = 10_000
# A write's WAL position, answered after every successful write and presented by the next
# requests (docs/how-to/scaling.md "Read-your-writes"): a header for API clients, a cookie
# for the UI.
READ_AFTER_HEADER = "CareVault-Read-After"
READ_AFTER_COOKIE = "carevault_read_after"
# The token's form: a version, then the position in hex. Opaque to clients.
_READ_AFTER_PREFIX = "w1."
# A position no replica reaches: what a malformed token means (read from the primary).
UNREACHABLE_LSN = 1 << 64
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

E = TypeVar("E", bound=Callable[..., Any])

_CURRENT_LSN = select(func.pg_current_wal_lsn().cast(Text))


def reads_from_replica(endpoint: E) -> E:
    """Mark a route whose reads may go to the replica (under `@declare`). Its writes (the
    audit event) still go to the primary."""
    setattr(endpoint, _ATTRIBUTE, True)
    return endpoint


def is_replica_route(endpoint: Callable[..., Any] | None) -> bool:
    return bool(getattr(endpoint, _ATTRIBUTE, False))


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


def read_after_token(lsn: int) -> str:
    """The value of `CareVault-Read-After` for a write that committed at or before `lsn`."""
    return f"{_READ_AFTER_PREFIX}{lsn:016x}"


def parse_read_after(*values: str | None) -> int | None:
    """The furthest position among the presented tokens; None when none is presented. A
    malformed one counts as a position no replica reaches (the request reads from the
    primary, never fails)."""
    furthest: int | None = None
    for value in values:
        if not value:
            continue
        digits = value[len(_READ_AFTER_PREFIX) :]
        well_formed = (
            value.startswith(_READ_AFTER_PREFIX)
            and 0 < len(digits) <= 16
            and all(digit in _HEX_DIGITS for digit in digits)  # int() takes "-1", " 1", "1_0"
        )
        position = int(digits, 16) if well_formed else UNREACHABLE_LSN
        furthest = position if furthest is None else max(furthest, position)
    return furthest


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
    replayed_lsn: int | None = None  # the replica's replay position at the check


@dataclass
class RouteCounts:
    replica: int = 0
    primary: int = 0  # replica routes that read from the primary
    read_your_writes: int = 0  # ... because the credential had just written
    unusable: int = 0  # ... because the replica was down, behind or not checked lately
    awaiting_replay: int = 0  # ... because it had not replayed the presented write position
    # Pages of bulk exports (carevault.exports.jobs, `carevault export`), by where they read.
    export_pages_replica: int = 0
    export_pages_primary: int = 0


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

    def replayed(self, lsn: int) -> bool:
        """Whether the replica had replayed WAL up to `lsn` at its last check (replay only
        moves forward, so it still has)."""
        replayed = self.status.replayed_lsn
        return replayed is not None and replayed >= lsn

    def route(self, credential: bytes | None, read_after: int | None = None) -> Engine | None:
        """The replica's engine for a replica route's reads, or None for the primary.
        `read_after`: the write position the request presented (parse_read_after)."""
        now = time.monotonic()
        if credential is not None and self.recently_wrote(credential, now):
            self.counts.primary += 1
            self.counts.read_your_writes += 1
            return None
        if not self.usable(now):
            self.counts.primary += 1
            self.counts.unusable += 1
            return None
        if read_after is not None and not self.replayed(read_after):
            self.counts.primary += 1
            self.counts.awaiting_replay += 1
            return None
        self.counts.replica += 1
        return self.replica.sync_engine

    async def primary_position(self) -> int | None:
        """The primary's current WAL position (`pg_current_wal_lsn()`): read after a commit,
        it is at or past that commit's record. One round trip on the direct pool when there
        is one; None when the primary does not answer within an interval (never raises)."""
        try:
            async with asyncio.timeout(self.interval):
                pool = direct.pool_of(self.primary)
                if pool is not None:
                    return parse_lsn((await pool.fetch(_CURRENT_LSN, {}))[0][0])
                async with self.primary.connect() as connection:
                    value = (await connection.execute(_CURRENT_LSN)).scalar_one()
                    await connection.rollback()
                    return parse_lsn(value)
        except Exception as exc:  # the write stands; its readers fall back to the window
            log.warning("reading the primary's WAL position failed (%s)", type(exc).__name__)
            return None

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
        self._set(state, now, lag=lag, behind=behind, paused=bool(paused), replayed=replayed)
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
        replayed: int | None = None,
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
            replayed_lsn=replayed,
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


class ReadsAfter:
    """Where a bulk export reads its pages (carevault.exports.bulk): the replica while it is
    usable and has replayed `lsn`, the primary's position once the export was asked for (so
    the export holds every write committed before it); the primary otherwise, and for a
    page that failed on the replica. Decided page by page: a replica lost or falling behind
    mid-export only moves the following pages."""

    def __init__(self, router: ReplicaRouter | None, lsn: int | None) -> None:
        self.router = router
        self.lsn = lsn

    @classmethod
    async def starting_now(cls, router: ReplicaRouter | None) -> ReadsAfter:
        return cls(router, await router.primary_position() if router is not None else None)

    def _ready(self) -> bool:
        router = self.router
        return (
            router is not None
            and self.lsn is not None
            and router.usable()
            and router.replayed(self.lsn)
        )

    async def settle(self) -> None:
        """Give a usable replica the time its checks need to see `lsn` replayed (at most the
        read-your-writes floor): an export waits a second or two rather than read all its
        pages from the primary."""
        router = self.router
        if router is None or self.lsn is None:
            return
        deadline = time.monotonic() + read_your_writes_floor(
            router.max_lag_seconds, router.interval
        )
        while time.monotonic() < deadline:
            if self._ready() or not router.usable():
                return
            await asyncio.sleep(min(0.1, router.interval / 4))

    def bind(self) -> Engine | None:
        """The replica's engine for the next page, or None for the primary."""
        router = self.router
        if router is None:
            return None
        if self._ready():
            router.counts.export_pages_replica += 1
            return router.replica.sync_engine
        router.counts.export_pages_primary += 1
        return None

    def failed(self, error: BaseException) -> None:
        """A page failed on the replica: the replica is suspect until its next good check,
        and the page is read again from the primary."""
        if self.router is not None:
            self.router.suspect(type(error).__name__)
