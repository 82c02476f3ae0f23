"""Shared request limits are cheap (issue 27): a PHI read with its limits counted in Redis
(one EVALSHA round trip, carevault.auth.rate_limit_redis) against the same read counted in
this process's memory, same app, same token, alternating rounds, on the server's CPU clock
(Redis's own CPU is not in it: docs/how-to/scaling.md measures that). Needs Redis on
127.0.0.1:6379: skipped without it, except in CI (`CI=true`)."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from carevault.auth.rate_limit import InProcessBackend, RateLimitBackend
from carevault.auth.rate_limit_redis import RedisBackend
from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp, Practice, seed_practice
from tests.support.db import IN_CI, PgServer, admin_execute

REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as probe:
            probe.sendall(b"PING\r\n")
            return probe.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="module")
def served(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice]]:
    if not redis_answers():
        if IN_CI:
            pytest.fail("the shared-limit benchmark must run in CI: no Redis on 127.0.0.1:6379")
        pytest.skip("no Redis answers on 127.0.0.1:6379")
    name = f"cv_perf_limits_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        app = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("limits-data"))
        yield app, app.run(seed_practice(app, clients=50, seed=27))
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _read(app: InProcessApp, practice: Practice, backend: RateLimitBackend) -> Callable[[], None]:
    path = f"/api/v1/clients/{practice.client_ids[0]}"
    limiter = app.context.app.state.carevault.rate_limiter

    def call() -> None:
        limiter.backend = backend
        answer = app.run(app.call("GET", path, practice.auth))
        assert answer.status == 200, answer.body[:300]

    return call


@pytest.mark.benchmark(group="requests: shared limits (server CPU)", timer=time.process_time)
def test_shared_limit_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice],
) -> None:
    app, practice = served
    app.reinstall_cipher()
    shared = RedisBackend(REDIS_URL)
    try:
        contenders: list[Contender] = [
            ("in-process", _read(app, practice, InProcessBackend())),
            ("redis", _read(app, practice, shared)),
        ]
        for _, call in contenders:
            for _ in range(20):
                call()
        run_interleaved(benchmark, request, contenders, min_rounds=200)
        assert shared.shared and shared.failures == 0
    finally:
        app.run(shared.close())
