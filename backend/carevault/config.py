"""Settings from the environment (prefix CAREVAULT_); production refuses unsafe values."""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import ByteSize, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from carevault.core.networks import IPNetwork, parse_networks
from carevault.crypto import PhiBackend


class Environment(StrEnum):
    DEVELOPMENT = "development"
    PRODUCTION = "production"


class KeyProviderName(StrEnum):
    LOCAL = "local"
    AWS = "aws"
    ENV = "env"
    KMS = "kms"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CAREVAULT_", extra="ignore")

    env: Environment = Environment.DEVELOPMENT
    database_url: str | None = Field(
        default=None, description="postgresql+asyncpg://…; unset: embedded PostgreSQL"
    )
    # Behind PgBouncer (or another pooler) in transaction mode: no startup parameters, no
    # prepared statements, no statement outside a transaction (carevault.db.pooler). Every
    # engine reads the same variable; docs/how-to/scaling.md.
    database_pooler: Literal["none", "transaction"] = Field(
        default="none", description="transaction: behind PgBouncer's pool_mode = transaction"
    )
    # The hot statements' fast path (carevault.db.fastpath: SQLAlchemy's internals, fenced
    # and checked at start). false: every statement through SQLAlchemy's public API, in the
    # session's transaction; slower, same answers. Every engine reads the same variable.
    db_fast_path: bool = Field(
        default=True, description="false: no SQLAlchemy/asyncpg internals (slower, same answers)"
    )
    # Notices between processes (carevault.notifications): on with a Redis URL, or asked for;
    # PostgreSQL LISTEN needs a direct connection (not through a transaction pooler).
    notifications: bool = Field(
        default=False, description="hear shreds and key activations at once (LISTEN/Redis)"
    )
    redis_url: str | None = Field(default=None, description="redis://…; notices by pub/sub")
    notify_database_url: str | None = Field(
        default=None, description="a direct PostgreSQL URL for LISTEN (default: database_url)"
    )
    # An optional streaming replica (carevault.db.replica, docs/how-to/scaling.md): lists, searches
    # and the change feed read from it; writes and their audit events stay on the primary.
    read_database_url: str | None = Field(
        default=None, description="postgresql+asyncpg://… of a hot standby; unset: no replica"
    )
    # A credential that wrote reads from the primary for this long (in this process).
    read_your_writes_seconds: float = Field(default=5.0, ge=0, le=3600)
    # Reads go back to the primary while the replica is further behind than this.
    read_replica_max_lag_seconds: float = Field(default=1.5, gt=0, le=3600)
    read_replica_check_interval_seconds: float = Field(default=1.0, gt=0, le=60)

    @model_validator(mode="after")
    def _read_your_writes_covers_lag(self) -> Settings:
        # A write must be visible on the replica by the time its credential reads there
        # again: the window covers the largest lag allowed plus one check's staleness.
        from carevault.db.replica import read_your_writes_floor

        floor = read_your_writes_floor(
            self.read_replica_max_lag_seconds, self.read_replica_check_interval_seconds
        )
        if self.read_database_url and self.read_your_writes_seconds < floor:
            raise ValueError(
                "CAREVAULT_READ_YOUR_WRITES_SECONDS must be at least "
                "CAREVAULT_READ_REPLICA_MAX_LAG_SECONDS + 3.5 times "
                f"CAREVAULT_READ_REPLICA_CHECK_INTERVAL_SECONDS ({floor:g} s)"
            )
        return self

    data_dir: Path = Path(".data")
    key_provider: KeyProviderName = KeyProviderName.LOCAL
    keyring_file: Path | None = None
    keyring_json: SecretStr | None = None
    aws_secret_id: str = "carevault/keyring"  # noqa: S105 (a secret name, not a secret)
    aws_region: str | None = None
    aws_endpoint_url: str | None = None
    # CAREVAULT_KEY_PROVIDER=kms: the installation's KMS key (ARN, key id or alias/…); its
    # material never leaves KMS (carevault.crypto.kms, docs/how-to/operations.md "AWS KMS").
    kms_key_id: str | None = None
    # With KMS: a practice's unwrapped keys are asked of KMS again after this many requests,
    # even within CAREVAULT_KEY_CACHE_TTL_SECONDS.
    kms_cache_max_uses: int = Field(default=100_000, ge=1)
    key_cache_ttl_seconds: float = Field(default=300.0, gt=0)
    # Rotation policy: `keys status` and `doctor` warn when the active key is older.
    key_max_age_days: int = Field(default=90, ge=1)
    # A rotated version waits one refresh interval plus this margin before it may activate.
    key_activation_margin_seconds: float = Field(default=30.0, ge=0)
    phi_backend: PhiBackend = PhiBackend.AESGCM
    session_idle_minutes: int = Field(default=15, ge=1, le=24 * 60)
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    log_level: str = "info"
    log_format: Literal["json", "text"] | None = Field(
        default=None, description="json in production, text in development, unless set"
    )
    # Security hardening (issue 9): operational endpoints, the database roles, import size.
    metrics_token: SecretStr | None = Field(
        default=None, description="Bearer token /metrics requires; unset: /metrics is closed"
    )

    @field_validator("metrics_token")
    @classmethod
    def _metrics_token_not_blank(cls, value: SecretStr | None) -> SecretStr | None:
        """Set but empty (`CAREVAULT_METRICS_TOKEN=`) would open /metrics to `Authorization:
        Bearer ` with nothing after it: refused, not read as "closed" either, since the
        operator meant something. Surrounding whitespace (a secret file's newline) is dropped:
        the offered token is compared stripped."""
        if value is None:
            return None
        token = value.get_secret_value().strip()
        if not token:
            raise ValueError(
                "CAREVAULT_METRICS_TOKEN is set but empty: set it to a long random secret "
                "(for example `openssl rand -hex 32`), or unset it to keep /metrics closed"
            )
        return SecretStr(token)

    migration_database_url: str | None = Field(
        default=None,
        description="The schema owner's URL for `carevault db upgrade`; unset: the runtime URL",
    )
    import_max_rows: int = Field(default=100_000, ge=1)
    # Memory each process may use for the client list's decrypted names (carevault.clients.
    # listing): "64MiB", "512KB" or bytes; 0 turns the cache off.
    client_list_cache_size: ByteSize = Field(default=ByteSize(64 * 2**20), ge=0)
    # --- sign-in security (issue 9) ---
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses or CIDRs whose X-Forwarded-For is believed; "
        "empty: forwarded headers are ignored and the peer address is the client",
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _valid_proxies(cls, value: str) -> str:
        parse_networks(value)  # raises ValueError naming the bad entry
        return value

    @property
    def trusted_proxy_networks(self) -> tuple[IPNetwork, ...]:
        return parse_networks(self.trusted_proxies)

    # Audit trail sealing and checkpoints (carevault/audit/, docs/how-to/audit-trail.md).
    # The change feed (GET /api/v1/events): how long events are kept; a cursor older than
    # that gets 410 cursor_expired. Each app process runs the pruner (one prunes at a time).
    events_retention_days: int = Field(default=30, ge=1, le=3650)
    events_pruner: bool = Field(default=True, description="Prune the change feed in this process")
    events_prune_interval_seconds: float = Field(default=600.0, gt=0)
    audit_sealer: bool = Field(default=True, description="Run the sealer in this app process")
    audit_seal_interval_seconds: float = Field(default=0.5, gt=0)
    audit_seal_lag_budget_seconds: float = Field(default=30.0, gt=0)
    audit_checkpoint_url: str | None = Field(
        default=None,
        description="file:///path or s3://bucket/prefix; unset: <data_dir>/audit-checkpoints.jsonl",
    )
    audit_checkpoint_interval_seconds: float = Field(default=300.0, gt=0)
    audit_sealer_database_url: str | None = Field(
        default=None,
        description="The sealer's own role (the only one that may INSERT seals); unset: the "
        "runtime URL",
    )
    # Failing well (issue 11): every database wait of a request derives from this deadline
    # (see carevault.db.deadlines); keep it below any client's own timeout.
    request_timeout_seconds: float = Field(default=10.0, ge=1.0, le=300.0)
    # Rate-limit units a minute per API token and per login session, counted by each worker:
    # a read costs 1, a write 2, a search, import or batch read 5 (carevault.auth.permissions).
    api_rate_limit_per_minute: int = Field(default=600, ge=1, le=1_000_000)
    # Units a minute per practice, over all its API tokens (personal and service accounts';
    # sessions are not counted): one practice's integrations cannot starve the instance.
    api_rate_limit_per_practice_per_minute: int = Field(default=3000, ge=1, le=10_000_000)
    # Bulk exports (carevault.exports, docs/how-to/export.md): where the sealed NDJSON files go, and
    # how long a finished export's files are kept before they are deleted.
    export_dir: Path | None = Field(
        default=None, description="unset: <data_dir>/exports; the files are sealed (AES-GCM)"
    )
    export_retention_hours: float = Field(default=24.0, gt=0, le=24 * 30)
    # The time zone new practices start with (owners change their own); decides "today".
    default_time_zone: str = "UTC"

    @field_validator("default_time_zone")
    @classmethod
    def _known_time_zone(cls, value: str) -> str:
        from carevault.core.time_zones import UnknownTimeZone, zone

        try:
            zone(value)
        except UnknownTimeZone as unknown:
            raise ValueError(str(unknown)) from None
        return value

    # The phone region new practices start with (owners change their own): how a number
    # written without its country code is read (carevault.workspaces.phones).
    default_phone_region: str = "US"

    @field_validator("default_phone_region")
    @classmethod
    def _known_phone_region(cls, value: str) -> str:
        # Imported here: libphonenumber takes a quarter of a second to import.
        from carevault.core.phone_regions import UnknownRegion, region_code

        try:
            return region_code(value)
        except UnknownRegion as unknown:
            raise ValueError(str(unknown)) from None

    # Signed webhooks (carevault.webhooks, docs/reference/webhooks.md).
    webhook_worker: bool = Field(
        default=True, description="Run the webhook delivery worker in this app process"
    )
    webhook_allowed_networks: str = Field(
        default="",
        description="Comma-separated CIDRs webhooks may be sent to although private, "
        "loopback or link-local (plain http too, to these only); empty: HTTPS to public "
        "addresses only",
    )

    @field_validator("webhook_allowed_networks")
    @classmethod
    def _valid_webhook_networks(cls, value: str) -> str:
        parse_networks(value, "CAREVAULT_WEBHOOK_ALLOWED_NETWORKS")
        return value

    @property
    def webhook_allowed_network_list(self) -> tuple[IPNetwork, ...]:
        return parse_networks(self.webhook_allowed_networks, "CAREVAULT_WEBHOOK_ALLOWED_NETWORKS")

    webhook_poll_interval_seconds: float = Field(default=1.0, gt=0)
    webhook_timeout_seconds: float = Field(default=10.0, gt=0, le=60)
    # Retries last this long per delivery (at least a day: a receiver down over a weekend
    # night still gets everything); an endpoint failing every attempt for as long, at
    # least `webhook_disable_after_failures` times, is disabled.
    webhook_retry_hours: float = Field(default=24.0, ge=24.0, le=24.0 * 7)
    webhook_disable_after_failures: int = Field(default=10, ge=1)
    # Finished deliveries and their attempts are kept this long in the delivery log.
    webhook_log_retention_days: int = Field(default=30, ge=1, le=3650)

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.env is not Environment.PRODUCTION:
            return self
        problems = []
        if self.key_provider is KeyProviderName.LOCAL:
            problems.append(
                "CAREVAULT_KEY_PROVIDER=local keeps keys in a file beside the data; in "
                "production set CAREVAULT_KEY_PROVIDER=aws with CAREVAULT_AWS_SECRET_ID and "
                "CAREVAULT_AWS_REGION (or env with CAREVAULT_KEYRING_JSON)"
            )
        if self.key_provider is KeyProviderName.KMS and not self.kms_key_id:
            problems.append("CAREVAULT_KEY_PROVIDER=kms needs CAREVAULT_KMS_KEY_ID")
        if self.key_provider is KeyProviderName.ENV and self.keyring_json is None:
            problems.append("CAREVAULT_KEY_PROVIDER=env needs CAREVAULT_KEYRING_JSON")
        if self.database_url is None:
            problems.append(
                "CAREVAULT_DATABASE_URL is unset; the embedded database is for development "
                "only: set it to postgresql+asyncpg://USER:PASSWORD@HOST/DB"
            )
        if problems:
            raise ValueError("refusing to start in production: " + "; ".join(problems))
        return self

    @property
    def json_logs(self) -> bool:
        return self.log_format == "json" or (self.log_format is None and self.is_production)

    @property
    def is_production(self) -> bool:
        return self.env is Environment.PRODUCTION

    @property
    def resolved_keyring_file(self) -> Path:
        return self.keyring_file or self.data_dir / "keyring.json"

    @property
    def resolved_export_dir(self) -> Path:
        return self.export_dir or self.data_dir / "exports"


@lru_cache
def get_settings() -> Settings:
    return Settings()
