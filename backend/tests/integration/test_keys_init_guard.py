"""`carevault keys init` never creates a ring over data sealed under an earlier one.

The Docker Compose setup runs `keys init` at every start. When the secrets store has lost
the ring (a moto restart, a deleted key-ring file), creating a new one would make every
stored value unreadable for good; the command must refuse and say what it found.
"""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import boto3
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.lifecycle.ring_guard import SealedData, find_sealed_data
from tests.support import factories
from tests.support.cli import invoke
from tests.support.db import NewDatabase

PASSWORD = "correct horse battery"


async def a_practice_with_a_user(workspace: str) -> None:
    created = await invoke(
        ["users", "create", "--workspace", workspace, "--email", "o@x.example", "--role", "owner"],
        PASSWORD + "\n",
    )
    assert created.exit_code == 0, created.output


async def test_sealed_data_names_practice_keys_encrypted_columns(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    await factories.client(db, space)
    found = await find_sealed_data(await db.connection())
    assert found
    assert found.practice_keys >= 2  # a data key and a blind-index key
    assert 1 in found.wrapped_under
    assert "clients.first_name" in found.encrypted_columns
    assert "clients.medical_history" in found.encrypted_columns
    assert "practice key(s) wrapped under key version(s) 1" in found.describe()


async def test_a_migrated_empty_database_holds_nothing_sealed(new_database: NewDatabase) -> None:
    from carevault.db.engine import create_engine

    engine = create_engine(await new_database(), pool_size=1)
    try:
        async with engine.connect() as connection:
            assert await find_sealed_data(connection) == SealedData()
    finally:
        await engine.dispose()


async def test_keys_init_refuses_a_new_file_ring_over_sealed_data(
    cli_env: Path, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", await new_database())
    await a_practice_with_a_user("Guard Clinic")
    ring_file = cli_env / "keyring.json"
    ring_file.unlink()  # the ring is lost; the database still holds what it sealed

    refused = await invoke(["keys", "init"])
    assert refused.exit_code == 2, refused.output
    message = refused.output.strip()
    assert len(message.splitlines()) == 1
    assert message.startswith("error: refusing to create a new key ring in local file")
    assert "practice key(s) wrapped under key version(s) 1" in message
    assert "restore that ring" in message and "empty database" in message
    assert "Traceback" not in refused.output
    assert not ring_file.exists()


async def test_keys_init_refuses_a_new_secret_over_sealed_data(
    cli_env: Path,
    new_database: NewDatabase,
    moto_endpoint: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in Docker Compose: the secrets store restarted empty, `keys init` runs again."""
    secret_id = f"guard/{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", await new_database())
    monkeypatch.setenv("CAREVAULT_KEY_PROVIDER", "aws")
    monkeypatch.setenv("CAREVAULT_AWS_SECRET_ID", secret_id)
    monkeypatch.setenv("CAREVAULT_AWS_REGION", "us-east-1")
    monkeypatch.setenv("CAREVAULT_AWS_ENDPOINT_URL", moto_endpoint)
    first = await invoke(["keys", "init"])
    assert first.exit_code == 0 and "Created key ring" in first.output, first.output
    await a_practice_with_a_user("Compose Clinic")

    secrets = boto3.client("secretsmanager", region_name="us-east-1", endpoint_url=moto_endpoint)
    secrets.delete_secret(SecretId=secret_id, ForceDeleteWithoutRecovery=True)

    refused = await invoke(["keys", "init"])
    assert refused.exit_code == 2, refused.output
    assert f"AWS Secrets Manager secret {secret_id}" in refused.output
    assert "practice key(s)" in refused.output
    names = [s["Name"] for s in secrets.list_secrets()["SecretList"]]
    assert secret_id not in names


async def test_keys_init_refuses_when_the_database_cannot_be_checked(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(
        "CAREVAULT_DATABASE_URL", f"postgresql+asyncpg://u:hidden-pw@127.0.0.1:{port}/nothing"
    )
    (cli_env / "keyring.json").unlink()
    refused = await invoke(["keys", "init"])
    assert refused.exit_code == 2, refused.output
    assert "cannot check the database" in refused.output
    assert "hidden-pw" not in refused.output
    assert not (cli_env / "keyring.json").exists()


async def test_keys_init_still_finds_an_existing_ring_without_asking_the_database(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", "postgresql+asyncpg://u@127.0.0.1:1/nothing")
    found = await invoke(["keys", "init"])
    assert found.exit_code == 0 and "Found existing key ring" in found.output, found.output


def test_the_refusal_points_at_a_section_that_exists() -> None:
    from carevault.lifecycle.ring_guard import RESTORE_DOC

    path, _, anchor = RESTORE_DOC.partition("#")
    root = Path(__file__).resolve().parents[3]
    headings = [
        line.lstrip("#").strip().lower().replace(" ", "-")
        for line in (root / path).read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]
    assert anchor in headings
