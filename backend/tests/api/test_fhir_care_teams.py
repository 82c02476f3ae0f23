"""Care teams hold on /fhir/R4 as on /api/v1 (issue 26): under `care_team` chart access a
clinician outside a client's care team gets nothing of the chart on any FHIR route (404 for
a read or a change, searches without it), while a member sees it, through the same services.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.auth.permissions import PHI_RESOURCES, operation_of
from tests.support.db import sql
from tests.support.fhir import FHIR_JSON, fhir_of, fhir_with_token
from tests.support.http import ApiContext
from tests.support.routes import api_routes

MARK = "zqfhirchartmark"
EVERY = ["user/*.cruds"]
JSON = {"Content-Type": FHIR_JSON}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")


@dataclass
class Chart:
    member: str
    outsider: str
    client_id: str
    appointment_id: str
    note_id: str
    note_version: int


async def chart(api: ApiContext) -> Chart:
    _, (owner, member, outsider) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN
    )
    async with api.signed_in(member) as http:
        person = await http.post(
            "/clients", json={"first_name": f"Mara {MARK}", "last_name": "Example", "notes": MARK}
        )
        client_id = person.json()["id"]
        booked = await http.post(
            "/appointments",
            json={
                "client_id": client_id,
                "starts_at": "2026-03-02T09:00:00Z",
                "ends_at": "2026-03-02T09:50:00Z",
                "location": f"Room {MARK}",
            },
        )
        assert booked.status_code == 201, booked.text
        draft = (
            await http.post(
                "/sessions",
                json={"client_id": client_id, "session_date": "2025-01-15", "plan": MARK},
            )
        ).json()
        signed = await http.post(
            f"/sessions/{draft['id']}/finalize",
            json={"version": draft["version"], "attestation_version": 1},
        )
        assert signed.status_code == 200, signed.text
    async with api.signed_in(owner) as http:
        policy = await http.patch("/workspace", json={"chart_access": "care_team"})
        assert policy.status_code == 200, policy.text
    return Chart(
        member, outsider, client_id, booked.json()["id"], draft["id"], signed.json()["version"]
    )


def patient_body() -> dict[str, Any]:
    return {"resourceType": "Patient", "name": [{"family": "Own", "given": ["Client"]}]}


def appointment_body(c: Chart) -> dict[str, Any]:
    return {
        "resourceType": "Appointment",
        "status": "booked",
        "start": "2026-03-03T09:00:00Z",
        "end": "2026-03-03T09:50:00Z",
        "participant": [{"actor": {"reference": f"Patient/{c.client_id}"}, "status": "accepted"}],
    }


Call = Callable[[httpx.AsyncClient, Chart], Awaitable[httpx.Response]]
RANGE = "date=ge2026-03-01&date=le2026-03-08"
# Every FHIR route whose operation needs a scope of clients, appointments or notes.
CALLS: dict[tuple[str, str], Call] = {
    ("POST", "/fhir/R4/Patient"): lambda h, c: h.post(
        "/Patient",
        json=patient_body(),
        headers={**JSON, "If-None-Exist": f"identifier={c.client_id}"},
    ),
    ("GET", "/fhir/R4/Patient"): lambda h, c: h.get("/Patient", params={"name": "mara"}),
    ("POST", "/fhir/R4/Patient/_search"): lambda h, c: h.post(
        "/Patient/_search", content=f"_id={c.client_id}", headers=FORM
    ),
    ("GET", "/fhir/R4/Patient/{patient_id}"): lambda h, c: h.get(f"/Patient/{c.client_id}"),
    ("GET", "/fhir/R4/Patient/{patient_id}/_history"): lambda h, c: h.get(
        f"/Patient/{c.client_id}/_history"
    ),
    ("GET", "/fhir/R4/Patient/{patient_id}/_history/{version_id}"): lambda h, c: h.get(
        f"/Patient/{c.client_id}/_history/1"
    ),
    ("PUT", "/fhir/R4/Patient/{patient_id}"): lambda h, c: h.put(
        f"/Patient/{c.client_id}", json=patient_body(), headers=JSON
    ),
    ("POST", "/fhir/R4/Appointment"): lambda h, c: h.post(
        "/Appointment", json=appointment_body(c), headers=JSON
    ),
    ("GET", "/fhir/R4/Appointment"): lambda h, c: h.get(f"/Appointment?{RANGE}"),
    ("GET", "/fhir/R4/Appointment/{appointment_id}"): lambda h, c: h.get(
        f"/Appointment/{c.appointment_id}"
    ),
    ("GET", "/fhir/R4/Appointment/{appointment_id}/_history"): lambda h, c: h.get(
        f"/Appointment/{c.appointment_id}/_history"
    ),
    ("GET", "/fhir/R4/Appointment/{appointment_id}/_history/{version_id}"): lambda h, c: h.get(
        f"/Appointment/{c.appointment_id}/_history/1"
    ),
    ("PUT", "/fhir/R4/Appointment/{appointment_id}"): lambda h, c: h.put(
        f"/Appointment/{c.appointment_id}", json=appointment_body(c), headers=JSON
    ),
    ("GET", "/fhir/R4/Encounter"): lambda h, c: h.get("/Encounter"),
    ("GET", "/fhir/R4/Encounter/{encounter_id}"): lambda h, c: h.get(f"/Encounter/{c.note_id}"),
    ("GET", "/fhir/R4/DocumentReference"): lambda h, c: h.get(
        "/DocumentReference", params={"patient": c.client_id}
    ),
    ("GET", "/fhir/R4/DocumentReference/{document_id}"): lambda h, c: h.get(
        f"/DocumentReference/{c.note_id}"
    ),
    ("GET", "/fhir/R4/DocumentReference/{document_id}/_history"): lambda h, c: h.get(
        f"/DocumentReference/{c.note_id}/_history"
    ),
    ("GET", "/fhir/R4/DocumentReference/{document_id}/_history/{version_id}"): lambda h, c: h.get(
        f"/DocumentReference/{c.note_id}/_history/{c.note_version}"
    ),
    ("GET", "/fhir/R4/Provenance"): lambda h, c: h.get(
        "/Provenance", params={"target": f"DocumentReference/{c.note_id}"}
    ),
    ("GET", "/fhir/R4/Provenance/{provenance_id}"): lambda h, c: h.get(
        f"/Provenance/{c.note_id}-signature"
    ),
    # carevault.exports: the record (the chart's rules), and the practice's bulk export
    # (owners only: 403 before any job is looked at).
    ("GET", "/fhir/R4/Patient/{patient_id}/$everything"): lambda h, c: h.get(
        f"/Patient/{c.client_id}/$everything"
    ),
    ("GET", "/fhir/R4/$export"): lambda h, c: h.get(
        "/$export", headers={"Prefer": "respond-async"}
    ),
    ("GET", "/fhir/R4/$export-status/{job_id}"): lambda h, c: h.get(
        f"/$export-status/{c.client_id}"
    ),
    ("DELETE", "/fhir/R4/$export-status/{job_id}"): lambda h, c: h.delete(
        f"/$export-status/{c.client_id}"
    ),
    ("GET", "/fhir/R4/$export-file/{job_id}/{resource_type}/{part}"): lambda h, c: h.get(
        f"/$export-file/{c.client_id}/Patient/1"
    ),
}
# Searches answer (without the chart); a create answers with the caller's own new client.
ANSWERS = {
    ("POST", "/fhir/R4/Patient"): 201,
    ("GET", "/fhir/R4/Patient"): 200,
    ("POST", "/fhir/R4/Patient/_search"): 200,
    ("GET", "/fhir/R4/Appointment"): 200,
    ("GET", "/fhir/R4/Encounter"): 200,
    ("GET", "/fhir/R4/DocumentReference"): 200,
    ("GET", "/fhir/R4/Provenance"): 200,
    ("GET", "/fhir/R4/$export"): 403,
    ("GET", "/fhir/R4/$export-status/{job_id}"): 403,
    ("DELETE", "/fhir/R4/$export-status/{job_id}"): 403,
    ("GET", "/fhir/R4/$export-file/{job_id}/{resource_type}/{part}"): 403,
}


def fhir_chart_routes(app: FastAPI) -> set[tuple[str, str]]:
    found = set()
    for method, path, route in api_routes(app):
        operation = operation_of(route.endpoint)
        scopes = (operation.token_scopes or ()) if operation else ()
        if path.startswith("/fhir/") and any(s.split(":")[0] in PHI_RESOURCES for s in scopes):
            found.add((method, path))
    return found


def test_the_walk_covers_every_fhir_route_that_touches_a_chart(app: FastAPI) -> None:
    assert set(CALLS) == fhir_chart_routes(app)


def leaks(response: httpx.Response, c: Chart) -> set[str]:
    """What of the chart an answer holds: its mark, or ids the request did not send (a
    search's self link repeats the `patient` it was asked for)."""
    sent = str(response.request.url) + response.request.content.decode()
    ids = {c.client_id, c.appointment_id, c.note_id}
    found = {MARK} if MARK in response.text else set()
    text = response.text.replace(str(response.request.url), "")
    return found | {i for i in ids if i in text and i not in sent}


async def test_an_outsider_gets_nothing_of_the_chart_on_any_fhir_route(api: ApiContext) -> None:
    c = await chart(api)
    before = await sql(api, "SELECT id, updated_at FROM clients UNION ALL "
                            "SELECT id, updated_at FROM appointments ORDER BY 1")  # fmt: skip
    wrong = []
    async with fhir_with_token(api, c.outsider, EVERY) as http:
        for route, call in CALLS.items():
            answer = await call(http, c)
            expected = ANSWERS.get(route, 404)
            fhir_of(answer)
            if answer.status_code != expected or leaks(answer, c):
                wrong.append((route, answer.status_code, leaks(answer, c)))
    assert wrong == []
    after = await sql(api, "SELECT id, updated_at FROM clients UNION ALL "
                           "SELECT id, updated_at FROM appointments ORDER BY 1")  # fmt: skip
    # Only the outsider's own new client was added; nothing of the chart changed.
    assert [row for row in after if row in before] == before and len(after) == len(before) + 1
    async with fhir_with_token(api, c.member, EVERY) as http:
        seen = fhir_of(await http.get(f"/Patient/{c.client_id}"))
        assert seen["id"] == c.client_id
        documents = fhir_of(await http.get("/DocumentReference", params={"patient": c.client_id}))
        assert [e["resource"]["id"] for e in documents["entry"]] == [c.note_id]
