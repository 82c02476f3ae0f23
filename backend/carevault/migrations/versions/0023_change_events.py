"""The change feed: an outbox of change events, written by PostgreSQL with every change.

`change_events` holds one row per changed client, appointment, session note or user (and
one when a practice is shredded): ids and types only, never PHI. Statement-level triggers
with transition tables (as in migrations 0014 and 0018) append them, so every write path
(the ORM, Core statements, raw SQL, COPY, the CLI) records its events in its own
transaction: no event without its change, no change without its event, and a COPY of
100,000 rows keeps its multi-row inserts.

Kinds of event per row (carevault_change_kind): `created`, `deleted` (a row deleted, or a
note's `deleted_at` set), `restored` (`deleted_at` or `archived_at` cleared), `archived`,
`disabled` / `enabled` (a user's `disabled_at`), `signed` (a note finalized), `cosigned`,
`amended` (a signed note's `version` raised), `cancelled` (an appointment), else `updated`. An
UPDATE that changes nothing but bookkeeping columns (`updated_at`, blind indexes, a
password hash: the trigger's arguments) records nothing, nor does a `carevault reencrypt`
batch (`carevault.resealing`, see migration 0014): the plaintext is unchanged.

Commit order: ids come from a sequence before commit, so a lower id can commit after a
higher one. Each row keeps the id of the transaction that wrote it (`txid`); readers
order by (txid, id) and only read below a bound every transaction of this database that
may still commit lies above (carevault.events.feed), like the audit sealer.

Lists that filter by change (`updated_since`, `sort=updated_at`) read clients, appointments
and notes by (workspace_id, updated_at, id): one index each.

`change_event_horizons` is where pruning stopped, per practice: a cursor below it may have
missed pruned events and gets 410 `cursor_expired`.

Revision ID: 0023
Revises: 0022
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = [
    """
CREATE TABLE change_events (
    id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pk_change_events PRIMARY KEY,
    workspace_id uuid NOT NULL
        CONSTRAINT fk_change_events_workspace_id_workspaces
        REFERENCES workspaces (id) ON DELETE CASCADE,
    type varchar(64) NOT NULL,
    resource_type varchar(32) NOT NULL,
    resource_id uuid NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    txid bigint NOT NULL DEFAULT (pg_current_xact_id()::text)::bigint
)
""",
    "CREATE INDEX ix_change_events_workspace_txid_id ON change_events (workspace_id, txid, id)",
    "CREATE INDEX ix_change_events_occurred_at ON change_events (occurred_at)",
    """
