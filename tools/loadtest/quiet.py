"""The machine is shared: before each measurement, wait (within a budget) until the other
processes on it leave the CPU mostly idle, and record how busy it was."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import psutil

from tools.loadtest.machine import nproc


def busy_cores(seconds: float) -> float:
    """Cores busy over the next `seconds` (everything on the machine). Blocking."""
    before = psutil.cpu_times()
    time.sleep(seconds)
    after = psutil.cpu_times()
    total = sum(after) - sum(before)
    idle = (after.idle - before.idle) + (
        getattr(after, "iowait", 0.0) - getattr(before, "iowait", 0.0)
    )
    return (total - idle) / total * nproc() if total > 0 else 0.0


@dataclass
class QuietGate:
    """Waits at most `budget_seconds` in all for the machine to be below `threshold_cores`
    busy (measured over `window` seconds while the tool itself is idle)."""

    budget_seconds: float
    threshold_cores: float = 0.35
    window: float = 2.0
    log: list[dict[str, object]] = field(default_factory=list)
    spent: float = 0.0

    async def wait(self, label: str, baseline_cores: float = 0.0) -> float:
        """`baseline_cores`: what the tool's own idle processes are known to use."""
        started = time.monotonic()
        while True:
            busy = await asyncio.to_thread(busy_cores, self.window)
            others = max(0.0, busy - baseline_cores)
            waited = time.monotonic() - started
            if others <= self.threshold_cores or self.spent + waited >= self.budget_seconds:
                self.spent += waited
                self.log.append(
                    {
                        "before": label,
                        "other_cores": round(others, 2),
                        "waited_seconds": round(waited, 1),
                        "quiet": others <= self.threshold_cores,
                    }
                )
                return others
            await asyncio.sleep(3)
