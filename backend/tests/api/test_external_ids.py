"""Integrator-owned ids and metadata (issue 25): `external_id` unique per practice and kind
of record, stored sealed with a blind index; `metadata` sealed like PHI and limited like
Stripe's; lists filter by external id; `PUT …/external/{external_id}` creates (201) or
updates (200), never twice, even when two run at once."""

from __future__ import annotations

import asyncio

from carevault.auth.models import Role
from tests.support.db import sql
from tests.support.http import ApiContext, error_of, fields_named
from tests.support.notes import practice

SECRET = "Diagnosis-in-metadata-7741"


async def test_a_client_carries_its_external_id_and_metadata_sealed(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        made = await http.post(
            "/clients",
            json={
                "first_name": "Ada",
                "last_name": "Example",
                "external_id": "crm-0001",
                "metadata": {"segment": SECRET},
            },
        )
        assert made.status_code == 201, made.text
        assert made.json()["external_id"] == "crm-0001"
        assert made.json()["metadata"] == {"segment": SECRET}
        client_id = made.json()["id"]
        read = await http.get(f"/clients/{client_id}")
        assert read.json()["metadata"] == {"segment": SECRET}
        changed = await http.patch(
            f"/clients/{client_id}", json={"metadata": {"segment": None, "tier": "gold"}}
        )
        assert changed.json()["metadata"] == {"tier": "gold"}
    (row,) = await sql(
        api,
        "SELECT external_id, external_id_bidx, metadata_json FROM clients WHERE id = $1::uuid",
        client_id,
    )
    assert b"crm-0001" not in row["external_id"]
    assert b"gold" not in row["metadata_json"]
    assert len(row["external_id_bidx"]) == 32


async def test_an_external_id_is_unique_per_practice_and_kind(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    other = await practice(api, Role.CLINICIAN)
    body = {"first_name": "Ada", "last_name": "Example", "external_id": "crm-7"}
    async with api.signed_in(place.emails[0]) as http:
        assert (await http.post("/clients", json=body)).status_code == 201
        again = await http.post("/clients", json=body)
        assert again.status_code == 409
        assert error_of(again)["code"] == "external_id_taken"
        taken = await http.patch(f"/clients/{place.client_ids[0]}", json={"external_id": "crm-7"})
        assert taken.status_code == 409
        # Another kind of record may use the same id.
        booked = await http.patch(
            f"/appointments/{place.appointment_id}", json={"external_id": "crm-7"}
        )
        assert booked.status_code == 200, booked.text
    async with api.signed_in(other.emails[0]) as http:
        assert (await http.post("/clients", json=body)).status_code == 201


async def test_metadata_is_limited_like_stripes(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    path = f"/clients/{place.client_ids[0]}"
    async with api.signed_in(place.emails[0]) as http:
        too_many = await http.patch(path, json={"metadata": {f"k{i}": "v" for i in range(51)}})
        long_key = await http.patch(path, json={"metadata": {"k" * 41: "v"}})
        long_value = await http.patch(path, json={"metadata": {"k": "v" * 501}})
        bad_id = await http.patch(path, json={"external_id": "Ada Example"})
        assert {r.status_code for r in (too_many, long_key, long_value, bad_id)} == {422}
        assert "body.external_id" in fields_named(bad_id)
        fifty = await http.patch(path, json={"metadata": {f"k{i}": "v" for i in range(50)}})
        assert fifty.status_code == 200
        merged_over = await http.patch(path, json={"metadata": {"one-more": "v"}})
        assert merged_over.status_code == 422
        cleared = await http.patch(path, json={"metadata": None})
        assert cleared.json()["metadata"] == {}


async def test_lists_filter_by_external_id(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, clients=2)
    async with api.signed_in(place.emails[0]) as http:
        await http.patch(f"/clients/{place.client_ids[1]}", json={"external_id": "crm-2"})
        found = await http.get("/clients", params={"external_id": "crm-2"})
        assert found.status_code == 200, found.text
        assert [c["id"] for c in found.json()["items"]] == [place.client_ids[1]]
        none = await http.get("/clients", params={"external_id": "crm-3"})
        assert none.json()["items"] == [] and none.json()["total"] == 0


async def test_upsert_creates_then_updates_without_duplicating(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    path = "/clients/external/crm-42"
    async with api.signed_in(place.emails[0]) as http:
        created = await http.put(
            path,
            json={
                "first_name": "Ada",
                "last_name": "Example",
                "notes": "kept",
                "metadata": {"a": "1"},
            },
        )
        assert created.status_code == 201, created.text
        assert created.json()["external_id"] == "crm-42"
        updated = await http.put(
            path, json={"first_name": "Ada", "last_name": "Lovelace", "metadata": {"b": "2"}}
        )
        assert updated.status_code == 200, updated.text
        assert updated.json()["id"] == created.json()["id"]
        assert updated.json()["last_name"] == "Lovelace"
        assert updated.json()["notes"] == "kept"  # left out: kept
        assert updated.json()["metadata"] == {"a": "1", "b": "2"}
        stale = await http.put(
            path,
            json={"first_name": "Ada", "last_name": "X"},
            headers={"If-Match": created.headers["ETag"]},
        )
        assert stale.status_code == 412
        fresh = await http.put(
            path,
            json={"first_name": "Ada", "last_name": "Y"},
            headers={"If-Match": updated.headers["ETag"]},
        )
        assert fresh.status_code == 200
        missing = await http.put(
            "/clients/external/crm-none",
            json={"first_name": "A", "last_name": "B"},
            headers={"If-Match": "*"},
        )
        assert missing.status_code == 412
        bad = await http.put(
            "/clients/external/has%20space", json={"first_name": "A", "last_name": "B"}
        )
        assert bad.status_code == 422
    actions = await sql(
        api,
        "SELECT action FROM audit_events WHERE action IN ('client.create', 'client.update') "
        "AND resource_ids @> ARRAY[$1::uuid] ORDER BY id",
        created.json()["id"],
    )
    assert [a["action"] for a in actions] == ["client.create", "client.update", "client.update"]


async def test_concurrent_upserts_of_one_external_id_give_one_client(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        answers = await asyncio.gather(
            *[
                http.put(
                    "/clients/external/crm-race",
                    json={"first_name": "Ada", "last_name": f"Example {i}"},
                )
                for i in range(6)
            ]
        )
    assert sorted(a.status_code for a in answers) == [200] * 5 + [201]
    assert len({a.json()["id"] for a in answers}) == 1
    rows = await sql(api, "SELECT count(*) AS n FROM clients WHERE external_id IS NOT NULL")
    assert rows[0]["n"] == 1


async def test_appointment_upsert_creates_then_updates(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    body = {
        "client_id": place.client_ids[0],
        "starts_at": "2026-05-04T09:00:00Z",
        "ends_at": "2026-05-04T09:50:00Z",
        "metadata": {"source": "scheduler"},
    }
    async with api.signed_in(place.emails[0]) as http:
        created = await http.put("/appointments/external/sched-1", json=body)
        assert created.status_code == 201, created.text
        assert created.json()["external_id"] == "sched-1"
        moved = await http.put(
            "/appointments/external/sched-1",
            json=body | {"starts_at": "2026-05-04T10:00:00Z", "ends_at": "2026-05-04T10:50:00Z"},
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["id"] == created.json()["id"]
        assert moved.json()["starts_at"].startswith("2026-05-04T10:00")
        answers = await asyncio.gather(
            *[
                http.put(
                    "/appointments/external/sched-race",
                    json=body
                    | {"starts_at": "2026-05-05T09:00:00Z", "ends_at": "2026-05-05T09:50:00Z"},
                )
                for _ in range(4)
            ]
        )
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
    assert len({a.json()["id"] for a in answers}) == 1


async def test_notes_and_appointments_carry_and_filter_by_external_ids(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        made = await http.post(
            "/sessions",
            json={
                "client_id": place.client_ids[0],
                "session_date": "2025-01-15",
                "subjective": "Calm week.",
                "external_id": "ehr-1",
                "metadata": {"source": "dictation"},
            },
        )
        assert made.status_code == 201, made.text
        assert made.json()["metadata"] == {"source": "dictation"}
        note_path = f"/sessions/{made.json()['id']}"
        saved = await http.patch(note_path, json={"version": 1, "metadata": {"pages": "2"}})
        assert saved.status_code == 200, saved.text
        assert saved.json()["metadata"] == {"source": "dictation", "pages": "2"}
        assert saved.json()["version"] == 2
        listed = await http.get("/sessions", params={"external_id": "ehr-1"})
        assert [n["id"] for n in listed.json()["items"]] == [made.json()["id"]]
        assert (await http.get("/sessions", params={"external_id": "ehr-2"})).json()["items"] == []
        duplicate = await http.post(
            "/sessions",
            json={
                "client_id": place.client_ids[0],
                "session_date": "2025-01-15",
                "external_id": "ehr-1",
            },
        )
        assert duplicate.status_code == 409
        tagged = await http.patch(
            f"/appointments/{place.appointment_id}", json={"external_id": "sched-9"}
        )
        assert tagged.status_code == 200, tagged.text
        calendar = await http.get(
            "/appointments",
            params={
                "start": "2000-01-01T00:00:00Z",
                "end": "2000-03-01T00:00:00Z",
                "external_id": "sched-9",
            },
        )
        assert calendar.status_code == 200, calendar.text
        start = tagged.json()["starts_at"]
        window = {"start": start, "end": tagged.json()["ends_at"], "external_id": "sched-9"}
        assert [a["id"] for a in (await http.get("/appointments", params=window)).json()] == [
            place.appointment_id
        ]
        window["external_id"] = "sched-10"
        assert (await http.get("/appointments", params=window)).json() == []
