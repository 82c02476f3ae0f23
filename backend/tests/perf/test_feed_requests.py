"""The change feed's empty poll (issue 25): what an integration pays every few seconds when
nothing changed, against `GET /health` of the same app in alternating rounds (server CPU, as
in test_requests.py), on a feed of 20,000 events: a poll at the head reads none of them."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp, Practice, seed_practice
from tests.support.db import PgServer, admin_execute, sql

EVENTS = 20_000


def _get(
    app: InProcessApp, path: str, practice: Practice | None, query: str = ""
) -> Callable[[], None]:
    headers = practice.auth if practice is not None else []

    def call() -> None:
        answer = app.run(app.call("GET", path, headers, b"", query))
        assert answer.status == 200, answer.body[:300]

    return call


@pytest.fixture(scope="module")
def feed(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice, str]]:
    """The app, a practice of 100 clients with 20,000 more events in its feed, and the
    cursor at the head of that feed."""
    name = f"cv_perf_feed_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        app = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("feed-data"))
        practice = app.run(seed_practice(app, 100, seed=3))
        app.run(
            sql(
                app.context,
                "INSERT INTO change_events (workspace_id, type, resource_type, resource_id) "
                "SELECT workspace_id, 'client.updated', 'client', id "
                "FROM clients, generate_series(1, $1)",
                EVENTS // 100,
            )
        )
        cursor = ""
        while True:
            answer = app.run(
                app.call("GET", "/api/v1/events", practice.auth, query=f"limit=500{cursor}")
            )
            assert answer.status == 200, answer.body[:300]
            cursor = f"&after={answer.json()['next_cursor']}"
            if not answer.json()["has_more"]:
                break
        yield app, practice, cursor.removeprefix("&")
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# The process's CPU clock, in the one `benchmark` marker (as test_requests.py does).
@pytest.mark.benchmark(group="requests: change feed (server CPU)", timer=time.process_time)
def test_feed_poll_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    feed: tuple[InProcessApp, Practice, str],
) -> None:
    app, practice, head = feed
    app.reinstall_cipher()
    empty = app.run(app.call("GET", "/api/v1/events", practice.auth, query=head))
    assert empty.json()["data"] == [] and len(empty.body) < 200
    contenders: list[Contender] = [
        ("health", _get(app, "/health", None)),
        ("empty-poll", _get(app, "/api/v1/events", practice, query=head)),
    ]
    for _, call in contenders:
        for _ in range(20):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=200)
