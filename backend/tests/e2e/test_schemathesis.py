"""schemathesis against the real server's OpenAPI document: no 5xx, no response that breaks
its schema, signed in (API token, and cookie + CSRF) and signed out. Bounded in examples and
time; traffic stays on loopback."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from carevault.auth.scopes import EVERY_SCOPE
from tests.support.db import PgServer, admin_execute
from tests.support.processes import carevault_env, free_port

PASSWORD = "schemathesis-owner-pw"
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    ]
)


@pytest.fixture(scope="module")
def live_server(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, dict[str, str]]]:
    name = f"cv_fuzz_{uuid.uuid4().hex[:8]}"
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    env = carevault_env(pg_server.url(name), tmp_path_factory.mktemp("fuzz-data"))
    # Only `keys init` creates a ring; nothing else (not even a first start) does.
    subprocess.run(
        [sys.executable, "-m", "carevault", "keys", "init"],
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "carevault",
            "users",
            "create",
            "--workspace",
            "Fuzz Clinic",
            "--email",
            "owner@fuzz.example",
            "--role",
            "owner",
        ],
        input=PASSWORD + "\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    port = free_port()
    # Logs go to a file: an unread pipe would fill up and block the server.
    log = (tmp_path_factory.mktemp("fuzz-logs") / "server.log").open("w")
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
        with httpx.Client(base_url=f"{base}/api/v1") as client:
            login = client.post(
                "/auth/login", json={"email": "owner@fuzz.example", "password": PASSWORD}
            )
            login.raise_for_status()
            csrf = login.json()["csrf_token"]
            token = client.post(
                "/auth/tokens",
                json={"name": "fuzz", "scopes": list(EVERY_SCOPE)},
                headers={"X-CSRF-Token": csrf},
            ).json()["token"]
            cookie = client.cookies["carevault_session"]
        yield base, {"token": token, "cookie": cookie, "csrf": csrf}
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def run_schemathesis(
    base: str, *headers: str, examples: int = 15, only: str | None = None
) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{base}/openapi.json",
        "--checks",
        CHECKS,
        "--max-examples",
        str(examples),
        "--generation-deterministic",
        "--phases",
        "examples,coverage,fuzzing",
        "--request-timeout",
        "10",
        "--exclude-path",
        "/api/v1/auth/logout",
        "--no-color",
    ]
    for header in headers:
        command += ["--header", header]
    if only is not None:
        command += ["--include-path-regex", only]
    # Teaches it to send the import's JSON lines (application/x-ndjson).
    hooks = {"SCHEMATHESIS_HOOKS": str(Path(__file__).with_name("schemathesis_hooks.py"))}
    return subprocess.run(
        command, capture_output=True, text=True, timeout=900, env=os.environ | hooks
    )


@pytest.mark.parametrize("identity", ["signed_out", "token", "cookie"])
def test_no_server_errors_and_responses_match_the_schema(
    live_server: tuple[str, dict[str, str]], identity: str
) -> None:
    base, credentials = live_server
    headers = {
        "signed_out": [],
        "token": [f"Authorization: Bearer {credentials['token']}"],
        "cookie": [
            f"Cookie: carevault_session={credentials['cookie']}",
            f"X-CSRF-Token: {credentials['csrf']}",
        ],
    }[identity]
    result = run_schemathesis(base, *headers)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


# Issue 9's endpoints: the search that took PHI out of URLs, the readiness split into a
# public status and an owner-only report, and the account controls (disable, enable,
# temporary password, password change, re-authentication, scoped tokens). Fuzzed harder than
# the rest, as the owner by token and by cookie, and signed out.
NEW_ENDPOINTS = (
    r"^/(api/v1/clients/search|api/v1/system/readiness|health/ready"
    r"|api/v1/users/[^/]+/(disable|enable|temporary-password)"
    r"|api/v1/auth/(password|reauth|tokens))$"
)
ACCOUNT_PATHS = {
    "/api/v1/users/{user_id}/disable",
    "/api/v1/users/{user_id}/enable",
    "/api/v1/users/{user_id}/temporary-password",
    "/api/v1/auth/password",
    "/api/v1/auth/reauth",
    "/api/v1/auth/tokens",
}


@pytest.mark.parametrize("identity", ["signed_out", "token", "cookie"])
def test_issue_9_endpoints_under_more_examples(
    live_server: tuple[str, dict[str, str]], identity: str
) -> None:
    base, credentials = live_server
    document = httpx.get(f"{base}/openapi.json").json()
    assert {"/api/v1/clients/search", "/api/v1/system/readiness"} <= set(document["paths"])
    assert set(document["paths"]) >= ACCOUNT_PATHS
    headers = {
        "signed_out": [],
        "token": [f"Authorization: Bearer {credentials['token']}"],
        "cookie": [
            f"Cookie: carevault_session={credentials['cookie']}",
            f"X-CSRF-Token: {credentials['csrf']}",
        ],
    }[identity]
    result = run_schemathesis(base, *headers, examples=60, only=NEW_ENDPOINTS)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "No operations" not in result.stdout


@pytest.mark.parametrize("identity", ["token", "cookie"])
def test_issue_24_calendar_endpoints_under_more_examples(
    live_server: tuple[str, dict[str, str]], identity: str
) -> None:
    """Clinicians, rooms, filters, series and cancel-following on the calendar."""
    base, credentials = live_server
    headers = {
        "token": [f"Authorization: Bearer {credentials['token']}"],
        "cookie": [
            f"Cookie: carevault_session={credentials['cookie']}",
            f"X-CSRF-Token: {credentials['csrf']}",
        ],
    }[identity]
    result = run_schemathesis(base, *headers, examples=40, only=r"^/api/v1/appointments")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "No operations" not in result.stdout
