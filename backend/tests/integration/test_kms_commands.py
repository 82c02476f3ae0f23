"""Every command with CAREVAULT_KEY_PROVIDER=kms, as separate processes, against moto's KMS
over HTTP and a real database: install, users, import, status, doctor, a practice's own key
(re-wrap killed with kill -9 and resumed), moving the installation key, shredding."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import boto3
import pytest
from sqlalchemy import select

from carevault.clients.models import Client
from carevault.config import Settings
from carevault.crypto import FieldCipher, StaticRing, install
from carevault.crypto.errors import KeyAccessRevoked
from carevault.crypto.kms import KmsKeys, KmsProvider, unframe
from carevault.db.engine import create_engine, session_factory
from carevault.runtime import DatabaseInstallationKeys
from carevault.workspaces.keys import load_workspace_keys
from carevault.workspaces.models import InstallationKey, Workspace, WorkspaceKey
from tests.support.db import NewDatabase
from tests.support.processes import wait_until

PASSWORD = "correct horse battery staple"
REPO = Path(__file__).resolve().parents[3]


def kms_env(database_url: str, endpoint: str, key: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    env.update(
        CAREVAULT_DATABASE_URL=database_url,
        CAREVAULT_DATA_DIR=str(data_dir),
        CAREVAULT_KEY_PROVIDER="kms",
        CAREVAULT_KMS_KEY_ID=key,
        CAREVAULT_AWS_REGION="us-east-1",
        CAREVAULT_AWS_ENDPOINT_URL=endpoint,
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        CAREVAULT_TEST_FAST_HASHING="1",
    )
    return env


def carevault(env: dict[str, str], *args: str, stdin: str | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "carevault", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    return done.returncode, done.stdout + done.stderr


def start(env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "carevault", *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class Reader:
    """This test's own view: a KMS ring, opening values as a CareVault process would."""

    def __init__(self, url: str, endpoint: str, key: str) -> None:
        settings = Settings(
            database_url=url,
            key_provider="kms",
            kms_key_id=key,
            aws_region="us-east-1",
            aws_endpoint_url=endpoint,
        )
        self.keys = KmsKeys(key, region="us-east-1", endpoint_url=endpoint, state_ttl_seconds=0.0)
        self.ring = KmsProvider(self.keys, DatabaseInstallationKeys(settings)).load()
        self.cipher = FieldCipher(StaticRing(self.ring))
        install(self.cipher)
        self.engine = create_engine(url, pool_size=2)

    async def names(self, practice: str) -> list[str]:
        self.cipher.data_keys.clear()
        async with session_factory(self.engine)() as db:
            workspace_id = await db.scalar(select(Workspace.id).where(Workspace.name == practice))
            assert workspace_id is not None
            await load_workspace_keys(db, workspace_id)
            rows = await db.execute(
                select(Client.first_name).where(Client.workspace_id == workspace_id)
            )
            return sorted(rows.scalars())

    async def key_ids(self, practice: str) -> tuple[str | None, list[str]]:
        async with session_factory(self.engine)() as db:
            workspace_id, own = (
                await db.execute(
                    select(Workspace.id, Workspace.kms_key_id).where(Workspace.name == practice)
                )
            ).one()
            wrapped = await db.scalars(
                select(WorkspaceKey.wrapped_key).where(
                    WorkspaceKey.workspace_id == workspace_id, WorkspaceKey.key_version != 0
                )
            )
            return own, [unframe(w)[0] for w in wrapped]

    async def installation_key_ids(self) -> list[str]:
        async with session_factory(self.engine)() as db:
            return [unframe(w)[0] for w in await db.scalars(select(InstallationKey.wrapped_key))]


def import_file(tmp_path: Path, names: list[str]) -> Path:
    path = tmp_path / "clients.csv"
    lines = ["first_name,last_name,email"]
    lines += [f"{n},Tester,{n.lower()}@example.org" for n in names]
    path.write_text("\n".join(lines) + "\n")
    return path


