"""/fhir/R4 (issue 26): the FHIR face over the same services, permissions and audit.

Every answer is validated against the pinned fhir.resources R4B models (tests.support.fhir).
"""

from __future__ import annotations

import base64
import uuid
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

from carevault.auth.models import Role
from carevault.fhir import capability, mapping
from carevault.fhir.router import PREFIX
from tests.support.db import sql
from tests.support.fhir import (
    FHIR_JSON,
    fhir_client,
    fhir_of,
    fhir_with_token,
    outcome_code,
)
from tests.support.http import ApiContext

EVERY = [
    "clients:read",
    "clients:write",
    "appointments:read",
    "appointments:write",
    "notes:read",
    "notes:write",
    "audit:read",
]


def patient_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "resourceType": "Patient",
        "name": [{"family": "Fhirson", "given": ["Ada"]}],
        "telecom": [
            {"system": "email", "value": "ada.fhirson@example.org"},
            {"system": "phone", "value": "+1 555 010 4477"},
        ],
        "birthDate": "1980-02-03",
        "address": [{"text": "1 Example Street"}],
        "extension": [{"url": mapping.EXT_MEDICAL_HISTORY, "valueString": "none relevant"}],
    }
    return body | changes


async def create_patient(http: httpx.AsyncClient, **changes: Any) -> dict[str, Any]:
    created = await http.post(
        "/Patient", json=patient_body(**changes), headers={"Content-Type": FHIR_JSON}
    )
    assert created.status_code == 201, created.text
    return fhir_of(created)


def appointment_body(patient_id: str, hour: int = 9, **changes: Any) -> dict[str, Any]:
    return {
        "resourceType": "Appointment",
        "status": "booked",
        "start": f"2026-03-02T{hour:02d}:00:00Z",
        "end": f"2026-03-02T{hour:02d}:50:00Z",
        "participant": [{"actor": {"reference": f"Patient/{patient_id}"}, "status": "accepted"}],
        "comment": "first visit",
    } | changes


async def test_metadata_lists_what_is_registered(api: ApiContext) -> None:
    async with fhir_client(api) as http:
        answer = await http.get("/metadata")
    assert answer.status_code == 200
    statement = fhir_of(answer)
    assert statement["fhirVersion"] == "4.0.1"
    listed = {r["type"]: r for r in statement["rest"][0]["resource"]}
    assert set(listed) == {
        "Patient", "Practitioner", "PractitionerRole", "Organization", "Appointment",
        "Encounter", "DocumentReference", "Provenance", "AuditEvent",
    }  # fmt: skip
    assert "current version only" in listed["Patient"]["documentation"]


def fhir_routes(app: FastAPI) -> set[tuple[str, str]]:
    found = set()
    for context in iter_route_contexts(list(app.routes)):
        path = context.path_format
        if isinstance(context.original_route, APIRoute) and path and path.startswith(PREFIX):
            for method in context.methods or ():
                found.add((method, path.removeprefix(PREFIX)))
    return found


def test_the_capability_statement_claims_exactly_the_routes() -> None:
    from carevault.api.app import create_app

    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    routes = fhir_routes(app)
    claimed = set()
    for resource_type, spec in capability.RESOURCES.items():
        for interaction in spec["interactions"]:
            claimed |= {
                "read": {("GET", f"/{resource_type}/{{{_param(resource_type)}}}")},
                "vread": {
                    ("GET", f"/{resource_type}/{{{_param(resource_type)}}}/_history/{{version_id}}")
                },
                "history-instance": {
                    ("GET", f"/{resource_type}/{{{_param(resource_type)}}}/_history")
                },
                "search-type": {("GET", f"/{resource_type}")},
                "create": {("POST", f"/{resource_type}")},
                "update": {("PUT", f"/{resource_type}/{{{_param(resource_type)}}}")},
            }[interaction]
    extra = {
        ("GET", "/metadata"),
        ("GET", "/.well-known/smart-configuration"),
        ("POST", "/Patient/_search"),
        # carevault.exports: the record and the practice (docs/how-to/export.md)
        ("GET", "/Patient/{patient_id}/$everything"),
        ("GET", "/$export"),
        ("GET", "/$export-status/{job_id}"),
        ("DELETE", "/$export-status/{job_id}"),
        ("GET", "/$export-file/{job_id}/{resource_type}/{part}"),
    }
    catch_all = {(m, "/{rest}") for m in ("GET", "POST", "PUT", "PATCH", "DELETE")}
    assert routes == claimed | extra | catch_all


