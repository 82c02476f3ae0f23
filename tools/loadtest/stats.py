"""Latency statistics: percentiles and the summary of one measured run (pure functions)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks (the
    definition numpy uses by default). `values` need not be sorted; empty gives NaN."""
    if not 0 <= q <= 100:
        raise ValueError("q must be between 0 and 100")
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    lower = math.floor(position)
    upper = math.ceil(position)
    if lower == upper:
        return ordered[lower]
    weight = position - lower
    return ordered[lower] * (1 - weight) + ordered[upper] * weight


@dataclass(frozen=True)
class Sample:
    """One request: its latency in seconds and how it ended.

    kind: "ok"; "conflict" (an expected 409, e.g. a stale autosave, not an error);
    "error" with `detail` (an HTTP status or an exception name)."""

    latency: float
    kind: str = "ok"
    detail: str | None = None
    response_bytes: int = 0


@dataclass(frozen=True)
class RunSummary:
    requests: int
    ok: int
    conflicts: int
    errors: int
    cut_off: int
    wall_seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    mean_response_bytes: float
    error_details: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "requests": self.requests,
            "ok": self.ok,
            "conflicts": self.conflicts,
            "errors": self.errors,
            "cut_off": self.cut_off,
            "wall_seconds": round(self.wall_seconds, 3),
            "rps": _round(self.rps, 1),
            "p50_ms": _round(self.p50_ms, 2),
            "p95_ms": _round(self.p95_ms, 2),
            "p99_ms": _round(self.p99_ms, 2),
            "mean_ms": _round(self.mean_ms, 2),
            "max_ms": _round(self.max_ms, 2),
            "mean_response_bytes": _round(self.mean_response_bytes, 0),
            "error_details": dict(self.error_details),
        }


def _round(value: float, digits: int) -> float | None:
    return None if math.isnan(value) else round(value, digits)


def summarize(samples: Sequence[Sample], wall_seconds: float, cut_off: int = 0) -> RunSummary:
    """Completed requests per second of wall time; latency percentiles over every completed
    request, whatever its outcome (a 409 or a 500 took time too). Requests cut off by the
    run's hard time limit count as errors and have no latency."""
    latencies = [s.latency for s in samples]
    details = Counter(s.detail or "unknown" for s in samples if s.kind == "error")
    if cut_off:
        details["cut off at the time limit"] += cut_off
    completed = len(samples)
    return RunSummary(
        requests=completed + cut_off,
        ok=sum(1 for s in samples if s.kind == "ok"),
        conflicts=sum(1 for s in samples if s.kind == "conflict"),
        errors=sum(1 for s in samples if s.kind == "error") + cut_off,
        cut_off=cut_off,
        wall_seconds=wall_seconds,
        rps=completed / wall_seconds if wall_seconds > 0 else math.nan,
        p50_ms=percentile(latencies, 50) * 1000,
        p95_ms=percentile(latencies, 95) * 1000,
        p99_ms=percentile(latencies, 99) * 1000,
        mean_ms=(sum(latencies) / completed * 1000) if completed else math.nan,
        max_ms=max(latencies) * 1000 if latencies else math.nan,
        mean_response_bytes=(sum(s.response_bytes for s in samples) / completed)
        if completed
        else math.nan,
        error_details=dict(sorted(details.items())),
    )
