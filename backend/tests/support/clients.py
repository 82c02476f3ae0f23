"""Clients over HTTP: create one, list ids."""

from __future__ import annotations

from typing import Any

import httpx


async def create_client(client: httpx.AsyncClient, **fields: Any) -> dict[str, Any]:
    """POST /clients with a valid body (Ada Lovelace unless `fields` say otherwise)."""
    body: dict[str, Any] = {"first_name": "Ada", "last_name": "Lovelace"}
    body.update(fields)
    response = await client.post("/clients", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def listed_ids(client: httpx.AsyncClient, **params: Any) -> list[str]:
    """GET /clients, or POST /clients/search when there is a search term."""
    if "q" in params:
        response = await client.post("/clients/search", json=params)
    else:
        response = await client.get("/clients", params=params)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["items"]]
