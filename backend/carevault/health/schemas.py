from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Liveness(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})

    status: Literal["ok"] = "ok"


class Version(BaseModel):
    """Which CareVault answers: its release (semantic versioning) and the API's major version."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"version": "0.2.0", "api": "v1"}]})

    version: str = Field(description="The release, as in CHANGELOG.md")
    api: Literal["v1"] = "v1"


class PublicReadiness(BaseModel):
    """All the public readiness endpoint says: whether to send traffic here."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ready"}]})

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


class KmsKeyReadiness(BaseModel):
    """A KMS key this process uses, as KMS last described it (an id, never a key)."""

    key_id: str
    # KMS's KeyState (Enabled, Disabled, PendingDeletion, …), or why it could not be read.
    state: str
    checked_at: datetime
    installation: bool


class KmsReadiness(BaseModel):
    """CAREVAULT_KEY_PROVIDER=kms: the keys, and the practices this process serves."""

    installation_key_id: str
    keys: list[KmsKeyReadiness]
    # Practices whose keys this process holds (served without asking KMS).
    practices_cached: int
    # Practices whose keys KMS refused at their last load, counted by reason code.
    practices_refused: dict[str, int]
    # KMS calls this process made, by operation (GenerateDataKey, Decrypt, …).
    calls: dict[str, int]


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
    # Where the master keys live: local, env, aws (Secrets Manager) or kms.
    provider: str = "local"
    kms: KmsReadiness | None = None


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
    # Seals past the frontier whose MAC does not verify (inserted without the audit key):
    # never trusted; `carevault audit verify` names them all.
    untrusted_seals: int | None = None
    error: str | None = None


class ReplicaReadiness(BaseModel):
    """The read replica (CAREVAULT_READ_DATABASE_URL), from this process's last check: lists,
    searches and the change feed read from it while `serving_reads`; otherwise from the
    primary (degraded, not unavailable)."""

    state: Literal["unknown", "streaming", "lagging", "unreachable", "not_in_recovery"]
    serving_reads: bool
    lag_seconds: float | None = Field(
        description="How long ago the primary had the oldest WAL position not yet replayed"
    )
    max_lag_seconds: float
    behind_bytes: int | None
    replay_paused: bool | None
    checked_at: datetime | None
    read_your_writes_seconds: float
    requests_on_replica: int
    requests_on_primary: int
    error: str | None = None


class ListenerReadiness(BaseModel):
    """One carrier's notice listener (carevault.notifications)."""

    state: Literal["listening", "reconnecting"]
    since: datetime = Field(description="When it started listening, or lost its connection")
    error: str | None = Field(default=None, description="The last failure's class")


class NotificationsReadiness(BaseModel):
    """Notices from other processes (shreds, key activations): optional. A listener down
    only delays what a notice speeds up (the per-request checks still hold), so it makes
    the process degraded, never unavailable."""

    postgres: ListenerReadiness | None = Field(
        default=None, description="LISTEN on PostgreSQL (null: not listened on)"
    )
    redis: ListenerReadiness | None = Field(
        default=None, description="Redis pub/sub (null: no CAREVAULT_REDIS_URL)"
    )


class RedisReadiness(BaseModel):
    """Redis (CAREVAULT_REDIS_URL) for the request limits: `shared` while it answers;
    `falling_back` to this process's own budgets while it does not (degraded, still serving)."""

    limits: Literal["shared", "falling_back"]
    since: datetime
    fallback_requests: int = Field(description="Requests counted in process since start")
    error: str | None = Field(default=None, description="The last failure's class")


READINESS_EXAMPLE: dict[str, Any] = {
    "status": "ready",
    "reasons": [],
    "database": {
        "reachable": True,
        "schema_revision": "0015",
        "expected_revision": "0015",
        "error": None,
        "writable": True,
        "write_probed_at": "2025-01-15T10:14:30Z",
        "latency_ms": 1.8,
        "recent_failure": None,
    },
    "key_ring": {
        "loaded": True,
        "source": "AWS Secrets Manager secret carevault/keyring",
        "active_version": 2,
        "active_key_age_seconds": 2_592_000.0,
        "versions": {"1": "decrypt-only", "2": "active"},
        "refresh_interval_seconds": 300.0,
        "last_refresh_at": "2025-01-15T10:12:00Z",
        "last_success_at": "2025-01-15T10:12:00Z",
        "last_refresh_error": None,
        "consecutive_failures": 0,
        "pending_version": None,
        "pending_activates_at": None,
        "refused_ring_reason": None,
        "data_key_warnings": [],
    },
    "pgcrypto": {"available": True, "in_use": False},
    "phi_backend": "aesgcm",
    "audit": {
        "sealer_running": True,
        "lag_seconds": 0.4,
        "unsealed_events": 3,
        "lag_budget_seconds": 30.0,
        "last_round_at": "2025-01-15T10:14:36Z",
        "last_checkpoint_at": "2025-01-15T10:10:00Z",
        "untrusted_seals": 0,
        "error": None,
    },
}
# What the report looks like when the database cannot be reached (a 503).
UNAVAILABLE_READINESS_EXAMPLE: dict[str, Any] = READINESS_EXAMPLE | {
    "status": "unavailable",
    "reasons": ["database_unreachable"],
    "database": {
        "reachable": False,
        "schema_revision": None,
        "expected_revision": "0015",
        "error": "ConnectionRefusedError",
        "writable": None,
        "write_probed_at": None,
        "latency_ms": None,
        "recent_failure": "database_unavailable",
    },
}


class Readiness(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [READINESS_EXAMPLE]})

    status: Literal["ready", "degraded", "unavailable"]
    reasons: list[str] = Field(
        default_factory=list,
        description="Why not ready: database_unreachable, database_timeout, "
        "database_not_writable, storage_full, key_ring_not_loaded (unavailable); "
        "database_slow, database_timeouts, key_refresh_failing, key_refresh_overdue, "
        "schema_mismatch, replica_unreachable, replica_lagging, replica_not_in_recovery, "
        "replica_check_overdue "
        "(degraded: reads fall back to the primary), "
        "notifications_postgres_reconnecting, notifications_redis_reconnecting (degraded: "
        "notices wait for the listener, the per-request checks hold), "
        "redis_limits_falling_back (degraded: each process counts its own budgets)",
    )
    database: DatabaseReadiness
    key_ring: KeyRingReadiness
    pgcrypto: PgcryptoReadiness
    phi_backend: str
    audit: AuditReadiness
    # Only with a read replica configured.
    replica: ReplicaReadiness | None = None
    # Only with notifications (CAREVAULT_NOTIFICATIONS or CAREVAULT_REDIS_URL) configured.
    notifications: NotificationsReadiness | None = None
    # Only with CAREVAULT_REDIS_URL configured.
    redis: RedisReadiness | None = None