CREATE TABLE change_event_horizons (
    workspace_id uuid NOT NULL
        CONSTRAINT fk_change_event_horizons_workspace_id_workspaces
        REFERENCES workspaces (id) ON DELETE CASCADE,
    txid bigint NOT NULL,
    event_id bigint NOT NULL,
    pruned_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_change_event_horizons PRIMARY KEY (workspace_id)
)
""",
]

KIND = """
CREATE FUNCTION carevault_change_kind(old jsonb, new jsonb, ignored text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
SELECT CASE
    WHEN (old - ignored) = (new - ignored) THEN NULL
    WHEN new ? 'deleted_at' AND old->>'deleted_at' IS NULL AND new->>'deleted_at' IS NOT NULL
        THEN 'deleted'
    WHEN new ? 'deleted_at' AND old->>'deleted_at' IS NOT NULL AND new->>'deleted_at' IS NULL
        THEN 'restored'
    WHEN new ? 'archived_at' AND old->>'archived_at' IS NULL AND new->>'archived_at' IS NOT NULL
        THEN 'archived'
    WHEN new ? 'archived_at' AND old->>'archived_at' IS NOT NULL AND new->>'archived_at' IS NULL
        THEN 'restored'
    WHEN new ? 'disabled_at' AND old->>'disabled_at' IS NULL AND new->>'disabled_at' IS NOT NULL
        THEN 'disabled'
    WHEN new ? 'disabled_at' AND old->>'disabled_at' IS NOT NULL AND new->>'disabled_at' IS NULL
        THEN 'enabled'
    WHEN new->>'cosign_status' = 'cosigned' AND old->>'cosign_status' IS DISTINCT FROM 'cosigned'
        THEN 'cosigned'
    WHEN new ? 'finalized_at' AND old->>'status' = 'draft' AND new->>'status' = 'finalized'
        THEN 'signed'
    WHEN new ? 'starts_at' AND new->>'status' = 'cancelled'
         AND old->>'status' IS DISTINCT FROM 'cancelled'
        THEN 'cancelled'
    WHEN new ? 'finalized_at' AND old->>'status' = 'finalized'
         AND (new->>'version')::bigint > (old->>'version')::bigint
        THEN 'amended'
    ELSE 'updated'
END
$$
"""

# TG_ARGV[0]: the resource type (`client`); the other arguments: columns whose change alone
# is no change an integrator can see.
RECORD = """
CREATE FUNCTION carevault_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    resource text := TG_ARGV[0];
    ignored text[] := TG_ARGV[1:TG_NARGS - 1];
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO change_events (workspace_id, type, resource_type, resource_id)
        SELECT n.workspace_id, resource || '.created', resource, n.id
        FROM changed_new n ORDER BY n.id;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO change_events (workspace_id, type, resource_type, resource_id)
        SELECT o.workspace_id, resource || '.deleted', resource, o.id
        FROM changed_old o ORDER BY o.id;
    ELSIF coalesce(current_setting('carevault.resealing', true), '') <> 'on' THEN
        INSERT INTO change_events (workspace_id, type, resource_type, resource_id)
        SELECT c.workspace_id, resource || '.' || c.kind, resource, c.id
        FROM (
            SELECT n.workspace_id, n.id,
                   carevault_change_kind(to_jsonb(o), to_jsonb(n), ignored) AS kind
            FROM changed_new n JOIN changed_old o ON o.id = n.id
        ) AS c
        WHERE c.kind IS NOT NULL
        ORDER BY c.id;
    END IF;
    RETURN NULL;
END
$$
"""

SHREDDED = """
CREATE FUNCTION carevault_record_shred() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO change_events (workspace_id, type, resource_type, resource_id)
    SELECT n.id, 'workspace.shredded', 'workspace', n.id
    FROM changed_new n JOIN changed_old o ON o.id = n.id
    WHERE o.shredded_at IS NULL AND n.shredded_at IS NOT NULL
    ORDER BY n.id;
    RETURN NULL;
END
$$
"""

# table: (resource type, columns ignored on UPDATE)
WATCHED: dict[str, tuple[str, tuple[str, ...]]] = {
    "clients": ("client", ("updated_at", "email_bidx", "phone_bidx", "phone_bidx_region")),
    "appointments": ("appointment", ("updated_at",)),
    "sessions": ("note", ("updated_at",)),
    "users": ("user", ("updated_at", "password_hash")),
}

TIMINGS = {
    "insert": "AFTER INSERT ON {table} REFERENCING NEW TABLE AS changed_new",
    "update": "AFTER UPDATE ON {table} REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new",
    "delete": "AFTER DELETE ON {table} REFERENCING OLD TABLE AS changed_old",
}


# table: its (workspace_id, updated_at, id) index
UPDATED_INDEXES = {
    "clients": "ix_clients_workspace_updated",
    "appointments": "ix_appointments_workspace_updated",
    "sessions": "ix_sessions_workspace_updated",
}


def upgrade() -> None:
    for statement in TABLES:
        op.execute(statement)
    for table, index in UPDATED_INDEXES.items():
        op.execute(f"CREATE INDEX {index} ON {table} (workspace_id, updated_at, id)")
    op.execute(KIND)
    op.execute(RECORD)
    op.execute(SHREDDED)
    for table, (resource, ignored) in WATCHED.items():
        arguments = ", ".join(f"'{value}'" for value in (resource, *ignored))
        for event, timing in TIMINGS.items():
            op.execute(
                f"CREATE TRIGGER {table}_record_changes_{event} {timing.format(table=table)} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION carevault_record_changes({arguments})"
            )
    op.execute(
        "CREATE TRIGGER workspaces_record_shred "
        f"{TIMINGS['update'].format(table='workspaces')} "
        "FOR EACH STATEMENT EXECUTE FUNCTION carevault_record_shred()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER workspaces_record_shred ON workspaces")
    for table in WATCHED:
        for event in TIMINGS:
            op.execute(f"DROP TRIGGER {table}_record_changes_{event} ON {table}")
    op.execute("DROP FUNCTION carevault_record_shred()")
    op.execute("DROP FUNCTION carevault_record_changes()")
    op.execute("DROP FUNCTION carevault_change_kind(jsonb, jsonb, text[])")
    for index in UPDATED_INDEXES.values():
        op.execute(f"DROP INDEX {index}")
    op.execute("DROP TABLE change_event_horizons")
    op.execute("DROP TABLE change_events")
