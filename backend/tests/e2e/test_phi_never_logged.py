"""`carevault serve` in production (JSON logs): every endpoint that takes or returns PHI is
driven with recognisable values, and none of them appears in the server's log output or in
the labels of /metrics. The server is a real uvicorn process, so its own access log counts.
Loopback only; the server is stopped at the end."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from carevault.crypto import KeyRing
from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port

PASSWORD = "phi-log-owner-password"
METRICS_TOKEN = "metrics-token-for-the-phi-test"
# Values no log line has any business containing; each is checked case-insensitively.
PHI = {
    "first_name": "Zephyrine",
    "last_name": "Quillfeather",
    "email": "zephyrine.quill@phi.example",
    "phone": "+1 555 014 3779",
    "address": "17 Lanternwick Row",
    "medical_history": "Thornbury syndrome since childhood",
    "notes": "Prefers the blue lantern room",
    "emergency_contact_name": "Orlaith Quillfeather",
}
NOTE_TEXT = "Reports vivid dreams about marigold tunnels"
APPOINTMENT_NOTE = "Bring the heliotrope referral letter"
IMPORTED = "Bartholomew,Nightingale-Vesper,bart.vesper@phi.example,+1 555 019 2468"
USER_EMAIL = "cassiopeia.wren@phi.example"
USER_NAME = "Cassiopeia Wrenfield"


def markers() -> list[str]:
    values = [*PHI.values(), NOTE_TEXT, APPOINTMENT_NOTE, USER_EMAIL, USER_NAME, PASSWORD]
    values += ["Bartholomew", "Nightingale-Vesper", "bart.vesper", "0142 3779", "01423779"]
    values += ["zephyrine.quill%40phi.example", "Zephyrine%20", "Quillfeath"]
    return values


@pytest.fixture(scope="module")
def production_server(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    name = f"cv_phi_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), tmp_path_factory.mktemp("phi-data"))
    env.update(
        CAREVAULT_ENV="production",
        CAREVAULT_KEY_PROVIDER="env",
        CAREVAULT_KEYRING_JSON=KeyRing.generate().to_json(),
        CAREVAULT_METRICS_TOKEN=METRICS_TOKEN,
        CAREVAULT_LOG_LEVEL="debug",  # the most the server would ever write
    )
    subprocess.run(
        [
            *(sys.executable, "-m", "carevault", "users", "create"),
            *("--workspace", "Log Clinic", "--email", "owner@log.example", "--role", "owner"),
        ],
        input=PASSWORD + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    port = free_port()
    log_path = tmp_path_factory.mktemp("phi-logs") / "server.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "carevault", "serve", "--port", str(port)],
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
            yield base, log_path
        finally:
            server.terminate()
            server.wait(timeout=30)
            asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def drive_every_phi_endpoint(base: str) -> str:
    """Returns the /metrics text scraped at the end."""
    # Unauthenticated, with PHI in the query string: the reproduction.
    assert httpx.get(f"{base}/api/v1/clients", params={"q": PHI["email"]}).status_code == 401
    with httpx.Client(base_url=f"{base}/api/v1", timeout=30) as client:
        wrong = client.post("/auth/login", json={"email": USER_EMAIL, "password": PHI["notes"]})
        assert wrong.status_code == 401
        login = client.post(
            "/auth/login", json={"email": "owner@log.example", "password": PASSWORD}
        )
        assert login.status_code == 200, login.text
        # Production cookies are Secure; this test speaks plain HTTP on loopback.
        client.cookies.clear()
        client.headers["Cookie"] = f"carevault_session={login.cookies['carevault_session']}"
        client.headers["X-CSRF-Token"] = login.json()["csrf_token"]

        created = client.post(
            "/clients", json={**PHI, "date_of_birth": "1931-02-03"}
        ).raise_for_status()
        client_id = created.json()["id"]
        bad = client.post("/clients", json={**PHI, "email": "not-an-email " + PHI["last_name"]})
        assert bad.status_code == 422
        # A refused phone number: the 422 says why, never the number.
        too_long = client.post("/clients", json={**PHI, "phone": PHI["phone"] + "99"})
        assert too_long.status_code == 422 and PHI["phone"] not in too_long.text
        for q in (PHI["email"], PHI["phone"], PHI["first_name"][:5]):
            found = client.post("/clients/search", json={"q": q}).raise_for_status()
            assert [c["id"] for c in found.json()["items"]] == [client_id]
        assert client.get("/clients", params={"q": PHI["last_name"]}).status_code == 400
        client.get(f"/clients/{client_id}").raise_for_status()
        client.patch(
            f"/clients/{client_id}", json={"notes": PHI["notes"] + " (updated)"}
        ).raise_for_status()
        client.get("/clients", params={"include_archived": True}).raise_for_status()
        imported = client.post(
            "/clients/import",
            content=f"first_name,last_name,email,phone\n{IMPORTED}\n",
            headers={"Content-Type": "text/csv"},
        )
        assert imported.status_code == 201, imported.text
        rejected = client.post(
            "/clients/import",
            content=f"first_name,last_name,email,phone\n{IMPORTED},extra field\n",
            headers={"Content-Type": "text/csv"},
        )
        assert rejected.status_code == 422

        appointment = client.post(
            "/appointments",
            json={
                "client_id": client_id,
                "starts_at": "2026-11-02T10:00:00Z",
                "ends_at": "2026-11-02T10:50:00Z",
                "location": PHI["address"],
                "notes": APPOINTMENT_NOTE,
            },
        ).raise_for_status()
        client.get(f"/appointments/{appointment.json()['id']}").raise_for_status()
        note = client.post(
            "/sessions",
            json={"client_id": client_id, "session_date": "2026-11-02", "subjective": NOTE_TEXT},
        ).raise_for_status()
        note_id = note.json()["id"]
        client.patch(
            f"/sessions/{note_id}",
            json={"version": note.json()["version"], "plan": PHI["medical_history"]},
        ).raise_for_status()
        client.get(f"/sessions/{note_id}").raise_for_status()
        client.get("/sessions", params={"client_id": client_id}).raise_for_status()

        client.post(
            "/users",
            json={"email": USER_EMAIL, "display_name": USER_NAME, "password": PASSWORD},
        ).raise_for_status()
        client.get("/users").raise_for_status()
        client.get("/audit-events", params={"resource_id": client_id}).raise_for_status()
        client.get("/system/readiness").raise_for_status()
    metrics = httpx.get(
        f"{base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
    ).raise_for_status()
    return metrics.text


def test_no_phi_in_production_logs_or_metrics(production_server: tuple[str, Path]) -> None:
    base, log_path = production_server
    metrics = drive_every_phi_endpoint(base)
    time.sleep(0.5)  # let the server flush the last lines (not an assertion on time)
    log_text = log_path.read_text()
    lines = [line for line in log_text.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines if line.startswith("{")]
    access = [r for r in records if r.get("logger") == "carevault.access"]
    assert access, log_text[-3000:]  # the server did log the requests, as route templates
    assert {"route", "status", "duration_ms"} <= set(access[-1])
    assert any(r["route"] == "/api/v1/clients/{client_id}" for r in access)
    assert not [r for r in records if r.get("logger") == "uvicorn.access"]
    assert "?" not in "".join(str(r.get("route")) for r in access)
    labels = [line for line in metrics.splitlines() if "{" in line and not line.startswith("#")]
    assert any('route="/api/v1/clients/search"' in line for line in labels)
    for marker in markers():
        assert marker.lower() not in log_text.lower(), marker
        assert marker.lower() not in metrics.lower(), marker
