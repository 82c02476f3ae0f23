"""The AWS provider against moto's Secrets Manager in server mode, over real HTTP."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession
from typer.testing import CliRunner

from carevault.cli import app as cli
from carevault.clients.models import Client
from carevault.config import Settings
from carevault.crypto import (
    FieldCipher,
    KeyRing,
    KeyRingManager,
    KeyRingUnavailable,
    current_cipher,
    install,
)
from carevault.crypto.aws import SecretsManagerProvider
from carevault.runtime import StartupError, start_key_ring
from carevault.workspaces.keys import load_workspace_keys, provision
from tests.support import factories
from tests.support.processes import wait_until

if TYPE_CHECKING:
    from moto.server import ThreadedMotoServer


def provider_for(endpoint: str, secret_id: str | None = None) -> SecretsManagerProvider:
    return SecretsManagerProvider(
        secret_id or f"carevault/test/{uuid.uuid4().hex}",
        region="us-east-1",
        endpoint_url=endpoint,
    )


def count_get_secret_calls(provider: SecretsManagerProvider) -> list[int]:
    calls = [0]

    def count(**_: object) -> None:
        calls[0] += 1

    provider.client.meta.events.register("before-call.secrets-manager.GetSecretValue", count)
    return calls


def test_initialize_creates_the_secret_and_load_reads_it(moto_endpoint: str) -> None:
    provider = provider_for(moto_endpoint)
    ring, created = provider.initialize()
    assert created
    assert provider.initialize()[1] is False
    assert provider.load().active.material == ring.active.material
    provider.store(ring.rotated())
    assert provider.load().active_version == 2


def test_missing_secret_is_unavailable_with_the_aws_error_code(moto_endpoint: str) -> None:
    with pytest.raises(KeyRingUnavailable, match="ResourceNotFoundException"):
        provider_for(moto_endpoint).load()


def test_a_malformed_secret_does_not_leak_its_contents(moto_endpoint: str) -> None:
    provider = provider_for(moto_endpoint)
    provider.client.create_secret(Name=provider.secret_id, SecretString='{"schema": "nope"}')
    with pytest.raises(Exception, match="schema") as caught:
        provider.load()
    assert "nope" not in str(caught.value)


def test_production_start_without_a_reachable_ring_refuses_with_what_to_set(
    moto_endpoint: str,
) -> None:
    settings = Settings(
        env="production",
        key_provider="aws",
        database_url="postgresql+asyncpg://x/y",
        aws_secret_id=f"missing/{uuid.uuid4().hex}",
        aws_region="us-east-1",
        aws_endpoint_url=moto_endpoint,
    )
    with pytest.raises(StartupError, match="CAREVAULT_AWS_SECRET_ID"):
        start_key_ring(settings)


async def test_rotation_in_the_secret_reaches_a_running_manager(
    moto_endpoint: str, db: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = provider_for(moto_endpoint)
    provider.initialize()
    manager = KeyRingManager(provider, ttl_seconds=0.1)
    manager.start()
    install(FieldCipher(manager))
    try:
        space = await factories.workspace(db)
        before = await factories.client(db, space, first_name="Before")

        for name, value in {
            "CAREVAULT_KEY_PROVIDER": "aws",
            "CAREVAULT_AWS_SECRET_ID": provider.secret_id,
            "CAREVAULT_AWS_REGION": "us-east-1",
            "CAREVAULT_AWS_ENDPOINT_URL": moto_endpoint,
            "CAREVAULT_KEY_CACHE_TTL_SECONDS": "0.1",
            "CAREVAULT_KEY_ACTIVATION_MARGIN_SECONDS": "0.4",
        }.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("CAREVAULT_DATABASE_URL", raising=False)
        # Activation far enough ahead that a slow machine still sees the staged state first
        # (at 1 s, the command itself and the next refresh sometimes took longer in CI).
        result = CliRunner().invoke(cli, ["keys", "rotate", "--activate-in", "4"])
        assert result.exit_code == 0, result.output
        assert "Key version 2 is pending" in result.output

        # Staged: every process holds version 2 before anything is sealed under it.
        assert wait_until(lambda: manager.ring.pending_version == 2)
        assert manager.ring.encryption_version() == 1
        await provision(db, manager.ring)  # what `keys rotate` does with a database
        current_cipher().data_keys.forget(space.id.bytes)  # as the next refresh interval does
        await load_workspace_keys(db, space.id)
        assert wait_until(lambda: manager.ring.encryption_version() == 2)
        after = await factories.client(db, space, first_name="After")
        versions: dict[uuid.UUID, int] = dict(
            (
                await db.execute(
                    text("SELECT id, get_byte(first_name, 4) FROM clients WHERE workspace_id = :w"),
                    {"w": space.id},
                )
            ).all()
        )
        assert versions == {before.id: 1, after.id: 2}
        db.expunge_all()
        names = (
            (await db.execute(select(Client.first_name).where(Client.workspace_id == space.id)))
            .scalars()
            .all()
        )
        assert sorted(names) == ["After", "Before"]

        status = CliRunner().invoke(cli, ["keys", "status"])
        assert status.exit_code == 0, status.output
        assert "active version: 2" in status.output
        assert "decrypt-only" in status.output
        material = provider.load().active.material
        assert material is not None and material.hex() not in status.output
    finally:
        manager.stop()


async def test_no_secrets_manager_call_per_field(moto_endpoint: str, db: AsyncSession) -> None:
    provider = provider_for(moto_endpoint)
    provider.initialize()
    calls = count_get_secret_calls(provider)
    manager = KeyRingManager(provider, ttl_seconds=3600)
    manager.start()
    install(FieldCipher(manager))
    try:
        assert calls[0] == 1
        space = await factories.workspace(db)
        for index in range(50):
            await factories.client(db, space, first_name=f"Client {index}")
        db.expunge_all()
        rows = (await db.execute(select(Client).where(Client.workspace_id == space.id))).scalars()
        assert len([row.medical_history for row in rows]) == 50
        assert calls[0] == 1  # 50 rows × 10 fields written and read, no provider call
    finally:
        manager.stop()


@pytest.fixture
def private_moto() -> Iterator[ThreadedMotoServer]:
    from moto.server import ThreadedMotoServer  # moto takes 0.4 s to import: only here

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    yield server
    with contextlib.suppress(Exception):  # already stopped by the test
        server.stop()


async def test_an_outage_after_start_up_does_not_stop_reads_or_writes(
    private_moto: ThreadedMotoServer, db: AsyncSession
) -> None:
    host, port = private_moto.get_host_and_port()
    provider = provider_for(f"http://{host}:{port}")
    provider.initialize()
    manager = KeyRingManager(provider, ttl_seconds=0.1)
    manager.start()
    install(FieldCipher(manager))
    try:
        space = await factories.workspace(db)
        before = await factories.client(db, space, first_name="Before outage")
        private_moto.stop()
        assert wait_until(lambda: manager.status().consecutive_failures >= 2)
        status = manager.status()
        assert status.last_error is not None and "unreachable" in status.last_error
        assert status.loaded and status.active_version == 1

        during = await factories.client(db, space, first_name="During outage")
        db.expunge_all()
        names = {
            row.id: row.first_name
            for row in (
                await db.execute(select(Client).where(Client.workspace_id == space.id))
            ).scalars()
        }
        assert names == {before.id: "Before outage", during.id: "During outage"}
    finally:
        manager.stop()


def test_key_ring_json_in_the_secret_matches_the_documented_schema(moto_endpoint: str) -> None:
    provider = provider_for(moto_endpoint)
    ring, _ = provider.initialize()
    stored = provider.client.get_secret_value(SecretId=provider.secret_id)["SecretString"]
    assert KeyRing.from_json(stored).active.material == ring.active.material
    assert '"schema": "carevault.keyring/1"' in stored
