"""A practice under `care_team` chart access: a chart (client, appointment, note) of one
clinician's care team, and a clinician outside it."""

from __future__ import annotations

from dataclasses import dataclass

from carevault.auth.models import Role
from tests.support.http import ApiContext
from tests.support.notes import create_note


@dataclass(frozen=True)
class Team:
    owner: str
    member: str  # on the client's care team (they added the client)
    outsider: str  # a clinician of the practice, not on it
    client_id: str
    appointment_id: str
    note_id: str


async def care_team_chart(api: ApiContext) -> Team:
    _, (owner, member, outsider) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN
    )
    async with api.signed_in(member) as http:
        person = await http.post("/clients", json={"first_name": "Mara", "last_name": "Team"})
        assert person.status_code == 201, person.text
        client_id = person.json()["id"]
        booked = await http.post(
            "/appointments",
            json={
                "client_id": client_id,
                "starts_at": "2026-03-02T09:00:00Z",
                "ends_at": "2026-03-02T09:50:00Z",
            },
        )
        assert booked.status_code == 201, booked.text
        note = await create_note(http, client_id)
    async with api.signed_in(owner) as http:
        policy = await http.patch("/workspace", json={"chart_access": "care_team"})
        assert policy.status_code == 200, policy.text
    return Team(owner, member, outsider, client_id, booked.json()["id"], note["id"])
