"""Webhooks against a real `carevault serve --workers 2` (issue 25): two processes, each with
its delivery worker, send every change of a practice to a receiver on loopback exactly once,
signed so that the Python client's `verify_webhook_signature` accepts it, with ids only; the
server stops promptly on SIGTERM with its workers running."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port, wait_until
from tests.support.webhooks import loopback_receiver

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client import AuthenticatedClient  # noqa: E402
from carevault_client.api.clients import (  # noqa: E402
    create_client_api_v1_clients_post as create_client,
)
from carevault_client.models import ClientCreate, ClientRead  # noqa: E402
from carevault_client.webhooks import verify_webhook_signature  # noqa: E402

PASSWORD = "webhook-serve-owner-pw"
EMAIL = "owner@hooks.example"
NAMES = [f"Zebedee{n}" for n in range(6)]


def test_two_server_processes_deliver_each_change_once_signed(
    pg_server: PgServer, template_database: str, tmp_path: Path
) -> None:
    name = f"cv_hooks_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), tmp_path / "data")
    env.update(
        CAREVAULT_WEBHOOK_ALLOWED_NETWORKS="127.0.0.0/8",
        CAREVAULT_WEBHOOK_POLL_INTERVAL_SECONDS="0.2",
    )
    subprocess.run(
        [
            *(sys.executable, "-m", "carevault", "users", "create"),
            *("--workspace", "Hook Clinic", "--email", EMAIL, "--role", "owner"),
        ],
        input=PASSWORD + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("w") as log, loopback_receiver() as receiver:
        server = subprocess.Popen(
            [sys.executable, "-m", "carevault", "serve", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            assert wait_until(lambda: _healthy(base), seconds=90), log_path.read_text()[-2000:]
            with httpx.Client(base_url=f"{base}/api/v1", timeout=15) as session:
                login = session.post("/auth/login", json={"email": EMAIL, "password": PASSWORD})
                login.raise_for_status()
                session.headers["X-CSRF-Token"] = login.json()["csrf_token"]
                hook = session.post(
                    "/webhooks", json={"url": receiver.url, "event_types": ["client.created"]}
                )
                assert hook.status_code == 201, hook.text
                secret = hook.json()["secret"]
                token = session.post(
                    "/auth/tokens",
                    json={"name": "sync", "scopes": ["clients:read", "clients:write"]},
                )
                assert token.status_code == 201, token.text
            created = []
            with AuthenticatedClient(base_url=base, token=token.json()["token"]) as api:
                for first_name in NAMES:
                    client = create_client.sync(
                        client=api,
                        body=ClientCreate(first_name=first_name, last_name="Quixotic"),
                        idempotency_key=str(uuid.uuid4()),
                    )
                    assert isinstance(client, ClientRead)
                    created.append(str(client.id))
            assert wait_until(lambda: len(receiver.received) >= len(NAMES), seconds=30)
            time.sleep(1.0)  # a second delivery of any event would have arrived by now
        finally:
            stopping = time.monotonic()
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
                pytest.fail("carevault serve did not stop within 30 s of SIGTERM")
            asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        assert time.monotonic() - stopping < 30

    events = []
    for got in receiver.received:
        event = verify_webhook_signature(got.body, got.headers["carevault-signature"], secret)
        assert got.headers["carevault-event-id"] == event["id"]
        assert b"Quixotic" not in got.body and b"Zebedee" not in got.body
        events.append(event)
    assert sorted(e["resource"]["id"] for e in events) == sorted(created)
    assert len({e["id"] for e in events}) == len(NAMES)  # none twice, across two processes
    assert {e["type"] for e in events} == {"client.created"}
    logged = log_path.read_text()
    assert "Quixotic" not in logged and secret not in logged
    assert json.dumps(events)  # plain JSON, ids and types


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False
