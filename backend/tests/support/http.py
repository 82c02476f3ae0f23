"""Helpers for HTTP tests: a running app on a fresh database, users, signed-in clients."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import _IncludedRouter
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.app import create_app
from carevault.api.state import AppState
from carevault.auth import service as auth_service
from carevault.auth.models import Role
from carevault.auth.scopes import EVERY_SCOPE, ROLE_SCOPES
from carevault.config import Settings
from carevault.db.deadlines import Deadlines
from carevault.workspaces import service as workspace_service
from carevault.workspaces.models import Workspace
from tests.support.database_pool import EngineKind, api_engine

PASSWORD = "correct horse battery staple"


@dataclass
class ApiContext:
    app: FastAPI
    database_url: str
    settings: Settings

    def client(self) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.app, client=("203.0.113.7", 50000))
        return httpx.AsyncClient(transport=transport, base_url="http://testserver/api/v1")

    async def workspace_with_users(
        self, name: str | None = None, *roles: Role
    ) -> tuple[Workspace, list[str]]:
        """A new workspace and one user per role; returns the users' emails. Through the
        services, on the running app's own engine (a connection of its pool, as a request
        would use; no engine and connection of its own to set up and dispose of per test)."""
        async with self.sessions() as db, db.begin():
            space = await workspace_service.create(db, name or f"Practice {uuid.uuid4().hex[:8]}")
            emails = []
            for role in roles or (Role.OWNER,):
                email = f"{role.value}-{uuid.uuid4().hex[:8]}@example.test"
                await auth_service.create_user(db, space, email=email, password=PASSWORD, role=role)
                emails.append(email)
            return space, emails

    def sessions(self) -> AsyncSession:
        """A session on the running app's engine (the one its requests use)."""
        state: AppState = self.app.state.carevault
        return state.db_sessions()

    @asynccontextmanager
    async def signed_in(self, email: str) -> AsyncIterator[httpx.AsyncClient]:
        """A client holding the session cookie and sending the CSRF header."""
        async with self.client() as client:
            response = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
            assert response.status_code == 200, response.text
            client.headers["X-CSRF-Token"] = response.json()["csrf_token"]
            yield client

    @asynccontextmanager
    async def with_token(
        self, email: str, scopes: tuple[str, ...] | None = None
    ) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
        """A client authenticated by a fresh API token (and no cookie), and the token's id.
        `scopes`: by default every scope the user's role may hold."""
        async with self.signed_in(email) as session_client:
            if scopes is None:
                role = Role((await session_client.get("/auth/me")).json()["user"]["role"])
                scopes = tuple(scope for scope in EVERY_SCOPE if scope in ROLE_SCOPES[role])
            created = await session_client.post(
                "/auth/tokens", json={"name": "tests", "scopes": list(scopes)}
            )
            assert created.status_code == 201, created.text
        async with self.client() as client:
            client.headers["Authorization"] = f"Bearer {created.json()['token']}"
            yield client, created.json()["id"]


@asynccontextmanager
async def running_api(
    database_url: str, data_dir: Path, **settings: object
) -> AsyncIterator[ApiContext]:
    # No webhook worker unless a test asks for one: the delivery tests drive their own with
    # an injected clock, and a background one's connections would count against the pool's
    # warm limit and the statement counts of the other tests.
    settings = {"webhook_worker": False} | settings
    configured = Settings(data_dir=data_dir, **settings)  # type: ignore[arg-type]
    kind = EngineKind(
        Deadlines(configured.request_timeout_seconds),
        configured.phi_backend,
        configured.db_fast_path,
    )
    async with api_engine(database_url, kind) as engine:
        app = create_app(configured, database_url=database_url, engine=engine)
        share_built_routes(app)
        async with app.router.lifespan_context(app):
            yield ApiContext(app, database_url, configured)
    assert not app.dependency_overrides, "shared routes ignore dependency_overrides"


_built_routes: list[_IncludedRouter] = []


def share_built_routes(app: FastAPI) -> None:
    """Give `app` the routes an earlier app of this process built for the same routers.

    FastAPI builds an included router's routes (dependants, pydantic fields of every
    parameter and response) at an app's first request: 45 ms, a third of an API test's CPU.
    They depend only on the routers and how they are included, which `create_app` does the
    same way whatever the settings, so the first app's are reused (the inclusion is compared
    too). They read `dependency_overrides` from that first app, so tests must not set any."""
    for index, route in enumerate(app.router.routes):
        if not isinstance(route, _IncludedRouter):
            continue
        unbound = replace(route.include_context, dependency_overrides_provider=None)
        for built in _built_routes:
            if built.original_router is route.original_router and unbound == replace(
                built.include_context, dependency_overrides_provider=None
            ):
                app.router.routes[index] = built
                break
        else:
            _built_routes.append(route)


def event_details(stored: str | None) -> object:
    """An audit event's `details` as the tests compare them: the request id every API event
    carries is checked (a generated 32-hex id) and set aside, the rest returned."""
    details = json.loads(stored or "null")
    if details is None:
        return None
    assert isinstance(details, dict)
    request_id = details.pop("request_id", None)
    assert isinstance(request_id, str) and re.fullmatch(r"[0-9a-f]{32}", request_id), details
    return details or None


def error_of(response: httpx.Response) -> dict[str, Any]:
    """The `error` object of an error response."""
    error: dict[str, Any] = response.json()["error"]
    return error


def fields_named(response: httpx.Response) -> set[str]:
    """The fields a 422 response names as invalid."""
    assert response.status_code == 422, response.text
    return {detail["field"] for detail in error_of(response)["details"]}
