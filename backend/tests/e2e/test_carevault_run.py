"""`carevault run` as a newcomer runs it: embedded database, demo practice, one port."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.processes import free_port


def test_run_starts_embedded_database_seeds_and_serves(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    env.update(CAREVAULT_DATA_DIR=str(tmp_path / "data"), CAREVAULT_PORT=str(port))
    command = [sys.executable, "-m", "carevault", "run"]
    process = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        ready = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/health/ready", timeout=2)
                if ready.status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        assert ready is not None and ready.status_code == 200, "server never became ready"
        assert ready.json() == {"status": "ready"}  # the details are for owners only
        searched = httpx.get(
            f"http://127.0.0.1:{port}/api/v1/clients", params={"q": "private.person@example.org"}
        )
        assert searched.status_code == 401
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    assert process.returncode == 0, output
    assert f"CareVault is running at http://127.0.0.1:{port}/" in output
    assert "demo login: owner@demo.carevault.local" in output
    assert "Seeded the demo practice." in output
    assert "Traceback" not in output
    assert "private.person" not in output  # no query string (which can carry PHI) is logged
    assert "GET /api/v1/clients 401" in output  # the access log names the route instead
    pgdata = tmp_path / "data" / "postgres"
    assert (pgdata / "PG_VERSION").exists()
    assert not (pgdata / "postmaster.pid").exists(), "the embedded database was left running"
    keyring = tmp_path / "data" / "keyring.json"
    assert oct(keyring.stat().st_mode & 0o777) == "0o600"
