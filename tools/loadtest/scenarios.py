"""The four workloads: read a session note, autosave a draft, list clients, read a week."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import httpx

from tools.loadtest.api import API
from tools.loadtest.fakedata import SOAP_FIELDS, PracticeData
from tools.loadtest.scheduler import Operation, Outcome
from tools.loadtest.stats import Sample

CLIENT_PAGE_SIZE = 50
AUTOSAVE_BYTES = 350


@dataclass(frozen=True)
class Practice:
    """Another practice (workspace) on the same instance, with its own token and notes."""

    name: str
    token: str
    note_ids: list[str]


@dataclass
class Workload:
    """What the seeded practice holds, and what the autosaving clients last saw."""

    note_ids: list[str]
    draft_ids: list[str]
    client_count: int
    week_start: datetime
    week_end: datetime
    data: PracticeData
    versions: dict[str, int] = field(default_factory=dict)
    practices: list[Practice] = field(default_factory=list)
    refetches: list[Sample] = field(default_factory=list)
    random: random.Random = field(
        default_factory=lambda: random.Random(4)  # noqa: S311 (load pattern, not security)
    )


OperationFactory = Callable[[httpx.AsyncClient, Workload], Operation]


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    request: str
    # A GET whose 404/405 means the route is not mounted (None: always available).
    probe: Callable[[Workload], str] | None
    operation: OperationFactory
    # Why the scenario cannot run with this workload, if it cannot.
    skip_reason: Callable[[Workload], str | None] | None = None


def _outcome(answer: httpx.Response, latency: float) -> Outcome:
    if answer.status_code < 400:
        return Outcome("ok", latency=latency, response_bytes=len(answer.content))
    return Outcome(
        "error", f"HTTP {answer.status_code}", latency=latency, response_bytes=len(answer.content)
    )


async def _timed_get(client: httpx.AsyncClient, path: str, **kwargs: object) -> Outcome:
    sent = time.perf_counter()
    answer = await client.get(path, **kwargs)  # type: ignore[arg-type]
    return _outcome(answer, time.perf_counter() - sent)


def read_note(client: httpx.AsyncClient, workload: Workload) -> Operation:
    async def operation(index: int) -> Outcome:
        note_id = workload.random.choice(workload.note_ids)
        return await _timed_get(client, f"{API}/sessions/{note_id}")

    return operation


def autosave(client: httpx.AsyncClient, workload: Workload) -> Operation:
    """PATCH one SOAP section of a random draft at the version this tool last saw. Several
    virtual users may pick the same draft at once, as two open tabs would: the later save
    gets 409, which is counted as a conflict (not an error) and followed by a refetch, as
    the UI does."""

    async def operation(index: int) -> Outcome:
        note_id = workload.random.choice(workload.draft_ids)
        section = SOAP_FIELDS[index % len(SOAP_FIELDS)]
        body = {"version": workload.versions[note_id], section: workload.data.text(AUTOSAVE_BYTES)}
        sent = time.perf_counter()
        answer = await client.patch(f"{API}/sessions/{note_id}", json=body)
        latency = time.perf_counter() - sent
        if answer.status_code == 200:
            workload.versions[note_id] = max(workload.versions[note_id], answer.json()["version"])
            return Outcome("ok", latency=latency, response_bytes=len(answer.content))
        if answer.status_code == 409:
            sent = time.perf_counter()
            fresh = await client.get(f"{API}/sessions/{note_id}")
            refetch = time.perf_counter() - sent
            if fresh.status_code == 200:
                workload.versions[note_id] = max(
                    workload.versions[note_id], fresh.json()["version"]
                )
                workload.refetches.append(Sample(refetch, "ok"))
            else:
                workload.refetches.append(Sample(refetch, "error", f"HTTP {fresh.status_code}"))
            return Outcome(
                "conflict", "HTTP 409", latency=latency, response_bytes=len(answer.content)
            )
        return _outcome(answer, latency)

    return operation


def read_note_practices(client: httpx.AsyncClient, workload: Workload) -> Operation:
    """Like read_note, but the virtual users take turns across several practices, each
    with its own API token: the mix a multi-practice instance serves."""

    async def operation(index: int) -> Outcome:
        practice = workload.practices[index % len(workload.practices)]
        note_id = workload.random.choice(practice.note_ids)
        headers = {"Authorization": f"Bearer {practice.token}"}
        return await _timed_get(client, f"{API}/sessions/{note_id}", headers=headers)

    return operation


def _needs_practices(workload: Workload) -> str | None:
    return None if workload.practices else "not run (--practices 0)"


def _pages(workload: Workload) -> int:
    return max(1, -(-workload.client_count // CLIENT_PAGE_SIZE))


def list_clients(client: httpx.AsyncClient, workload: Workload) -> Operation:
    async def operation(index: int) -> Outcome:
        page = workload.random.randint(1, _pages(workload))
        return await _timed_get(
            client, f"{API}/clients", params={"page": page, "page_size": CLIENT_PAGE_SIZE}
        )

    return operation


def week_params(workload: Workload) -> dict[str, str]:
    return {"start": workload.week_start.isoformat(), "end": workload.week_end.isoformat()}


def read_week(client: httpx.AsyncClient, workload: Workload) -> Operation:
    async def operation(index: int) -> Outcome:
        return await _timed_get(client, f"{API}/appointments", params=week_params(workload))

    return operation


def _clients_probe(workload: Workload) -> str:
    return f"{API}/clients?page=1&page_size=1"


def _week_probe(workload: Workload) -> str:
    params = httpx.QueryParams(week_params(workload))
    return f"{API}/appointments?{params}"


SCENARIOS = (
    Scenario("read_note", "Read a session note", "GET /sessions/{id}", None, read_note),
    Scenario(
        "autosave",
        "Autosave a draft",
        "PATCH /sessions/{id} (one 350-byte section)",
        None,
        autosave,
    ),
    Scenario(
        "list_clients",
        "List clients (page of 50)",
        "GET /clients?page=…&page_size=50",
        _clients_probe,
        list_clients,
    ),
    Scenario(
        "calendar_week",
        "Read a calendar week",
        "GET /appointments?start=…&end=…",
        _week_probe,
        read_week,
    ),
    Scenario(
        "read_note_practices",
        "Read a session note, several practices",
        "GET /sessions/{id}, users spread over several workspaces",
        None,
        read_note_practices,
        _needs_practices,
    ),
)
