from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from carevault.api.failures import IncidentLog
from carevault.auth.rate_limit import InProcessBackend, RateLimitBackend, RateLimiter
from carevault.clients.listing import ClientListCache
from carevault.config import Settings
from carevault.crypto import KeyRingManager

if TYPE_CHECKING:
    from carevault.audit.background import AuditSealer
    from carevault.db.replica import ReplicaRouter
    from carevault.notifications import Notifier
    from carevault.webhooks.delivery import WebhookWorker


@dataclass
class AppState:
    """What a running app holds: built once in the lifespan, read by dependencies."""

    settings: Settings
    key_manager: KeyRingManager
    engine: AsyncEngine
    db_sessions: async_sessionmaker[AsyncSession]
    pgcrypto_available: bool
    audit_sealer: AuditSealer | None = None
    webhook_worker: WebhookWorker | None = None
    # Database failures seen by requests (logged once per interval; read by readiness).
    incidents: IncidentLog = field(default_factory=IncidentLog)
    rate_limiter: RateLimiter | None = None
    # Each practice's decrypted, folded client names (carevault.clients.listing).
    client_list_cache: ClientListCache | None = None
    # Notices from other processes (carevault.notifications), when configured.
    notifier: Notifier | None = None
    # The read replica's router (carevault.db.replica), when CAREVAULT_READ_DATABASE_URL is set.
    replica: ReplicaRouter | None = None

    def __post_init__(self) -> None:
        if self.rate_limiter is None:
            self.rate_limiter = RateLimiter(
                self.settings.api_rate_limit_per_minute,
                self.settings.api_rate_limit_per_practice_per_minute,
                backend=rate_limit_backend(self.settings),
            )
        if self.client_list_cache is None:
            self.client_list_cache = ClientListCache(int(self.settings.client_list_cache_size))


def rate_limit_backend(settings: Settings) -> RateLimitBackend:
    """Shared budgets in Redis when CAREVAULT_REDIS_URL is set (carevault.auth.rate_limit_redis);
    otherwise each process counts its own."""
    if settings.redis_url:
        from carevault.auth.rate_limit_redis import RedisBackend

        return RedisBackend(settings.redis_url)
    return InProcessBackend()
