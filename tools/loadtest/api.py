"""Talking to the running server: sign-in, an API token, probes, /metrics across workers."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

import httpx

from tools.loadtest.server_metrics import WorkerSnapshot, merge_snapshots

API = "/api/v1"
SESSION_COOKIE = "carevault_session"

# /metrics answers only to CAREVAULT_METRICS_TOKEN; the server this tool starts gets this one.
METRICS_TOKEN = "loadtest-" + secrets.token_hex(16)


@dataclass(frozen=True)
class Credentials:
    email: str
    password: str


async def api_token(base_url: str, credentials: Credentials) -> str:
    """Sign in (cookie + CSRF) and create an API token; the load uses the token."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        login = await client.post(
            f"{API}/auth/login",
            json={"email": credentials.email, "password": credentials.password},
        )
        login.raise_for_status()
        csrf = login.json()["csrf_token"]
        # In production the cookie is Secure, which an http:// client keeps to itself; the
        # loopback test sends it explicitly.
        session = login.cookies.get(SESSION_COOKIE)
        client.cookies.clear()
        created = await client.post(
            f"{API}/auth/tokens",
            json={
                "name": "loadtest",
                "scopes": [
                    "clients:read",
                    "clients:write",
                    "appointments:read",
                    "appointments:write",
                    "notes:read",
                    "notes:write",
                ],
            },
            headers={"X-CSRF-Token": csrf, "Cookie": f"{SESSION_COOKIE}={session}"},
        )
        created.raise_for_status()
        return str(created.json()["token"])


async def route_status(client: httpx.AsyncClient, path: str) -> int:
    """The status a GET answers with; 404/405 on a list route means it is not mounted."""
    answer = await client.get(path)
    return answer.status_code


async def scrape_workers(
    base_url: str, workers: int, *, attempts: int = 25, wanted: int | None = None
) -> dict[str, WorkerSnapshot]:
    """One /metrics snapshot per worker: bursts of parallel scrapes over fresh connections
    (each may land on any worker) until `wanted` (default: all) workers have answered or
    the attempts are spent. The caller checks how many were found."""
    wanted = wanted or workers
    texts: list[str] = []
    limits = httpx.Limits(max_keepalive_connections=0, max_connections=workers * 4)
    async with httpx.AsyncClient(base_url=base_url, timeout=10, limits=limits) as client:
        for _ in range(attempts):
            answers = await asyncio.gather(
                *(
                    client.get(
                        "/metrics",
                        headers={
                            "Connection": "close",
                            "Authorization": f"Bearer {METRICS_TOKEN}",
                        },
                    )
                    for _ in range(workers * 3)
                )
            )
            texts.extend(answer.text for answer in answers if answer.status_code == 200)
            found = merge_snapshots(texts)
            if len(found) >= wanted:
                return found
            await asyncio.sleep(0.05)
    return merge_snapshots(texts)
