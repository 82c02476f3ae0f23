"""Conditional requests (issue 25): every single-record read answers with an `ETag`; a
change with a stale `If-Match` is 412 and changes nothing; `If-None-Match` with the
current tag is a 304 without a body or an audit event; every change, signing included,
gives a new tag; the note's numeric `version` keeps working beside it."""

from __future__ import annotations

from carevault.auth.models import Role
from tests.support.care_teams import care_team_chart
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.notes import create_note, practice


async def _events(api: ApiContext, action: str) -> int:
    rows = await sql(api, "SELECT count(*) AS n FROM audit_events WHERE action = $1", action)
    return int(rows[0]["n"])


async def test_a_client_read_is_tagged_and_a_stale_if_match_is_412(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    client_id = place.client_ids[0]
    async with api.signed_in(place.emails[0]) as http:
        first = await http.get(f"/clients/{client_id}")
        tag = first.headers["ETag"]
        assert tag.startswith('"') and tag.endswith('"')
        assert (await http.get(f"/clients/{client_id}")).headers["ETag"] == tag
        changed = await http.patch(
            f"/clients/{client_id}", json={"notes": "first change"}, headers={"If-Match": tag}
        )
        assert changed.status_code == 200, changed.text
        new_tag = changed.headers["ETag"]
        assert new_tag != tag
        assert (await http.get(f"/clients/{client_id}")).headers["ETag"] == new_tag
        stale = await http.patch(
            f"/clients/{client_id}", json={"notes": "lost update"}, headers={"If-Match": tag}
        )
        assert stale.status_code == 412
        assert error_of(stale)["code"] == "precondition_failed"
        assert error_of(stale)["details"]["current_etag"] == new_tag
        stale_archive = await http.delete(f"/clients/{client_id}", headers={"If-Match": tag})
        assert stale_archive.status_code == 412
        # Without If-Match a change goes through, as before (the header is optional).
        assert (await http.patch(f"/clients/{client_id}", json={"notes": "x"})).status_code == 200
        weak = await http.patch(
            f"/clients/{client_id}", json={"notes": "y"}, headers={"If-Match": f"W/{new_tag}"}
        )
        assert weak.status_code == 412  # If-Match compares strongly
        current = (await http.get(f"/clients/{client_id}")).headers["ETag"]
        archived = await http.delete(f"/clients/{client_id}", headers={"If-Match": current})
        assert archived.status_code == 204
        after = await http.get(f"/clients/{client_id}")
    assert after.json()["archived_at"] is not None
    assert after.headers["ETag"] != current  # archiving is a change too
    assert after.json()["notes"] == "x"  # neither stale change was written


async def test_if_none_match_is_a_304_without_body_or_audit_event(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    client_id = place.client_ids[0]
    async with api.signed_in(place.emails[0]) as http:
        tag = (await http.get(f"/clients/{client_id}")).headers["ETag"]
        reads = await _events(api, "client.read")
        unchanged = await http.get(f"/clients/{client_id}", headers={"If-None-Match": tag})
        assert unchanged.status_code == 304
        assert unchanged.content == b""
        assert unchanged.headers["ETag"] == tag
        assert await _events(api, "client.read") == reads  # nothing disclosed, nothing audited
        listed = await http.get(
            f"/clients/{client_id}", headers={"If-None-Match": f'"other", W/{tag}'}
        )
        assert listed.status_code == 304  # a list, and weak comparison
        other = await http.get(f"/clients/{client_id}", headers={"If-None-Match": '"stale"'})
        assert other.status_code == 200 and other.json()["id"] == client_id
        assert await _events(api, "client.read") == reads + 1


async def test_appointments_are_tagged_and_guarded(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    path = f"/appointments/{place.appointment_id}"
    async with api.signed_in(place.emails[0]) as http:
        tag = (await http.get(path)).headers["ETag"]
        assert (await http.get(path, headers={"If-None-Match": tag})).status_code == 304
        moved = await http.patch(path, json={"room": "Room 9"}, headers={"If-Match": tag})
        assert moved.status_code == 200, moved.text
        assert moved.headers["ETag"] != tag
        stale = await http.patch(path, json={"room": "Room 1"}, headers={"If-Match": tag})
        assert stale.status_code == 412
        assert (await http.delete(path, headers={"If-Match": tag})).status_code == 412
        cancel = await http.post(f"{path}/cancel-following", headers={"If-Match": tag})
        assert cancel.status_code == 412
        deleted = await http.delete(path, headers={"If-Match": moved.headers["ETag"]})
        assert deleted.status_code == 204


async def test_every_note_change_signing_included_gives_a_new_tag(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as http:
        note = await create_note(http, place.client_ids[0])
        path = f"/sessions/{note['id']}"
        tags = [(await http.get(path)).headers["ETag"]]
        saved = await http.patch(
            path, json={"version": 1, "plan": "Walk daily."}, headers={"If-Match": tags[-1]}
        )
        assert saved.status_code == 200, saved.text
        tags.append(saved.headers["ETag"])
        assert (await http.get(path)).headers["ETag"] == tags[-1]
        # The numeric version still guards on its own; a stale tag with a current version too.
        stale = await http.patch(
            path, json={"version": 2, "plan": "Run."}, headers={"If-Match": tags[0]}
        )
        assert stale.status_code == 412
        conflict = await http.patch(path, json={"version": 1, "plan": "Run."})
        assert conflict.status_code == 409
        signed = await http.post(
            f"{path}/finalize",
            json={"version": 2, "attestation_version": 1},
            headers={"If-Match": tags[-1]},
        )
        assert signed.status_code == 200, signed.text
        tags.append(signed.headers["ETag"])
        amended = await http.patch(
            path,
            json={"version": 3, "plan": "Swim.", "reason": "Corrected plan."},
            headers={"If-Match": tags[-1]},
        )
        assert amended.status_code == 200, amended.text
        tags.append(amended.headers["ETag"])
        assert (await http.get(path)).headers["ETag"] == tags[-1]
        deleted = await http.delete(path, headers={"If-Match": tags[-1]})
        assert deleted.status_code == 204
        gone = await http.get(path, headers={"If-None-Match": tags[-1]})
        assert gone.status_code == 404  # a deleted note is not "not modified"
        restored = await http.post(f"{path}/restore", headers={"If-Match": tags[-1]})
        assert restored.status_code == 412  # deleting changed it
        restored = await http.post(f"{path}/restore")
        tags.append(restored.headers["ETag"])
    assert len(set(tags)) == len(tags)


async def test_a_tag_tells_nothing_outside_the_care_team(api: ApiContext) -> None:
    place = await care_team_chart(api)
    async with api.signed_in(place.member) as http:
        tag = (await http.get(f"/clients/{place.client_id}")).headers["ETag"]
    async with api.signed_in(place.outsider) as http:
        probe = await http.get(f"/clients/{place.client_id}", headers={"If-None-Match": tag})
        assert probe.status_code == 404
        change = await http.patch(
            f"/clients/{place.client_id}", json={"notes": "x"}, headers={"If-Match": '"nope"'}
        )
        assert change.status_code == 404


async def test_a_create_and_its_idempotent_replay_carry_the_records_tag(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    key = {"Idempotency-Key": "etag-create-1"}
    async with api.signed_in(place.emails[0]) as http:
        made = await http.post("/clients", json={"first_name": "A", "last_name": "B"}, headers=key)
        assert made.status_code == 201
        path = f"/clients/{made.json()['id']}"
        assert (await http.get(path)).headers["ETag"] == made.headers["ETag"]
        replay = await http.post(
            "/clients", json={"first_name": "A", "last_name": "B"}, headers=key
        )
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert replay.headers["ETag"] == made.headers["ETag"]
        note = await http.post(
            "/sessions",
            json={"client_id": place.client_ids[0], "session_date": "2025-01-15"},
        )
        note_tag = (await http.get(f"/sessions/{note.json()['id']}")).headers["ETag"]
        assert note.headers["ETag"] == note_tag
        # The replayed answer shows the first version: a change since makes its tag stale.
        await http.patch(path, json={"notes": "changed"})
        again = await http.post("/clients", json={"first_name": "A", "last_name": "B"}, headers=key)
        stale = await http.patch(
            path, json={"notes": "x"}, headers={"If-Match": again.headers["ETag"]}
        )
        assert stale.status_code == 412
