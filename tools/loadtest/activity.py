"""What the test database's backends are doing, sampled from pg_stat_activity while a run
is in flight: how many are active, and what the waiting ones wait for."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass, field

import asyncpg
import psutil

INTERVAL_SECONDS = 0.1
QUERY = """
SELECT pid, state, wait_event_type, wait_event
FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
"""


@dataclass
class ActivitySampler:
    dsn: str
    samples: int = 0
    active: int = 0
    states: Counter[str] = field(default_factory=Counter)
    waits: Counter[str] = field(default_factory=Counter)
    pids: set[int] = field(default_factory=set)
    # CPU seconds of each backend when first and last seen: backends that the server's
    # connection pool closes mid-run keep their CPU in the total (up to the last sample).
    first_cpu: dict[int, float] = field(default_factory=dict)
    last_cpu: dict[int, float] = field(default_factory=dict)
    _known_at_start: set[int] = field(default_factory=set)
    _task: asyncio.Task[None] | None = None
    _connection: asyncpg.Connection | None = None

    async def start(self) -> None:
        """Connect, note the backends already there, and start sampling."""
        self._connection = await asyncpg.connect(self.dsn)
        await self._note_backends()
        self._known_at_start = set(self.pids)
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop sampling; `pids` then holds every backend seen from start to stop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._connection is not None:
            await self._note_backends()
            await self._connection.close()

    async def _note_backends(self) -> None:
        assert self._connection is not None
        rows = await self._connection.fetch(QUERY)
        self._note_cpu({int(row["pid"]) for row in rows})

    def _note_cpu(self, pids: set[int]) -> None:
        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            seconds = float(times.user + times.system)
            self.first_cpu.setdefault(pid, seconds)
            self.last_cpu[pid] = seconds
        self.pids.update(pids)

    def backend_cpu_seconds(self) -> float:
        """CPU the test database's backends used between start and stop; a backend that
        connected after start counts from zero."""
        total = 0.0
        for pid, last in self.last_cpu.items():
            first = self.first_cpu[pid] if pid in self._known_at_start else 0.0
            total += last - first
        return total

    async def _loop(self) -> None:
        assert self._connection is not None
        while True:
            rows = await self._connection.fetch(QUERY)
            self.samples += 1
            self._note_cpu({int(row["pid"]) for row in rows})
            for row in rows:
                self.states[str(row["state"])] += 1
                if row["state"] != "active":
                    continue
                self.active += 1
                if row["wait_event_type"]:
                    self.waits[f"{row['wait_event_type']}:{row['wait_event']}"] += 1
            await asyncio.sleep(INTERVAL_SECONDS)

    def summary(self) -> dict[str, object]:
        samples = max(self.samples, 1)
        return {
            "samples": self.samples,
            "backends_seen": len(self.pids),
            "mean_active_backends": round(self.active / samples, 2),
            "mean_backends_by_state": {
                name: round(count / samples, 2) for name, count in self.states.most_common()
            },
            "mean_waiting_by_event": {
                name: round(count / samples, 2) for name, count in self.waits.most_common(6)
            },
        }
