"""Housekeeping of the change feed: events older than the retention period are pruned by a
background task of the app (every process runs one; one prunes at a time)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.events.feed import prune_expired

log = logging.getLogger(__name__)

# pg_try_advisory_xact_lock(int, int): a namespace no other lock in CareVault uses.
PRUNER_LOCK = (0x43564556, 0x5052554E)  # "CVEV", "PRUN"
BATCH = 5_000  # events per transaction: a round never holds long locks
MAX_BATCHES = 100  # per round; the next round goes on


async def prune_round(
    engine: AsyncEngine, retention: timedelta, *, now: datetime | None = None
) -> int | None:
    """Prune what has expired, a batch per transaction; None when another process holds the
    pruner's lock (it is pruning), else how many events went."""
    pruned = 0
    for _ in range(MAX_BATCHES):
        async with AsyncSession(engine) as db, db.begin():
            got = await db.scalar(
                text("SELECT pg_try_advisory_xact_lock(:a, :b)"),
                {"a": PRUNER_LOCK[0], "b": PRUNER_LOCK[1]},
            )
            if not got:
                return None if pruned == 0 else pruned
            batch = await prune_expired(db, now or datetime.now(UTC), retention, BATCH)
        pruned += batch
        if batch < BATCH:
            break
    return pruned


class EventPruner:
    def __init__(self, engine: AsyncEngine, *, retention_days: int, interval_seconds: float):
        self.engine = engine
        self.retention = timedelta(days=retention_days)
        self.interval = interval_seconds
        self.last_error: str | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="carevault-event-pruner")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            # First wait: a process starting (or a short-lived one) does nothing extra.
            await asyncio.sleep(self.interval)
            try:
                pruned = await prune_round(self.engine, self.retention)
                self.last_error = None
                if pruned:
                    log.info("pruned %d change events past retention", pruned)
            except Exception as exc:  # the task must outlive a database outage
                self.last_error = type(exc).__name__
                log.warning("change event pruning failed (%s)", type(exc).__name__)
