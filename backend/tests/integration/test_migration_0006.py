"""Migration 0006 on a database that already has tokens, sessions and failed sign-ins."""

from __future__ import annotations

import uuid

import asyncpg
from alembic import command
from sqlalchemy import Connection

from carevault.auth.scopes import EVERY_SCOPE
from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from tests.support.db import PgServer, admin_execute


async def test_existing_tokens_keep_every_scope_and_the_migration_reverses(
    pg_server: PgServer,
) -> None:
    name = f"cv_mig_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=1)
    try:
        await upgrade_async(engine, "0004")
        connection = await asyncpg.connect(pg_server.dsn(name))
        try:
            await connection.execute(
                """
                INSERT INTO workspaces (id, name)
                VALUES ('00000000-0000-0000-0000-000000000001', 'W');
                INSERT INTO users (id, workspace_id, email, display_name, password_hash, role)
                VALUES ('00000000-0000-0000-0000-000000000002',
                        '00000000-0000-0000-0000-000000000001', 'a@w.example', 'A', 'x', 'owner');
                INSERT INTO api_tokens (id, workspace_id, user_id, name, token_hash, prefix)
                VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001',
                        '00000000-0000-0000-0000-000000000002', 'old', '\\x01', 'cvt_x');
                INSERT INTO login_sessions (id, workspace_id, user_id, secret_hash, csrf_hash,
                                            created_at, last_seen_at, expires_at)
                VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001',
                        '00000000-0000-0000-0000-000000000002', '\\x02', '\\x03',
                        now() - interval '1 hour', now(), now() + interval '1 hour');
                INSERT INTO login_failures (id, email_key, at)
                VALUES (gen_random_uuid(), '\\x04', now());
                """
            )
            await upgrade_async(engine, "head")
            token = await connection.fetchrow("SELECT scopes, expires_at FROM api_tokens")
            session = await connection.fetchrow(
                "SELECT reauthenticated_at = created_at AS same FROM login_sessions"
            )
            user = await connection.fetchrow("SELECT must_change_password FROM users")
            default = await connection.fetchval(
                "SELECT column_default FROM information_schema.columns "
                "WHERE table_name = 'api_tokens' AND column_name = 'scopes'"
            )

            def downgrade(sync: Connection) -> None:
                command.downgrade(alembic_config(sync), "0004")

            async with engine.begin() as migrating:
                await migrating.run_sync(downgrade)
            columns = await connection.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'api_tokens'"
            )
            failures_table = await connection.fetchval("SELECT to_regclass('login_failures')")
        finally:
            await connection.close()
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    # Every scope there was at 0006 (system:read and events:read came later).
    at_0006 = [scope for scope in EVERY_SCOPE if scope not in ("system:read", "events:read")]
    assert token is not None and list(token["scopes"]) == at_0006
    assert token["expires_at"] is None
    assert session is not None and session["same"] is True
    assert user is not None and user["must_change_password"] is False
    assert default is None  # new tokens must name their scopes
    assert "scopes" not in {c["column_name"] for c in columns}
    assert failures_table == "login_failures"
