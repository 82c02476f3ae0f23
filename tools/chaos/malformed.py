"""Malformed requests a real client population sends by mistake: none may get a 5xx."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx

from tools.chaos.clinicians import API, Load

JSON = {"Content-Type": "application/json"}


def malformed(note_id: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    note = f"{API}/sessions/{note_id}"
    yield "PATCH", note, {"content": b'{"version": 1, "subjective": ', "headers": JSON}
    yield "PATCH", note, {"content": b'{"version": 1, "subjective": "a\x00b"}', "headers": JSON}
    yield "PATCH", note, {"json": {"version": 1, "subjective": "nul \u0000 inside"}}
    yield "PATCH", note, {"json": {"version": "one", "subjective": 5}}
    yield "PATCH", note, {"json": {"version": 1, "nonsense": True}}
    yield "PATCH", note, {"json": {"version": 2**40, "plan": "x"}}
    yield "PATCH", note, {"content": b"\xff\xfe\xfd", "headers": JSON}
    yield "PATCH", note, {"json": [1, 2, 3]}
    yield "GET", f"{API}/sessions/not-a-uuid", {}
    yield "GET", f"{API}/clients", {"params": {"q": "a\x00b"}}
    yield "GET", f"{API}/clients", {"params": {"page": "-1"}}
    yield "POST", f"{API}/clients", {"json": {"first_name": "A\x00", "last_name": "B"}}
    yield "POST", f"{API}/clients", {"json": {"first_name": "A", "last_name": "B", "email": "@"}}
    yield "POST", f"{API}/sessions", {"json": {"client_id": note_id, "session_date": "9999-99-99"}}
    yield "POST", f"{API}/sessions", {"content": b"x" * (2 * 1024 * 1024), "headers": JSON}
    yield "GET", f"{API}/appointments", {"params": {"start": "yesterday", "end": "\x00"}}


async def send_malformed(load: Load, token: str, note_id: str, count: int) -> dict[str, int]:
    """`count` malformed requests spread over the load; returns counts by status class."""
    outcomes = {"4xx": 0, "5xx": 0, "other": 0, "no_answer": 0}
    shapes = list(malformed(note_id))
    chooser = random.Random(11)  # noqa: S311 (test data, not security)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=load.base_url, headers=headers, timeout=15) as client:
        for _ in range(count):
            method, url, options = chooser.choice(shapes)
            started = time.monotonic()
            try:
                answer = await client.request(method, url, **options)
            except httpx.HTTPError:
                load.record("malformed", started, -1)
                outcomes["no_answer"] += 1
                continue
            load.record("malformed", started, answer.status_code)
            if 400 <= answer.status_code < 500:
                outcomes["4xx"] += 1
            elif answer.status_code >= 500:
                outcomes["5xx"] += 1
            else:
                outcomes["other"] += 1
    return outcomes
