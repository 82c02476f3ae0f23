"""The sealer as a background task of the app: every process runs one, and each round the
process that wins the sealer's advisory lock seals (the others skip). The same task writes a
checkpoint when the newest one is older than the interval."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.audit.checkpoints import (
    CheckpointError,
    CheckpointGap,
    CheckpointStore,
    coverage_grace_seconds,
    database_name,
    measure_trail,
    write_checkpoint,
)
from carevault.audit.sealing import (
    NO_AUDIT_KEY,
    SEALER_LOCK,
    Lag,
    seal_round,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SealerStatus:
    running: bool = False
    leader: bool = False  # this process sealed in its latest round
    last_round_at: datetime | None = None
    sealed_events: int = 0  # by this process since it started
    lag: Lag | None = None
    error: str | None = None
    last_checkpoint_at: datetime | None = None
    checkpoint_error: str | None = None


class AuditSealer:
    def __init__(
        self,
        engine: AsyncEngine,
        audit_key: Callable[[], bytes | None],
        store: CheckpointStore | None,
        *,
        interval_seconds: float,
        checkpoint_interval_seconds: float,
        owns_engine: bool = False,
    ) -> None:
        self.engine = engine
        self.owns_engine = owns_engine  # its own role's engine: disposed when it stops
        self.audit_key = audit_key
        self.store = store
        self.interval = interval_seconds
        self.checkpoint_interval = checkpoint_interval_seconds
        self.status = SealerStatus()
        self._task: asyncio.Task[None] | None = None
        self._next_checkpoint_check = 0.0

    def start(self) -> None:
        self.status = replace(self.status, running=True)
        self._task = asyncio.create_task(self._run(), name="carevault-audit-sealer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.owns_engine:
            await self.engine.dispose()
        self.status = replace(self.status, running=False)

    async def _run(self) -> None:
        while True:
            await self.run_once()
            await asyncio.sleep(self.interval)

    async def run_once(self) -> None:
        """One round, the lag, and a checkpoint when due; failures are recorded, not raised."""
        key = self.audit_key()
        leader, sealed, error = False, 0, None
        if key is None:
            error = NO_AUDIT_KEY
        else:
            try:
                more = True
                while more:
                    async with self.engine.begin() as connection:
                        result = await seal_round(connection, key)
                    leader, more = result.leader, result.more
                    sealed += result.events
            except Exception as exc:  # the task must outlive a database outage
                error = f"sealing failed: {type(exc).__name__}"
                log.warning("audit sealing round failed (%s)", type(exc).__name__)
        lag = self.status.lag
        try:
            async with self.engine.connect() as connection:
                lag = await measure_trail(connection, key)
        except Exception as exc:
            error = error or f"lag unknown: {type(exc).__name__}"
        self.status = replace(
            self.status,
            leader=leader,
            last_round_at=datetime.now(UTC),
            sealed_events=self.status.sealed_events + sealed,
            lag=lag,
            error=error,
        )
        if key is not None and leader and self.store is not None:
            await self._checkpoint_if_due(key)

    async def _checkpoint_if_due(self, key: bytes) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() < self._next_checkpoint_check:
            return
        self._next_checkpoint_check = loop.time() + self.checkpoint_interval
        assert self.store is not None
        try:
            async with self.engine.begin() as connection:
                got = await connection.scalar(
                    text("SELECT pg_try_advisory_xact_lock(:a, :b)"),
                    {"a": SEALER_LOCK[0], "b": SEALER_LOCK[1]},
                )
                if not got:
                    return
                database = await database_name(connection)
                latest = await asyncio.to_thread(self.store.latest, database)
                now = datetime.now(UTC)
                if latest is not None:
                    age = (now - latest.created_at).total_seconds()
                    if age < self.checkpoint_interval:
                        # Another process wrote one recently: check again when it is due.
                        self._next_checkpoint_check = loop.time() + self.checkpoint_interval - age
                        # Written since this process's last try: whatever it refused is
                        # resolved (e.g. an operator started a new chain).
                        self.status = replace(
                            self.status, last_checkpoint_at=latest.created_at, checkpoint_error=None
                        )
                        return
                written = await write_checkpoint(
                    connection,
                    self.store,
                    key,
                    grace_seconds=coverage_grace_seconds(self.checkpoint_interval),
                )
            self.status = replace(
                self.status, last_checkpoint_at=written.created_at, checkpoint_error=None
            )
        except CheckpointGap as exc:
            # Never a new chain over sealed history without an operator: said once per try.
            log.error("audit checkpoint store refused, no new checkpoint chain: %s", exc)
            self.status = replace(self.status, checkpoint_error=str(exc))
        except CheckpointError as exc:
            log.error("audit checkpoint refused: %s", exc)
            self.status = replace(self.status, checkpoint_error=str(exc))
        except Exception as exc:
            log.warning("audit checkpoint failed (%s)", type(exc).__name__)
            self.status = replace(
                self.status, checkpoint_error=f"checkpoint failed: {type(exc).__name__}"
            )
