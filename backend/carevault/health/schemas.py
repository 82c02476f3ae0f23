from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class Liveness(BaseModel):
    status: Literal["ok"] = "ok"


class PublicReadiness(BaseModel):
    """All the public readiness endpoint says: whether to send traffic here."""

    status: Literal["ready", "degraded", "unavailable"]


class DatabaseReadiness(BaseModel):
    reachable: bool
    schema_revision: str | None
    expected_revision: str | None
    error: str | None = None
    writable: bool | None = Field(
        default=None,
        description="The last write probe committed (null: not probed, e.g. schema behind)",
    )
    write_probed_at: datetime | None = None
    latency_ms: float | None = Field(default=None, description="Of this check's round trips")
    recent_failure: str | None = Field(
        default=None, description="A failure code requests met lately, e.g. storage_full"
    )


class KeyRingReadiness(BaseModel):
    loaded: bool
    source: str
    active_version: int | None
    active_key_age_seconds: float | None
    versions: dict[int, str]
    refresh_interval_seconds: float
    last_refresh_at: datetime | None
    last_success_at: datetime | None
    last_refresh_error: str | None
    consecutive_failures: int
    # Staged rotation: a version every process decrypts with, active from this moment.
    pending_version: int | None = None
    pending_activates_at: datetime | None = None
    # Why the last refreshed ring was refused (it would have stranded stored data).
    refused_ring_reason: str | None = None
    # Data keys this process has sealed with past 2^30 values (NIST SP 800-38D allows 2^32
    # random nonces per key): rotate long before the limit.
    data_key_warnings: list[str] = []


class PgcryptoReadiness(BaseModel):
    available: bool
    in_use: bool


class AuditReadiness(BaseModel):
    """The sealer: events committed but not sealed yet, and how long the oldest has waited."""

    sealer_running: bool
    lag_seconds: float | None
    unsealed_events: int | None
    lag_budget_seconds: float
    last_round_at: datetime | None
    last_checkpoint_at: datetime | None
    error: str | None = None


class Readiness(BaseModel):
    status: Literal["ready", "degraded", "unavailable"]
    reasons: list[str] = Field(
        default_factory=list,
        description="Why not ready: database_unreachable, database_timeout, "
        "database_not_writable, storage_full, key_ring_not_loaded (unavailable); "
        "database_slow, database_timeouts, key_refresh_failing, key_refresh_overdue, "
        "schema_mismatch (degraded)",
    )
    database: DatabaseReadiness
    key_ring: KeyRingReadiness
    pgcrypto: PgcryptoReadiness
    phi_backend: str
    audit: AuditReadiness
