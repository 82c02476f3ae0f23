"""Sign-in against `carevault serve` over real HTTP: concurrent guesses across worker
processes, and client addresses behind a proxy (the server, not uvicorn, decides whom to
believe; uvicorn's own proxy handling once let any value through)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import httpx

from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port

PASSWORD = "serve-signin-owner-pw"


@contextmanager
def serving(
    pg_server: PgServer, template: str, tmp_path: Path, *args: str, **settings: str
) -> Iterator[tuple[str, str]]:
    """`carevault serve` on a fresh database with one owner; yields (base URL, db name)."""
    name = f"cv_serve_{uuid.uuid4().hex[:8]}"
    asyncio.run(admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    env = carevault_env(pg_server.url(name), tmp_path / "data")
    env.update({f"CAREVAULT_{key.upper()}": value for key, value in settings.items()})
    create = ["users", "create", "--workspace", "Serve Clinic", "--email", "owner@serve.example"]
    subprocess.run(
        [sys.executable, "-m", "carevault", *create, "--role", "owner"],
        input=PASSWORD + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    port = free_port()
    log_path = tmp_path / f"server-{name}.log"
    log = log_path.open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "carevault", "serve", "--port", str(port), *args],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base, name
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def fetch(pg_server: PgServer, name: str, query: str) -> list[asyncpg.Record]:
    async def run() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(pg_server.dsn(name))
        try:
            return await connection.fetch(query)
        finally:
            await connection.close()

    return asyncio.run(run())


def test_twelve_concurrent_guesses_across_workers_verify_at_most_five(
    pg_server: PgServer, template_database: str, tmp_path: Path
) -> None:
    with serving(pg_server, template_database, tmp_path, "--workers", "2") as (base, name):

        async def guess_all() -> list[int]:
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                answers = await asyncio.gather(
                    *(
                        client.post(
                            "/api/v1/auth/login",
                            json={"email": "OWNER@serve.example ", "password": f"guess {n}"},
                        )
                        for n in range(12)
                    )
                )
            return [a.status_code for a in answers]

        statuses = sorted(asyncio.run(guess_all()))
        # An attempt row is written exactly when argon2 is about to run.
        attempts = fetch(pg_server, name, "SELECT outcome FROM login_attempts")
    verified = len(attempts)
    assert 1 <= verified <= 5
    assert statuses == [401] * verified + [429] * (12 - verified)
    assert {a["outcome"] for a in attempts} == {"failed"}


def test_serve_believes_only_trusted_proxies_and_survives_garbled_headers(
    pg_server: PgServer, template_database: str, tmp_path: Path
) -> None:
    with serving(pg_server, template_database, tmp_path, trusted_proxies="127.0.0.1") as (
        base,
        name,
    ):
        body = {"email": "nobody@example.test", "password": "wrong"}
        answers = [
            httpx.post(f"{base}/api/v1/auth/login", json=body, headers={"X-Forwarded-For": xff})
            for xff in ("unknown", "198.51.100.23", "203.0.113.1, 198.51.100.24")
        ]
        rows = fetch(pg_server, name, "SELECT host(ip_address) AS ip FROM audit_events ORDER BY id")
    assert [a.status_code for a in answers] == [401, 401, 401]
    assert [r["ip"] for r in rows] == ["127.0.0.1", "198.51.100.23", "198.51.100.24"]
