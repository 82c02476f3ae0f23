"""Each practice has a time zone; "today" and "in the future" are decided there (issue 14).

Honolulu (UTC-10) and Kiritimati (UTC+14) are always exactly one calendar day apart, so
Honolulu's tomorrow is Kiritimati's today: a date the old "today somewhere on Earth" rule
accepted everywhere, and that a Honolulu practice must now refuse."""

from __future__ import annotations

from datetime import timedelta

from carevault.auth.models import Role
from carevault.workspaces.time import today_in
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.notes import note_body, practice

HONOLULU = "Pacific/Honolulu"
KIRITIMATI = "Pacific/Kiritimati"


async def test_owners_set_the_time_zone_and_me_reports_it(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as owner, api.signed_in(place.emails[1]) as other:
        assert (await owner.get("/auth/me")).json()["workspace"]["time_zone"] == "UTC"
        changed = await owner.patch("/workspace", json={"time_zone": HONOLULU})
        assert changed.status_code == 200 and changed.json()["time_zone"] == HONOLULU
        assert (await other.get("/auth/me")).json()["workspace"]["time_zone"] == HONOLULU
        unknown = await owner.patch("/workspace", json={"time_zone": "Mars/Olympus_Mons"})
        assert unknown.status_code == 422
        assert error_of(unknown)["details"][0]["field"] == "body.time_zone"
        assert (await other.patch("/workspace", json={"time_zone": KIRITIMATI})).status_code == 403
    events = await sql(api, "SELECT details FROM audit_events WHERE action = 'workspace.update'")
    assert len(events) == 1


async def test_session_dates_after_the_practice_today_are_refused(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    client_id = place.client_ids[0]
    async with api.signed_in(place.emails[0]) as owner:
        await owner.patch("/workspace", json={"time_zone": HONOLULU})
        today = today_in(HONOLULU)
        tomorrow = (today + timedelta(days=1)).isoformat()
        refused = await owner.post("/sessions", json=note_body(client_id, session_date=tomorrow))
        assert refused.status_code == 422
        assert error_of(refused)["details"][0]["field"] == "body.session_date"
        assert today.isoformat() in error_of(refused)["message"]
        created = await owner.post(
            "/sessions", json=note_body(client_id, session_date=today.isoformat())
        )
        assert created.status_code == 201
        moved = await owner.patch(
            f"/sessions/{created.json()['id']}", json={"version": 1, "session_date": tomorrow}
        )
        assert moved.status_code == 422

        await owner.patch("/workspace", json={"time_zone": KIRITIMATI})
        # The same date is today in Kiritimati.
        accepted = await owner.post("/sessions", json=note_body(client_id, session_date=tomorrow))
        assert accepted.status_code == 201


async def test_dates_of_birth_follow_the_practice_today_too(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with api.signed_in(place.emails[0]) as owner:
        await owner.patch("/workspace", json={"time_zone": HONOLULU})
        tomorrow = (today_in(HONOLULU) + timedelta(days=1)).isoformat()
        body = {"first_name": "Robin", "last_name": "Example", "date_of_birth": tomorrow}
        refused = await owner.post("/clients", json=body)
        assert refused.status_code == 422
        assert error_of(refused)["details"][0]["field"] == "body.date_of_birth"
        edit = await owner.patch(
            f"/clients/{place.client_ids[0]}", json={"date_of_birth": tomorrow}
        )
        assert edit.status_code == 422
