"""Batch reads (issue 25): `POST /<resource>/batch-get` returns up to 100 records by id in
the order asked with one audit event naming each one disclosed; ids the caller may not read
(another practice, outside the care team, unknown, deleted) are `not_found`, never leaked."""

from __future__ import annotations

import uuid

from carevault.auth.models import Role
from tests.support.care_teams import care_team_chart
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.notes import create_note, practice


async def _events(api: ApiContext, action: str) -> list[dict[str, object]]:
    rows = await sql(
        api,
        "SELECT resource_ids, details FROM audit_events WHERE action = $1 ORDER BY id",
        action,
    )
    return [dict(row) for row in rows]


async def test_clients_batch_get_in_order_with_one_event(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, clients=3)
    elsewhere = await practice(api, Role.CLINICIAN)
    unknown = str(uuid.uuid4())
    asked = [place.client_ids[2], elsewhere.client_ids[0], place.client_ids[0], unknown]
    async with api.signed_in(place.emails[0]) as http:
        before = len(await _events(api, "client.read"))
        got = await http.post("/clients/batch-get", json={"ids": [*asked, place.client_ids[0]]})
    assert got.status_code == 200, got.text
    assert [c["id"] for c in got.json()["items"]] == [place.client_ids[2], place.client_ids[0]]
    assert "first_name" in got.json()["items"][0]
    assert got.json()["not_found"] == [elsewhere.client_ids[0], unknown]
    events = await _events(api, "client.read")
    assert len(events) == before + 1
    assert sorted(map(str, events[-1]["resource_ids"])) == sorted(  # type: ignore[call-overload]
        [place.client_ids[2], place.client_ids[0]]
    )


async def test_batch_get_takes_one_to_a_hundred_ids(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        empty = await http.post("/clients/batch-get", json={"ids": []})
        many = await http.post(
            "/appointments/batch-get", json={"ids": [str(uuid.uuid4()) for _ in range(101)]}
        )
        hundred = await http.post(
            "/sessions/batch-get", json={"ids": [str(uuid.uuid4()) for _ in range(100)]}
        )
    assert empty.status_code == many.status_code == 422
    assert error_of(many)["code"] == "validation_error"
    assert hundred.status_code == 200 and len(hundred.json()["not_found"]) == 100


async def test_appointments_and_notes_batch_get(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        first = await create_note(http, place.client_ids[0])
        second = await create_note(http, place.client_ids[0], plan="Walk.")
        deleted = await create_note(http, place.client_ids[0])
        assert (await http.delete(f"/sessions/{deleted['id']}")).status_code == 204
        notes = await http.post(
            "/sessions/batch-get", json={"ids": [second["id"], deleted["id"], first["id"]]}
        )
        booked = await http.post("/appointments/batch-get", json={"ids": [place.appointment_id]})
    assert [n["id"] for n in notes.json()["items"]] == [second["id"], first["id"]]
    assert notes.json()["items"][0]["plan"] == "Walk."
    assert notes.json()["not_found"] == [deleted["id"]]
    assert [a["id"] for a in booked.json()["items"]] == [place.appointment_id]
    assert booked.json()["items"][0]["client"]["id"] == place.client_ids[0]
    (event,) = [e for e in await _events(api, "session.read") if "batch" in str(e["details"])]
    assert len(event["resource_ids"]) == 2  # type: ignore[arg-type]


async def test_batch_get_outside_the_care_team_is_not_found(api: ApiContext) -> None:
    place = await care_team_chart(api)
    async with api.signed_in(place.outsider) as http:
        clients = await http.post("/clients/batch-get", json={"ids": [place.client_id]})
        booked = await http.post("/appointments/batch-get", json={"ids": [place.appointment_id]})
        notes = await http.post("/sessions/batch-get", json={"ids": [place.note_id]})
    for answer, asked in ((clients, place.client_id), (booked, place.appointment_id)):
        assert answer.status_code == 200
        assert answer.json() == {"items": [], "not_found": [asked]}
    assert notes.json() == {"items": [], "not_found": [place.note_id]}
    async with api.signed_in(place.member) as http:
        seen = await http.post("/clients/batch-get", json={"ids": [place.client_id]})
    assert [c["id"] for c in seen.json()["items"]] == [place.client_id]


async def test_a_token_needs_the_read_scope(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.with_token(place.emails[0], ("appointments:read",)) as (http, _):
        refused = await http.post("/clients/batch-get", json={"ids": place.client_ids})
        booked = await http.post("/appointments/batch-get", json={"ids": [place.appointment_id]})
    assert refused.status_code == 403
    assert error_of(refused)["code"] == "insufficient_scope"
    assert booked.status_code == 200
    assert booked.json()["items"][0]["client"] is None  # names only with clients:read
