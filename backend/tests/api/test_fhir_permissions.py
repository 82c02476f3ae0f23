"""The permission walk of /fhir/R4 (issue 26): every FHIR route that answers with PHI needs
its resource's read scope, like its REST twin, and audits the records it returned.

FHIR answers are FHIR JSON (no response model), so the routes are listed here rather than
found from their models; the list must name every FHIR route that declares a disclosure.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.auth.permissions import PHI_RESOURCES, operation_of
from tests.support.fhir import FHIR_JSON, audited_records, fhir_of, fhir_with_token
from tests.support.http import ApiContext
from tests.support.routes import api_routes

MARK = {"clients": "zqclientmark", "appointments": "zqappointmentmark", "notes": "zqnotemark"}
EVERY = [
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "notes:read",
    "notes:write",
]
# FHIR resource type -> the audit trail's name for its records.
AUDITED_AS = {
    "Patient": "client",
    "Appointment": "appointment",
    "Encounter": "session",
    "DocumentReference": "session",
    "Provenance": "session",
}
JSON = {"Content-Type": FHIR_JSON}


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")


@dataclass
class Walk:
    patient: dict[str, Any]
    appointment: dict[str, Any]
    note_id: str
    signed_version: int


def patient_body() -> dict[str, Any]:
    return {
        "resourceType": "Patient",
        "name": [{"family": "Example", "given": [f"Mara {MARK['clients']}"]}],
        "address": [{"text": f"1 {MARK['clients']} Street"}],
    }


def appointment_body(patient_id: str, hour: int) -> dict[str, Any]:
    return {
        "resourceType": "Appointment",
        "status": "booked",
        "start": f"2026-03-02T{hour:02d}:00:00Z",
        "end": f"2026-03-02T{hour:02d}:50:00Z",
        "participant": [{"actor": {"reference": f"Patient/{patient_id}"}, "status": "accepted"}],
        "comment": f"Bring {MARK['appointments']}",
    }


Call = Callable[[httpx.AsyncClient, Walk], Awaitable[httpx.Response]]
RANGE: list[tuple[str, str | int | float | bool | None]] = [
    ("date", "ge2026-03-01"),
    ("date", "le2026-03-03"),
]
WALK: dict[tuple[str, str], Call] = {
    ("POST", "/fhir/R4/Patient"): lambda h, w: h.post(
        "/Patient", json=patient_body(), headers=JSON
    ),
    ("GET", "/fhir/R4/Patient"): lambda h, w: h.get("/Patient", params={"name": "mara"}),
    ("POST", "/fhir/R4/Patient/_search"): lambda h, w: h.post(
        "/Patient/_search",
        content="given=mara",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    ),
    ("GET", "/fhir/R4/Patient/{patient_id}"): lambda h, w: h.get(f"/Patient/{w.patient['id']}"),
    ("GET", "/fhir/R4/Patient/{patient_id}/_history"): lambda h, w: h.get(
        f"/Patient/{w.patient['id']}/_history"
    ),
    ("GET", "/fhir/R4/Patient/{patient_id}/_history/{version_id}"): lambda h, w: h.get(
        f"/Patient/{w.patient['id']}/_history/{w.patient['meta']['versionId']}"
    ),
    ("PUT", "/fhir/R4/Patient/{patient_id}"): lambda h, w: h.put(
        f"/Patient/{w.patient['id']}", json=patient_body(), headers=JSON
    ),
    ("POST", "/fhir/R4/Appointment"): lambda h, w: h.post(
        "/Appointment", json=appointment_body(w.patient["id"], 14), headers=JSON
    ),
    ("GET", "/fhir/R4/Appointment"): lambda h, w: h.get("/Appointment", params=RANGE),
    ("GET", "/fhir/R4/Appointment/{appointment_id}"): lambda h, w: h.get(
        f"/Appointment/{w.appointment['id']}"
    ),
    ("GET", "/fhir/R4/Appointment/{appointment_id}/_history"): lambda h, w: h.get(
        f"/Appointment/{w.appointment['id']}/_history"
    ),
    ("GET", "/fhir/R4/Appointment/{appointment_id}/_history/{version_id}"): lambda h, w: h.get(
        f"/Appointment/{w.appointment['id']}/_history/{w.appointment['meta']['versionId']}"
    ),
    ("PUT", "/fhir/R4/Appointment/{appointment_id}"): lambda h, w: h.put(
        f"/Appointment/{w.appointment['id']}",
        json=appointment_body(w.patient["id"], 9),
        headers=JSON,
    ),
    ("GET", "/fhir/R4/Encounter"): lambda h, w: h.get("/Encounter"),
    ("GET", "/fhir/R4/Encounter/{encounter_id}"): lambda h, w: h.get(f"/Encounter/{w.note_id}"),
    ("GET", "/fhir/R4/DocumentReference"): lambda h, w: h.get("/DocumentReference"),
    ("GET", "/fhir/R4/DocumentReference/{document_id}"): lambda h, w: h.get(
        f"/DocumentReference/{w.note_id}"
    ),
    ("GET", "/fhir/R4/DocumentReference/{document_id}/_history"): lambda h, w: h.get(
        f"/DocumentReference/{w.note_id}/_history"
    ),
    ("GET", "/fhir/R4/DocumentReference/{document_id}/_history/{version_id}"): lambda h, w: h.get(
        f"/DocumentReference/{w.note_id}/_history/{w.signed_version}"
    ),
    ("GET", "/fhir/R4/Provenance"): lambda h, w: h.get(
        "/Provenance", params={"target": f"DocumentReference/{w.note_id}"}
    ),
    ("GET", "/fhir/R4/Provenance/{provenance_id}"): lambda h, w: h.get(
        f"/Provenance/{w.note_id}-signature"
    ),
}


def resources_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    if body["resourceType"] == "Bundle":
        return [entry["resource"] for entry in body.get("entry", [])]
    return [body]


def record_ids(body: dict[str, Any]) -> set[str]:
    """The CareVault records an answer holds (a Provenance names its note)."""
    return {r["id"].removesuffix("-signature") for r in resources_of(body)}


def text_of(response: httpx.Response) -> str:
    """The answer's text with its attachments decoded (a note's SOAP text is base64)."""
    if not response.headers.get("content-type", "").startswith(FHIR_JSON):
        return response.text
    attachments = [
        base64.b64decode(content["attachment"]["data"]).decode()
        for resource in resources_of(response.json())
        for content in resource.get("content", [])
    ]
    return response.text + "".join(attachments)


def carries_phi(response: httpx.Response) -> set[str]:
    text = text_of(response)
    return {resource for resource, mark in MARK.items() if mark in text}


def test_the_walk_names_every_fhir_route_that_discloses(app: FastAPI) -> None:
    disclosing = set()
    for method, path, route in api_routes(app):
        operation = operation_of(route.endpoint)
        assert operation is not None, (method, path)
        if path.startswith("/fhir/") and operation.discloses:
            disclosing.add((method, path))
    assert disclosing == set(WALK)


async def test_every_fhir_route_needs_read_and_audits_what_it_returns(
    app: FastAPI, api: ApiContext
) -> None:
    declared = {(m, p): operation_of(r.endpoint) for m, p, r in api_routes(app)}
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        patient = fhir_of(await http.post("/Patient", json=patient_body(), headers=JSON))
        booked = await http.post(
            "/Appointment", json=appointment_body(patient["id"], 10), headers=JSON
        )
        appointment = fhir_of(booked)
    async with api.signed_in(owner) as session:
        draft = (
            await session.post(
                "/sessions",
                json={
                    "client_id": patient["id"],
                    "session_date": "2025-01-15",
                    "plan": f"Plan {MARK['notes']}",
                },
            )
        ).json()
        signed = await session.post(
            f"/sessions/{draft['id']}/finalize",
            json={"version": draft["version"], "attestation_version": 1},
        )
        amended = await session.patch(
            f"/sessions/{draft['id']}",
            json={
                "version": signed.json()["version"],
                "plan": f"Amended {MARK['notes']}",
                "reason": "Example reason.",
            },
        )
        assert amended.status_code == 200, amended.text
    walk = Walk(patient, appointment, draft["id"], signed.json()["version"])
    async with fhir_with_token(api, owner, EVERY) as http:
        for route, call in WALK.items():
            operation = declared[route]
            assert operation is not None
            (resource,) = operation.discloses
            answer = await call(http, walk)
            assert answer.status_code in (200, 201), (route, answer.text)
            body = fhir_of(answer)
            if resource != "notes" or (
                "Encounter" not in route[1] and "Provenance" not in route[1]
            ):
                assert resource in carries_phi(answer), route
            returned = record_ids(body)
            assert returned, route
            audited = await audited_records(api, answer)
            types = {AUDITED_AS[r["resourceType"]] for r in resources_of(body)}
            assert types == {PHI_RESOURCES[resource]}, route
            assert returned <= audited.get(PHI_RESOURCES[resource], set()), route
            if operation.discloses_if_readable:
                assert "clients" in carries_phi(answer) or "Mara" in answer.text, route
                assert "client" in audited, route
    for route, call in WALK.items():
        operation = declared[route]
        assert operation is not None
        (resource,) = operation.discloses
        others = [scope for scope in EVERY if scope != f"{resource}:read"]
        async with fhir_with_token(api, owner, others) as http:
            answer = await call(http, walk)
        assert answer.status_code == 403, (route, answer.text)
        outcome = json.loads(answer.text)
        assert outcome["issue"][0]["details"]["coding"][0]["code"] == "insufficient_scope"
        assert carries_phi(answer) == set()
    # Without clients:read an appointment comes without its client's name, unaudited.
    without = [scope for scope in EVERY if scope != "clients:read"]
    async with fhir_with_token(api, owner, without) as http:
        answer = await http.get(f"/Appointment/{appointment['id']}")
    assert answer.status_code == 200
    assert "display" not in fhir_of(answer)["participant"][0]["actor"]
    assert "client" not in await audited_records(api, answer)
