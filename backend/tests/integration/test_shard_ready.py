"""Ready to shard (issue 27): read from pg_catalog after `alembic upgrade head`, every key of a
tenant table includes `workspace_id`, the distribution column a Citus cluster would shard on
(docs/how-to/scaling.md, "Ready to shard").

- A tenant table is any table with a `workspace_id` column. Its primary key, each unique
  constraint and unique index, and each foreign key to another tenant table must include
  `workspace_id` (a foreign key on both sides, at the same position). A foreign key to
  `workspaces` must be `workspace_id -> workspaces.id`, which is the same column once
  `workspaces` is distributed on `id`.
- Every table without `workspace_id` is listed in GLOBAL_TABLES with the reason it is
  global (a Citus reference table, or local to each node): a new table must say which it
  is. A global table never references a tenant table.
- Today's schema predates this rule: every exception is listed in KNOWN_VIOLATIONS with the
  change Citus needs. The list must match exactly: a new violation fails, and so does one
  that has been fixed (take it off the list).

Adding a table: give it `workspace_id`, key it `(workspace_id, id)`, and reference other
tenant tables with `(workspace_id, x_id)`; or list it in GLOBAL_TABLES with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from tests.support.db import NewDatabase, libpq_dsn

TENANT_COLUMN = "workspace_id"

# Tables without workspace_id, and why each is global.
GLOBAL_TABLES: dict[str, str] = {
    "workspaces": "the tenants themselves: distributed on `id`, colocated with every tenant "
    "table (its `id` is their `workspace_id`)",
    "alembic_version": "the schema's revision: one row, on the coordinator",
    "audit_checkpoints": "signed heads of every practice's chain, written by the one sealer "
    "that holds the lock: a reference table (small, one row per checkpoint)",
    "health_probes": "one row per serving process: the readiness write probe; local to the "
    "coordinator (each node's health is its own)",
    "health_space_probe": "the readiness space probe, always empty: local, like health_probes",
    "login_attempts": "sign-in throttling keyed by email and address before a practice is "
    "known: a reference table, or a table of its own distributed on the email key",
    "login_throttle_tallies": "as login_attempts: keyed by email before a practice is known",
    "installation_keys": "the installation's KMS-wrapped keys (audit key, blind-index key): "
    "one row per key for every practice: a reference table",
}

PK_TO_COMPOSITE = "primary key (id): becomes (workspace_id, id); ids are random UUIDs, so it "
PK_TO_COMPOSITE += "stays unique, and every foreign key to it gains workspace_id"
FK_TO_COMPOSITE = "foreign key (x_id) -> parent(id): becomes (workspace_id, x_id) -> "
FK_TO_COMPOSITE += "parent(workspace_id, id), once the parent's key is composite"
SECRET_LOOKUP = "unique secret hash, looked up before the practice is known (sign-in, bearer "
SECRET_LOOKUP += "token, device cookie): a reference table `credential_lookups(hash -> "
SECRET_LOOKUP += "workspace_id, id)` routes the lookup, or the practice's id travels in the "
SECRET_LOOKUP += "credential itself; the unique key then becomes (workspace_id, hash)"

# (table, constraint or index) -> the change a Citus cluster needs.
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {
    **{
        (table, f"pk_{table}"): PK_TO_COMPOSITE
        for table in (
            "api_tokens",
            "appointments",
            "audit_events",
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
    },
    **{
        (table, name): FK_TO_COMPOSITE
        for table, name in (
            ("api_tokens", "fk_api_tokens_user_id_users"),
            ("appointments", "fk_appointments_client_id_clients"),
            ("appointments", "fk_appointments_clinician_id_users"),
            ("audit_events", "fk_audit_events_actor_token_id_api_tokens"),
            ("audit_events", "fk_audit_events_actor_user_id_users"),
            ("care_team_members", "fk_care_team_members_client_id_clients"),
            ("care_team_members", "fk_care_team_members_user_id_users"),
            ("chart_access_grants", "fk_chart_access_grants_client_id_clients"),
            ("chart_access_grants", "fk_chart_access_grants_user_id_users"),
            ("login_sessions", "fk_login_sessions_user_id_users"),
            ("session_versions", "fk_session_versions_amended_by_users"),
            ("session_versions", "fk_session_versions_session_id_sessions"),
            ("sessions", "fk_sessions_appointment_id_appointments"),
            ("sessions", "fk_sessions_author_id_users"),
            ("sessions", "fk_sessions_client_id_clients"),
            ("sessions", "fk_sessions_cosigned_by_users"),
            ("sessions", "fk_sessions_signed_by_users"),
            ("trusted_devices", "fk_trusted_devices_user_id_users"),
            ("users", "fk_users_supervisor_id_users"),
            ("api_tokens", "fk_api_tokens_service_account_id_service_accounts"),
            ("service_accounts", "fk_service_accounts_created_by_users"),
            ("webhook_attempts", "fk_webhook_attempts_delivery_id_webhook_deliveries"),
            ("webhook_deliveries", "fk_webhook_deliveries_endpoint_id_webhook_endpoints"),
            ("export_files", "fk_export_files_job_id_export_jobs"),
            ("export_jobs", "fk_export_jobs_requested_by_users"),
        )
    },
    ("api_tokens", "uq_api_tokens_token_hash"): SECRET_LOOKUP,
    ("login_sessions", "uq_login_sessions_secret_hash"): SECRET_LOOKUP,
    ("trusted_devices", "uq_trusted_devices_secret_hash"): SECRET_LOOKUP,
    ("session_versions", "uq_session_versions_session_version"): "unique (session_id, "
    "version): becomes (workspace_id, session_id, version), which allows nothing more (a "
    "note belongs to one practice)",
    ("webhook_deliveries", "uq_webhook_deliveries_endpoint_event"): "unique (endpoint_id, "
    "event_id): an endpoint belongs to one practice, so it becomes (workspace_id, endpoint_id, "
    "event_id), which allows nothing more",
    ("export_files", "uq_export_files_job_type_part"): "unique (job_id, resource_type, part): "
    "a job belongs to one practice, so it becomes (workspace_id, job_id, resource_type, part), "
    "which allows nothing more",
    ("idempotency_records", "uq_idempotency_records_caller_key"): "unique (caller_hash, "
    "key_hash): the caller is a credential of one practice, so it becomes (workspace_id, "
    "caller_hash, key_hash) with the practice known when the record is read",
}


@dataclass(frozen=True)
class Key:
    table: str
    name: str
    kind: str  # "primary key", "unique constraint", "unique index", "foreign key"
    columns: tuple[str, ...]  # an expression in an index shows as "<expression>"
    referenced_table: str | None = None
    referenced_columns: tuple[str, ...] = ()


KEYS = """
SELECT c.relname AS table_name, con.conname AS name, con.contype::text AS kind,
       ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n
             ORDER BY k.i)::text[] AS columns,
       r.relname AS referenced_table,
       ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n
             ORDER BY k.i)::text[] AS referenced_columns
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace ns ON ns.oid = c.relnamespace
LEFT JOIN pg_class r ON r.oid = con.confrelid
WHERE ns.nspname = 'public' AND con.contype IN ('p', 'u', 'f')
UNION ALL
-- Unique indexes that back no constraint (expression or partial ones, for instance).
SELECT c.relname, ic.relname, 'i',
       ARRAY(SELECT coalesce(a.attname, '<expression>')
             FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
             LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n
             WHERE o <= i.indnkeyatts
             ORDER BY k.o)::text[],
       NULL, ARRAY[]::text[]
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_namespace ns ON ns.oid = c.relnamespace
WHERE ns.nspname = 'public' AND i.indisunique
  AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)
