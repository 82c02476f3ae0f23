"""Exports (issue 26): `$everything` of a client with 100 notes as a whole request, against
`GET /health` of the same app (server CPU, alternating rounds); and the bulk export's memory,
flat in the practice's size: `carevault export` of a practice of 10,000 clients and of one
of 100,000 (seeded with COPY, not through the API), each in a process of its own, its peak
RSS sampled."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncpg
import psutil
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from carevault.auth.models import Role
from carevault.clients.models import Client
from carevault.crypto.types import EncryptedString
from carevault.workspaces.keys import load_workspace_keys
from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import JSON, SECTIONS, InProcessApp, Practice, seed_practice
from tests.support.db import PgServer, admin_execute

NOTES = 100
SMALL, LARGE = 10_000, 100_000
COPY_BATCH = 10_000


@pytest.fixture(scope="module")
def served(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice, Path]]:
    name = f"cv_perf_exports_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    data_dir = tmp_path_factory.mktemp("exports-data")
    try:
        app = InProcessApp(pg_server.url(name), data_dir)
        practice = app.run(seed_practice(app, 1, seed=3))
        app.run(_hundred_notes(app, practice))
        yield app, practice, data_dir
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(autouse=True)
def _app_cipher(served: tuple[InProcessApp, Practice, Path]) -> None:
    served[0].reinstall_cipher()


def _request(
    app: InProcessApp, method: str, path: str, practice: Practice | None, query: str = ""
) -> Callable[[], None]:
    headers = practice.auth if practice is not None else []

    def call() -> None:
        answer = app.run(app.call(method, path, headers, b"", query))
        assert answer.status == 200, answer.body[:300]

    return call


def cpu(group: str) -> pytest.MarkDecorator:
    """Server CPU, as the request budgets of test_requests.py are measured."""
    return pytest.mark.benchmark(group=group, timer=time.process_time)


async def _hundred_notes(app: InProcessApp, practice: Practice) -> None:
    """100 notes of four 350-byte sections on the practice's first client, every tenth
    signed and amended once (a version and an addendum)."""
    client_id = practice.client_ids[0]
    for n in range(NOTES - 1):  # the practice's note is the hundredth
        body = {"client_id": client_id, "session_date": "2026-11-02"}
        body |= {section: f"{n:04d}" + section[0] * 346 for section in SECTIONS}
        made = await app.call(
            "POST", "/api/v1/sessions", practice.auth + JSON, json.dumps(body).encode()
        )
        assert made.status == 201, made.body[:300]
        if n % 10:
            continue
        note = made.json()
        signed = await app.call(
            "POST",
            f"/api/v1/sessions/{note['id']}/finalize",
            practice.auth + JSON,
            b'{"version": 1, "attestation_version": 1}',
        )
        assert signed.status == 200, signed.body[:300]
        amended = await app.call(
            "PATCH",
            f"/api/v1/sessions/{note['id']}",
            practice.auth + JSON,
            json.dumps({"version": 2, "plan": "p" * 350, "reason": "Corrected."}).encode(),
        )
        assert amended.status == 200, amended.body[:300]


@cpu("requests: $everything of 100 notes (server CPU)")
def test_everything_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice, Path],
) -> None:
    app, practice, _ = served
    client = practice.client_ids[0]
    contenders: list[Contender] = [
        ("health", _request(app, "GET", "/health", None)),
        (
            "everything-100",
            _request(app, "GET", f"/api/v1/clients/{client}/export", practice, query="format=fhir"),
        ),
        (
            "pdf-100",
            _request(app, "GET", f"/api/v1/clients/{client}/export", practice, query="format=pdf"),
        ),
    ]
    everything = app.run(
        app.call("GET", f"/api/v1/clients/{client}/export", practice.auth, query="format=fhir")
    )
    kinds = [e["resource"]["resourceType"] for e in everything.json()["entry"]]
    assert kinds.count("Encounter") == NOTES  # what the budget assumes
    for _, call in contenders:
        for _ in range(3):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=15)


async def _copy_clients(app: InProcessApp, database_url: str, count: int) -> str:
    """A practice of `count` clients written with COPY (sealed in process, under the
    practice's data key, bound to their rows), in batches: no API, no ORM."""
    space, _ = await app.context.workspace_with_users(None, Role.OWNER)
    async with app.context.sessions() as db:
        await load_workspace_keys(db, space.id)
    columns = Client.__table__.c
    first, last = columns.first_name.type, columns.last_name.type
    assert isinstance(first, EncryptedString) and isinstance(last, EncryptedString)
    connection = await asyncpg.connect(database_url.replace("+asyncpg", ""))
    try:
        for start in range(0, count, COPY_BATCH):
            rows = []
            for n in range(start, min(start + COPY_BATCH, count)):
                row_id = uuid.uuid4()
                binding = (space.id.bytes, row_id.bytes)
                rows.append(
                    (
                        row_id,
                        space.id,
                        first.seal_for_row(f"First{n}", binding),
                        last.seal_for_row(f"Last{n}", binding),
                    )
                )
            await connection.copy_records_to_table(
                "clients", records=rows, columns=["id", "workspace_id", "first_name", "last_name"]
            )
    finally:
        await connection.close()
    return space.name


def _export_peak(
    app_data: Path, database_url: str, workspace: str, output: Path
) -> tuple[int, float]:
    """Peak RSS (bytes) and seconds of `carevault export` in a process of its own."""
    env = os.environ | {
        "CAREVAULT_DATABASE_URL": database_url,
        "CAREVAULT_DATA_DIR": str(app_data),
        "CAREVAULT_ENV": "development",
    }
    started = time.monotonic()
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "carevault",
            "export",
            "--workspace",
            workspace,
            "--output",
            str(output),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    watched = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.02)
    assert child.returncode == 0, child.stderr.read().decode()[-2000:] if child.stderr else ""
    return peak, time.monotonic() - started


def test_bulk_export_memory_is_flat_in_practice_size(
    served: tuple[InProcessApp, Practice, Path], tmp_path: Path
) -> None:
    app, _, data_dir = served
    url = app.context.database_url
    small = app.run(_copy_clients(app, url, SMALL))
    large = app.run(_copy_clients(app, url, LARGE))
    small_peak, small_seconds = _export_peak(data_dir, url, small, tmp_path / "small")
    large_peak, large_seconds = _export_peak(data_dir, url, large, tmp_path / "large")
    manifest = json.loads((tmp_path / "large" / "manifest.json").read_text())
    patients = sum(o["count"] for o in manifest["output"] if o["type"] == "Patient")
    assert patients == LARGE
    mib = 1024 * 1024
    print(
        f"\nbulk export peak RSS: {SMALL:,} clients {small_peak / mib:.0f} MiB in "
        f"{small_seconds:.1f} s; {LARGE:,} clients {large_peak / mib:.0f} MiB in "
        f"{large_seconds:.1f} s"
    )
    # Ten times the practice, the same memory (within noise): nothing is held per record.
    assert large_peak < small_peak * 1.15 + 8 * mib
