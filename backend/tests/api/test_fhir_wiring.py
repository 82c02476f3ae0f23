"""FHIR wired to issue 25's pieces: the integrator's external id as an identifier (and
conditional create by it), one version for the REST ETag and FHIR's versionId with an
If-Match check atomic with the write, and SMART system/ scopes on service accounts."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx

from carevault.auth.models import Role
from carevault.fhir import mapping
from tests.support.db import libpq_dsn, sql
from tests.support.fhir import FHIR_JSON, fhir_client, fhir_of, fhir_with_token, outcome_code
from tests.support.http import ApiContext, error_of

EVERY = ["clients:read", "clients:write", "appointments:read", "appointments:write"]
EXTERNAL = mapping.EXTERNAL_ID_SYSTEM


def patient_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "resourceType": "Patient",
        "name": [{"family": "Wired", "given": ["Ada"]}],
        "telecom": [{"system": "email", "value": "ada.wired@example.org"}],
        "birthDate": "1980-02-03",
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
    } | changes


def with_external_id(external_id: str, **changes: Any) -> dict[str, Any]:
    return patient_body(identifier=[{"system": EXTERNAL, "value": external_id}], **changes)


async def test_external_ids_are_identifiers_searched_through_the_blind_index(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner) as (rest, _):
        upserted = await rest.put(
            "/clients/external/crm-000123", json={"first_name": "Ada", "last_name": "Rest"}
        )
        assert upserted.status_code == 201, upserted.text
    client_id = upserted.json()["id"]
    async with fhir_with_token(api, owner, EVERY) as http:
        read = fhir_of(await http.get(f"/Patient/{client_id}"))
        assert {"use": "secondary", "system": EXTERNAL, "value": "crm-000123"} in read["identifier"]
        for term in (f"{EXTERNAL}|crm-000123", "crm-000123"):
            found = fhir_of(await http.get("/Patient", params={"identifier": term}))
            assert [e["resource"]["id"] for e in found["entry"]] == [client_id], term
        other_system = fhir_of(
            await http.get("/Patient", params={"identifier": "urn:other|crm-000123"})
        )
        assert other_system["total"] == 0
        # Our own id system does not match an external id, nor the reverse.
        own = f"{mapping.CLIENT_ID_SYSTEM}|crm-000123"
        assert fhir_of(await http.get("/Patient", params={"identifier": own}))["total"] == 0
        # The external id is never in plaintext in the database.
        stored = await sql(api, "SELECT external_id::text AS e FROM clients")
        assert "crm-000123" not in str(stored[0]["e"])


async def test_conditional_create_by_external_id_creates_once(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        headers = {"If-None-Exist": f"identifier={EXTERNAL}|ehr-42", "Content-Type": FHIR_JSON}
        first = await http.post("/Patient", json=with_external_id("ehr-42"), headers=headers)
        assert first.status_code == 201, first.text
        again = await http.post("/Patient", json=with_external_id("ehr-42"), headers=headers)
        assert again.status_code == 200 and fhir_of(again)["id"] == fhir_of(first)["id"]
        patient_id = fhir_of(first)["id"]
        # An appointment carries its external id too, and creates once by it.
        booking = appointment_body(
            patient_id, identifier=[{"system": EXTERNAL, "value": "sched-7"}]
        )
        condition = {"If-None-Exist": "identifier=sched-7", "Content-Type": FHIR_JSON}
        booked = await http.post("/Appointment", json=booking, headers=condition)
        assert booked.status_code == 201, booked.text
        assert fhir_of(booked)["identifier"] == [
            {"use": "secondary", "system": EXTERNAL, "value": "sched-7"}
        ]
        same = await http.post("/Appointment", json=booking, headers=condition)
        assert same.status_code == 200 and fhir_of(same)["id"] == fhir_of(booked)["id"]
        # Search by it, without a calendar range; another system's id matches nothing.
        found = fhir_of(await http.get("/Appointment", params={"identifier": "sched-7"}))
        assert [e["resource"]["id"] for e in found["entry"]] == [fhir_of(booked)["id"]]
        other = await http.get("/Appointment", params={"identifier": "urn:x|sched-7"})
        assert fhir_of(other)["total"] == 0
        cancelled = await http.get(
            "/Appointment", params={"identifier": "sched-7", "status": "cancelled"}
        )
        assert fhir_of(cancelled)["total"] == 0
    async with api.with_token(owner) as (rest, _):
        listed = await rest.get("/clients", params={"external_id": "ehr-42"})
        assert [c["id"] for c in listed.json()["items"]] == [patient_id]
        assert (await rest.get(f"/clients/{patient_id}")).json()["external_id"] == "ehr-42"
    assert len(await sql(api, "SELECT 1 FROM clients")) == 1
    assert len(await sql(api, "SELECT 1 FROM appointments")) == 1


async def test_fhir_version_is_the_rest_etag_and_either_guards_a_change(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http, api.with_token(owner) as (rest, _):
        patient = await create_patient(http)
        version = patient["meta"]["versionId"]
        tag = (await rest.get(f"/clients/{patient['id']}")).headers["ETag"]
        assert tag == f'"{version}"'
        read = await http.get(f"/Patient/{patient['id']}")
        assert read.headers["ETag"] == f'W/"{version}"'
        # A REST change makes the FHIR version stale, and the REST ETag guards a FHIR update.
        changed = await rest.patch(
            f"/clients/{patient['id']}", json={"notes": "moved"}, headers={"If-Match": tag}
        )
        assert changed.status_code == 200
        body = patient_body(id=patient["id"])
        stale = await http.put(
            f"/Patient/{patient['id']}",
            json=body,
            headers={"If-Match": f'W/"{version}"', "Content-Type": FHIR_JSON},
        )
        assert stale.status_code == 412 and outcome_code(stale) == "version_conflict"
        fresh = await http.put(
            f"/Patient/{patient['id']}",
            json=body,
            headers={"If-Match": changed.headers["ETag"], "Content-Type": FHIR_JSON},
        )
        assert fresh.status_code == 200, fresh.text
        after = (await rest.get(f"/clients/{patient['id']}")).headers["ETag"]
        assert after == f'"{fhir_of(fresh)["meta"]["versionId"]}"'


async def _until_waiting_on_a_lock(connection: asyncpg.Connection) -> None:
    for _ in range(500):
        waiting = await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the update never waited for the concurrent change")


async def test_if_match_is_checked_atomically_with_the_write(api: ApiContext) -> None:
    """Regression: the FHIR update read the version, then wrote; a change committed between
    the two was overwritten (a lost update) instead of answering 412."""
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        for kind in ("Patient", "Appointment"):
            patient = await create_patient(http) if kind == "Patient" else None
            if kind == "Patient":
                assert patient is not None
                resource, table = patient, "clients"
                body = patient_body(id=patient["id"], birthDate="1990-01-01")
            else:
                owner_patient = await create_patient(http)
                created = await http.post(
                    "/Appointment",
                    json=appointment_body(owner_patient["id"], 14),
                    headers={"Content-Type": FHIR_JSON},
                )
                resource, table = fhir_of(created), "appointments"
                body = appointment_body(owner_patient["id"], 15, id=resource["id"])
            version = resource["meta"]["versionId"]
            concurrent = await asyncpg.connect(libpq_dsn(api.database_url))
            watcher = await asyncpg.connect(libpq_dsn(api.database_url))
            try:
                change = concurrent.transaction()
                await change.start()
                # Another writer's change, not yet committed, holding the row.
                await concurrent.execute(
                    f"UPDATE {table} SET updated_at = updated_at + interval '1 second' "
                    "WHERE id = $1",
                    resource["id"],
                )
                update = asyncio.create_task(
                    http.put(
                        f"/{kind}/{resource['id']}",
                        json=body,
                        headers={"If-Match": f'W/"{version}"', "Content-Type": FHIR_JSON},
                    )
                )
                await _until_waiting_on_a_lock(watcher)
                await change.commit()
                answer: httpx.Response = await update
            finally:
                await concurrent.close()
                await watcher.close()
            assert answer.status_code == 412, (kind, answer.text)
            assert outcome_code(answer) == "version_conflict"


async def test_system_scopes_belong_to_service_accounts(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        refused = await session.post("/auth/tokens", json={"name": "x", "scopes": ["system/*.rs"]})
        assert refused.status_code == 422
        error = error_of(refused)
        assert error["code"] == "scope_not_allowed" and "service account" in error["message"]
        user_scoped = await session.post(
            "/service-accounts", json={"name": "x", "scopes": ["user/Patient.rs"]}
        )
        assert user_scoped.status_code == 422
        assert error_of(user_scoped)["code"] == "scope_not_allowed"
        account = await session.post(
            "/service-accounts", json={"name": "ehr sync", "scopes": ["system/Patient.r"]}
        )
        assert account.status_code == 201, account.text
        assert account.json()["scopes"] == ["clients:read", "system/Patient.r"]
        issued = await session.post(
            f"/service-accounts/{account.json()['id']}/tokens", json={"name": "prod"}
        )
        assert issued.status_code == 201, issued.text
        assert issued.json()["scopes"] == ["clients:read", "system/Patient.r"]
    async with fhir_with_token(api, owner, EVERY) as http:
        patient = await create_patient(http)
    async with fhir_client(api, issued.json()["token"]) as system:
        assert (await system.get(f"/Patient/{patient['id']}")).status_code == 200
        searched = await system.get("/Patient")
        assert searched.status_code == 403
        assert outcome_code(searched) == "insufficient_scope"
        assert "system/Patient.s" in searched.text
        config = (await system.get("/.well-known/smart-configuration")).json()
        assert "system/*.rs" in config["scopes_supported"]
        assert "service-accounts" in config["scopes_supported_by_credential"]["system"]


async def test_odd_identifiers_match_nothing_and_never_fail(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with fhir_with_token(api, owner, EVERY) as http:
        for term in ("|", "a|", "|x", "x" * 5000, "é|ü", f"{EXTERNAL}|", ",,,", "a|b|c"):
            for path in ("/Patient", "/Appointment"):
                answer = await http.get(path, params={"identifier": term})
                assert answer.status_code == 200, (path, term, answer.text)
                assert fhir_of(answer)["total"] == 0
        many = ",".join(str(i) for i in range(101))
        async with api.with_token(owner) as (rest, _):
            for i in range(101):
                made = await rest.put(
                    f"/clients/external/{i}", json={"first_name": "N", "last_name": str(i)}
                )
                assert made.status_code == 201, made.text
        too_many = await http.get("/Patient", params={"identifier": many})
        assert too_many.status_code == 400 and outcome_code(too_many) == "too_costly"
