from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel


class Liveness(BaseModel):
    status: Literal["ok"] = "ok"


class DatabaseReadiness(BaseModel):
    reachable: bool
    schema_revision: str | None
    expected_revision: str | None
    error: str | None = None


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


class PgcryptoReadiness(BaseModel):
    available: bool
    in_use: bool


class Readiness(BaseModel):
    status: Literal["ready", "degraded", "unavailable"]
    database: DatabaseReadiness
    key_ring: KeyRingReadiness
    pgcrypto: PgcryptoReadiness
    phi_backend: str
