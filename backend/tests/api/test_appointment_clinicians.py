"""A group practice's calendar (issue 24): every appointment is on a clinician's calendar,
overlaps are refused per clinician, per client and per room (not per practice), the
calendar filters by clinician and client and carries the names it draws, recurring
bookings become linked occurrences, and a drag reschedules with the same checks."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx

from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.db import sql
from tests.support.http import ApiContext, error_of, event_details, fields_named

DAY = "2030-03-04"
WHOLE_DAY = {"start": f"{DAY}T00:00:00Z", "end": "2030-03-05T00:00:00Z"}


def at(hour_minute: str, day: str = DAY) -> str:
    return f"{day}T{hour_minute}:00Z"


def booking(client_id: str, start: str, end: str, day: str = DAY, **fields: Any) -> dict[str, Any]:
    return {
        "client_id": client_id,
        "starts_at": at(start, day),
        "ends_at": at(end, day),
        **fields,
    }


async def book(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/appointments", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def user_id(client: httpx.AsyncClient) -> str:
    me: str = (await client.get("/auth/me")).json()["user"]["id"]
    return me


def conflicts(response: httpx.Response) -> list[tuple[str, list[str]]]:
    """(conflicting id, what it shares) of a 409 `appointment_conflict`."""
    assert response.status_code == 409, response.text
    error = error_of(response)
    assert error["code"] == "appointment_conflict"
    found = [(c["id"], c["shares"]) for c in error["details"]["conflicts"]]
    assert error["details"]["conflicting_ids"] == list(dict.fromkeys(i for i, _ in found))
    return found


async def test_two_clinicians_see_two_clients_at_the_same_time(api: ApiContext) -> None:
    """The defect: the overlap check covered the whole practice, so this was a 409."""
    _, (first, second) = await api.workspace_with_users(None, Role.CLINICIAN, Role.CLINICIAN)
    async with api.signed_in(first) as one, api.signed_in(second) as other:
        ada = (await create_client(one))["id"]
        grace = (await create_client(one, first_name="Grace", last_name="Hopper"))["id"]
        mine = await book(one, booking(ada, "09:00", "09:50"))
        theirs = await other.post("/appointments", json=booking(grace, "09:00", "09:50"))
        assert theirs.status_code == 201, theirs.text
        assert mine["clinician_id"] == await user_id(one)  # the booker, by default
        assert theirs.json()["clinician_id"] == await user_id(other)


async def test_overlaps_are_refused_per_clinician_client_and_room(api: ApiContext) -> None:
    _, (email, colleague) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(email) as client, api.signed_in(colleague) as other:
        me, them = await user_id(client), await user_id(other)
        ada = (await create_client(client))["id"]
        grace = (await create_client(client, first_name="Grace", last_name="Hopper"))["id"]
        alan = (await create_client(client, first_name="Alan", last_name="Turing"))["id"]
        first = await book(client, booking(ada, "09:00", "10:00", room="Room 1"))

        # The same client with another clinician: still a double booking of the client.
        same_client = await client.post(
            "/appointments", json=booking(ada, "09:30", "10:30", clinician_id=them)
        )
        assert conflicts(same_client) == [(first["id"], ["client"])]
        assert "the same client" in error_of(same_client)["message"]
        # The same clinician with another client.
        same_clinician = await client.post("/appointments", json=booking(grace, "09:30", "10:30"))
        assert conflicts(same_clinician) == [(first["id"], ["clinician"])]
        assert "the same clinician" in error_of(same_clinician)["message"]
        # Another clinician and client in the same room (the label ignores case).
        same_room = await client.post(
            "/appointments",
            json=booking(grace, "09:30", "10:30", clinician_id=them, room=" room 1 "),
        )
        assert conflicts(same_room) == [(first["id"], ["room"])]
        assert "the same room" in error_of(same_room)["message"]
        everything = await client.post(
            "/appointments", json=booking(ada, "09:59", "10:30", room="ROOM 1")
        )
        assert conflicts(everything) == [(first["id"], ["clinician", "client", "room"])]

        # Neither clinician, client nor room in common: booked.
        elsewhere = await book(
            client, booking(grace, "09:30", "10:30", clinician_id=them, room="Room 2")
        )
        assert elsewhere["clinician_id"] == them and elsewhere["room"] == "Room 2"
        # A conflict with two appointments names both, each with what it shares.
        both = await client.post(
            "/appointments", json=booking(alan, "09:45", "10:15", clinician_id=them, room="room 1")
        )
        assert conflicts(both) == [(first["id"], ["room"]), (elsewhere["id"], ["clinician"])]
        # allow_overlap still books a joint session of one client with two clinicians.
        joint = await client.post(
            "/appointments",
            json=booking(ada, "09:00", "10:00", clinician_id=them, allow_overlap=True),
        )
        assert joint.status_code == 201, joint.text
        assert first["clinician_id"] == me


async def test_the_clinician_is_an_active_user_of_the_practice(api: ApiContext) -> None:
    _, (owner, clinician, leaver) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN
    )
    _, (stranger,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(stranger) as foreign:
        foreign_id = await user_id(foreign)
    async with api.signed_in(leaver) as client:
        leaver_id = await user_id(client)
    await sql(api, "UPDATE users SET disabled_at = now() WHERE email = $1", leaver)
    async with api.signed_in(owner) as client, api.signed_in(clinician) as colleague:
        colleague_id = await user_id(colleague)
        person = (await create_client(client))["id"]
        for refused in (foreign_id, leaver_id, "00000000-0000-4000-8000-000000000000"):
            answer = await client.post(
                "/appointments", json=booking(person, "09:00", "10:00", clinician_id=refused)
            )
            assert fields_named(answer) == {"body.clinician_id"}, refused
            assert error_of(answer)["code"] == "invalid_clinician"
        for_colleague = await book(
            client, booking(person, "09:00", "10:00", clinician_id=colleague_id)
        )
        shown = (await colleague.get("/auth/me")).json()["user"]["display_name"]
        assert for_colleague["clinician"] == {"id": colleague_id, "display_name": shown}
        path = f"/appointments/{for_colleague['id']}"
        handed = await client.patch(path, json={"clinician_id": foreign_id})
        assert fields_named(handed) == {"body.clinician_id"}
        assert (await client.get(path)).json()["clinician_id"] == colleague_id
    rows = await sql(api, "SELECT count(*) AS n FROM appointments")
    assert rows[0]["n"] == 1


async def test_a_drag_reschedules_with_the_same_checks(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(owner) as client, api.signed_in(clinician) as colleague:
        them = await user_id(colleague)
        ada = (await create_client(client))["id"]
        grace = (await create_client(client, first_name="Grace", last_name="Hopper"))["id"]
        mine = await book(client, booking(ada, "09:00", "10:00"))
        theirs = await book(client, booking(grace, "11:00", "12:00", clinician_id=them))
        path = f"/appointments/{mine['id']}"

        # Dragged onto the colleague's column at 11:30: their calendar is taken.
        onto_them = await client.patch(
            path, json={"starts_at": at("11:30"), "ends_at": at("12:30"), "clinician_id": them}
        )
        assert conflicts(onto_them) == [(theirs["id"], ["clinician"])]
        # Their column, free time: moved and handed over in one change.
        moved = await client.patch(
            path, json={"starts_at": at("13:00"), "ends_at": at("14:00"), "clinician_id": them}
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["clinician"]["id"] == them
        assert moved.json()["starts_at"] == at("13:00")
        # A room taken at that time refuses the room change, with no time change.
        await book(client, booking(grace, "13:30", "14:00", room="Room 9", allow_overlap=True))
        roomed = await client.patch(path, json={"room": "room 9"})
        assert [shares for _, shares in conflicts(roomed)] == [["room"]]
        cleared = await client.patch(path, json={"room": None})
        assert cleared.status_code == 200 and cleared.json()["room"] is None


async def test_calendar_filters_and_carries_names_with_the_disclosure_audited(
    api: ApiContext,
) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    await sql(api, "UPDATE users SET display_name = 'Dr. Example' WHERE email = $1", clinician)
    await sql(api, "UPDATE users SET display_name = '' WHERE email = $1", owner)
    async with api.signed_in(owner) as client, api.signed_in(clinician) as colleague:
        me, them = await user_id(client), await user_id(colleague)
        ada = (await create_client(client))["id"]
        grace = (await create_client(client, first_name="Grace", last_name="Hopper"))["id"]
        a = await book(client, booking(ada, "09:00", "10:00"))
        b = await book(client, booking(grace, "09:10", "10:00", clinician_id=them))
        c = await book(client, booking(grace, "11:00", "12:00"))

        async def calendar(**params: Any) -> list[dict[str, Any]]:
            answer = await client.get("/appointments", params={**WHOLE_DAY, **params})
            assert answer.status_code == 200, answer.text
            listed: list[dict[str, Any]] = answer.json()
            return listed

        everyone = await calendar()
        assert [x["id"] for x in everyone] == [a["id"], b["id"], c["id"]]
        assert everyone[0]["client"] == {"id": ada, "first_name": "Ada", "last_name": "Lovelace"}
        assert everyone[1]["client"]["first_name"] == "Grace"
        assert everyone[1]["clinician"] == {"id": them, "display_name": "Dr. Example"}
        assert everyone[0]["clinician"] == {"id": me, "display_name": owner}  # no display name
        assert [x["id"] for x in await calendar(clinician_id=them)] == [b["id"]]
        assert [x["id"] for x in await calendar(clinician_id=[me, them])] == [
            a["id"],
            b["id"],
            c["id"],
        ]
        assert [x["id"] for x in await calendar(client_id=grace)] == [b["id"], c["id"]]
        assert [x["id"] for x in await calendar(client_id=grace, clinician_id=me)] == [c["id"]]
        wrong = await client.get("/appointments", params={**WHOLE_DAY, "clinician_id": "x"})
        assert fields_named(wrong) == {"query.clinician_id.0"}

    rows = await sql(
        api,
        "SELECT action, resource_type, array_to_json(resource_ids)::text AS ids, "
        "details::text AS details FROM audit_events "
        "WHERE action = 'appointment.list' "
        "OR (action = 'client.names' AND details->>'via' = 'appointment.list') ORDER BY id",
    )
    first_list, first_names = rows[0], rows[1]
    assert (first_list["action"], first_names["action"]) == ("appointment.list", "client.names")
    assert first_names["resource_type"] == "client"
    assert json.loads(first_names["ids"]) == [ada, grace]  # each client once
    assert event_details(first_names["details"]) == {
        "via": "appointment.list",
        "fields": ["first_name", "last_name"],
    }
    filtered = [event_details(r["details"]) for r in rows if r["action"] == "appointment.list"]
    assert isinstance(filtered[1], dict) and isinstance(filtered[3], dict)
    assert filtered[1]["clinician_ids"] == [them] and "client_id" not in filtered[1]
    assert filtered[3]["client_id"] == grace
    assert all("Lovelace" not in (r["details"] or "") for r in rows)


async def test_a_token_without_clients_read_gets_the_calendar_without_names(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        ada = (await create_client(client))["id"]
        booked = await book(client, booking(ada, "09:00", "10:00"))
    calendar_only = ("appointments:read", "appointments:write")
    async with api.with_token(owner, calendar_only) as (token, token_id):
        listed = await token.get("/appointments", params=WHOLE_DAY)
        assert listed.status_code == 200, listed.text
        assert [x["client"] for x in listed.json()] == [None]
        assert "Lovelace" not in listed.text and listed.json()[0]["client_id"] == ada
        one = await token.get(f"/appointments/{booked['id']}")
        assert one.json()["client"] is None and one.json()["clinician"]["display_name"]
        created = await token.post("/appointments", json=booking(ada, "11:00", "12:00"))
        assert created.status_code == 201 and "Lovelace" not in created.text
    async with api.with_token(owner, (*calendar_only, "clients:read")) as (full, full_id):
        named = await full.get("/appointments", params=WHOLE_DAY)
        assert {x["client"]["last_name"] for x in named.json()} == {"Lovelace"}
    names = await sql(
        api,
        "SELECT actor_token_id::text AS token FROM audit_events "
        "WHERE action = 'client.names' AND actor_token_id IS NOT NULL",
    )
    assert [r["token"] for r in names] == [full_id]
    assert token_id != full_id


async def series(client: httpx.AsyncClient, body: dict[str, Any]) -> httpx.Response:
    return await client.post("/appointments/series", json=body)


async def test_a_weekly_series_keeps_the_local_time_across_daylight_saving(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        assert (await client.patch("/workspace", json={"time_zone": "Europe/Berlin"})).is_success
        ada = (await create_client(client))["id"]
        # Wednesdays 09:00 in Berlin (08:00Z in winter); summer time starts on 2030-03-31.
        body = {
            "client_id": ada,
            "starts_at": "2030-03-20T09:00:00+01:00",
            "ends_at": "2030-03-20T09:50:00+01:00",
            "room": "Room 1",
            "recurrence": {"count": 3},
        }
        created = await series(client, body)
        assert created.status_code == 201, created.text
        items = created.json()["items"]
        assert [x["starts_at"] for x in items] == [
            "2030-03-20T08:00:00Z",
            "2030-03-27T08:00:00Z",
            "2030-04-03T07:00:00Z",
        ]
        assert [x["ends_at"] for x in items] == [
            "2030-03-20T08:50:00Z",
            "2030-03-27T08:50:00Z",
            "2030-04-03T07:50:00Z",
        ]
        assert {x["series_id"] for x in items} == {created.json()["series_id"]}
        assert {x["room"] for x in items} == {"Room 1"}
        assert items[0]["client"]["first_name"] == "Ada"

        fortnightly = await series(
            client,
            body
            | {
                "starts_at": "2030-03-21T09:00:00+01:00",
                "ends_at": "2030-03-21T09:50:00+01:00",
                "recurrence": {"every_weeks": 2, "until": "2030-04-18"},
            },
        )
        assert [x["starts_at"][:10] for x in fortnightly.json()["items"]] == [
            "2030-03-21",
            "2030-04-04",
            "2030-04-18",
        ]
    events = await sql(
        api,
        "SELECT array_length(resource_ids, 1) AS n, details::text AS details "
        "FROM audit_events WHERE action = 'appointment.create' ORDER BY id",
    )
    assert [e["n"] for e in events] == [3, 3]
    details = event_details(events[0]["details"])
    assert isinstance(details, dict)
    assert details["series_id"] == created.json()["series_id"]
    assert (details["count"], details["every_weeks"]) == (3, 1)


async def test_a_series_with_a_conflict_books_nothing_and_names_the_occurrence(
    api: ApiContext,
) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        ada = (await create_client(client))["id"]
        grace = (await create_client(client, first_name="Grace", last_name="Hopper"))["id"]
        taken = await book(client, booking(grace, "09:30", "10:30", day="2030-03-18"))
        body = {**booking(ada, "09:00", "10:00"), "recurrence": {"count": 4}}
        refused = await series(client, body)
        assert conflicts(refused) == [(taken["id"], ["clinician"])]
        conflict = error_of(refused)["details"]["conflicts"][0]
        assert conflict["occurrence_starts_at"] == "2030-03-18T09:00:00+00:00"
        assert "occurrences of the series overlap" in error_of(refused)["message"]
        count = await sql(api, "SELECT count(*) AS n FROM appointments")
        assert count[0]["n"] == 1  # none of the four was booked
        forced = await series(client, body | {"allow_overlap": True})
        assert forced.status_code == 201 and len(forced.json()["items"]) == 4

        refusals: dict[str, dict[str, Any]] = {
            "body.recurrence": {"count": 2, "until": "2030-04-01"},
            "body.recurrence.count": {"count": 101},
            "body.recurrence.every_weeks": {"every_weeks": 0, "count": 2},
        }
        for field, recurrence in refusals.items():
            answer = await series(client, body | {"recurrence": recurrence})
            assert field in fields_named(answer), (field, answer.text)
        none = await series(client, body | {"recurrence": {}})
        assert fields_named(none) == {"body.recurrence"}
        too_many = await series(client, body | {"recurrence": {"until": "2032-12-31"}})
        assert fields_named(too_many) == {"body.recurrence.until"}
        assert "at most 100 occurrences" in error_of(too_many)["message"]
        before = await series(client, body | {"recurrence": {"until": "2030-03-03"}})
        assert fields_named(before) == {"body.recurrence.until"}
        assert "until is before the first occurrence" in error_of(before)["message"]


async def test_cancel_this_and_following_occurrences(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        ada = (await create_client(client))["id"]
        single = await book(client, booking(ada, "15:00", "16:00"))
        body = {**booking(ada, "09:00", "10:00"), "recurrence": {"count": 4}}
        items = (await series(client, body)).json()["items"]
        attended = await client.patch(
            f"/appointments/{items[3]['id']}", json={"status": "attended"}
        )
        assert attended.status_code == 200
        cancelled = await client.post(f"/appointments/{items[1]['id']}/cancel-following")
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json() == {"cancelled_ids": [items[1]["id"], items[2]["id"]]}
        statuses = [
            (await client.get(f"/appointments/{item['id']}")).json()["status"] for item in items
        ]
        assert statuses == ["scheduled", "cancelled", "cancelled", "attended"]
        alone = await client.post(f"/appointments/{single['id']}/cancel-following")
        assert alone.status_code == 422 and error_of(alone)["code"] == "not_in_series"


async def test_a_series_at_the_edge_of_time_is_a_422(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        assert (await client.patch("/workspace", json={"time_zone": "Pacific/Honolulu"})).is_success
        ada = (await create_client(client))["id"]
        for starts_at in ("9999-12-20T09:00:00Z", "0001-01-01T01:00:00Z"):
            body = {
                "client_id": ada,
                "starts_at": starts_at,
                "ends_at": starts_at.replace(":00:00Z", ":50:00Z"),
                "recurrence": {"count": 3},
            }
            answer = await series(client, body)
            assert fields_named(answer) == {"body.recurrence"}, (starts_at, answer.text)


async def test_a_client_name_that_cannot_be_opened_leaves_the_appointment_out(
    api: ApiContext,
) -> None:
    """One tampered name does not take the calendar down; the rest is drawn and the
    appointment left out is audited (`phi.decryption_failed`, naming the appointment)."""
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        ada = (await create_client(client))["id"]
        grace = (await create_client(client, first_name="Grace", last_name="Hopper"))["id"]
        hidden = await book(client, booking(ada, "09:00", "10:00"))
        shown = await book(client, booking(grace, "11:00", "12:00"))
        await sql(
            api,
            "UPDATE clients SET last_name = set_byte(last_name, 25, "
            "get_byte(last_name, 25) # 1) WHERE id = $1",
            uuid.UUID(ada),
        )
        listed = await client.get("/appointments", params=WHOLE_DAY)
        assert listed.status_code == 200, listed.text
        assert [x["id"] for x in listed.json()] == [shown["id"]]
        broken = await client.get(f"/appointments/{hidden['id']}")
        assert broken.status_code == 500
        assert error_of(broken)["code"] == "phi_decryption_failed"
    async with api.with_token(owner, ("appointments:read",)) as (token, _):
        unnamed = await token.get("/appointments", params=WHOLE_DAY)
        assert [x["id"] for x in unnamed.json()] == [hidden["id"], shown["id"]]
    events = await sql(
        api, "SELECT resource_ids FROM audit_events WHERE action = 'phi.decryption_failed'"
    )
    assert any(uuid.UUID(hidden["id"]) in event["resource_ids"] for event in events)


async def test_a_clinician_lists_the_practices_calendars(api: ApiContext) -> None:
    """`GET /users` is the owner's; the calendar's clinician filter needs the list for every
    user: `GET /clinicians` answers ids, names and whether each is active, nothing more,
    and only the caller's practice."""
    _, (owner, clinician, leaving) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN
    )
    _, (stranger,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(owner) as boss:
        ids = {email: await user_id(c) for email, c in [(owner, boss)]}
        async with api.signed_in(leaving) as gone:
            ids[leaving] = await user_id(gone)
        async with api.signed_in(clinician) as me:
            ids[clinician] = await user_id(me)
        assert (await boss.post(f"/users/{ids[leaving]}/disable")).status_code == 200
    async with api.signed_in(clinician) as me:
        assert (await me.get("/users")).status_code == 403
        response = await me.get("/clinicians")
        assert response.status_code == 200, response.text
        listed = response.json()
    assert sorted(row["id"] for row in listed) == sorted(ids.values())
    assert all(set(row) == {"id", "display_name", "active"} for row in listed)
    by_id = {row["id"]: row for row in listed}
    assert by_id[ids[leaving]]["active"] is False
    name = clinician.split("@")[0]  # the default display name
    assert by_id[ids[clinician]] == {"id": ids[clinician], "display_name": name, "active": True}
    async with api.signed_in(stranger) as other:
        theirs = (await other.get("/clinicians")).json()
    assert [row["display_name"] for row in theirs] == [stranger.split("@")[0]]
