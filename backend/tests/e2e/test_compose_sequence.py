"""The Compose start sequence against local processes: a restart of the secrets store loses
nothing, and a lost key ring stops the app instead of replacing the ring.

No Docker engine here, so each service becomes a process on loopback, configured from
docker-compose.yml and the Dockerfile themselves: `secrets` is tools/persistent_moto.py with
its journal where the `keyring` volume would be, `db` is the test PostgreSQL, and `app` is
the compose command's steps run one after another with the compose environment. Only what
differs between containers and loopback (hosts, ports, volume paths, the database's name
and role) is rewritten, and each rewritten variable must exist in the compose file.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import httpx
import pytest
from sqlalchemy import make_url

from tests.support.compose import (
    command_steps,
    environment_of,
    load_compose,
    parse_dockerfile,
    volume_mounts,
)
from tests.support.db import PgServer, admin_execute
from tests.support.processes import free_port
from tests.support.secrets_store import ROOT, SecretsStore

if str(ROOT) not in sys.path:  # tools/ is not part of the installed distribution
    sys.path.insert(0, str(ROOT))

from tools.loadtest.api import Credentials, api_token

EMAIL = "owner@compose.example"
PASSWORD = "compose sequence pw"
CLIENT = {"first_name": "Restart", "last_name": "Survivor", "medical_history": "Asthma"}


@dataclass
class Sequence:
    """The `app` service as local processes."""

    env: dict[str, str]
    steps: list[list[str]]
    log: Path
    server: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.env['CAREVAULT_PORT']}"

    def start(self) -> list[subprocess.CompletedProcess[str]]:
        """Run the steps as `sh -c "a && b && exec serve"` would: stop at the first failure;
        the last step keeps running. Returns the finished steps."""
        done = []
        *once, serve = self.steps
        for step in once:
            assert step[0] == "carevault", step
            finished = carevault(step[1:], self.env)
            done.append(finished)
            if finished.returncode != 0:
                return done
        assert serve[:2] == ["exec", "carevault"], serve
        with self.log.open("ab") as log:
            self.server = subprocess.Popen(
                [sys.executable, "-m", "carevault", *serve[2:]],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                raise AssertionError(f"serve exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base_url}/health/ready", timeout=2).status_code == 200:
                    return done
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        raise AssertionError("serve never became ready")

    def stop(self) -> None:
        """`docker compose stop`: SIGTERM to the exec'd server."""
        if self.server is not None and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            try:
                self.server.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.server.pid, signal.SIGKILL)  # the session this test started
                self.server.wait(10)
        self.server = None


def carevault(arguments: list[str], env: dict[str, str], stdin: str | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "carevault", *arguments],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.fixture
async def compose_database(pg_server: PgServer) -> AsyncIterator[tuple[str, str]]:
    """An empty database owned by the test server's admin (compose: `carevault`, the image's
    superuser) and the URL of a runtime role that `db upgrade` creates with the compose
    password (compose: `carevault_app`; here a unique name, roles being server-wide)."""
    name = f"cv_compose_{uuid.uuid4().hex[:8]}"
    role = f"cv_compose_app_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    runtime = environment_of(load_compose()["services"]["app"])["CAREVAULT_DATABASE_URL"]
    owner_url = pg_server.url(name)
    runtime_url = (
        make_url(owner_url)
        .set(username=role, password=make_url(runtime).password)
        .render_as_string(hide_password=False)
    )
    try:
        yield owner_url, runtime_url
    finally:
        await admin_execute(
            pg_server,
            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            f'DROP ROLE IF EXISTS "{role}"',
        )


