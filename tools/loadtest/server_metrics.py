"""Reading the server's /metrics across worker processes, and the encryption estimate.

Each uvicorn worker keeps its own counters and histograms, and a scrape of /metrics is
answered by whichever worker accepts the connection. A worker is recognised by
`carevault_keyring_last_success_timestamp_seconds` (when it loaded its key ring, to the
microsecond); the load test starts the server with a key-ring refresh interval longer than
the run, so that value does not change. A complete picture is one snapshot per worker,
gathered by scraping over fresh connections until every worker has answered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families

FINGERPRINT_METRIC = "carevault_keyring_last_success_timestamp_seconds"
OPERATIONS_SAMPLE = "carevault_field_operations_total"
LATENCY_METRIC = "carevault_http_request_duration_seconds"


def is_scrape(route: str, method: str, status: str) -> bool:
    """Scrapes of /metrics are the tool's own traffic, not the workload's. The server labels
    them `unmatched` (the route is added outside FastAPI's router), so a successful GET of
    an unmatched route is a scrape; a path that does not exist answers 404 and still counts."""
    return route == "/metrics" or (route == "unmatched" and method == "GET" and status == "200")


@dataclass(frozen=True)
class WorkerSnapshot:
    """One worker's counters at one moment."""

    fingerprint: str
    encrypted: float = 0.0
    decrypted: float = 0.0
    decrypt_failed: float = 0.0
    # (route, method, status) -> seconds / count, from the latency histogram
    seconds: dict[tuple[str, str, str], float] = field(default_factory=dict)
    count: dict[tuple[str, str, str], float] = field(default_factory=dict)


def parse_snapshot(text: str) -> WorkerSnapshot:
    """A worker snapshot from one /metrics answer; raises ValueError if it has no
    fingerprint (not a CareVault worker, or an incompatible version)."""
    fingerprint: str | None = None
    operations: dict[str, float] = {}
    seconds: dict[tuple[str, str, str], float] = {}
    count: dict[tuple[str, str, str], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == FINGERPRINT_METRIC:
                fingerprint = repr(float(sample.value))
            elif sample.name == OPERATIONS_SAMPLE:
                operations[labels.get("operation", "")] = float(sample.value)
            elif sample.name in (f"{LATENCY_METRIC}_sum", f"{LATENCY_METRIC}_count"):
                key = (labels.get("route", ""), labels.get("method", ""), labels.get("status", ""))
                target = seconds if sample.name.endswith("_sum") else count
                target[key] = float(sample.value)
    if fingerprint is None:
        raise ValueError(f"no {FINGERPRINT_METRIC} in the /metrics answer")
    return WorkerSnapshot(
        fingerprint=fingerprint,
        encrypted=operations.get("encrypt", 0.0),
        decrypted=operations.get("decrypt", 0.0),
        decrypt_failed=operations.get("decrypt_failed", 0.0),
        seconds=seconds,
        count=count,
    )


@dataclass(frozen=True)
class ServerDelta:
    """What every worker together did between two sets of snapshots."""

    workers_before: int
    workers_after: int
    workers_matched: int
    encrypted: float
    decrypted: float
    request_seconds: float
    requests: float
    by_route: dict[str, dict[str, float]]


def delta(before: Mapping[str, WorkerSnapshot], after: Mapping[str, WorkerSnapshot]) -> ServerDelta:
    """Sum over workers of after minus before. A worker missing from `before` (it had not
    been seen) counts from zero; one missing from `after` contributes nothing, so compare
    `workers_matched` with the worker count before trusting the totals."""
    encrypted = decrypted = request_seconds = requests = 0.0
    by_route: dict[str, dict[str, float]] = {}
    for fingerprint, now in after.items():
        then = before.get(fingerprint, WorkerSnapshot(fingerprint))
        encrypted += now.encrypted - then.encrypted
        decrypted += now.decrypted - then.decrypted
        for key, value in now.seconds.items():
            route, method, status = key
            if is_scrape(route, method, status):
                continue
            spent = value - then.seconds.get(key, 0.0)
            served = now.count.get(key, 0.0) - then.count.get(key, 0.0)
            if served <= 0:
                continue
            request_seconds += spent
            requests += served
            entry = by_route.setdefault(f"{method} {route}", {"requests": 0.0, "seconds": 0.0})
            entry["requests"] += served
            entry["seconds"] += spent
    return ServerDelta(
        workers_before=len(before),
        workers_after=len(after),
        workers_matched=len(set(before) & set(after)),
        encrypted=encrypted,
        decrypted=decrypted,
        request_seconds=request_seconds,
        requests=requests,
        by_route=by_route,
    )


@dataclass(frozen=True)
class EncryptionEstimate:
    encrypted: int
    decrypted: int
    field_ops_per_request: float
    encrypt_seconds: float
    decrypt_seconds: float
    server_seconds: float
    server_requests: int
    share: float | None
    per_request_us: float | None
    complete: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "encrypt_ops": self.encrypted,
            "decrypt_ops": self.decrypted,
            "field_ops_per_request": round(self.field_ops_per_request, 2),
            "estimated_encryption_seconds": round(self.encrypt_seconds + self.decrypt_seconds, 6),
            "server_request_seconds": round(self.server_seconds, 4),
            "server_requests": self.server_requests,
            "share": None if self.share is None else round(self.share, 6),
            "encryption_us_per_request": None
            if self.per_request_us is None
            else round(self.per_request_us, 2),
            "all_workers_read": self.complete,
        }


def estimate_encryption(
    change: ServerDelta, *, encrypt_seconds: float, decrypt_seconds: float, workers: int
) -> EncryptionEstimate:
    """Field operations counted by the server times the per-field cost measured in-process,
    divided by the time the server spent in requests (the latency histograms' _sum)."""
    enc_time = change.encrypted * encrypt_seconds
    dec_time = change.decrypted * decrypt_seconds
    served = round(change.requests)
    share = (enc_time + dec_time) / change.request_seconds if change.request_seconds > 0 else None
    return EncryptionEstimate(
        encrypted=round(change.encrypted),
        decrypted=round(change.decrypted),
        field_ops_per_request=(change.encrypted + change.decrypted) / served if served else 0.0,
        encrypt_seconds=enc_time,
        decrypt_seconds=dec_time,
        server_seconds=change.request_seconds,
        server_requests=served,
        share=share,
        per_request_us=(enc_time + dec_time) / served * 1e6 if served else None,
        complete=change.workers_before >= workers
        and change.workers_after >= workers
        and change.workers_matched >= workers,
    )


def merge_snapshots(answers: Iterable[str]) -> dict[str, WorkerSnapshot]:
    """One snapshot per worker from several /metrics answers (the last one seen wins)."""
    found: dict[str, WorkerSnapshot] = {}
    for text in answers:
        snapshot = parse_snapshot(text)
        found[snapshot.fingerprint] = snapshot
    return found
