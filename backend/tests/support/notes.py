"""Session notes over HTTP: a practice to write them in, request bodies, create one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from carevault.auth.models import Role
from tests.support import factories
from tests.support.http import ApiContext


@dataclass
class Practice:
    emails: list[str]
    client_ids: list[str]
    appointment_id: str  # an appointment of the first client


async def practice(api: ApiContext, *roles: Role, clients: int = 1) -> Practice:
    """A workspace with one user per role and `clients` clients, inserted through the ORM."""
    space, emails = await api.workspace_with_users(None, *roles)
    async with api.sessions() as db, db.begin():
        people = [await factories.client(db, space) for _ in range(clients)]
        appointment = await factories.appointment(db, space, people[0])
        return Practice(emails, [str(p.id) for p in people], str(appointment.id))


def note_body(client_id: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "client_id": client_id,
        "session_date": "2025-01-15",
        "duration_minutes": 50,
        "subjective": "Example client reports a calmer week.",
    }
    body.update(fields)
    return body


async def create_note(client: httpx.AsyncClient, client_id: str, **fields: Any) -> dict[str, Any]:
    response = await client.post("/sessions", json=note_body(client_id, **fields))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created
