"""Readiness is cheap (issue 27): `GET /health/ready`, which load balancers send to every
instance every few seconds, answers from the state the app keeps (carevault.api.readiness)
and costs about what `GET /health` costs, timed in alternating rounds on the process's CPU
clock. Before, each answer built an Alembic migration context and made three or four round
trips: 33-42 ms measured, some hundred times the floor."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp
from tests.support.db import PgServer, admin_execute


@pytest.fixture(scope="module")
def app(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[InProcessApp]:
    name = f"cv_perf_ready_{uuid.uuid4().hex[:8]}"
    served: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        served = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("ready-data"))
        yield served
    finally:
        if served is not None:
            served.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _get(app: InProcessApp, path: str) -> Callable[[], None]:
    def call() -> None:
        answer = app.run(app.call("GET", path))
        assert answer.status == 200, answer.body[:300]

    return call


@pytest.mark.benchmark(group="requests: readiness (server CPU)", timer=time.process_time)
def test_readiness_requests(
    benchmark: BenchmarkFixture, request: pytest.FixtureRequest, app: InProcessApp
) -> None:
    app.reinstall_cipher()
    contenders: list[Contender] = [
        ("health", _get(app, "/health")),
        ("ready", _get(app, "/health/ready")),
    ]
    for _, call in contenders:
        for _ in range(20):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=200)
