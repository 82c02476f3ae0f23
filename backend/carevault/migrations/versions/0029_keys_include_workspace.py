"""Ready to shard (issue 27): every key of a tenant table includes `workspace_id`, the
distribution column a Citus cluster would shard on (docs/how-to/sharding.md;
checked by backend/tests/integration/test_shard_ready.py).

- Primary keys `(id)` become `(id, workspace_id)`: `id` leads, so a lookup by id alone (the
  ORM's identity, which stays `id`) still uses the key's index.
- Foreign keys `(x_id) -> parent(id)` become `(workspace_id, x_id) -> parent(workspace_id,
  id)`, under the same names and with the same ON DELETE action; `SET NULL` names `x_id`
  alone (PostgreSQL 15), so `workspace_id` is never cleared. A reference can no longer
  cross practices: the upgrade stops, naming the key, if an existing row's does.
- Secret hashes (`api_tokens.token_hash`, `login_sessions.secret_hash`,
  `trusted_devices.secret_hash`) are unique per practice, with a plain index on the hash
  for the lookup that finds the practice (carevault.auth.service refuses a hash found
  twice).
- Other unique keys gain `workspace_id` in front (note versions, webhook deliveries, export
  parts, idempotency records): a row belongs to one practice, so they allow nothing more.
- `audit_events`: an installation's events have no practice (`workspace_id` NULL), so its
  key is `UNIQUE NULLS NOT DISTINCT (workspace_id, id)` instead of a primary key.

Every key is rebuilt, each table under an ACCESS EXCLUSIVE lock while its indexes are built
and its references checked; no row is written (the time it takes: docs/how-to/scaling.md).

Revision ID: 0029
Revises: 0028
"""

from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Tables keyed by `id` alone until now (audit_events apart, below).
KEYED_BY_ID = (
    "api_tokens",
    "appointments",
    "audit_seals",
    "change_events",
    "chart_access_grants",
    "client_list_changes",
    "clients",
    "export_files",
    "export_jobs",
    "idempotency_records",
    "login_sessions",
    "service_accounts",
    "session_versions",
    "sessions",
    "trusted_devices",
    "users",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_endpoints",
)

# (table, column, parent, ON DELETE); None: the default, NO ACTION.
REFERENCES: tuple[tuple[str, str, str, str | None], ...] = (
    ("api_tokens", "service_account_id", "service_accounts", "RESTRICT"),
    ("api_tokens", "user_id", "users", "CASCADE"),
    ("appointments", "client_id", "clients", "RESTRICT"),
    ("appointments", "clinician_id", "users", "RESTRICT"),
    ("audit_events", "actor_token_id", "api_tokens", None),
    ("audit_events", "actor_user_id", "users", None),
    ("care_team_members", "client_id", "clients", "CASCADE"),
    ("care_team_members", "user_id", "users", "CASCADE"),
    ("chart_access_grants", "client_id", "clients", "CASCADE"),
    ("chart_access_grants", "user_id", "users", "CASCADE"),
    ("export_files", "job_id", "export_jobs", "CASCADE"),
    ("export_jobs", "requested_by", "users", "SET NULL"),
    ("login_sessions", "user_id", "users", "CASCADE"),
    ("service_accounts", "created_by", "users", "SET NULL"),
    ("session_versions", "amended_by", "users", None),
    ("session_versions", "session_id", "sessions", "CASCADE"),
    ("sessions", "appointment_id", "appointments", "SET NULL"),
    ("sessions", "author_id", "users", None),
    ("sessions", "client_id", "clients", "RESTRICT"),
    ("sessions", "cosigned_by", "users", None),
    ("sessions", "signed_by", "users", None),
    ("trusted_devices", "user_id", "users", "CASCADE"),
    ("users", "supervisor_id", "users", "SET NULL"),
    ("webhook_attempts", "delivery_id", "webhook_deliveries", "CASCADE"),
    ("webhook_deliveries", "endpoint_id", "webhook_endpoints", "CASCADE"),
)

# Secret hashes looked up before the practice is known: (table, column, constraint).
SECRET_HASHES = (
    ("api_tokens", "token_hash", "uq_api_tokens_token_hash"),
    ("login_sessions", "secret_hash", "uq_login_sessions_secret_hash"),
    ("trusted_devices", "secret_hash", "uq_trusted_devices_secret_hash"),
)

# Unique indexes that gain workspace_id in front: (table, index, columns after it).
UNIQUE_INDEXES = (
    ("session_versions", "uq_session_versions_session_version", "session_id, version"),
    ("export_files", "uq_export_files_job_type_part", "job_id, resource_type, part"),
    ("idempotency_records", "uq_idempotency_records_caller_key", "caller_hash, key_hash"),
)
DELIVERY_KEY = "uq_webhook_deliveries_endpoint_event"


