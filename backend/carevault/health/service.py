from __future__ import annotations

import asyncio

from carevault.api.state import AppState
from carevault.crypto import PhiBackend
from carevault.db.migrate import current_revision, head_revision
from carevault.health.schemas import (
    DatabaseReadiness,
    KeyRingReadiness,
    PgcryptoReadiness,
    Readiness,
)
from carevault.runtime import pgcrypto_available

DATABASE_CHECK_TIMEOUT_SECONDS = 3.0


async def check_database(state: AppState) -> tuple[DatabaseReadiness, bool]:
    expected = head_revision()
    try:
        async with asyncio.timeout(DATABASE_CHECK_TIMEOUT_SECONDS):
            revision = await current_revision(state.engine)
            pgcrypto = await pgcrypto_available(state.engine)
    except Exception as exc:  # any failure here means "not reachable", reported, not raised
        return (
            DatabaseReadiness(
                reachable=False,
                schema_revision=None,
                expected_revision=expected,
                error=type(exc).__name__,
            ),
            False,
        )
    return (
        DatabaseReadiness(reachable=True, schema_revision=revision, expected_revision=expected),
        pgcrypto,
    )


async def readiness(state: AppState) -> Readiness:
    database, pgcrypto = await check_database(state)
    ring = state.key_manager.status()
    key_ring = KeyRingReadiness(
        loaded=ring.loaded,
        source=ring.source,
        active_version=ring.active_version,
        active_key_age_seconds=ring.active_age_seconds,
        versions=ring.versions,
        refresh_interval_seconds=ring.ttl_seconds,
        last_refresh_at=ring.last_refresh_at,
        last_success_at=ring.last_success_at,
        last_refresh_error=ring.last_error,
        consecutive_failures=ring.consecutive_failures,
    )
    if not database.reachable or not ring.loaded:
        status = "unavailable"
    elif ring.last_error or database.schema_revision != database.expected_revision:
        status = "degraded"
    else:
        status = "ready"
    backend = state.settings.phi_backend
    return Readiness(
        status=status,
        database=database,
        key_ring=key_ring,
        pgcrypto=PgcryptoReadiness(available=pgcrypto, in_use=backend is PhiBackend.PGCRYPTO),
        phi_backend=backend.value,
    )
