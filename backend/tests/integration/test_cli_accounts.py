"""`carevault users reset-password`: the way back in for an owner who cannot sign in."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from carevault.auth.passwords import verify_password
from tests.support.cli import invoke
from tests.support.db import NewDatabase


async def test_reset_password_sets_a_temporary_password_and_ends_sessions(
    cli_env: Path,
    new_database: NewDatabase,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = await new_database()
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", url)
    created = await invoke(
        ["users", "create", "--workspace", "W", "--email", "boss@w.example", "--role", "owner"],
        "the original password\n",
    )
    assert created.exit_code == 0, created.output
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute(
            "INSERT INTO login_sessions (id, workspace_id, user_id, secret_hash, csrf_hash, "
            "created_at, last_seen_at, expires_at) SELECT gen_random_uuid(), workspace_id, id, "
            "'\\x01', '\\x02', now(), now(), now() + interval '1 hour' FROM users"
        )
        reset = await invoke(
            ["users", "reset-password", "--email", "BOSS@w.example"], "Zebra-Quartz-991\n"
        )
        assert reset.exit_code == 0, reset.output
        assert "Zebra-Quartz" not in reset.output
        user = await connection.fetchrow("SELECT password_hash, must_change_password FROM users")
        ended = await connection.fetchval("SELECT end_reason FROM login_sessions")
        actions = await connection.fetch("SELECT action FROM audit_events")
    finally:
        await connection.close()
    assert user is not None and user["must_change_password"] is True
    assert verify_password(user["password_hash"], "Zebra-Quartz-991")
    assert ended == "password"
    assert [a["action"] for a in actions] == ["user.temporary_password"]

    unknown = await invoke(
        ["users", "reset-password", "--email", "x@y.example"], "long enough pw\n"
    )
    assert unknown.exit_code == 2 and "no user with email x@y.example" in unknown.output
