"""Seeding the practice the load runs against: clients through the importer (the CLI, as a
practice moving from another system would), appointments and notes through the API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
from pathlib import Path

import httpx

from tools.loadtest.api import API
from tools.loadtest.database import Database
from tools.loadtest.fakedata import PracticeData, write_clients_csv
from tools.loadtest.processes import run_carevault
from tools.loadtest.scenarios import Practice

SEED_CONCURRENCY = 8
APPOINTMENT_MINUTES = 50
SLOT_MINUTES = 60
DAY_START_HOUR = 8


@dataclass(frozen=True)
class Seeded:
    client_ids: list[str]
    note_ids: list[str]
    note_versions: dict[str, int]
    appointments: int
    appointments_skipped: str | None
    week_start: datetime
    week_end: datetime
    seconds: dict[str, float]


def current_week(now: datetime | None = None) -> tuple[datetime, datetime]:
    """Monday 00:00 UTC of this week, and the Monday after."""
    now = now or datetime.now(UTC)
    monday = (now - timedelta(days=now.weekday())).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return monday, monday + timedelta(days=7)


def appointment_slots(week_start: datetime, count: int, rooms: int) -> list[tuple[datetime, int]]:
    """`count` (start, room) pairs Monday to Saturday from 08:00, hourly, `rooms` in parallel
    (a practice with several clinicians); within a room nothing overlaps."""
    slots: list[tuple[datetime, int]] = []
    day = 0
    while len(slots) < count:
        for hour in range(DAY_START_HOUR, DAY_START_HOUR + 11):
            for room in range(rooms):
                if len(slots) == count:
                    return slots
                start = week_start + timedelta(days=day % 6, hours=hour)
                slots.append((start, room))
        day += 1
    return slots


async def _bounded(calls: list[Callable[[], Awaitable[None]]], concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(call: Callable[[], Awaitable[None]]) -> None:
        async with gate:
            await call()

    await asyncio.gather(*(one(call) for call in calls))


async def seed_practice(
    *,
    env: Mapping[str, str],
    db: Database,
    workspace: str,
    base_url: str,
    token: str,
    clients: int,
    appointments: int,
    notes: int,
    work_dir: Path,
    seed: int,
    appointments_available: bool,
    preload_models: bool = False,
) -> Seeded:
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    csv_path = work_dir / "seed-clients.csv"
    write_clients_csv(csv_path, clients, seed)
    run_carevault(
        ["import", "clients", str(csv_path), "--workspace", workspace],
        env,
        preload_models=preload_models,
    )
    seconds["clients (importer)"] = time.perf_counter() - started

    connection = await db.connect()
    try:
        rows = await connection.fetch("SELECT id FROM clients ORDER BY id")
    finally:
        await connection.close()
    client_ids = [str(row["id"]) for row in rows]
    data = PracticeData(seed + 1)
    week_start, week_end = current_week()
    headers = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=SEED_CONCURRENCY)

    async with httpx.AsyncClient(
        base_url=base_url, headers=headers, timeout=60, limits=limits
    ) as client:
        made_appointments = 0
        skipped: str | None = None
        started = time.perf_counter()
        if appointments_available and appointments:
            rooms = max(1, -(-appointments // 66))

            async def appointment(start: datetime, room: int) -> None:
                nonlocal made_appointments
                answer = await client.post(
                    f"{API}/appointments",
                    json={
                        "client_id": data.random.choice(client_ids),
                        "starts_at": start.isoformat(),
                        "ends_at": (start + timedelta(minutes=APPOINTMENT_MINUTES)).isoformat(),
                        "location": f"Room {room + 1}, {data.random.choice(data.addresses)}",
                        "notes": data.text(120),
                        # Rooms are clinicians working in parallel: their appointments
                        # overlap on the practice's calendar, which the API refuses unless
                        # asked. With one room nothing overlaps and every booking is checked.
                        "allow_overlap": rooms > 1,
                    },
                )
                if answer.status_code != 201:
                    raise RuntimeError(f"POST /appointments: {answer.status_code} {answer.text}")
                made_appointments += 1

            await _bounded(
                [
                    partial(appointment, start, room)
                    for start, room in appointment_slots(week_start, appointments, rooms)
                ],
                SEED_CONCURRENCY,
            )
        else:
            skipped = "POST /appointments is not available (404)"
        seconds["appointments (API)"] = time.perf_counter() - started

        note_versions: dict[str, int] = {}
        started = time.perf_counter()
        today = date.today()

        async def note(number: int) -> None:
            body: dict[str, object] = {
                "client_id": client_ids[number % len(client_ids)],
                "session_date": (today - timedelta(days=1 + number % 90)).isoformat(),
                "duration_minutes": 50,
                **data.soap_note(350),
            }
            answer = await client.post(f"{API}/sessions", json=body)
            if answer.status_code != 201:
                raise RuntimeError(f"POST /sessions: {answer.status_code} {answer.text}")
            created = answer.json()
            note_versions[str(created["id"])] = int(created["version"])

        await _bounded([partial(note, n) for n in range(notes)], SEED_CONCURRENCY)
        seconds["session notes (API)"] = time.perf_counter() - started

    return Seeded(
        client_ids=client_ids,
        note_ids=sorted(note_versions),
        note_versions=note_versions,
        appointments=made_appointments,
        appointments_skipped=skipped,
        week_start=week_start,
        week_end=week_end,
        seconds={key: round(value, 2) for key, value in seconds.items()},
    )


async def seed_practices(
    *,
    env: Mapping[str, str],
    db: Database,
    base_url: str,
    count: int,
    clients: int,
    notes: int,
    password: str,
    work_dir: Path,
    seed: int,
    preload_models: bool = False,
) -> list[Practice]:
    """`count` more practices, each with an owner, `clients` clients and `notes` notes."""
    from tools.loadtest.api import Credentials, api_token

    practices: list[Practice] = []
    data = PracticeData(seed + 3)
    gate = asyncio.Semaphore(2)

    async def one(number: int) -> Practice:
        name = f"Practice {number:02d}"
        email = f"owner{number:02d}@practices.loadtest.invalid"
        csv_path = work_dir / f"practice-{number:02d}.csv"
        write_clients_csv(csv_path, clients, seed + 100 + number)
        async with gate:
            await asyncio.to_thread(
                run_carevault,
                ["users", "create", "--workspace", name, "--email", email, "--role", "owner"],
                env,
                stdin=password + "\n",
            )
            await asyncio.to_thread(
                run_carevault,
                ["import", "clients", str(csv_path), "--workspace", name],
                env,
                preload_models=preload_models,
            )
        connection = await db.connect()
        try:
            rows = await connection.fetch(
                "SELECT c.id FROM clients c JOIN workspaces w ON w.id = c.workspace_id "
                "WHERE w.name = $1 ORDER BY c.id",
                name,
            )
        finally:
            await connection.close()
        client_ids = [str(row["id"]) for row in rows]
        token = await api_token(base_url, Credentials(email, password))
        note_ids: list[str] = []
        async with httpx.AsyncClient(
            base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        ) as client:
            for index in range(notes):
                answer = await client.post(
                    f"{API}/sessions",
                    json={
                        "client_id": client_ids[index % len(client_ids)],
                        "session_date": (date.today() - timedelta(days=1 + index)).isoformat(),
                        **data.soap_note(350),
                    },
                )
                if answer.status_code != 201:
                    raise RuntimeError(f"POST /sessions: {answer.status_code} {answer.text}")
                note_ids.append(str(answer.json()["id"]))
        return Practice(name, token, note_ids)

    practices = list(await asyncio.gather(*(one(n) for n in range(1, count + 1))))
    return practices