async def test_every_command_with_kms_and_a_practice_key_rewrap_killed_and_resumed(
    new_database: NewDatabase, moto_endpoint: str, tmp_path: Path
) -> None:
    admin = boto3.client("kms", region_name="us-east-1", endpoint_url=moto_endpoint)
    installation = admin.create_key()["KeyMetadata"]
    own = admin.create_key(Description="Clinic A's own key")["KeyMetadata"]
    url = await new_database()
    env = kms_env(url, moto_endpoint, installation["Arn"], tmp_path)

    code, out = carevault(env, "db", "upgrade")
    assert code == 0, out
    code, out = carevault(env, "keys", "init")
    assert code == 0, out
    assert "Created" in out and installation["Arn"] in out
    code, out = carevault(env, "keys", "init")
    assert code == 0 and "Found existing" in out, out
    for practice in ("Clinic A", "Clinic B", "Clinic C"):
        code, out = carevault(
            env,
            "users",
            "create",
            "--workspace",
            practice,
            "--email",
            f"owner-{uuid.uuid4().hex[:6]}@example.test",
            "--role",
            "owner",
            stdin=PASSWORD + "\n",
        )
        assert code == 0, out
        code, out = carevault(
            env,
            "import",
            "clients",
            str(import_file(tmp_path, ["Ada", "Grace"])),
            "--workspace",
            practice,
        )
        assert code == 0, out

    code, out = carevault(env, "keys", "status")
    assert code == 0, out
    assert f"installation KMS key: {installation['Arn']} (Enabled)" in out
    assert "Clinic A" in out and "default" in out
    assert "key material" not in out.lower() or "never leave" in out
    code, out = carevault(env, "doctor")
    assert "Traceback" not in out, out
    assert f"KMS key: {installation['Arn']}: Enabled" in out, out

    reader = Reader(url, moto_endpoint, installation["Arn"])
    try:
        assert await reader.names("Clinic A") == ["Ada", "Grace"]

        # BYOK: killed with kill -9 after the practice's key was recorded, before its data
        # key was re-wrapped; every value still opens; run again to finish.
        job = start(
            env,
            "workspaces",
            "set-key",
            "--workspace",
            "Clinic A",
            "--kms-key-id",
            own["Arn"],
            "--pause-ms",
            "60000",
        )
        try:

            def recorded() -> bool:
                return bool(asyncio.run(_own_key(url, "Clinic A")) == own["Arn"])

            assert await asyncio.to_thread(wait_until, recorded, 60)
        finally:
            os.kill(job.pid, signal.SIGKILL)
            job.wait()
        assert job.returncode == -signal.SIGKILL
        recorded_key, under = await reader.key_ids("Clinic A")
        assert recorded_key == own["Arn"] and under == [installation["Arn"]]  # half-way
        assert await reader.names("Clinic A") == ["Ada", "Grace"]
        code, out = carevault(
            env, "workspaces", "set-key", "--workspace", "Clinic A", "--kms-key-id", own["Arn"]
        )
        assert code == 0, out
        assert "1 data key(s) re-wrapped" in out
        assert (await reader.key_ids("Clinic A"))[1] == [own["Arn"]]
        assert await reader.names("Clinic A") == ["Ada", "Grace"]
        assert await reader.names("Clinic B") == ["Ada", "Grace"]

        # The practice disables its key: it alone loses access; enabling restores it.
        admin.disable_key(KeyId=own["KeyId"])
        with pytest.raises(KeyAccessRevoked) as refused:
            await reader.names("Clinic A")
        assert refused.value.code == "kms_key_disabled"
        assert await reader.names("Clinic B") == ["Ada", "Grace"]
        code, out = carevault(env, "keys", "status")
        assert "Disabled" in out and own["Arn"] in out, out
        admin.enable_key(KeyId=own["KeyId"])
        assert await reader.names("Clinic A") == ["Ada", "Grace"]

        # Moving the installation onto a new KMS key: `keys rewrap`, killed after the first
        # practice, then resumed; every value opens at every step.
        successor = admin.create_key()["KeyMetadata"]
        moved_env = {**env, "CAREVAULT_KMS_KEY_ID": successor["Arn"]}
        job = start(moved_env, "keys", "rewrap", "--pause-ms", "1500")
        try:

            def first_moved() -> bool:
                return any(
                    asyncio.run(_under(url, name)) == [successor["Arn"]]
                    for name in ("Clinic B", "Clinic C")
                )

            assert await asyncio.to_thread(wait_until, first_moved, 60)
        finally:
            os.kill(job.pid, signal.SIGKILL)
            job.wait()
        assert set(await reader.installation_key_ids()) == {successor["Arn"]}
        for practice in ("Clinic A", "Clinic B", "Clinic C"):
            assert await reader.names(practice) == ["Ada", "Grace"]
        code, out = carevault(moved_env, "keys", "rewrap")
        assert code == 0, out
        for practice in ("Clinic B", "Clinic C"):
            assert (await reader.key_ids(practice))[1] == [successor["Arn"]]
        assert (await reader.key_ids("Clinic A"))[1] == [own["Arn"]]  # its own key: untouched
        admin.disable_key(KeyId=installation["KeyId"])  # the old key is no longer needed
        reader_after = Reader(url, moto_endpoint, successor["Arn"])
        for practice in ("Clinic A", "Clinic B", "Clinic C"):
            assert await reader_after.names(practice) == ["Ada", "Grace"]
        await reader_after.engine.dispose()

        # Shredding a BYOK practice can schedule its key's deletion; the installation's
        # key is refused for that.
        code, out = carevault(
            moved_env,
            "workspaces",
            "shred",
            "--workspace",
            "Clinic B",
            "--confirm",
            "Clinic B",
            "--schedule-kms-key-deletion",
            "7",
        )
        assert code != 0 and "installation's KMS key" in out, out
        code, out = carevault(
            moved_env,
            "workspaces",
            "shred",
            "--workspace",
            "Clinic A",
            "--confirm",
            "Clinic A",
            "--schedule-kms-key-deletion",
            "7",
        )
        assert code == 0, out
        assert "Scheduled the deletion" in out
        state = admin.describe_key(KeyId=own["KeyId"])["KeyMetadata"]["KeyState"]
        assert state == "PendingDeletion"
    finally:
        await reader.engine.dispose()


async def _own_key(url: str, practice: str) -> str | None:
    engine = create_engine(url, pool_size=1)
    try:
        async with session_factory(engine)() as db:
            return await db.scalar(select(Workspace.kms_key_id).where(Workspace.name == practice))
    finally:
        await engine.dispose()


async def _under(url: str, practice: str) -> list[str]:
    engine = create_engine(url, pool_size=1)
    try:
        async with session_factory(engine)() as db:
            wrapped = await db.scalars(
                select(WorkspaceKey.wrapped_key)
                .join(Workspace, Workspace.id == WorkspaceKey.workspace_id)
                .where(Workspace.name == practice, WorkspaceKey.key_version != 0)
            )
            return [unframe(w)[0] for w in wrapped]
    finally:
        await engine.dispose()
