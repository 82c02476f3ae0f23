"""Migration 0020 on a database that already has notes: each gets its author (from its
`session.create` audit event, else the practice's owner), finalized notes their signer and
late-entry flag, and the migration reverses."""

from __future__ import annotations

import uuid

import asyncpg
from alembic import command
from sqlalchemy import Connection

from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from tests.support.db import PgServer, admin_execute

SPACE = "00000000-0000-0000-0000-000000000001"
OWNER = "00000000-0000-0000-0000-000000000002"
CLINICIAN = "00000000-0000-0000-0000-000000000003"
CLIENT = "00000000-0000-0000-0000-000000000004"
APPOINTMENT = "00000000-0000-0000-0000-000000000005"
WRITTEN = "00000000-0000-0000-0000-00000000000a"  # created and finalized by the clinician
ORPHAN = "00000000-0000-0000-0000-00000000000b"  # no audit event: the owner's
DRAFT = "00000000-0000-0000-0000-00000000000c"


async def test_existing_notes_get_authors_signers_and_late_flags(pg_server: PgServer) -> None:
    name = f"cv_mig_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine, "0018")
        connection = await asyncpg.connect(pg_server.dsn(name))
        try:
            await connection.execute(
                f"""
                INSERT INTO workspaces (id, name, time_zone)
                VALUES ('{SPACE}', 'W', 'Pacific/Auckland');
                INSERT INTO users (id, workspace_id, email, display_name, password_hash, role,
                                   created_at)
                VALUES ('{CLINICIAN}', '{SPACE}', 'c@w.example', 'C', 'x', 'clinician',
                        now() - interval '2 days'),
                       ('{OWNER}', '{SPACE}', 'o@w.example', 'O', 'x', 'owner', now());
                INSERT INTO clients (id, workspace_id, first_name, last_name)
                VALUES ('{CLIENT}', '{SPACE}', '\\x00', '\\x00');
                INSERT INTO appointments (id, workspace_id, client_id, starts_at, ends_at, status)
                VALUES ('{APPOINTMENT}', '{SPACE}', '{CLIENT}', '2026-03-02 09:00Z',
                        '2026-03-02 09:50Z', 'attended');
                INSERT INTO sessions (id, workspace_id, client_id, appointment_id, session_date,
                                      duration_minutes, status, version, finalized_at)
                VALUES ('{WRITTEN}', '{SPACE}', '{CLIENT}', '{APPOINTMENT}', '2026-03-02', 50,
                        'finalized', 2, '2026-03-02 10:30Z'),
                       ('{ORPHAN}', '{SPACE}', '{CLIENT}', NULL, '2026-03-02', 50,
                        'finalized', 2, '2026-03-06 12:00Z'),
                       ('{DRAFT}', '{SPACE}', '{CLIENT}', NULL, '2026-03-02', 50,
                        'draft', 1, NULL);
                INSERT INTO audit_events (workspace_id, actor_user_id, action, resource_type,
                                          resource_ids)
                VALUES ('{SPACE}', '{CLINICIAN}', 'session.create', 'session',
                        ARRAY['{WRITTEN}'::uuid]),
                       ('{SPACE}', '{CLINICIAN}', 'session.finalize', 'session',
                        ARRAY['{WRITTEN}'::uuid]),
                       ('{SPACE}', '{OWNER}', 'session.list', 'session',
                        ARRAY['{ORPHAN}'::uuid, '{DRAFT}'::uuid]);
                """
            )
            await upgrade_async(engine, "head")
            notes = {
                str(row["id"]): row
                for row in await connection.fetch(
                    "SELECT id, author_id::text, signed_by::text, late_entry, cosign_status, "
                    "attestation_version FROM sessions"
                )
            }
            users = await connection.fetch("SELECT requires_cosign, supervisor_id FROM users")
            hours = await connection.fetchval("SELECT late_entry_hours FROM workspaces")

            def downgrade(sync: Connection) -> None:
                command.downgrade(alembic_config(sync), "0018")

            async with engine.begin() as migrating:
                await migrating.run_sync(downgrade)
            columns = {
                row["column_name"]
                for row in await connection.fetch(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = 'sessions'"
                )
            }
        finally:
            await connection.close()
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    written, orphan, draft = notes[WRITTEN], notes[ORPHAN], notes[DRAFT]
    # The audit trail names who wrote and finalized the first; the others fall to the owner
    # (not the older clinician: an owner first), and no event means no recorded signer.
    assert (written["author_id"], written["signed_by"]) == (CLINICIAN, CLINICIAN)
    assert (orphan["author_id"], orphan["signed_by"]) == (OWNER, None)
    assert (draft["author_id"], draft["signed_by"]) == (OWNER, None)
    # 40 minutes after the appointment: in time. Four days after the session's day ended in
    # Auckland (2026-03-02 11:00 UTC): late. A draft is never late.
    assert [n["late_entry"] for n in (written, orphan, draft)] == [False, True, False]
    assert {n["cosign_status"] for n in notes.values()} == {None}
    assert {n["attestation_version"] for n in notes.values()} == {None}
    assert [(u["requires_cosign"], u["supervisor_id"]) for u in users] == [(False, None)] * 2
    assert hours == 72
    assert not {"author_id", "signed_by", "late_entry"} & columns
