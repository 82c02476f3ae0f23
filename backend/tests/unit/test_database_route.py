"""Every route ends the session its dependencies opened (carevault.api.dependencies):
a route of another class would leave `DbSession` with nobody to commit it, so get_db
refuses to open one there. Every API route also checks its query string (ApiRoute)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

from carevault.api.app import create_app
from carevault.api.dependencies import DatabaseRoute, DbSession
from carevault.api.strict_params import ApiRoute


def test_every_route_of_the_app_is_a_database_route() -> None:
    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    routes = [
        context.original_route
        for context in iter_route_contexts(list(app.routes))
        if isinstance(context.original_route, APIRoute)
    ]
    assert len(routes) >= 40
    strays = [route.path for route in routes if not isinstance(route, DatabaseRoute)]
    assert strays == []


def test_every_api_route_refuses_query_parameters_it_does_not_declare() -> None:
    """The check is the route's own (ApiRoute): a router that forgot it would silently
    ignore a misspelled filter, and answer with everything the filter meant to exclude."""
    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    api = [
        context
        for context in iter_route_contexts(list(app.routes))
        if isinstance(context.original_route, APIRoute)
        and (context.path_format or "").startswith("/api/")
    ]
    assert len(api) >= 35
    assert [c.path_format for c in api if not isinstance(c.original_route, ApiRoute)] == []


async def test_a_session_outside_a_database_route_is_refused() -> None:
    app = FastAPI()

    @app.get("/stray")
    async def stray(db: DbSession) -> dict[str, str]:
        return {"never": "reached"}

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=True)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        with pytest.raises(RuntimeError, match="is not a DatabaseRoute"):
            await client.get("/stray")