@pytest.fixture
def stack(
    compose_database: tuple[str, str], tmp_path: Path
) -> Iterator[tuple[SecretsStore, Sequence, Path]]:
    compose = load_compose()
    dockerfile = parse_dockerfile()

    # secrets: the stage's command, with its journal where the keyring volume is mounted.
    secrets_service = compose["services"]["secrets"]
    command = dockerfile.stage(secrets_service["build"]["target"]).exec_form("CMD")
    assert command[:2] == ["python", "/opt/persistent_moto.py"]
    options = dict(zip(command[2::2], command[3::2], strict=True))
    assert set(options) == {"--host", "--port", "--journal"}
    ((volume, mount),) = volume_mounts(secrets_service).items()
    journal = tmp_path / "volumes" / volume / PurePosixPath(options["--journal"]).relative_to(mount)
    store = SecretsStore(journal, tmp_path / "secrets.log")

    # app: the compose environment, rewritten only where loopback differs from containers.
    app = compose["services"]["app"]
    compose_env = environment_of(app)
    owner_url, runtime_url = compose_database
    ((audit_volume, audit_mount),) = volume_mounts(app).items()
    checkpoint = PurePosixPath(
        compose_env["CAREVAULT_AUDIT_CHECKPOINT_URL"].removeprefix("file://")
    )
    local = {
        "CAREVAULT_MIGRATION_DATABASE_URL": owner_url,
        "CAREVAULT_DATABASE_URL": runtime_url,
        "CAREVAULT_AWS_ENDPOINT_URL": store.endpoint,
        "CAREVAULT_HOST": "127.0.0.1",
        "CAREVAULT_PORT": str(free_port()),
        "CAREVAULT_AUDIT_CHECKPOINT_URL": "file://"
        + str(tmp_path / "volumes" / audit_volume / checkpoint.relative_to(audit_mount)),
    }
    assert set(local) <= set(compose_env)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAREVAULT_", "AWS_"))}
    env.update(compose_env)
    env.update(local)
    sequence = Sequence(env, command_steps(app), tmp_path / "app.log")
    try:
        yield store, sequence, journal
    finally:
        sequence.stop()
        store.kill()


async def create_client(base_url: str) -> tuple[str, str]:
    token = await api_token(base_url, Credentials(EMAIL, PASSWORD))
    async with httpx.AsyncClient(base_url=f"{base_url}/api/v1", timeout=30) as client:
        created = await client.post(
            "/clients", json=CLIENT, headers={"Authorization": f"Bearer {token}"}
        )
    assert created.status_code == 201, created.text
    return token, str(created.json()["id"])


async def read_client(base_url: str, token: str, client_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"{base_url}/api/v1", timeout=30) as client:
        answer = await client.get(
            f"/clients/{client_id}", headers={"Authorization": f"Bearer {token}"}
        )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_restart_of_the_secrets_store_loses_no_data(
    stack: tuple[SecretsStore, Sequence, Path],
) -> None:
    store, app, journal = stack
    store.start()
    first = app.start()
    assert "Created key ring" in first[1].stdout, first[1].stdout + first[1].stderr
    created = carevault(
        ["users", "create", "--workspace", "Compose Clinic", "--email", EMAIL, "--role", "owner"],
        app.env,
        stdin=PASSWORD + "\n",
    )
    assert created.returncode == 0, created.stderr
    token, client_id = asyncio.run(create_client(app.base_url))

    store.kill()  # the secrets container dies ...
    store.start()  # ... and comes back on its volume
    app.stop()  # the next start of app runs the whole sequence again
    second = app.start()
    assert "Found existing key ring" in second[1].stdout, second[1].stdout + second[1].stderr
    read = asyncio.run(read_client(app.base_url, token, client_id))
    assert {key: read[key] for key in CLIENT} == CLIENT

    # The volume itself lost: the sequence stops at `keys init`, nothing is replaced ...
    app.stop()
    store.kill()
    kept = journal.read_bytes()
    journal.unlink()
    store.start()
    refused = app.start()
    assert [step.returncode for step in refused] == [0, 2]
    assert "refusing to create a new key ring" in refused[1].stderr
    assert app.server is None
    # ... and once the volume is restored from its backup, everything reads again.
    store.kill()
    journal.write_bytes(kept)
    store.start()
    app.start()
    read = asyncio.run(read_client(app.base_url, token, client_id))
    assert {key: read[key] for key in CLIENT} == CLIENT
