"""The bounded load generator: N concurrent virtual users issuing requests until either the
request budget or the time budget is spent, then stopping by themselves.

Closed loop: each virtual user sends its next request when the previous one has answered,
so concurrency is the number of requests in flight. Two bounds hold every run:
- `max_requests`: no more requests are started once this many have been;
- `max_seconds`: no request is started after it, and whatever is still in flight
  `grace_seconds` later is cancelled and counted as cut off (an error), so a hung server
  cannot hang the tool.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from tools.loadtest.stats import Sample

Clock = Callable[[], float]


@dataclass(frozen=True)
class Outcome:
    """What one request returned. `latency`, when given, replaces the time the scheduler
    measured around the call (an operation that does follow-up work, such as refetching a
    note after a 409, reports the latency of its main request only)."""

    kind: str = "ok"
    detail: str | None = None
    latency: float | None = None
    response_bytes: int = 0


Operation = Callable[[int], Awaitable[Outcome]]


@dataclass(frozen=True)
class BoundedRun:
    samples: list[Sample]
    started: int
    cut_off: int
    wall_seconds: float
    peak_in_flight: int
    stopped_by: str  # "requests" or "time"


async def run_bounded(
    operation: Operation,
    *,
    concurrency: int,
    max_requests: int,
    max_seconds: float,
    grace_seconds: float = 10.0,
    clock: Clock = time.perf_counter,
) -> BoundedRun:
    """Run `operation(index)` with at most `concurrency` calls in flight, bounded by count and
    time. An exception from the operation is recorded as an error sample, never raised."""
    if concurrency < 1 or max_requests < 1 or max_seconds <= 0:
        raise ValueError("concurrency, max_requests and max_seconds must be positive")
    samples: list[Sample] = []
    started = 0
    in_flight = 0
    peak_in_flight = 0
    begin = clock()
    deadline = begin + max_seconds

    async def virtual_user() -> None:
        nonlocal started, in_flight, peak_in_flight
        while started < max_requests and clock() < deadline:
            index = started
            started += 1
            in_flight += 1
            peak_in_flight = max(peak_in_flight, in_flight)
            sent = clock()
            try:
                outcome = await operation(index)
            except Exception as exc:  # a failed request is a data point, not a crash
                outcome = Outcome("error", type(exc).__name__)
            finally:
                in_flight -= 1
            latency = outcome.latency if outcome.latency is not None else clock() - sent
            samples.append(Sample(latency, outcome.kind, outcome.detail, outcome.response_bytes))

    users = [asyncio.create_task(virtual_user()) for _ in range(min(concurrency, max_requests))]
    _, pending = await asyncio.wait(users, timeout=max_seconds + grace_seconds)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    wall = clock() - begin
    return BoundedRun(
        samples=samples,
        started=started,
        cut_off=started - len(samples),
        wall_seconds=wall,
        peak_in_flight=peak_in_flight,
        stopped_by="requests" if started >= max_requests else "time",
    )
