"""Request-level budgets: whole API requests, in process, against real PostgreSQL.

Each request kind is timed in alternating rounds with `GET /health` of the same app (see
interleave.py) on the process's CPU clock, and budgeted as a multiple of it: the server's
own floor, measured at the same moments, so the ratio holds on a slow or busy machine.
CPU rather than wall time, because a request's wall time is mostly waiting for PostgreSQL,
whose work is not the server's (and the database's own cost is in the load test).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import JSON, InProcessApp, Practice, autosaver, seed_practice
from tests.support.db import PgServer, admin_execute

SMALL_PRACTICE = 100
LARGE_PRACTICE = 10_000
PAGE_SIZE = 50


@pytest.fixture(scope="module")
def served(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice, Practice]]:
    """The app on a database of its own, with a practice of 100 clients and one of 10,000."""
    name = f"cv_perf_requests_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        app = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("requests-data"))
        small = app.run(seed_practice(app, SMALL_PRACTICE, seed=1))
        large = app.run(seed_practice(app, LARGE_PRACTICE, seed=2))
        yield app, small, large
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(autouse=True)
def _app_cipher(served: tuple[InProcessApp, Practice, Practice]) -> None:
    """The app installed its cipher when it started; every test ends by uninstalling the
    cipher (tests/conftest.py), so each test here puts the app's back."""
    served[0].reinstall_cipher()


def _request(
    app: InProcessApp,
    method: str,
    path: str,
    practice: Practice | None,
    query: str = "",
    body: str = "",
) -> Callable[[], None]:
    headers = practice.auth if practice is not None else []
    if body:
        headers = headers + JSON

    def call() -> None:
        answer = app.run(app.call(method, path, headers, body.encode(), query))
        assert answer.status == 200, answer.body[:300]

    return call


def cpu(group: str) -> pytest.MarkDecorator:
    """The process's CPU clock, in the one `benchmark` marker pytest-benchmark reads (the
    closest): given in a second marker, the timer was ignored and requests were timed on
    the wall clock, the database's work and waits included."""
    return pytest.mark.benchmark(group=group, timer=time.process_time)


@cpu("requests: note (server CPU)")
def test_note_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice, Practice],
) -> None:
    app, small, _ = served
    save = autosaver(app, small)
    contenders: list[Contender] = [
        ("health", _request(app, "GET", "/health", None)),
        ("read", _request(app, "GET", f"/api/v1/sessions/{small.note['id']}", small)),
        ("autosave", lambda: app.run(save())),
    ]
    for _, call in contenders:  # warm: compiled statements, loaded keys, pooled connections
        for _ in range(20):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=200)


@cpu("requests: client list (server CPU)")
def test_client_list_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice, Practice],
) -> None:
    """A page of 50 costs the same whatever the size of the practice; so does a name search
    (the cached names, see carevault/clients/listing.py)."""
    app, small, large = served
    page = f"page=2&page_size={PAGE_SIZE}"
    contenders: list[Contender] = [
        ("health", _request(app, "GET", "/health", None)),
        (f"page-{SMALL_PRACTICE}", _request(app, "GET", "/api/v1/clients", small, query=page)),
        (f"page-{LARGE_PRACTICE}", _request(app, "GET", "/api/v1/clients", large, query=page)),
        (
            f"search-{LARGE_PRACTICE}",
            _request(
                app,
                "POST",
                "/api/v1/clients/search",
                large,
                body=f'{{"q": "str4", "page_size": {PAGE_SIZE}}}',
            ),
        ),
    ]
    for _, call in contenders:
        for _ in range(5):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=60)


def test_seeded_practices_are_what_the_budgets_assume(
    served: tuple[InProcessApp, Practice, Practice],
) -> None:
    """The benchmarks above are only meaningful on these sizes: check them, not assume."""
    app, small, large = served
    for practice, size in ((small, SMALL_PRACTICE), (large, LARGE_PRACTICE)):
        listed = app.run(app.call("GET", "/api/v1/clients", practice.auth, query="page_size=1"))
        assert listed.status == 200 and listed.json()["total"] == size
