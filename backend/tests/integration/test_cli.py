"""The `carevault` command against a real database."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import asyncpg
import pytest

from carevault.auth.passwords import verify_password
from carevault.cli import app as cli
from carevault.db.migrate import head_revision
from tests.support.cli import invoke, runner
from tests.support.db import NewDatabase, PgServer, admin_execute


async def fetch_user(url: str, email: str) -> asyncpg.Record | None:
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return await connection.fetchrow(
            "SELECT u.email, u.role, u.password_hash, w.name AS workspace FROM users u "
            "JOIN workspaces w ON w.id = u.workspace_id WHERE u.email = $1",
            email,
        )
    finally:
        await connection.close()


async def test_users_create_reads_the_password_from_stdin(
    cli_env: Path, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await new_database()
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", url)
    result = await invoke(
        [
            "users",
            "create",
            "--workspace",
            "Hill Clinic",
            "--email",
            "Lead@Hill.example",
            "--role",
            "owner",
        ],
        "correct horse battery\n",
    )
    assert result.exit_code == 0, result.output
    assert "Created workspace 'Hill Clinic'" in result.output
    assert "correct horse" not in result.output
    row = await fetch_user(url, "Lead@Hill.example")
    assert row is not None and row["role"] == "owner" and row["workspace"] == "Hill Clinic"
    assert row["password_hash"].startswith("$argon2id$")
    assert verify_password(row["password_hash"], "correct horse battery")

    again = await invoke(
        ["users", "create", "--workspace", "Hill Clinic", "--email", "lead@hill.example"],
        "another password\n",
    )
    assert again.exit_code == 2
    assert "already exists" in again.output


@pytest.mark.parametrize(
    ("arguments", "password", "message"),
    [
        (["--role", "admin"], "long enough pw", "--role must be owner or clinician"),
        ([], "short", "at least 10 characters"),
    ],
)
async def test_users_create_refuses_bad_input_clearly(
    cli_env: Path,
    new_database: NewDatabase,
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
    password: str,
    message: str,
) -> None:
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", await new_database())
    result = await invoke(
        ["users", "create", "--workspace", "W", "--email", "a@b.example", *arguments],
        password + "\n",
    )
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


async def test_db_upgrade_builds_the_schema_on_an_empty_database(
    cli_env: Path, pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uuid

    name = f"cv_empty_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    try:
        monkeypatch.setenv("CAREVAULT_DATABASE_URL", pg_server.url(name))
        result = await invoke(["db", "upgrade"])
        assert result.exit_code == 0, result.output
        doctor = await invoke(["doctor"])
        head = head_revision()
        assert f"migrations: at {head}, code expects {head}" in doctor.output
    finally:
        await admin_execute(pg_server, f'DROP DATABASE "{name}" WITH (FORCE)')


async def test_keys_init_status_rotate_activate_retire_with_the_local_file(
    cli_env: Path, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", await new_database())
    monkeypatch.setenv("CAREVAULT_KEY_CACHE_TTL_SECONDS", "2")
    monkeypatch.setenv("CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS", "2")
    (cli_env / "keyring.json").unlink()  # the data_dir fixture made one; start without
    status = await invoke(["keys", "status"])
    assert status.exit_code == 2 and "keys init" in status.output

    init = await invoke(["keys", "init"])
    assert init.exit_code == 0 and "Created key ring" in init.output
    path = cli_env / "keyring.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    too_soon = await invoke(["keys", "rotate", "--activate-in", "0.1"])
    assert too_soon.exit_code == 2 and "at least 4 s" in too_soon.output
    rotate = await invoke(["keys", "rotate", "--activate-in", "3600"])
    assert rotate.exit_code == 0, rotate.output
    assert "Key version 2 is pending" in rotate.output
    pending = (await invoke(["keys", "status"])).output.splitlines()
    assert "active version: 1" in pending
    assert any(line.split()[:2] == ["2", "pending"] for line in pending)
    assert any(line.startswith("pending version 2 activates at") for line in pending)
    early = await invoke(["keys", "activate", "2"])
    assert early.exit_code == 2 and "may be activated from" in early.output
    await asyncio.sleep(4.2)
    activate = await invoke(["keys", "activate", "2"])
    assert activate.exit_code == 0, activate.output

    retire = await invoke(["keys", "retire", "1", "--yes"])
    assert retire.exit_code == 0, retire.output
    refuse = await invoke(["keys", "retire", "2", "--yes"])
    assert refuse.exit_code == 2 and "rotate first" in refuse.output

    status = runner.invoke(cli, ["keys", "status"])
    lines = status.output.splitlines()
    assert "active version: 2" in lines
    assert any(line.split()[:2] == ["1", "retired"] for line in lines)
    assert any(line.split()[:2] == ["2", "active"] for line in lines)
    assert path.read_text().split('"key": "')[1][:20] not in status.output


def test_keys_generate_writes_a_private_file_and_prints_no_key(tmp_path: Path) -> None:
    target = tmp_path / "ring.json"
    result = runner.invoke(cli, ["keys", "generate", "--output", str(target)])
    assert result.exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert '"key"' not in result.output
    again = runner.invoke(cli, ["keys", "generate", "--output", str(target)])
    assert again.exit_code == 2 and "refusing to overwrite" in again.output


def test_production_configuration_errors_are_one_clear_line(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAREVAULT_ENV", "production")
    result = runner.invoke(cli, ["keys", "status"])
    assert result.exit_code == 2
    assert "CAREVAULT_KEY_PROVIDER=aws" in result.output
    assert "Traceback" not in result.output


async def test_doctor_prints_each_key_age_and_warns_past_the_maximum(
    cli_env: Path, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace
    from datetime import UTC, datetime, timedelta

    from carevault.crypto import LocalFileProvider

    provider = LocalFileProvider(cli_env / "keyring.json")
    ring = provider.load()
    now = datetime.now(UTC)
    old = replace(ring.keys[1], created_at=now - timedelta(days=120, hours=1))
    aged = replace(ring, keys={1: old})
    provider.store(aged.rotated(activate_after=now + timedelta(hours=1)))

    # A real database, so doctor never starts an embedded one.
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", await new_database())
    monkeypatch.setenv("CAREVAULT_KEY_MAX_AGE_DAYS", "90")
    warned = await invoke(["doctor"])
    assert f"key version 1: active, created {old.created_at.date()}, age 120 days" in (
        warned.output
    )
    assert "key version 2: pending, created" in warned.output
    assert "age today" in warned.output
    assert "[warn] key age: the active key version 1 is 120 days old" in warned.output
    assert "CAREVAULT_KEY_MAX_AGE_DAYS=90" in warned.output

    monkeypatch.setenv("CAREVAULT_KEY_MAX_AGE_DAYS", "365")
    within = await invoke(["doctor"])
    assert "key version 1: active" in within.output and "age 120 days" in within.output
    assert "key age:" not in within.output
