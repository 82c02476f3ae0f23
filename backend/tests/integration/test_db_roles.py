"""Least privilege in the database: `carevault db upgrade` runs as the owner and sets up the
runtime role, which cannot disable the audit trigger or delete, rewrite or truncate events."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import make_url

from carevault.api import readiness as health
from carevault.auth.models import Role
from carevault.crypto import KeyRing
from carevault.db.roles import HISTORY_TABLES
from carevault.lifecycle.reencrypt import encrypted_tables
from tests.support.cli import invoke
from tests.support.db import PgServer, admin_execute
from tests.support.http import running_api

RUNTIME_PASSWORD = "runtime-role-pw"


@pytest.fixture
async def owner_and_runtime(pg_server: PgServer) -> AsyncIterator[tuple[str, str, str]]:
    """An empty database (owner: the test server's admin) and the URL of a runtime role that
    does not exist yet; both dropped afterwards."""
    database = f"cv_roles_{uuid.uuid4().hex[:8]}"
    role = f"cv_rt_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{database}"')
    owner_url = pg_server.url(database)
    runtime_url = (
        make_url(owner_url)
        .set(username=role, password=RUNTIME_PASSWORD)
        .render_as_string(hide_password=False)
    )
    try:
        yield owner_url, runtime_url, role
    finally:
        await admin_execute(
            pg_server,
            f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)',
            f'DROP ROLE IF EXISTS "{role}"',
        )


def dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def test_runtime_role_cannot_disable_the_trigger_or_remove_audit_events(
    cli_env: Path, owner_and_runtime: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_url, runtime_url, role = owner_and_runtime
    monkeypatch.setenv("CAREVAULT_MIGRATION_DATABASE_URL", owner_url)
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", runtime_url)
    first = await invoke(["db", "upgrade"])
    assert first.exit_code == 0, first.output
    assert f"Created runtime role '{role}'" in first.output
    again = await invoke(["db", "upgrade"])
    assert again.exit_code == 0 and f"Updated runtime role '{role}'" in again.output

    # The app works as the runtime role: users, clients, and the audit events they write.
    async with running_api(runtime_url, cli_env) as api:
        _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
        async with api.signed_in(owner) as client:
            created = await client.post("/clients", json={"first_name": "A", "last_name": "B"})
            assert created.status_code == 201, created.text
            updated = await client.patch(
                f"/clients/{created.json()['id']}", json={"notes": "changed"}
            )
            assert updated.status_code == 200
            # The client list's counter (migration 0014): appended and folded by triggers
            # running as this role, read by the list.
            assert (await client.get("/clients")).json()["total"] == 1
            assert (await client.delete(f"/clients/{created.json()['id']}")).status_code == 204
            assert (await client.get("/clients")).json()["total"] == 0
            assert (await client.get("/audit-events")).json()["total"] >= 2
        # Readiness's space probe empties its scratch table: allowed there, and only there.
        report = await health.readiness(api.app.state.carevault)
        assert report.database.writable is True, report.database.error

    connection = await asyncpg.connect(dsn(runtime_url))
    try:
        assert await connection.fetchval("SELECT current_user") == role
        # `reencrypt` (run as this role) rewrites a note version's encrypted columns in place.
        await connection.execute(
            "SELECT 1 FROM session_versions FOR UPDATE SKIP LOCKED; UPDATE session_versions "
            "SET subjective = subjective, objective = objective, assessment = assessment, "
            "plan = plan"
        )
        assert await connection.fetchval("SELECT count(*) FROM audit_events") >= 2
        for statement in (
            "ALTER TABLE audit_events DISABLE TRIGGER ALL",
            "ALTER TABLE audit_events DISABLE TRIGGER USER",
            "DELETE FROM audit_events",
            "UPDATE audit_events SET action = 'x'",
            "TRUNCATE audit_events",
            "DROP TABLE audit_events",
            "CREATE TABLE sneaky (id int)",
            "TRUNCATE clients",
            "TRUNCATE health_probes",
            "ALTER TABLE clients ADD COLUMN sneaky int",
            "UPDATE alembic_version SET version_num = '0001'",
            # The history of note versions is append-only for the app (issue 23).
            "DELETE FROM session_versions",
            "UPDATE session_versions SET version = 0",
            "TRUNCATE session_versions",
            "DELETE FROM audit_seals",
            "UPDATE audit_seals SET seq = 0",
            "DELETE FROM audit_checkpoints",
        ):
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await connection.execute(statement)
    finally:
        await connection.close()

    owner_connection = await asyncpg.connect(dsn(owner_url))
    try:
        owner_of = await owner_connection.fetchval(
            "SELECT tableowner FROM pg_tables WHERE tablename = 'audit_events'"
        )
    finally:
        await owner_connection.close()
    assert owner_of != role


async def test_with_a_sealer_role_only_it_can_insert_seals(
    cli_env: Path, owner_and_runtime: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CAREVAULT_AUDIT_SEALER_DATABASE_URL: the app seals as a role of its own, and the
    request path's role can no longer insert a seal or a checkpoint record at all."""
    owner_url, runtime_url, _ = owner_and_runtime
    sealer = f"cv_seal_{uuid.uuid4().hex[:8]}"
    sealer_url = (
        make_url(owner_url)
        .set(username=sealer, password="sealer-role-pw")
        .render_as_string(hide_password=False)
    )
    monkeypatch.setenv("CAREVAULT_MIGRATION_DATABASE_URL", owner_url)
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", runtime_url)
    monkeypatch.setenv("CAREVAULT_AUDIT_SEALER_DATABASE_URL", sealer_url)
    try:
        upgraded = await invoke(["db", "upgrade"])
        assert upgraded.exit_code == 0, upgraded.output
        assert f"Created sealer role '{sealer}'" in upgraded.output
        async with running_api(
            runtime_url,
            cli_env,
            audit_sealer_database_url=sealer_url,
            audit_seal_interval_seconds=0.05,
        ) as api:
            _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
            async with api.signed_in(owner) as client:
                assert (await client.get("/auth/me")).status_code == 200
            owner_connection = await asyncpg.connect(dsn(owner_url))
            try:
                for _ in range(600):  # bounded: it waits for transactions it cannot see
                    unsealed = await owner_connection.fetchval(
                        "SELECT count(*) FROM (SELECT id FROM audit_events EXCEPT "
                        "SELECT unnest(event_ids) FROM audit_seals) AS u"
                    )
                    if unsealed == 0:
                        break
                    await asyncio.sleep(0.05)
                assert unsealed == 0
                sealed_by = await owner_connection.fetchval("SELECT count(*) FROM audit_seals")
                assert sealed_by > 0
            finally:
                await owner_connection.close()

        runtime = await asyncpg.connect(dsn(runtime_url))
        try:
            for statement in (
                "INSERT INTO audit_seals (workspace_id, seq, event_ids, digests, total, "
                "prev_mac, mac, key_id, txid_from, txid_to) VALUES "
                "(gen_random_uuid(), 1, '{}', '', 0, '', '', '', 0, 1)",
                "INSERT INTO audit_checkpoints (created_at, digest, seals_checked_to, "
                "untrusted_seals, untrusted_seal_ids, mac) VALUES (now(), '', 0, 0, '{}', '')",
            ):
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await runtime.execute(statement)
            assert await runtime.fetchval("SELECT count(*) FROM audit_seals") > 0
        finally:
            await runtime.close()
        sealing = await asyncpg.connect(dsn(sealer_url))
        try:
            for statement in (
                "DELETE FROM audit_seals",
                "UPDATE audit_seals SET seq = 0",
                "INSERT INTO audit_events (action) VALUES ('x')",
                "SELECT * FROM clients",
                "SELECT * FROM users",
            ):
                with pytest.raises(asyncpg.InsufficientPrivilegeError):
                    await sealing.execute(statement)
        finally:
            await sealing.close()
        production_env(monkeypatch)
        doctor = await invoke(["doctor"])
        assert "[ok  ] database role: the app's role can only read and append" in doctor.output
    finally:
        cleanup = await asyncpg.connect(dsn(owner_url))
        try:
            await cleanup.execute(f'DROP OWNED BY "{sealer}"')
            await cleanup.execute(f'DROP ROLE IF EXISTS "{sealer}"')
        finally:
            await cleanup.close()


def test_history_tables_grant_update_of_exactly_their_encrypted_columns() -> None:
    """What `reencrypt` rewrites (carevault.lifecycle.reencrypt.encrypted_tables)."""
    encrypted = {table.name: tuple(c.name for c in table.columns) for table in encrypted_tables()}
    for table, columns in HISTORY_TABLES.items():
        assert columns == encrypted[table]


def production_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAREVAULT_ENV", "production")
    monkeypatch.setenv("CAREVAULT_KEY_PROVIDER", "env")
    monkeypatch.setenv("CAREVAULT_KEYRING_JSON", KeyRing.generate().to_json())


async def test_doctor_fails_in_production_when_the_app_role_can_tamper_with_audit_events(
    cli_env: Path, owner_and_runtime: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_url, runtime_url, _ = owner_and_runtime
    monkeypatch.setenv("CAREVAULT_MIGRATION_DATABASE_URL", owner_url)
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", runtime_url)
    assert (await invoke(["db", "upgrade"])).exit_code == 0
    production_env(monkeypatch)
    least = await invoke(["doctor"])
    assert "[ok  ] database role: the app's role can only read and append" in least.output
    assert least.exit_code == 0, least.output

    # One role for everything, the way it was: the app owns the audit table.
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", owner_url)
    shared = await invoke(["doctor"])
    assert shared.exit_code == 1
    assert "[FAIL] database role" in shared.output
    assert "DISABLE TRIGGER" in shared.output


async def test_same_url_for_app_and_migrations_skips_role_setup(
    cli_env: Path, owner_and_runtime: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_url, _, role = owner_and_runtime
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", owner_url)
    monkeypatch.delenv("CAREVAULT_MIGRATION_DATABASE_URL", raising=False)
    result = await invoke(["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "no separate runtime role" in result.output
    connection = await asyncpg.connect(dsn(owner_url))
    try:
        assert await connection.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", role) is None
    finally:
        await connection.close()


async def test_migration_and_runtime_urls_must_name_the_same_database(
    cli_env: Path, owner_and_runtime: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_url, runtime_url, _ = owner_and_runtime
    monkeypatch.setenv("CAREVAULT_MIGRATION_DATABASE_URL", owner_url)
    monkeypatch.setenv(
        "CAREVAULT_DATABASE_URL",
        make_url(runtime_url).set(database="elsewhere").render_as_string(hide_password=False),
    )
    result = await invoke(["db", "upgrade"])
    assert result.exit_code == 2
    assert "must be the same database" in result.output
