"""FHIR requests against their REST twins (issue 26), server CPU, same app, same run.

/fhir/R4 calls the same services as /api/v1 and only maps the answer, so a Patient read
and a 50-entry searchset must cost within a small factor of `GET /clients/{id}` and a page
of 50 client summaries (`GET /clients?page_size=50`), measured in alternating rounds
(interleave.py)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp, Practice, seed_practice
from tests.support.db import PgServer, admin_execute

CLIENTS = 100
PAGE_SIZE = 50


@pytest.fixture(scope="module")
def served(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice]]:
    name = f"cv_perf_fhir_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        app = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("fhir-data"))
        practice = app.run(seed_practice(app, CLIENTS, seed=3))
        yield app, practice
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(autouse=True)
def _app_cipher(served: tuple[InProcessApp, Practice]) -> None:
    served[0].reinstall_cipher()


def _get(
    app: InProcessApp, path: str, practice: Practice | None, query: str = "", entries: int = 0
) -> Callable[[], None]:
    headers = practice.auth if practice is not None else []

    def call() -> None:
        answer = app.run(app.call("GET", path, headers, b"", query))
        assert answer.status == 200, answer.body[:300]
        if entries:
            body = answer.json()
            assert len(body.get("entry", body.get("items", []))) == entries

    return call


@pytest.mark.benchmark(group="requests: FHIR vs REST (server CPU)", timer=time.process_time)
def test_fhir_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice],
) -> None:
    app, practice = served
    client_id = practice.client_ids[0]
    page = f"page=1&page_size={PAGE_SIZE}"
    contenders: list[Contender] = [
        ("health", _get(app, "/health", None)),
        ("rest-read", _get(app, f"/api/v1/clients/{client_id}", practice)),
        ("fhir-read", _get(app, f"/fhir/R4/Patient/{client_id}", practice)),
        ("rest-page", _get(app, "/api/v1/clients", practice, page, entries=PAGE_SIZE)),
        (
            "fhir-searchset",
            _get(app, "/fhir/R4/Patient", practice, f"_count={PAGE_SIZE}", entries=PAGE_SIZE),
        ),
    ]
    for _, call in contenders:  # warm: compiled statements, loaded keys, the name index
        for _ in range(10):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=60)
