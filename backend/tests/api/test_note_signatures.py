"""Signed notes over HTTP (issue 24): the author, signing with an attestation, the content
hash sealed into the audit trail, trainees' notes co-signed by a supervisor, amendments with
a reason shown as addenda, late entries, and the lists a clinician works through."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

import httpx

from carevault.auth.models import Role
from carevault.workspaces.time import today_in
from tests.support.audit_trail import superuser_script, verify
from tests.support.cli import carevault
from tests.support.db import sql
from tests.support.http import ApiContext, error_of, fields_named
from tests.support.notes import create_note, practice

SIGN = {"attestation_version": 1}


async def user_id(client: httpx.AsyncClient) -> str:
    me: str = (await client.get("/auth/me")).json()["user"]["id"]
    return me


async def sign(client: httpx.AsyncClient, note: dict[str, Any]) -> httpx.Response:
    return await client.post(
        f"/sessions/{note['id']}/finalize", json={"version": note["version"], **SIGN}
    )


def canonical_hash(note: dict[str, Any]) -> str:
    """The canonical content docs/reference/api-resources.md describes, from a note as the API
    answers it."""
    document = {"format": 1, "note_id": note["id"], "client_id": note["client_id"]}
    for name in (
        "version",
        "session_date",
        "duration_minutes",
        "subjective",
        "objective",
        "assessment",
        "plan",
    ):
        document[name] = note[name]
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_signing_records_the_signature_and_seals_the_content_hash(
    audit_api: ApiContext,
) -> None:
    api = audit_api
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        me = await user_id(client)
        statements = (await client.get("/sessions/attestations")).json()
        assert statements["signature"]["version"] == 1 and statements["signature"]["text"]
        assert statements["cosignature"]["version"] == 1
        note = await create_note(client, place.client_ids[0], plan="Example plan, Zoë.")
        assert note["author_id"] == me and note["signed_by"] is None
        unattested = await client.post(
            f"/sessions/{note['id']}/finalize", json={"version": note["version"]}
        )
        assert unattested.status_code == 422
        assert fields_named(unattested) == {"body.attestation_version"}
        signed = await sign(client, note)
        assert signed.status_code == 200, signed.text
        body = signed.json()
    assert (body["status"], body["signed_by"], body["attestation_version"]) == (
        "finalized",
        me,
        1,
    )
    assert body["signed_at"] == body["finalized_at"] and body["signed_at"] is not None
    assert body["attestation"] == statements["signature"]["text"]
    assert (body["cosign_status"], body["addenda"]) == (None, [])
    events = await sql(
        api,
        "SELECT id, details::text AS details FROM audit_events WHERE action = 'session.finalize'",
    )
    (event,) = events
    details = json.loads(event["details"])
    assert details["content_sha256"] == canonical_hash(body)
    assert "Zoë" not in event["details"]  # the hash, never the content

    # The audit trail seals the event, hash included: it verifies, and an altered hash
    # does not.
    assert (await carevault(api, "audit", "seal"))[0] == 0
    code, output = await verify(api)
    assert code == 0, output
    await superuser_script(
        api,
        "SET session_replication_role = replica;"
        "UPDATE audit_events SET details = jsonb_set(details, '{content_sha256}', "
        f"to_jsonb(repeat('0', 64))) WHERE id = {event['id']};",
    )
    code, output = await verify(api)
    assert code == 1 and f"event {event['id']} altered after sealing" in output


async def test_only_the_author_signs(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, Role.OWNER)
    async with api.signed_in(place.emails[0]) as author:
        note = await create_note(author, place.client_ids[0])
    async with api.signed_in(place.emails[1]) as owner:
        refused = await sign(owner, note)
        assert refused.status_code == 403 and error_of(refused)["code"] == "not_the_author"
        assert (await owner.get(f"/sessions/{note['id']}")).json()["status"] == "draft"


async def test_a_trainees_note_is_cosigned_by_the_supervisor(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN, Role.CLINICIAN)
    owner_email, supervisor_email, trainee_email, bystander_email = place.emails
    async with api.signed_in(supervisor_email) as supervisor:
        supervisor_id = await user_id(supervisor)
    async with api.signed_in(trainee_email) as trainee:
        trainee_id = await user_id(trainee)
    async with api.signed_in(owner_email) as owner:
        refused = await owner.patch(f"/users/{trainee_id}", json={"supervisor_id": trainee_id})
        assert refused.status_code == 422 and fields_named(refused) == {"body.supervisor_id"}
        set_up = await owner.patch(
            f"/users/{trainee_id}",
            json={"requires_cosign": True, "supervisor_id": supervisor_id},
        )
        assert set_up.status_code == 200, set_up.text
        assert (set_up.json()["requires_cosign"], set_up.json()["supervisor_id"]) == (
            True,
            supervisor_id,
        )
    async with api.signed_in(bystander_email) as bystander:
        not_owner = await bystander.patch(f"/users/{trainee_id}", json={"requires_cosign": False})
        assert not_owner.status_code == 403

    async with api.signed_in(trainee_email) as trainee:
        me = (await trainee.get("/auth/me")).json()["user"]
        assert (me["requires_cosign"], me["supervisor_id"]) == (True, supervisor_id)
        note = await create_note(trainee, place.client_ids[0])
        worklist = await trainee.get(
            "/sessions", params={"status": "draft", "author_id": trainee_id}
        )
        assert [n["id"] for n in worklist.json()["items"]] == [note["id"]]
        signed = (await sign(trainee, note)).json()
        assert (signed["status"], signed["cosign_status"]) == ("finalized", "awaiting")
        cosign_body = {"version": signed["version"], **SIGN}
        by_author = await trainee.post(f"/sessions/{note['id']}/cosign", json=cosign_body)
        assert by_author.status_code == 403
        assert error_of(by_author)["code"] == "cosign_by_author"
        assert (await trainee.get("/sessions/awaiting-cosign")).json()["total"] == 0
        still_draft = await trainee.get(
            "/sessions", params={"status": "draft", "author_id": trainee_id}
        )
        assert still_draft.json()["total"] == 0

    async with api.signed_in(bystander_email) as bystander:
        refused = await bystander.post(f"/sessions/{note['id']}/cosign", json=cosign_body)
        assert refused.status_code == 403 and error_of(refused)["code"] == "not_a_supervisor"
        assert (await bystander.get("/sessions/awaiting-cosign")).json()["total"] == 0

    async with api.signed_in(supervisor_email) as supervisor:
        awaiting = (await supervisor.get("/sessions/awaiting-cosign")).json()
        assert [n["id"] for n in awaiting["items"]] == [note["id"]]
        cosigned = await supervisor.post(f"/sessions/{note['id']}/cosign", json=cosign_body)
        assert cosigned.status_code == 200, cosigned.text
        body = cosigned.json()
        assert (body["cosign_status"], body["cosigned_by"]) == ("cosigned", supervisor_id)
        assert body["cosigned_at"] is not None and body["cosign_attestation_version"] == 1
        assert body["signed_by"] == trainee_id and body["version"] == signed["version"] + 1
        again = await supervisor.post(
            f"/sessions/{note['id']}/cosign", json={"version": body["version"], **SIGN}
        )
        assert again.status_code == 409 and error_of(again)["code"] == "not_awaiting_cosign"
        assert (await supervisor.get("/sessions/awaiting-cosign")).json()["total"] == 0
    rows = await sql(
        api,
        "SELECT details::text AS details FROM audit_events WHERE action = 'session.cosign'",
    )
    assert json.loads(rows[0]["details"])["content_sha256"] == canonical_hash(body)


async def test_an_amendment_without_a_reason_is_422_and_addenda_show_author_time_reason(
    api: ApiContext,
) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        me = await user_id(client)
        note = await create_note(client, place.client_ids[0], plan="Example plan: weekly.")
        path = f"/sessions/{note['id']}"
        with_reason = await client.patch(
            path, json={"version": 1, "plan": "Example.", "reason": "Example reason."}
        )
        assert with_reason.status_code == 409 and error_of(with_reason)["code"] == "not_signed"
        signed = (await sign(client, note)).json()
        missing = await client.patch(path, json={"version": signed["version"], "plan": "New."})
        assert missing.status_code == 422
        assert error_of(missing)["code"] == "reason_required"
        assert fields_named(missing) == {"body.reason"}
        blank = await client.patch(
            path, json={"version": signed["version"], "plan": "New.", "reason": ""}
        )
        assert blank.status_code == 422 and fields_named(blank) == {"body.reason"}
        amended = await client.patch(
            path,
            json={
                "version": signed["version"],
                "plan": "Example plan: fortnightly.",
                "reason": "Example reason: frequency misheard.",
            },
        )
        assert amended.status_code == 200, amended.text
        (addendum,) = amended.json()["addenda"]
        assert addendum["version"] == amended.json()["version"]
        assert (addendum["amended_by"], addendum["reason"]) == (
            me,
            "Example reason: frequency misheard.",
        )
        assert addendum["amended_at"] is not None
        read = (await client.get(path)).json()
        assert read["addenda"] == [addendum] and read["plan"] == "Example plan: fortnightly."
        listed = (await client.get("/sessions")).json()["items"]
        assert listed[0]["addenda"] == [addendum]
        (kept,) = (await client.get(f"{path}/versions")).json()["items"]
        assert (kept["plan"], kept["reason"]) == (
            "Example plan: weekly.",
            "Example reason: frequency misheard.",
        )
    stored = await sql(api, "SELECT reason FROM session_versions")
    assert b"misheard" not in bytes(stored[0]["reason"])  # encrypted at rest


async def test_late_entries_follow_the_practices_setting(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    today = today_in("UTC")  # the practice's zone
    async with api.signed_in(place.emails[0]) as owner:
        assert (await owner.get("/auth/me")).json()["workspace"]["late_entry_hours"] == 72
        for bad in (0, 8761, "72"):
            refused = await owner.patch("/workspace", json={"late_entry_hours": bad})
            assert refused.status_code == 422, bad
        four_days = (today - timedelta(days=4)).isoformat()
        late = await create_note(owner, place.client_ids[0], session_date=four_days)
        assert (await sign(owner, late)).json()["late_entry"] is True
        changed = await owner.patch("/workspace", json={"late_entry_hours": 24 * 30})
        assert changed.status_code == 200 and changed.json()["late_entry_hours"] == 720
        timely = await create_note(owner, place.client_ids[0], session_date=four_days)
        assert (await sign(owner, timely)).json()["late_entry"] is False
        # The flag is decided when the note is signed: the setting does not rewrite it.
        assert (await owner.get(f"/sessions/{late['id']}")).json()["late_entry"] is True