"""

TABLES = """
SELECT c.relname,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $1
               AND a.attnum > 0 AND NOT a.attisdropped) AS tenant
FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
WHERE ns.nspname = 'public' AND c.relkind IN ('r', 'p')
"""

KINDS = {"p": "primary key", "u": "unique constraint", "i": "unique index", "f": "foreign key"}


async def read_schema(dsn: str) -> tuple[dict[str, bool], list[Key]]:
    connection = await asyncpg.connect(dsn)
    try:
        tables = {row[0]: row[1] for row in await connection.fetch(TABLES, TENANT_COLUMN)}
        keys = [
            Key(
                table=row["table_name"],
                name=row["name"],
                kind=KINDS[row["kind"]],
                columns=tuple(row["columns"]),
                referenced_table=row["referenced_table"],
                referenced_columns=tuple(row["referenced_columns"]),
            )
            for row in await connection.fetch(KEYS)
        ]
    finally:
        await connection.close()
    return tables, keys


def violations(tables: dict[str, bool], keys: list[Key]) -> dict[tuple[str, str], str]:
    """(table, key) -> what is wrong with it, in words that name both."""
    found: dict[tuple[str, str], str] = {}
    for key in keys:
        columns = ", ".join(key.columns)
        tenant = tables.get(key.table, False)
        if key.kind != "foreign key":
            if tenant and TENANT_COLUMN not in key.columns:
                found[key.table, key.name] = (
                    f"{key.table}: {key.kind} {key.name} ({columns}) leaves out {TENANT_COLUMN}"
                )
            continue
        target = key.referenced_table or "?"
        reference = f"{target}({', '.join(key.referenced_columns)})"
        if not tenant:
            if tables.get(target, False):
                found[key.table, key.name] = (
                    f"{key.table} is global, but its foreign key {key.name} references the "
                    f"tenant table {reference}"
                )
            continue
        if target == "workspaces":
            if (TENANT_COLUMN, "id") not in zip(key.columns, key.referenced_columns, strict=True):
                found[key.table, key.name] = (
                    f"{key.table}: foreign key {key.name} ({columns}) -> {reference} is not "
                    f"{TENANT_COLUMN} -> workspaces(id)"
                )
        elif tables.get(target, False):
            pairs = zip(key.columns, key.referenced_columns, strict=True)
            if (TENANT_COLUMN, TENANT_COLUMN) not in pairs:
                found[key.table, key.name] = (
                    f"{key.table}: foreign key {key.name} ({columns}) -> {reference} leaves "
                    f"out {TENANT_COLUMN} on both sides"
                )
        # A tenant table may reference a global (reference) table as it likes.
    return found


async def test_every_table_is_a_tenant_table_or_listed_as_global(
    new_database: NewDatabase,
) -> None:
    tables, _ = await read_schema(libpq_dsn(await new_database()))
    unlisted = sorted(name for name, tenant in tables.items() if not tenant)
    unlisted = [name for name in unlisted if name not in GLOBAL_TABLES]
    assert not unlisted, (
        f"tables without {TENANT_COLUMN} that GLOBAL_TABLES in {__name__} does not list: "
        f"{', '.join(unlisted)}. Give each {TENANT_COLUMN}, or list it with the reason it is "
        "global (docs/how-to/scaling.md, 'Ready to shard')"
    )
    listed_tenants = sorted(name for name in GLOBAL_TABLES if tables.get(name))
    assert not listed_tenants, f"listed as global but have {TENANT_COLUMN}: {listed_tenants}"
    gone = sorted(name for name in GLOBAL_TABLES if name not in tables)
    assert not gone, f"GLOBAL_TABLES lists tables that no longer exist: {gone}"


async def test_every_key_of_a_tenant_table_includes_workspace_id(
    new_database: NewDatabase,
) -> None:
    tables, keys = await read_schema(libpq_dsn(await new_database()))
    found = violations(tables, keys)
    new = [found[key] for key in sorted(found) if key not in KNOWN_VIOLATIONS]
    assert not new, (
        "keys that leave out the distribution column "
        "(docs/how-to/scaling.md, 'Ready to shard'):\n  "
        + "\n  ".join(new)
        + f"\nInclude {TENANT_COLUMN} (key a tenant table (workspace_id, id); reference "
        "another as (workspace_id, x_id) -> (workspace_id, id)), or, for a reason that "
        f"holds, list it in KNOWN_VIOLATIONS in {__name__} with the change Citus needs."
    )
    fixed = sorted(key for key in KNOWN_VIOLATIONS if key not in found)
    assert not fixed, f"KNOWN_VIOLATIONS lists keys that now comply (take them off): {fixed}"


def test_the_check_names_each_kind_of_violation() -> None:
    """The rule itself, on a made-up schema: what passes and what is named."""
    tables = {"workspaces": False, "things": True, "parts": True, "codes": False}
    keys = [
        Key("things", "pk_things", "primary key", ("workspace_id", "id")),
        Key("parts", "pk_parts", "primary key", ("id",)),
        Key("parts", "uq_parts_name", "unique index", ("<expression>",)),
        Key("parts", "uq_parts_ws_name", "unique constraint", ("workspace_id", "name")),
        Key(
            "parts",
            "fk_parts_thing",
            "foreign key",
            ("workspace_id", "thing_id"),
            "things",
            ("workspace_id", "id"),
        ),
        Key("parts", "fk_parts_other", "foreign key", ("thing_id",), "things", ("id",)),
        Key("parts", "fk_parts_ws", "foreign key", ("workspace_id",), "workspaces", ("id",)),
        Key("parts", "fk_parts_owner", "foreign key", ("owner_id",), "workspaces", ("id",)),
        Key("parts", "fk_parts_code", "foreign key", ("code",), "codes", ("code",)),
        Key("codes", "fk_codes_part", "foreign key", ("part_id",), "parts", ("id",)),
    ]
    found = violations(tables, keys)
    assert set(found) == {
        ("parts", "pk_parts"),
        ("parts", "uq_parts_name"),
        ("parts", "fk_parts_other"),
        ("parts", "fk_parts_owner"),
        ("codes", "fk_codes_part"),
    }
    assert found["parts", "pk_parts"] == "parts: primary key pk_parts (id) leaves out workspace_id"
    assert "codes is global" in found["codes", "fk_codes_part"]
