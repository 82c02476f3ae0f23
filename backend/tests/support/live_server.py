"""A real `carevault serve` process on its own database, with an owner account: for e2e
tests that drive the HTTP API with an independent client."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port


@dataclass(frozen=True)
class LiveServer:
    base: str
    email: str
    password: str

    def token(self, scopes: list[str]) -> str:
        """A new API token of the owner with `scopes` (CareVault's or SMART's)."""
        with httpx.Client(base_url=f"{self.base}/api/v1", timeout=15) as session:
            login = session.post(
                "/auth/login", json={"email": self.email, "password": self.password}
            )
            login.raise_for_status()
            created = session.post(
                "/auth/tokens",
                json={"name": "e2e", "scopes": scopes},
                headers={"X-CSRF-Token": login.json()["csrf_token"]},
            )
            assert created.status_code == 201, created.text
            token: str = created.json()["token"]
            return token


@contextmanager
def live_server(
    pg_server: PgServer, template_database: str, data_dir: Path, logs: Path, *, label: str
) -> Iterator[LiveServer]:
    name = f"cv_{label}_{uuid.uuid4().hex[:8]}"
    email, password = f"owner@{label}.example", f"{label}-owner-password"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), data_dir)
    command = [sys.executable, "-m", "carevault"]
    subprocess.run(
        [*command, "keys", "init"], env=env, check=True, capture_output=True, timeout=120
    )
    subprocess.run(
        [*command, "users", "create", "--workspace", f"{label} clinic", "--email", email,
         "--role", "owner"],
        input=password + "\n", env=env, check=True, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    port = free_port()
    log = (logs / "server.log").open("w")
    server = subprocess.Popen(
        [*command, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, "carevault serve exited"
            assert time.monotonic() < deadline, "carevault serve did not come up in 60 s"
            time.sleep(0.2)
        yield LiveServer(base, email, password)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
        log.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
