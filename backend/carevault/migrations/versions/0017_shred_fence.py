"""Writes of a shredded practice's PHI are refused by PostgreSQL, and a shred waits for the
writes in flight.

A request checks the practice's `shredded_at` in its credential lookup and is refused with
410 from then on (carevault.auth.service); a write admitted just before a shred still holds
the data key this process cached and would seal its values under a key that no longer
exists. So every INSERT or UPDATE of a table with encrypted columns first locks its
practice's `workspaces` row FOR KEY SHARE and reads `shredded_at` (trigger
`*_refuse_shredded`), and `carevault workspaces shred` locks that row FOR UPDATE before it
marks it and deletes the keys (carevault.workspaces.keys.shred). The two locks conflict:

- a write that locked the row first commits before the shred can go on (its values were
  written before the shred, like every other value of the practice);
- a write that comes after waits for the shred to commit, then reads the new row version
  (READ COMMITTED follows the update) and fails with SQLSTATE `SHRED` (410
  `workspace_shredded` to an API caller). Under REPEATABLE READ the lock fails with a
  serialization error instead: refused either way.

FOR KEY SHARE is the lock a foreign-key check takes on the same row, so an INSERT (which
checks its `workspace_id` reference anyway) takes no lock it would not have taken. Each
transaction checks a practice once: the trigger's WHEN clause skips the function once the
transaction-local setting `carevault.live_practice` names the row's practice (set by the
first check; undone with the lock if a savepoint rolls back), so a 100,000-row import pays
one check, not 100,000.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every table with an encrypted column (a test checks the list against the models).
TABLES = ("appointments", "clients", "idempotency_records", "session_versions", "sessions")

REFUSE = """
CREATE FUNCTION carevault_refuse_shredded() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    shredded timestamptz;
BEGIN
    SELECT shredded_at INTO shredded FROM workspaces WHERE id = NEW.workspace_id
    FOR KEY SHARE;
    IF shredded IS NOT NULL THEN
        RAISE EXCEPTION 'this practice''s data was shredded'
            USING ERRCODE = 'SHRED', TABLE = TG_TABLE_NAME;
    END IF;
    PERFORM set_config('carevault.live_practice', NEW.workspace_id::text, true);
    RETURN NEW;
END
$$
"""

WHEN = "current_setting('carevault.live_practice', true) IS DISTINCT FROM NEW.workspace_id::text"


def upgrade() -> None:
    op.execute(REFUSE)
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_refuse_shredded BEFORE INSERT OR UPDATE ON {table} "
            f"FOR EACH ROW WHEN ({WHEN}) EXECUTE FUNCTION carevault_refuse_shredded()"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_refuse_shredded ON {table}")
    op.execute("DROP FUNCTION carevault_refuse_shredded()")
