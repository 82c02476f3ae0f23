"""Weighted fair rate limits (issue 25): every operation declares its cost next to its
permissions, requests spend it from their credential's budget and their practice's (API
tokens), refused requests spend nothing, and the headers say which budget binds. Driven by
a fake clock, never by sleeping."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.auth.permissions import BULK_COST, READ_COST, WRITE_COST, operation_of
from carevault.auth.rate_limit import Bucket, InProcessBackend, RateLimiter
from carevault.auth.scopes import EVERY_SCOPE
from tests.support.http import ApiContext, error_of
from tests.support.notes import practice
from tests.support.routes import api_routes


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def limits(api: ApiContext, per_credential: int, per_practice: int | None) -> FakeClock:
    clock = FakeClock()
    api.app.state.carevault.rate_limiter = RateLimiter(per_credential, per_practice, clock=clock)
    return clock


@asynccontextmanager
async def tokens_of(
    api: ApiContext, email: str, count: int
) -> AsyncIterator[list[httpx.AsyncClient]]:
    async with api.signed_in(email) as session:
        secrets = []
        for number in range(count):
            created = await session.post(
                "/auth/tokens", json={"name": f"t{number}", "scopes": list(EVERY_SCOPE)}
            )
            assert created.status_code == 201, created.text
            secrets.append(created.json()["token"])
    clients = []
    for secret in secrets:
        client = api.client()
        client.headers["Authorization"] = f"Bearer {secret}"
        clients.append(client)
    try:
        yield [await client.__aenter__() for client in clients]
    finally:
        for client in clients:
            await client.__aexit__(None, None, None)


# --- every route has a cost, declared with its permissions --------------------------------------


def test_every_route_declares_a_cost_and_changes_cost_more_than_reads() -> None:
    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    costs: dict[tuple[str, str], int] = {}
    for method, path, route in api_routes(app):
        operation = operation_of(route.endpoint)
        assert operation is not None, path
        costs[(method, path)] = operation.cost
        scopes = operation.token_scopes or ()
        if any(scope.endswith(":write") for scope in scopes):
            assert operation.cost >= WRITE_COST, path
        else:
            assert operation.cost in (READ_COST, BULK_COST), path
    assert costs[("GET", "/api/v1/clients/{client_id}")] == READ_COST
    assert costs[("PATCH", "/api/v1/clients/{client_id}")] == WRITE_COST
    assert costs[("POST", "/api/v1/clients/search")] == BULK_COST
    assert costs[("POST", "/api/v1/clients/import")] == BULK_COST
    assert costs[("POST", "/api/v1/appointments/series")] == BULK_COST


# --- the backend ---------------------------------------------------------------------------------


async def test_the_backend_spends_on_every_bucket_or_on_none() -> None:
    clock = FakeClock()
    backend = InProcessBackend(clock)
    small, large = Bucket("token:a", 3), Bucket("practice:p", 10)
    assert (await backend.spend([small, large], 2))[0] is True
    admitted, windows = await backend.spend([small, large], 2)
    assert admitted is False
    assert [w.used for w in windows] == [2, 2]  # the refusal spent nothing, on either bucket
    assert (await backend.spend([Bucket("token:b", 9), large], 8))[0] is True
    admitted, windows = await backend.spend([Bucket("token:b", 9), large], 1)
    assert admitted is False and windows[1].used == 10
    clock.now += 60
    admitted, windows = await backend.spend([small, large], 3)
    assert admitted is True and [w.used for w in windows] == [3, 3]


# --- over HTTP -----------------------------------------------------------------------------------


async def test_a_write_costs_twice_a_read_and_a_search_five(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with api.signed_in(place.emails[0]) as client:
        limits(api, 10, None)
        read = await client.get(f"/clients/{place.client_ids[0]}")
        assert read.headers["RateLimit-Remaining"] == "9"
        write = await client.patch(f"/clients/{place.client_ids[0]}", json={"first_name": "Ada"})
        assert write.status_code == 200, write.text
        assert write.headers["RateLimit-Remaining"] == "7"
        search = await client.post("/clients/search", json={"q": "ada"})
        assert search.status_code == 200, search.text
        assert search.headers["RateLimit-Remaining"] == "2"
        # 2 left: a read fits, a search does not (and spends nothing).
        refused = await client.post("/clients/search", json={"q": "ada"})
        assert refused.status_code == 429
        assert error_of(refused)["details"] == {"limit_scope": "credential", "cost": BULK_COST}
        assert refused.headers["RateLimit-Remaining"] == "2"
        assert (await client.get(f"/clients/{place.client_ids[0]}")).status_code == 200


async def test_a_practice_budget_spans_its_tokens_but_not_sessions_or_other_practices(
    api: ApiContext,
) -> None:
    place = await practice(api, Role.OWNER)
    other = await practice(api, Role.OWNER)
    async with (
        tokens_of(api, place.emails[0], 2) as (first, second),
        tokens_of(api, other.emails[0], 1) as (elsewhere,),
        api.signed_in(place.emails[0]) as person,
    ):
        clock = limits(api, 5, 8)
        for _ in range(5):
            assert (await first.get("/clients")).status_code == 200
        # The first token's own budget is spent; its refusals do not drain the practice's.
        for _ in range(3):
            over = await first.get("/clients")
            assert over.status_code == 429
            assert error_of(over)["details"]["limit_scope"] == "credential"
        answers = [await second.get("/clients") for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
        starved = answers[3]
        assert error_of(starved)["details"]["limit_scope"] == "practice"
        assert starved.headers["RateLimit-Limit"] == "8"
        assert starved.headers["RateLimit-Policy"] == '5;w=60, 8;w=60;comment="practice"'
        assert 1 <= int(starved.headers["Retry-After"]) <= 60
        # Another practice's integration and this practice's people are not starved.
        assert (await elsewhere.get("/clients")).status_code == 200
        assert (await person.get("/clients")).status_code == 200
        clock.now += 60
        assert (await second.get("/clients")).status_code == 200


async def test_the_headers_name_the_binding_budget(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with tokens_of(api, place.emails[0], 1) as (token,):
        limits(api, 100, 1000)
        answer = await token.get("/clients")
    assert answer.headers["RateLimit-Limit"] == "100"
    assert answer.headers["RateLimit-Remaining"] == "99"
    assert answer.headers["RateLimit-Policy"] == '100;w=60, 1000;w=60;comment="practice"'
    # A practice budget tighter than the credential's binds first.
    other = await practice(api, Role.OWNER)
    async with tokens_of(api, other.emails[0], 1) as (token,):
        limits(api, 100, 10)
        answer = await token.patch(f"/clients/{other.client_ids[0]}", json={"first_name": "B"})
    assert answer.status_code == 200, answer.text
    assert (answer.headers["RateLimit-Limit"], answer.headers["RateLimit-Remaining"]) == ("10", "8")


async def test_a_budget_below_an_operations_cost_admits_it_once_a_window() -> None:
    clock = FakeClock()
    limiter = RateLimiter(3, clock=clock)
    credential = uuid.uuid4()
    first = await limiter.take("token", credential, cost=BULK_COST)
    assert not first.exceeded and first.remaining == 0
    assert (await limiter.take("token", credential, cost=BULK_COST)).exceeded
    clock.now += 60
    assert not (await limiter.take("token", credential, cost=BULK_COST)).exceeded
