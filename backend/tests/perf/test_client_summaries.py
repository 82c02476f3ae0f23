"""The minimum necessary, measured (issue 24): a page of 50 client summaries, as `GET /clients`
answers now, against the page of 50 whole records it answered before, in the same app on the
same practice (3,000 clients, every field filled), timed in alternating rounds on the
process's CPU clock (see test_requests.py). The summaries must cost at most a third.

The whole-record page is what the endpoint was until issue 24, rebuilt here as a route of
this test's app (`_whole_records_page`: the same name index, every column of the page's rows
decrypted into `ClientRead`, the same audit event), so both sides pay the same framework,
authentication, counter read and audit append; only the disclosure differs.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator

import pytest
from pytest_benchmark.fixture import BenchmarkFixture
from sqlalchemy import any_, bindparam
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.types import Uuid

from carevault.api.dependencies import DbSession, State
from carevault.api.pagination import Page, PageParams
from carevault.api.strict_params import ApiRoute
from carevault.audit import service as audit
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import declare, reads
from carevault.clients import listing
from carevault.clients.models import Client
from carevault.clients.schemas import ClientRead
from carevault.db.readable import scalars_skipping_unreadable
from carevault.db.scoping import in_workspace
from tests.perf.interleave import Contender, run_interleaved
from tests.perf.requests_support import InProcessApp, Practice, seed_full_practice
from tests.support.db import PgServer, admin_execute

PRACTICE = 3_000
PAGE = "page=2&page_size=50"
WHOLE_RECORDS = "/api/v1/bench/clients-whole-records"

_WHOLE_PAGE = in_workspace(Client, bindparam("workspace_id")).where(
    Client.id == any_(bindparam("ids", type_=ARRAY(Uuid())))
)


@declare(reads("clients"))
async def _whole_records_page(
    principal: CurrentPrincipal, db: DbSession, state: State, paging: PageParams
) -> Page[ClientRead]:
    """`GET /clients` before issue 24 (its list path, no search): every field of the page."""
    index = await listing.name_index(db, state.client_list_cache, principal.workspace_id)
    ids, total = index.page(
        None, include_archived=False, offset=paging.offset, size=paging.page_size
    )
    page, unreadable = await scalars_skipping_unreadable(
        db, _WHOLE_PAGE.params(workspace_id=principal.workspace_id, ids=ids), Client.id
    )
    loaded = {client.id: client for client in page}
    clients = [loaded[client_id] for client_id in ids if client_id in loaded]
    await audit.record_unreadable(db, principal.actor, "client", unreadable)
    await audit.record(
        db,
        principal.actor,
        "client.list",
        resource_type="client",
        resource_ids=[client.id for client in clients],
        details={"search": None, "include_archived": False, "count": len(clients)},
    )
    return Page.of([ClientRead.model_validate(client) for client in clients], total, paging)


@pytest.fixture(scope="module")
def served(
    pg_server: PgServer, template_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[InProcessApp, Practice]]:
    name = f"cv_perf_summaries_{uuid.uuid4().hex[:8]}"
    app: InProcessApp | None = None
    asyncio.run(
        admin_execute(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    )
    try:
        app = InProcessApp(pg_server.url(name), tmp_path_factory.mktemp("summaries-data"))
        # First, ahead of the web UI's catch-all route.
        app.context.app.router.routes.insert(
            0,
            ApiRoute(
                WHOLE_RECORDS,
                _whole_records_page,
                response_model=Page[ClientRead],
                methods=["GET"],
            ),
        )
        practice = app.run(seed_full_practice(app, PRACTICE, seed=3))
        yield app, practice
    finally:
        if app is not None:
            app.close()
        asyncio.run(admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(autouse=True)
def _app_cipher(served: tuple[InProcessApp, Practice]) -> None:
    served[0].reinstall_cipher()


def _get(app: InProcessApp, path: str, practice: Practice) -> Contender:
    def call() -> None:
        answer = app.run(app.call("GET", path, practice.auth, query=PAGE))
        assert answer.status == 200, answer.body[:300]
        assert len(answer.json()["items"]) == 50

    return (path, call)


# One marker with both: pytest-benchmark reads only the closest `benchmark` marker, so a
# timer given in a second one would be ignored (wall time, the database's waits included).
@pytest.mark.benchmark(group="requests: client page of 50 (server CPU)", timer=time.process_time)
def test_client_page_requests(
    benchmark: BenchmarkFixture,
    request: pytest.FixtureRequest,
    served: tuple[InProcessApp, Practice],
) -> None:
    app, practice = served
    contenders: list[Contender] = [
        ("whole-records", _get(app, WHOLE_RECORDS, practice)[1]),
        ("summaries", _get(app, "/api/v1/clients", practice)[1]),
    ]
    for _, call in contenders:  # warm: the name index, compiled statements, keys
        for _ in range(5):
            call()
    run_interleaved(benchmark, request, contenders, min_rounds=60)


def test_the_two_pages_are_the_same_clients_one_whole_one_summarised(
    served: tuple[InProcessApp, Practice],
) -> None:
    """What the benchmark compares, checked rather than assumed."""
    app, practice = served
    whole = app.run(app.call("GET", WHOLE_RECORDS, practice.auth, query=PAGE)).json()
    summaries = app.run(app.call("GET", "/api/v1/clients", practice.auth, query=PAGE)).json()
    assert whole["total"] == summaries["total"] == PRACTICE
    assert [c["id"] for c in whole["items"]] == [c["id"] for c in summaries["items"]]
    assert all(c["medical_history"] and c["notes"] and c["address"] for c in whole["items"])
    assert set(summaries["items"][0]) == {
        "id",
        "first_name",
        "last_name",
        "date_of_birth",
        "archived_at",
        "updated_at",
    }
    for mine, theirs in zip(summaries["items"], whole["items"], strict=True):
        assert mine == {key: theirs[key] for key in mine}
