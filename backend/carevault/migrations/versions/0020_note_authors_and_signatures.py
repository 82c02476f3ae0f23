"""Notes have an author and a signature; trainees' notes are co-signed; amendments have a
reason; late entries are flagged (carevault.notes.signing).

Existing rows, all kept readable:

- `sessions.author_id`: the user who created the note, as its `session.create` audit event
  names; for a note without such an event, the practice's first owner (oldest account),
  else its first user. A practice with notes but no user cannot be migrated (it cannot
  exist through the application) and the migration says so.
- notes finalized before: `signed_by` is the user of their `session.finalize` event (null
  when there is none), `attestation_version` null (no statement was attested), and
  `late_entry` is computed as it would have been with the default 72 hours.
- `session_versions.reason` is null for amendments made before reasons were required.
- users: `requires_cosign` false, no supervisor; practices: `late_entry_hours` 72.

The audit trail is only read (events are never changed), so it verifies as before.

Revision ID: 0020
Revises: 0019
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_LATE_ENTRY_HOURS = 72


def upgrade() -> None:
    op.add_column(
        "workspaces",
        sa.Column(
            "late_entry_hours",
            sa.Integer(),
            nullable=False,
            server_default=str(DEFAULT_LATE_ENTRY_HOURS),
        ),
    )
    op.create_check_constraint(
        op.f("ck_workspaces_late_entry_hours"), "workspaces", "late_entry_hours BETWEEN 1 AND 8760"
    )
    op.add_column(
        "users",
        sa.Column("requires_cosign", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("users", sa.Column("supervisor_id", sa.Uuid(), nullable=True))
    op.create_foreign_key(
        op.f("fk_users_supervisor_id_users"),
        "users",
        "users",
        ["supervisor_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.add_column("session_versions", sa.Column("reason", sa.LargeBinary(), nullable=True))

    new_columns: tuple[tuple[str, sa.types.TypeEngine[Any]], ...] = (
        ("author_id", sa.Uuid()),
        ("signed_by", sa.Uuid()),
        ("attestation_version", sa.SmallInteger()),
        ("cosign_status", sa.String(20)),
        ("cosigned_by", sa.Uuid()),
        ("cosigned_at", sa.DateTime(timezone=True)),
        ("cosign_attestation_version", sa.SmallInteger()),
    )
    for name, column_type in new_columns:
        op.add_column("sessions", sa.Column(name, column_type, nullable=True))
    op.add_column(
        "sessions",
        sa.Column("late_entry", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    for column in ("author_id", "signed_by", "cosigned_by"):
        op.create_foreign_key(
            op.f(f"fk_sessions_{column}_users"), "sessions", "users", [column], ["id"]
        )
    op.create_check_constraint(
        op.f("ck_sessions_cosign_status"), "sessions", "cosign_status IN ('awaiting', 'cosigned')"
    )

    # Authors and signers from the audit trail: the first event of the action naming the
    # note alone, by a user of the note's practice.
    for column, action in (("author_id", "session.create"), ("signed_by", "session.finalize")):
        # `column` is one of the two constants above; the action is bound.
        statement = f"""
            UPDATE sessions AS s SET {column} = e.actor_user_id
            FROM (
                SELECT DISTINCT ON (resource_ids[1]) resource_ids[1] AS note_id, actor_user_id,
                       workspace_id
                FROM audit_events
                WHERE action = :action AND actor_user_id IS NOT NULL
                  AND cardinality(resource_ids) = 1
                ORDER BY resource_ids[1], id
            ) AS e
            JOIN users AS u ON u.id = e.actor_user_id
            WHERE e.note_id = s.id AND u.workspace_id = s.workspace_id
              AND e.workspace_id = s.workspace_id
            """  # noqa: S608
        op.get_bind().execute(sa.text(statement), {"action": action})
    op.execute(
        """
        UPDATE sessions AS s SET author_id = (
            SELECT u.id FROM users AS u WHERE u.workspace_id = s.workspace_id
            ORDER BY (u.role = 'owner') DESC, u.created_at, u.id LIMIT 1
        )
        WHERE s.author_id IS NULL
        """
    )
    orphans = op.get_bind().scalar(sa.text("SELECT count(*) FROM sessions WHERE author_id IS NULL"))
    if orphans:
        raise RuntimeError(
            f"{orphans} session note(s) belong to practices without any user: add a user to "
            "each such practice (carevault users create), then migrate again"
        )
    op.alter_column("sessions", "author_id", nullable=False)
    # Late entries among the notes already signed, by the default rule: signed more than 72
    # hours after the appointment ended, or after the end of the session's day in the
    # practice's time zone when the note has no appointment.
    op.get_bind().execute(
        sa.text(
            """
        UPDATE sessions AS s SET late_entry = true
        FROM workspaces AS w
        WHERE w.id = s.workspace_id AND s.status = 'finalized' AND s.finalized_at IS NOT NULL
          AND s.finalized_at > COALESCE(
                (SELECT a.ends_at FROM appointments AS a WHERE a.id = s.appointment_id),
                ((s.session_date + 1)::timestamp AT TIME ZONE w.time_zone)
              ) + make_interval(hours => :hours)
        """
        ),
        {"hours": DEFAULT_LATE_ENTRY_HOURS},
    )
    op.create_index(
        "ix_sessions_workspace_author_status",
        "sessions",
        ["workspace_id", "author_id", "status"],
    )
    op.create_index(
        "ix_sessions_workspace_awaiting_cosign",
        "sessions",
        ["workspace_id"],
        postgresql_where=sa.text("cosign_status = 'awaiting'"),
    )


def downgrade() -> None:
    op.drop_index("ix_sessions_workspace_awaiting_cosign", table_name="sessions")
    op.drop_index("ix_sessions_workspace_author_status", table_name="sessions")
    op.drop_constraint(op.f("ck_sessions_cosign_status"), "sessions", type_="check")
    for column in ("author_id", "signed_by", "cosigned_by"):
        op.drop_constraint(op.f(f"fk_sessions_{column}_users"), "sessions", type_="foreignkey")
    for column in (
        "late_entry",
        "cosign_attestation_version",
        "cosigned_at",
        "cosigned_by",
        "cosign_status",
        "attestation_version",
        "signed_by",
        "author_id",
    ):
        op.drop_column("sessions", column)
    op.drop_column("session_versions", "reason")
    op.drop_constraint(op.f("fk_users_supervisor_id_users"), "users", type_="foreignkey")
    op.drop_column("users", "supervisor_id")
    op.drop_column("users", "requires_cosign")
    op.drop_constraint(op.f("ck_workspaces_late_entry_hours"), "workspaces", type_="check")
    op.drop_column("workspaces", "late_entry_hours")