def _param(resource_type: str) -> str:
    return {
        "Patient": "patient_id",
        "Appointment": "appointment_id",
        "Encounter": "encounter_id",
        "DocumentReference": "document_id",
        "Provenance": "provenance_id",
        "Practitioner": "practitioner_id",
        "PractitionerRole": "role_id",
        "Organization": "organization_id",
    }.get(resource_type, "")


async def test_patient_create_read_vread_history_and_conditional_update(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        created = await create_patient(http)
        patient_id, version = created["id"], created["meta"]["versionId"]
        assert created["name"][0]["family"] == "Fhirson"
        read = await http.get(f"/Patient/{patient_id}")
        assert read.status_code == 200
        assert read.headers["ETag"] == f'W/"{version}"'
        body = fhir_of(read)
        assert body["telecom"][0]["value"] == "ada.fhirson@example.org"
        assert body["extension"][0]["valueString"] == "none relevant"
        assert fhir_of(await http.get(f"/Patient/{patient_id}/_history/{version}"))["id"]
        stale = await http.get(f"/Patient/{patient_id}/_history/1")
        assert stale.status_code == 404 and outcome_code(stale) == "version_not_found"
        history = fhir_of(await http.get(f"/Patient/{patient_id}/_history"))
        assert history["type"] == "history" and history["total"] == 1
        # Conditional update: the current version succeeds, the same version again is stale.
        changed = patient_body(id=patient_id, birthDate="1981-02-03")
        updated = await http.put(
            f"/Patient/{patient_id}",
            json=changed,
            headers={"If-Match": f'W/"{version}"', "Content-Type": FHIR_JSON},
        )
        assert updated.status_code == 200, updated.text
        assert fhir_of(updated)["birthDate"] == "1981-02-03"
        assert fhir_of(updated)["meta"]["versionId"] != version
        again = await http.put(
            f"/Patient/{patient_id}",
            json=patient_body(id=patient_id),
            headers={"If-Match": f'W/"{version}"', "Content-Type": FHIR_JSON},
        )
        assert again.status_code == 412 and outcome_code(again) == "version_conflict"
        # If-None-Exist: the existing client answers, nothing new is created.
        conditional = await http.post(
            "/Patient",
            json=patient_body(),
            headers={"If-None-Exist": f"identifier={patient_id}", "Content-Type": FHIR_JSON},
        )
        assert conditional.status_code == 200 and fhir_of(conditional)["id"] == patient_id
    assert len(await sql(api, "SELECT 1 FROM clients")) == 1
    events = await sql(
        api, "SELECT action FROM audit_events WHERE resource_type = 'client' ORDER BY id"
    )
    assert [e["action"] for e in events].count("client.read") >= 3


async def test_patient_search_pages_with_a_cursor_and_counts(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        for index in range(5):
            await create_patient(
                http,
                name=[{"family": f"Pager{index}", "given": ["Pat"]}],
                telecom=[{"system": "email", "value": f"p{index}@example.org"}],
            )
        first = fhir_of(await http.get("/Patient", params={"_count": "2", "given": "pat"}))
        assert first["type"] == "searchset" and first["total"] == 5
        assert len(first["entry"]) == 2
        assert first["entry"][0]["resource"]["meta"]["tag"][0]["code"] == "SUBSETTED"
        seen = [e["resource"]["id"] for e in first["entry"]]
        link = next(li["url"] for li in first["link"] if li["relation"] == "next")
        while link:
            page = fhir_of(await http.get(link))
            seen += [e["resource"]["id"] for e in page.get("entry", [])]
            link = next((li["url"] for li in page["link"] if li["relation"] == "next"), None)
        assert len(seen) == len(set(seen)) == 5
        by_family = fhir_of(await http.get("/Patient", params={"family": "pager3"}))
        assert [e["resource"]["name"][0]["family"] for e in by_family["entry"]] == ["Pager3"]
        born = fhir_of(await http.get("/Patient", params={"birthdate": "ge1980-01-01"}))
        assert born["total"] == 5
        assert "total" in fhir_of(await http.get("/Patient", params={"birthdate": "lt1980-01-01"}))
        # Email and phone in a form body: the same blind-index search as POST /clients/search.
        by_email = await http.post(
            "/Patient/_search",
            content="email=P2%40Example.org",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        found = fhir_of(by_email)
        assert [e["resource"]["name"][0]["family"] for e in found["entry"]] == ["Pager2"]
        assert "P2" not in found["link"][0]["url"] and "Example" not in found["link"][0]["url"]
        unknown = await http.get("/Patient", params={"gender": "female", "foo": "1"})
        assert unknown.status_code == 400 and outcome_code(unknown) == "unknown_parameter"
        issue = unknown.json()["issue"][0]
        assert issue["expression"] == ["foo", "gender"]
        nameless = await http.get("/Patient?=x&foo=1")  # fuzzing found it: an empty name
        assert nameless.status_code == 400 and outcome_code(nameless) == "unknown_parameter"
        bad_cursor = await http.get("/Patient", params={"_cursor": "nonsense"})
        assert outcome_code(bad_cursor) == "invalid_cursor"
        many_ids = ",".join(str(uuid.uuid4()) for _ in range(101))
        assert outcome_code(await http.get("/Patient", params={"_id": many_ids})) == "too_costly"
        too_many = await http.get("/Patient", params={"_count": "5000"})
        assert too_many.status_code == 400


async def test_appointments_create_search_and_update_with_if_match(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        patient = await create_patient(http)
        created = await http.post(
            "/Appointment",
            json=appointment_body(patient["id"]),
            headers={"Content-Type": FHIR_JSON},
        )
        assert created.status_code == 201, created.text
        booked = fhir_of(created)
        assert booked["participant"][0]["actor"]["display"] == "Ada Fhirson"
        overlap = await http.post(
            "/Appointment",
            json=appointment_body(patient["id"]),
            headers={"Content-Type": FHIR_JSON},
        )
        assert overlap.status_code == 409
        window = [("date", "ge2026-03-01"), ("date", "le2026-03-03")]
        found = fhir_of(
            await http.get("/Appointment", params=[*window, ("patient", patient["id"])])
        )
        assert [e["resource"]["id"] for e in found["entry"]] == [booked["id"]]
        none = fhir_of(await http.get("/Appointment", params=[*window, ("status", "cancelled")]))
        assert none["total"] == 0
        no_range = await http.get("/Appointment")
        assert no_range.status_code == 400
        moved = appointment_body(patient["id"], 11, id=booked["id"], status="fulfilled")
        version = booked["meta"]["versionId"]
        headers = {"If-Match": f'W/"{version}"', "Content-Type": FHIR_JSON}
        updated = await http.put(f"/Appointment/{booked['id']}", json=moved, headers=headers)
        assert updated.status_code == 200, updated.text
        assert fhir_of(updated)["status"] == "fulfilled"
        stale = await http.put(f"/Appointment/{booked['id']}", json=moved, headers=headers)
        assert stale.status_code == 412


async def signed_and_amended_note(api: ApiContext, owner: str, client_id: str) -> str:
    async with api.signed_in(owner) as session:
        draft = (
            await session.post(
                "/sessions",
                json={"client_id": client_id, "session_date": "2025-01-15", "plan": "walk"},
            )
        ).json()
        signed = (
            await session.post(
                f"/sessions/{draft['id']}/finalize",
                json={"version": draft["version"], "attestation_version": 1},
            )
        ).json()
        amended = await session.patch(
            f"/sessions/{draft['id']}",
            json={"version": signed["version"], "plan": "run", "reason": "Typo corrected."},
        )
        assert amended.status_code == 200, amended.text
        return str(draft["id"])


async def test_a_signed_note_is_a_document_with_versions_an_encounter_and_provenance(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        patient = await create_patient(http)
        note_id = await signed_and_amended_note(api, owner, patient["id"])
        document = fhir_of(await http.get(f"/DocumentReference/{note_id}"))
        assert document["type"]["coding"][0]["code"] == "11506-3"
        assert document["category"][0]["coding"][0]["code"] == "clinical-note"
        text = base64.b64decode(document["content"][0]["attachment"]["data"]).decode()
        assert "Plan:\nrun" in text
        (relation,) = document["relatesTo"]
        assert relation["code"] == "appends"
        history = fhir_of(await http.get(f"/DocumentReference/{note_id}/_history"))
        versions = [e["resource"]["meta"]["versionId"] for e in history["entry"]]
        assert versions[0] == document["meta"]["versionId"] and len(versions) == 2
        older = fhir_of(await http.get(f"/DocumentReference/{note_id}/_history/{versions[1]}"))
        assert "Plan:\nwalk" in base64.b64decode(older["content"][0]["attachment"]["data"]).decode()
        encounter = fhir_of(await http.get(f"/Encounter/{note_id}"))
        assert encounter["status"] == "finished"
        assert encounter["subject"]["reference"] == f"Patient/{patient['id']}"
        provenance = fhir_of(await http.get(f"/Provenance/{note_id}-signature"))
        assert provenance["target"][0]["reference"] == f"DocumentReference/{note_id}"
        by_target = fhir_of(
            await http.get("/Provenance", params={"target": f"DocumentReference/{note_id}"})
        )
        assert len(by_target["entry"]) == 1
        documents = fhir_of(await http.get("/DocumentReference", params={"patient": patient["id"]}))
        assert documents["total"] == 1
        dated = fhir_of(
            await http.get("/Encounter", params={"patient": patient["id"], "date": "ge2025-02-01"})
        )
        assert dated["total"] == 0
    events = await sql(api, "SELECT action FROM audit_events WHERE resource_type = 'session'")
    assert {"session.read", "session.versions_read", "session.list"} <= {
        e["action"] for e in events
    }


async def test_directory_organization_and_owner_only_audit_events(api: ApiContext) -> None:
    space, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with fhir_with_token(api, owner, EVERY) as http:
        practitioners = fhir_of(await http.get("/Practitioner"))
        assert practitioners["total"] == 2
        first = practitioners["entry"][0]["resource"]["id"]
        assert fhir_of(await http.get(f"/Practitioner/{first}"))["id"] == first
        assert fhir_of(await http.get(f"/PractitionerRole/{first}"))["organization"]
        assert fhir_of(await http.get(f"/Organization/{space.id}"))["name"] == space.name
        assert fhir_of(await http.get("/Organization"))["total"] == 1
        other = await http.get(f"/Organization/{uuid.uuid4()}")
        assert other.status_code == 404
        trail = fhir_of(await http.get("/AuditEvent", params={"_count": "3"}))
        assert trail["entry"] and trail["total"] >= 3
    async with fhir_with_token(api, clinician, ["clients:read"]) as http:
        refused = await http.get("/AuditEvent")
    assert refused.status_code == 403 and outcome_code(refused) == "insufficient_scope"


async def test_errors_are_operation_outcomes_with_the_rest_codes(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_client(api) as anonymous:
        unauthenticated = await anonymous.get(f"/Patient/{uuid.uuid4()}")
        assert unauthenticated.status_code == 401
        assert outcome_code(unauthenticated) == "not_authenticated"
        for path in ("/Observation", "/Patient/x/$nonsense", "/"):
            unknown = await anonymous.get(path)
            assert unknown.status_code == 404, path
            assert outcome_code(unknown) == "not_found"
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=api.app), base_url="http://testserver"
    ) as root:
        outside = await root.get("/fhir/Patient")
        assert outside.status_code == 404 and outcome_code(outside) == "not_found"
    async with fhir_with_token(api, owner, ["appointments:read"]) as http:
        no_scope = await http.get(f"/Patient/{uuid.uuid4()}")
        assert no_scope.status_code == 403 and outcome_code(no_scope) == "insufficient_scope"
    async with fhir_with_token(api, owner, EVERY) as http:
        missing = await http.get(f"/Patient/{uuid.uuid4()}")
        assert missing.status_code == 404 and outcome_code(missing) == "not_found"
        not_an_id = await http.get("/Patient/not-a-uuid")
        assert not_an_id.status_code == 404
        invalid = await http.post(
            "/Patient",
            json={"resourceType": "Patient", "name": [{"given": ["X"]}]},
            headers={"Content-Type": FHIR_JSON},
        )
        assert invalid.status_code == 422 and outcome_code(invalid) == "validation_error"
        wrong_type = await http.post(
            "/Patient", json={"resourceType": "Patient"}, headers={"Content-Type": "text/plain"}
        )
        assert wrong_type.status_code == 415


async def test_smart_scopes_map_onto_carevault_scopes_and_narrow_fhir(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with fhir_with_token(api, owner, EVERY) as http:
        patient = await create_patient(http)
    async with api.signed_in(clinician) as session:
        created = await session.post(
            "/auth/tokens", json={"name": "app", "scopes": ["user/Patient.rs"]}
        )
        assert created.status_code == 201, created.text
        assert created.json()["scopes"] == ["clients:read", "user/Patient.rs"]
        for refused in (["patient/*.rs"], ["user/Observation.rs"], ["system/*.rs"]):
            answer = await session.post("/auth/tokens", json={"name": "x", "scopes": refused})
            assert answer.status_code == 422, refused
    async with fhir_client(api, created.json()["token"]) as http:
        assert (await http.get(f"/Patient/{patient['id']}")).status_code == 200
        write = await http.post(
            "/Patient", json=patient_body(), headers={"Content-Type": FHIR_JSON}
        )
        assert write.status_code == 403 and outcome_code(write) == "insufficient_scope"
    async with fhir_with_token(api, owner, ["user/*.rs"]) as http:
        assert (await http.get(f"/Patient/{patient['id']}")).status_code == 200
    async with fhir_client(api) as anonymous:
        config = await anonymous.get("/.well-known/smart-configuration")
    assert config.status_code == 200
    assert "user/Patient.rs" in config.json()["scopes_supported"]
    assert "permission-v2" in config.json()["capabilities"]
