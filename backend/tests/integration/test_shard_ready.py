"""Ready to shard (issue 27): read from pg_catalog after `alembic upgrade head`, every key of a
tenant table includes `workspace_id`, the distribution column a Citus cluster would shard on
(docs/how-to/sharding.md).

- A tenant table is any table with a `workspace_id` column. Its primary key, each unique
  constraint and unique index, and each foreign key to another tenant table must include
  `workspace_id` (a foreign key on both sides, at the same position). A foreign key to
  `workspaces` must be `workspace_id -> workspaces.id`, which is the same column once
  `workspaces` is distributed on `id`.
- Every table without `workspace_id` is listed in GLOBAL_TABLES with the reason it is
  global (a Citus reference table, or local to each node): a new table must say which it
  is. A global table never references a tenant table.
- A tenant table has a primary key, or is listed in WITHOUT_PRIMARY_KEY with the reason
  and the unique key it has instead (so leaving the key out is no way around the rule).
- There are no exceptions: migration 0029 brought the keys that predated the rule into line.

Adding a table: give it `workspace_id` (carevault.db.base.WorkspaceScoped keys it
`(id, workspace_id)`), reference other tenant tables with `(workspace_id, x_id)`
(carevault.db.base.tenant_foreign_key); or list it in GLOBAL_TABLES with a reason.
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

# Tenant tables without a primary key, and why.
WITHOUT_PRIMARY_KEY: dict[str, str] = {
    "audit_events": "the installation's own events have no practice (workspace_id NULL), "
    "which a primary key cannot hold; keyed UNIQUE NULLS NOT DISTINCT (workspace_id, id)",
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
        "global (docs/how-to/sharding.md)"
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
    assert not found, (
        "keys that leave out the distribution column (docs/how-to/sharding.md):\n  "
        + "\n  ".join(found[key] for key in sorted(found))
        + f"\nInclude {TENANT_COLUMN}: key a tenant table (id, workspace_id), and reference "
        "another as (workspace_id, x_id) -> (workspace_id, id)."
    )
    keyed = {key.table for key in keys if key.kind == "primary key"}
    unkeyed = sorted(name for name, tenant in tables.items() if tenant and name not in keyed)
    assert unkeyed == sorted(WITHOUT_PRIMARY_KEY), (
        f"tenant tables without a primary key: {unkeyed}; WITHOUT_PRIMARY_KEY in {__name__} "
        f"lists {sorted(WITHOUT_PRIMARY_KEY)}"
    )
    for name in WITHOUT_PRIMARY_KEY:
        assert any(
            key.table == name and key.kind == "unique constraint" and TENANT_COLUMN in key.columns
            for key in keys
        ), f"{name} has neither a primary key nor a unique key with {TENANT_COLUMN}"


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