def _fk_name(table: str, column: str, parent: str) -> str:
    return f"fk_{table}_{column}_{parent}"


def _on_delete(action: str | None, column: str) -> str:
    if action is None:
        return ""
    return f" ON DELETE SET NULL ({column})" if action == "SET NULL" else f" ON DELETE {action}"


def _refuse_references_across_practices() -> None:
    """A clear message, before any key changes, instead of a failed ADD CONSTRAINT."""
    bind = op.get_bind()
    crossing = []
    for table, column, parent, _ in REFERENCES:
        count = bind.scalar(
            text(
                f"SELECT count(*) FROM {table} child JOIN {parent} p ON p.id = child.{column} "  # noqa: S608
                "WHERE child.workspace_id IS NOT NULL AND p.workspace_id <> child.workspace_id"
            )
        )
        if count:
            crossing.append(f"{table}.{column} -> {parent}: {count} rows")
    if crossing:
        raise RuntimeError(
            "migration 0029 needs every reference between tenant tables to stay inside one "
            "practice; these rows reference another practice's row: " + "; ".join(crossing)
        )


def upgrade() -> None:
    _refuse_references_across_practices()
    for table, column, parent, _ in REFERENCES:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_fk_name(table, column, parent)}")
    secret_hashes = {table: (column, name) for table, column, name in SECRET_HASHES}
    for table in KEYED_BY_ID:
        changes = [
            f"DROP CONSTRAINT pk_{table}",
            f"ADD CONSTRAINT pk_{table} PRIMARY KEY (id, workspace_id)",
        ]
        if table in secret_hashes:
            column, name = secret_hashes[table]
            changes += [
                f"DROP CONSTRAINT {name}",
                f"ADD CONSTRAINT {name} UNIQUE (workspace_id, {column})",
            ]
        if table == "webhook_deliveries":
            changes += [
                f"DROP CONSTRAINT {DELIVERY_KEY}",
                f"ADD CONSTRAINT {DELIVERY_KEY} UNIQUE (workspace_id, endpoint_id, event_id)",
            ]
        op.execute(f"ALTER TABLE {table} " + ", ".join(changes))
    for table, column, _ in SECRET_HASHES:
        op.execute(f"CREATE INDEX ix_{table}_{column} ON {table} ({column})")
    op.execute(
        "ALTER TABLE audit_events DROP CONSTRAINT pk_audit_events, "
        "ADD CONSTRAINT uq_audit_events_workspace_id_id "
        "UNIQUE NULLS NOT DISTINCT (workspace_id, id)"
    )
    for table, index, columns in UNIQUE_INDEXES:
        op.execute(f"DROP INDEX {index}")
        op.execute(f"CREATE UNIQUE INDEX {index} ON {table} (workspace_id, {columns})")
    for table, column, parent, action in REFERENCES:
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column, parent)} "
            f"FOREIGN KEY (workspace_id, {column}) REFERENCES {parent} (workspace_id, id)"
            + _on_delete(action, column)
        )


def downgrade() -> None:
    for table, column, parent, _ in REFERENCES:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_fk_name(table, column, parent)}")
    for table, index, columns in UNIQUE_INDEXES:
        op.execute(f"DROP INDEX {index}")
        op.execute(f"CREATE UNIQUE INDEX {index} ON {table} ({columns})")
    op.execute(
        "ALTER TABLE audit_events DROP CONSTRAINT uq_audit_events_workspace_id_id, "
        "ADD CONSTRAINT pk_audit_events PRIMARY KEY (id)"
    )
    for table, column, _ in SECRET_HASHES:
        op.execute(f"DROP INDEX ix_{table}_{column}")
    secret_hashes = {table: (column, name) for table, column, name in SECRET_HASHES}
    for table in KEYED_BY_ID:
        changes = [f"DROP CONSTRAINT pk_{table}", f"ADD CONSTRAINT pk_{table} PRIMARY KEY (id)"]
        if table in secret_hashes:
            column, name = secret_hashes[table]
            changes += [f"DROP CONSTRAINT {name}", f"ADD CONSTRAINT {name} UNIQUE ({column})"]
        if table == "webhook_deliveries":
            changes += [
                f"DROP CONSTRAINT {DELIVERY_KEY}",
                f"ADD CONSTRAINT {DELIVERY_KEY} UNIQUE (endpoint_id, event_id)",
            ]
        op.execute(f"ALTER TABLE {table} " + ", ".join(changes))
    for table, column, parent, action in REFERENCES:
        on_delete = f" ON DELETE {action}" if action else ""
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column, parent)} "
            f"FOREIGN KEY ({column}) REFERENCES {parent} (id){on_delete}"
        )
