"""Writes of a shredded practice's PHI are refused by PostgreSQL, and a shred waits for the
writes in flight.

A request checks the practice's `shredded_at` in its credential lookup and is refused with
410 from then on (carevault.auth.service); a write admitted just before a shred still holds
the data key this process cached and would seal its values under a key that no longer
exists. So every INSERT or UPDATE statement on a table with encrypted columns, before it
ends, locks the `workspaces` row of each practice it wrote FOR KEY SHARE and reads its
`shredded_at` (triggers `*_refuse_shredded_*`), and `carevault workspaces shred` locks that row FOR UPDATE before it
marks it and deletes the keys (carevault.workspaces.keys.shred). The two locks conflict:

- a write that locked the row first commits before the shred can go on (its values were
  written before the shred, like every other value of the practice);
- a write that comes after waits for the shred to commit, then reads the new row version
  (READ COMMITTED follows the update) and fails with SQLSTATE `SHRED` (410
  `workspace_shredded` to an API caller). Under REPEATABLE READ the lock fails with a
  serialization error instead: refused either way.

FOR KEY SHARE is the lock a foreign-key check takes on the same row, so an INSERT (which
checks its `workspace_id` reference anyway) takes no lock it would not have taken, and
taking it again in the same transaction writes nothing. The triggers are statement-level,
with the statement's new rows as a transition table (as in migration 0014): one check per
statement however many rows it writes, and a `COPY` keeps its multi-row inserts (a
row-level BEFORE trigger would make it insert row by row).

Revision ID: 0018
Revises: 0017
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every table with an encrypted column (a test checks the list against the models).
TABLES = ("appointments", "clients", "idempotency_records", "session_versions", "sessions")

REFUSE = """
CREATE FUNCTION carevault_refuse_shredded() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    touched uuid[];
BEGIN
    SELECT array_agg(DISTINCT workspace_id) INTO touched FROM written;
    IF touched IS NULL THEN
        RETURN NULL;
    END IF;
    -- Locked, then read: a row a shred is updating is waited for and read as it committed.
    -- (A WHERE on shredded_at would skip the row as this statement's snapshot saw it,
    -- without waiting for the shred's lock.)
    IF (
        SELECT bool_or(shredded_at IS NOT NULL)
        FROM (
            SELECT shredded_at FROM workspaces WHERE id = ANY (touched)
            ORDER BY id FOR KEY SHARE
        ) AS locked
    ) THEN
        RAISE EXCEPTION 'this practice''s data was shredded'
            USING ERRCODE = 'SHRED', TABLE = TG_TABLE_NAME;
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    op.execute(REFUSE)
    for table in TABLES:
        for event in ("INSERT", "UPDATE"):
            op.execute(
                f"CREATE TRIGGER {table}_refuse_shredded_{event.lower()} AFTER {event} "
                f"ON {table} REFERENCING NEW TABLE AS written "
                "FOR EACH STATEMENT EXECUTE FUNCTION carevault_refuse_shredded()"
            )


def downgrade() -> None:
    for table in TABLES:
        for event in ("insert", "update"):
            op.execute(f"DROP TRIGGER {table}_refuse_shredded_{event} ON {table}")
    op.execute("DROP FUNCTION carevault_refuse_shredded()")
