"""Session notes (SOAP) over HTTP: drafts, autosave conflicts, finalize, amendments and their
history, soft delete, workspace isolation and the audit trail."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from carevault.auth.models import Role
from carevault.crypto import registry
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, error_of, event_details, fields_named, running_api
from tests.support.notes import create_note, note_body, practice
from tests.support.statements import watching_statements


async def test_draft_is_autosaved_finalized_and_amended_with_history(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        user_id = (await client.get("/auth/me")).json()["user"]["id"]
        note = await create_note(
            client,
            place.client_ids[0],
            appointment_id=place.appointment_id,
            objective="Example: on time, engaged.",
        )
        assert note["status"] == "draft" and note["version"] == 1
        assert note["client_id"] == place.client_ids[0]
        assert note["appointment_id"] == place.appointment_id
        assert note["finalized_at"] is None and note["deleted_at"] is None
        note_id = note["id"]
        assert (await client.get(f"/sessions/{note_id}")).json() == note
        by_appointment = await client.get(
            "/sessions", params={"appointment_id": place.appointment_id}
        )
        assert [n["id"] for n in by_appointment.json()["items"]] == [note_id]

        saved = await client.patch(
            f"/sessions/{note_id}", json={"version": 1, "plan": "Example plan: weekly."}
        )
        assert saved.status_code == 200, saved.text
        draft = saved.json()
        assert draft["version"] == 2 and draft["plan"] == "Example plan: weekly."
        assert draft["subjective"] == note["subjective"]  # untouched fields are kept
        assert draft["objective"] == note["objective"]

        other_tab = await client.patch(
            f"/sessions/{note_id}", json={"version": 1, "plan": "Example from another tab."}
        )
        assert other_tab.status_code == 409
        assert error_of(other_tab)["code"] == "version_conflict"
        assert error_of(other_tab)["details"] == {"current_version": 2}
        stale_finalize = await client.post(
            f"/sessions/{note_id}/finalize", json={"version": 1, "attestation_version": 1}
        )
        assert stale_finalize.status_code == 409
        assert error_of(stale_finalize)["details"] == {"current_version": 2}

        finalized = await client.post(
            f"/sessions/{note_id}/finalize", json={"version": 2, "attestation_version": 1}
        )
        assert finalized.status_code == 200, finalized.text
        assert finalized.json()["status"] == "finalized" and finalized.json()["version"] == 3
        assert finalized.json()["finalized_at"] is not None
        again = await client.post(
            f"/sessions/{note_id}/finalize", json={"version": 3, "attestation_version": 1}
        )
        assert again.status_code == 409 and error_of(again)["code"] == "already_finalized"

        amended = await client.patch(
            f"/sessions/{note_id}",
            json={"version": 3, "assessment": "Example: amended.", "reason": "Example reason."},
        )
        assert amended.status_code == 200, amended.text
        assert amended.json()["version"] == 4 and amended.json()["status"] == "finalized"
        assert amended.json()["assessment"] == "Example: amended."
        assert amended.json()["plan"] == "Example plan: weekly."
        stale_amend = await client.patch(
            f"/sessions/{note_id}", json={"version": 3, "plan": "Example: lost update."}
        )
        assert stale_amend.status_code == 409
        assert error_of(stale_amend)["details"] == {"current_version": 4}
        moved = await client.patch(
            f"/sessions/{note_id}",
            json={"version": 4, "session_date": "2025-01-14", "reason": "Example reason."},
        )
        assert fields_named(moved) == {"body.session_date"}
        assert error_of(moved)["code"] == "finalized_field_locked"
        second = await client.patch(
            f"/sessions/{note_id}",
            json={"version": 4, "plan": None, "objective": "Example.", "reason": "Example reason."},
        )
        assert second.status_code == 200 and second.json()["plan"] is None

        versions = await client.get(f"/sessions/{note_id}/versions")
        assert versions.status_code == 200
        assert versions.json()["total"] == 2 and versions.json()["page"] == 1
        kept = versions.json()["items"]
        assert [v["version"] for v in kept] == [4, 3]
        assert kept[1]["assessment"] is None and kept[1]["plan"] == "Example plan: weekly."
        assert kept[0]["assessment"] == "Example: amended."
        assert kept[0]["objective"] == "Example: on time, engaged."
        assert {v["note_id"] for v in kept} == {note_id}
        assert {v["amended_by"] for v in kept} == {user_id}

    stored = await sql(api, "SELECT plan, objective FROM session_versions WHERE version = 3")
    assert b"Example" not in bytes(stored[0]["plan"])  # encrypted at rest


async def test_finalizing_an_empty_note_is_422(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        blank = await create_note(client, place.client_ids[0], subjective=" \n ", plan="")
        refused = await client.post(
            f"/sessions/{blank['id']}/finalize", json={"version": 1, "attestation_version": 1}
        )
        assert refused.status_code == 422 and error_of(refused)["code"] == "empty_note"
        assert "body.subjective" in fields_named(refused)
        assert (await client.get(f"/sessions/{blank['id']}")).json()["status"] == "draft"

        note = await create_note(client, place.client_ids[0])
        await client.post(
            f"/sessions/{note['id']}/finalize", json={"version": 1, "attestation_version": 1}
        )
        emptied = await client.patch(
            f"/sessions/{note['id']}",
            json={"version": 2, "subjective": "   ", "reason": "Example reason."},
        )
        assert emptied.status_code == 422 and error_of(emptied)["code"] == "empty_note"


async def test_invalid_input_is_422_naming_the_field(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, clients=2)
    client_id = place.client_ids[0]
    tomorrow_everywhere = (date.today() + timedelta(days=2)).isoformat()
    async with api.signed_in(place.emails[0]) as client:
        at_limit = await create_note(client, client_id, objective="x" * 5_000)
        assert len(at_limit["objective"]) == 5_000
        note_id = at_limit["id"]
        posts = {
            "body.subjective": note_body(client_id, subjective="x" * 5_001),
            "body.session_date": note_body(client_id, session_date=tomorrow_everywhere),
            "body.duration_minutes": note_body(client_id, duration_minutes=0),
            "body.mood": note_body(client_id, mood="unknown fields are refused"),
            "body.client_id": {"session_date": "2025-01-15"},
        }
        for field, body in posts.items():
            assert fields_named(await client.post("/sessions", json=body)) == {field}, field
        too_long = note_body(client_id, duration_minutes=601)
        too_long_answer = await client.post("/sessions", json=too_long)
        assert fields_named(too_long_answer) == {"body.duration_minutes"}
        surrogate = json.dumps(note_body(client_id)).replace("calmer", "\\ud800")
        lone = await client.post(
            "/sessions", content=surrogate, headers={"Content-Type": "application/json"}
        )
        assert fields_named(lone) == {"body.subjective"}
        wrong_client = note_body(place.client_ids[1], appointment_id=place.appointment_id)
        mismatch = await client.post("/sessions", json=wrong_client)
        assert fields_named(mismatch) == {"body.appointment_id"}

        patches: dict[str, dict[str, object]] = {
            "body.plan": {"version": 1, "plan": "x" * 5_001},
            "body.session_date": {"version": 1, "session_date": tomorrow_everywhere},
            "body.version": {"plan": "Example without a version"},
            "body.status": {"version": 1, "status": "finalized"},
            "body.duration_minutes": {"version": 1, "duration_minutes": None},
        }
        for field, change in patches.items():
            response = await client.patch(f"/sessions/{note_id}", json=change)
            assert fields_named(response) == {field}, field
        nothing = await client.patch(f"/sessions/{note_id}", json={"version": 1})
        assert nothing.status_code == 422 and error_of(nothing)["code"] == "no_changes"
        bad_id = await client.get("/sessions/not-a-uuid")
        assert bad_id.status_code == 422
        unchanged = (await client.get(f"/sessions/{note_id}")).json()
    assert unchanged["version"] == 1 and unchanged["status"] == "draft"


async def test_notes_of_another_workspace_are_404_on_every_route(api: ApiContext) -> None:
    ours = await practice(api, Role.OWNER)
    theirs = await practice(api, Role.OWNER)
    async with api.signed_in(ours.emails[0]) as client:
        note = await create_note(client, ours.client_ids[0], appointment_id=ours.appointment_id)
        await client.patch(f"/sessions/{note['id']}", json={"version": 1, "plan": "Example."})
    note_path = f"/sessions/{note['id']}"
    missing_path = f"/sessions/{uuid.uuid4()}"
    async with api.signed_in(theirs.emails[0]) as client:
        for path in (note_path, missing_path):
            attempts = {
                "GET": await client.get(path),
                "PATCH": await client.patch(path, json={"version": 2, "plan": "Example."}),
                "DELETE": await client.delete(path),
                "restore": await client.post(f"{path}/restore"),
                "finalize": await client.post(
                    f"{path}/finalize", json={"version": 2, "attestation_version": 1}
                ),
                "versions": await client.get(f"{path}/versions"),
            }
            for route, response in attempts.items():
                assert response.status_code == 404, (route, path)
                assert error_of(response) == {
                    "code": "not_found",
                    "message": "session note not found",
                }, route
        foreign_client = await client.post("/sessions", json=note_body(ours.client_ids[0]))
        assert foreign_client.status_code == 404
        assert error_of(foreign_client)["message"] == "client not found"
        foreign_appointment = await client.post(
            "/sessions",
            json=note_body(theirs.client_ids[0], appointment_id=ours.appointment_id),
        )
        assert foreign_appointment.status_code == 404
        assert error_of(foreign_appointment)["message"] == "appointment not found"
        listed = await client.get("/sessions", params={"client_id": ours.client_ids[0]})
        assert listed.json()["total"] == 0 and listed.json()["items"] == []
        assert (await client.get("/sessions")).json()["total"] == 0
    async with api.signed_in(ours.emails[0]) as client:
        after = (await client.get(note_path)).json()
    assert after["version"] == 2 and after["status"] == "draft" and after["deleted_at"] is None


async def test_list_is_newest_first_paginated_and_hides_deleted_notes(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, clients=2)
    first, second = place.client_ids
    async with api.signed_in(place.emails[0]) as client:
        oldest = await create_note(client, first, session_date="2025-01-10")
        earlier_same_day = await create_note(client, first, session_date="2025-01-12")
        later_same_day = await create_note(client, first, session_date="2025-01-12")
        deleted = await create_note(client, first, session_date="2025-01-11")
        other_client = await create_note(client, second, session_date="2025-01-13")
        assert (await client.delete(f"/sessions/{deleted['id']}")).status_code == 204

        page_one = (
            await client.get("/sessions", params={"client_id": first, "page_size": 2})
        ).json()
        page_two = (
            await client.get("/sessions", params={"client_id": first, "page_size": 2, "page": 2})
        ).json()
        assert page_one["total"] == page_two["total"] == 3
        assert page_one["page"] == 1 and page_one["page_size"] == 2 and page_two["page"] == 2
        ids = [n["id"] for n in page_one["items"] + page_two["items"]]
        assert ids == [later_same_day["id"], earlier_same_day["id"], oldest["id"]]

        with_deleted = (
            await client.get("/sessions", params={"client_id": first, "include_deleted": True})
        ).json()
        assert with_deleted["total"] == 4
        assert [n["id"] for n in with_deleted["items"]][2] == deleted["id"]
        assert with_deleted["items"][2]["deleted_at"] is not None

        everything = (await client.get("/sessions")).json()
        assert [n["id"] for n in everything["items"]] == [
            other_client["id"],
            later_same_day["id"],
            earlier_same_day["id"],
            oldest["id"],
        ]
        too_big = await client.get("/sessions", params={"page_size": 101})
        assert too_big.status_code == 422


async def test_soft_deleted_note_is_404_until_restored(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        path = f"/sessions/{note['id']}"
        assert (await client.delete(path)).status_code == 204
        gone = [
            await client.get(path),
            await client.patch(path, json={"version": 1, "plan": "Example."}),
            await client.post(f"{path}/finalize", json={"version": 1, "attestation_version": 1}),
            await client.get(f"{path}/versions"),
            await client.delete(path),
        ]
        assert [r.status_code for r in gone] == [404] * len(gone)
        assert (await client.get("/sessions")).json()["total"] == 0

        restored = await client.post(f"{path}/restore")
        assert restored.status_code == 200, restored.text
        assert restored.json()["deleted_at"] is None and restored.json()["version"] == 1
        assert (await client.get(path)).status_code == 200
        saved = await client.patch(path, json={"version": 1, "plan": "Example."})
        assert saved.status_code == 200 and saved.json()["version"] == 2
        assert (await client.post(f"{path}/restore")).status_code == 200  # not deleted: as is
    stored = await sql(api, "SELECT count(*) AS n FROM sessions WHERE deleted_at IS NULL")
    assert stored[0]["n"] == 1


async def test_reads_and_changes_are_audited_without_phi(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        a = await create_note(client, place.client_ids[0], plan="Example plan A.")
        b = await create_note(client, place.client_ids[0], plan="Example plan B.")
        listed = await client.get("/sessions", params={"client_id": place.client_ids[0]})
        assert listed.json()["total"] == 2
        await client.get(f"/sessions/{a['id']}")
        await client.patch(f"/sessions/{a['id']}", json={"version": 1, "plan": "Example A2."})
        await client.post(
            f"/sessions/{a['id']}/finalize", json={"version": 2, "attestation_version": 1}
        )
        await client.patch(
            f"/sessions/{a['id']}",
            json={"version": 3, "plan": "Example A3.", "reason": "Example reason."},
        )
        await client.get(f"/sessions/{a['id']}/versions")
        await client.delete(f"/sessions/{b['id']}")
        await client.post(f"/sessions/{b['id']}/restore")
    rows = await sql(
        api,
        "SELECT action, array_to_json(resource_ids)::text AS resource_ids, "
        "details::text AS details, actor_user_id "
        "FROM audit_events WHERE resource_type = 'session' ORDER BY id",
    )
    assert [(r["action"], json.loads(r["resource_ids"])) for r in rows] == [
        ("session.create", [a["id"]]),
        ("session.create", [b["id"]]),
        ("session.list", [b["id"], a["id"]]),
        ("session.read", [a["id"]]),
        ("session.update", [a["id"]]),
        ("session.finalize", [a["id"]]),
        ("session.amend", [a["id"]]),
        ("session.versions_read", [a["id"]]),
        ("session.delete", [b["id"]]),
        ("session.restore", [b["id"]]),
    ]
    details: dict[str, Any] = {r["action"]: event_details(r["details"]) for r in rows}
    assert details["session.update"] == {"fields": ["plan"], "version": 2}
    assert details["session.amend"] == {
        "fields": ["plan"],
        "previous_version": 3,
        "version": 4,
        "content_sha256": details["session.amend"]["content_sha256"],
    }
    assert details["session.finalize"] == {
        "version": 3,
        "attestation_version": 1,
        "content_sha256": details["session.finalize"]["content_sha256"],
        "late_entry": True,
        "cosign_status": None,
    }
    assert details["session.versions_read"] == {"versions": [3]}
    assert all("Example" not in (r["details"] or "") for r in rows)
    assert len({r["actor_user_id"] for r in rows}) == 1


async def test_api_token_reaches_notes_without_csrf_and_cookies_need_it(
    api: ApiContext,
) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.with_token(place.emails[0]) as (client, token_id):
        note = await create_note(client, place.client_ids[0])
        saved = await client.patch(
            f"/sessions/{note['id']}", json={"version": 1, "plan": "Example."}
        )
        assert saved.status_code == 200
        finalized = await client.post(
            f"/sessions/{note['id']}/finalize", json={"version": 2, "attestation_version": 1}
        )
        assert finalized.status_code == 200
        assert (await client.get(f"/sessions/{note['id']}")).status_code == 200
    events = await sql(
        api, "SELECT actor_token_id::text AS token FROM audit_events WHERE action LIKE 'session.%'"
    )
    assert len(events) == 4 and {e["token"] for e in events} == {token_id}
    async with api.signed_in(place.emails[0]) as client:
        client.headers.pop("X-CSRF-Token")
        refused = await client.post("/sessions", json=note_body(place.client_ids[0]))
        assert refused.status_code == 403 and error_of(refused)["code"] == "csrf_failed"
        assert (await client.get(f"/sessions/{note['id']}")).status_code == 200


async def test_openapi_documents_the_note_routes_with_examples(api: ApiContext) -> None:
    async with api.client() as client:
        document = (await client.get("http://testserver/openapi.json")).json()
        assert (await client.get("/sessions")).status_code == 401
    paths = document["paths"]
    assert set(paths["/api/v1/sessions/{note_id}"]) == {"get", "patch", "delete"}
    error_ref = {"$ref": "#/components/schemas/ErrorResponse"}
    note_paths = [path for path in paths if path.startswith("/api/v1/sessions")]
    assert len(note_paths) == 9
    for path in note_paths:
        for method, operation in paths[path].items():
            documented = set(operation["responses"])
            # The attestation statements take no parameters: nothing there to refuse as 422.
            expected = {"401", "403"} if path.endswith("/attestations") else {"401", "403", "422"}
            assert expected <= documented, (method, path)
            assert "{note_id}" not in path or "404" in documented, (method, path)
            for status, response in operation["responses"].items():
                if status.startswith("4"):
                    assert response["content"]["application/json"]["schema"] == error_ref
    assert "409" in paths["/api/v1/sessions/{note_id}"]["patch"]["responses"]
    assert "409" in paths["/api/v1/sessions/{note_id}/finalize"]["post"]["responses"]
    schemas = document["components"]["schemas"]
    for name in ("SessionNoteCreate", "SessionNoteUpdate"):
        assert schemas[name]["examples"], name
    update = schemas["SessionNoteUpdate"]
    assert update["required"] == ["version"]
    session_date = update["properties"]["session_date"]
    assert session_date["format"] == "date" and "anyOf" not in session_date
    assert schemas["SessionNoteCreate"]["properties"]["plan"]["anyOf"][0]["maxLength"] == 5_000


async def test_autosave_is_one_update_encrypting_only_the_changed_field(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    statements: list[str] = []

    def capture(statement: str, _: object) -> None:
        if re.search(r"\bsessions\b", statement):
            statements.append(" ".join(statement.split()))

    engine = api.app.state.carevault.engine
    counts = registry.operation_counts()
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0], plan="Example.")
        with watching_statements(engine, capture):
            encrypted_before = counts.encrypted
            saved = await client.patch(
                f"/sessions/{note['id']}", json={"version": 1, "plan": "Example, saved."}
            )
            assert saved.status_code == 200
            assert counts.encrypted - encrypted_before == 1
            # One statement: the UPDATE, with its audit event in the same statement.
            assert len(statements) == 1, statements
            assert statements[0].startswith("WITH audited_rows AS (UPDATE sessions SET")
            assert "plan=" in statements[0] and "subjective=" not in statements[0]
            assert "RETURNING" in statements[0] and "INSERT INTO audit_events" in statements[0]
            statements.clear()
            stale = await client.patch(
                f"/sessions/{note['id']}", json={"version": 1, "plan": "Example, stale."}
            )
            assert stale.status_code == 409
    assert len(statements) == 2
    assert statements[0].startswith("WITH audited_rows AS (UPDATE sessions SET")
    assert statements[1].startswith(
        "SELECT sessions.version, sessions.status, sessions.deleted_at FROM sessions"
    )
    updated = [datetime.fromisoformat(n["updated_at"]) for n in (note, saved.json())]
    assert updated[1] > updated[0]


@pytest.fixture
async def pgcrypto_api(
    require_pgcrypto: None, new_database: NewDatabase, data_dir: Path
) -> AsyncIterator[ApiContext]:
    """The app with the database-side PHI backend."""
    async with running_api(await new_database(), data_dir, phi_backend="pgcrypto") as context:
        yield context


@pytest.mark.pgcrypto
async def test_autosave_and_amendment_work_with_the_pgcrypto_backend(
    pgcrypto_api: ApiContext,
) -> None:
    place = await practice(pgcrypto_api, Role.CLINICIAN)
    async with pgcrypto_api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0], plan="Example plan.")
        path = f"/sessions/{note['id']}"
        saved = await client.patch(path, json={"version": 1, "objective": "Example, Zoë."})
        assert saved.status_code == 200, saved.text
        assert saved.json()["objective"] == "Example, Zoë."
        assert saved.json()["subjective"] == note["subjective"]
        await client.post(f"{path}/finalize", json={"version": 2, "attestation_version": 1})
        amended = await client.patch(
            path, json={"version": 3, "plan": "Example, amended.", "reason": "Example reason."}
        )
        assert amended.status_code == 200, amended.text
        kept = (await client.get(f"{path}/versions")).json()["items"]
    assert [(v["version"], v["plan"], v["objective"]) for v in kept] == [
        (3, "Example plan.", "Example, Zoë.")
    ]
    raw = await sql(pgcrypto_api, "SELECT objective FROM sessions")
    assert "Zoë".encode() not in bytes(raw[0]["objective"])
