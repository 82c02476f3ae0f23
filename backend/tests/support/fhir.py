"""FHIR test helpers: clients of /fhir/R4, and validation of every resource against the
pinned fhir.resources R4B models."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fhir.resources.R4B import get_fhir_model_class

from tests.support.db import sql
from tests.support.http import ApiContext

FHIR_JSON = "application/fhir+json"


def validated(body: dict[str, Any]) -> dict[str, Any]:
    """`body` after checking it against its R4B model (a Bundle's entries too)."""
    get_fhir_model_class(body["resourceType"]).model_validate(body)
    for entry in body.get("entry", []):
        get_fhir_model_class(entry["resource"]["resourceType"]).model_validate(entry["resource"])
    return body


def fhir_of(response: httpx.Response) -> dict[str, Any]:
    """A FHIR answer's JSON, checked for its media type and validated."""
    assert response.headers["content-type"].startswith(FHIR_JSON), response.headers
    body: dict[str, Any] = response.json()
    return validated(body)


def outcome_code(response: httpx.Response) -> str:
    """The REST error code an OperationOutcome carries."""
    body = fhir_of(response)
    assert body["resourceType"] == "OperationOutcome", body
    code: str = body["issue"][0]["details"]["coding"][0]["code"]
    return code


def fhir_client(api: ApiContext, token: str | None = None) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=api.app, client=("203.0.113.7", 50000))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(
        transport=transport, base_url="http://testserver/fhir/R4", headers=headers
    )


@asynccontextmanager
async def fhir_with_token(
    api: ApiContext, email: str, scopes: list[str]
) -> AsyncIterator[httpx.AsyncClient]:
    """A /fhir/R4 client with a fresh API token of `scopes` (CareVault or SMART)."""
    async with api.signed_in(email) as session:
        created = await session.post("/auth/tokens", json={"name": "fhir", "scopes": scopes})
        assert created.status_code == 201, created.text
    async with fhir_client(api, created.json()["token"]) as client:
        yield client


async def audited_records(api: ApiContext, response: httpx.Response) -> dict[str, set[str]]:
    """Record ids named by the audit events of the request that gave `response`, by type."""
    rows = await sql(
        api,
        "SELECT resource_type, resource_ids FROM audit_events WHERE details->>'request_id' = $1",
        response.headers["X-Request-ID"],
    )
    named: dict[str, set[str]] = {}
    for row in rows:
        named.setdefault(row["resource_type"], set()).update(
            str(i) for i in row["resource_ids"] or ()
        )
    return named
