"""The change feed over HTTP (GET /api/v1/events): every write route produces its events,
polls follow cursors, an empty poll is small and unaudited, and the feed is owners' only."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx

from carevault.api.app import create_app
from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.db import sql
from tests.support.http import PASSWORD, ApiContext, error_of
from tests.support.routes import api_routes

# Every route that changes something, and what the feed says about it: the event types it
# produces, or why it produces none. A new write route fails
# test_every_write_route_is_classified until it is listed here (and exercised below).
FEED_EVENTS = "produces events (exercised in test_every_write_route_produces_its_events)"
WRITE_ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/api/v1/clients"): FEED_EVENTS,
    ("POST", "/api/v1/clients/import"): FEED_EVENTS,
    ("PATCH", "/api/v1/clients/{client_id}"): FEED_EVENTS,
    ("DELETE", "/api/v1/clients/{client_id}"): FEED_EVENTS,
    ("POST", "/api/v1/clients/{client_id}/restore"): FEED_EVENTS,
    ("POST", "/api/v1/appointments"): FEED_EVENTS,
    ("POST", "/api/v1/appointments/series"): FEED_EVENTS,
    ("PATCH", "/api/v1/appointments/{appointment_id}"): FEED_EVENTS,
    ("POST", "/api/v1/appointments/{appointment_id}/cancel-following"): FEED_EVENTS,
    ("DELETE", "/api/v1/appointments/{appointment_id}"): FEED_EVENTS,
    ("POST", "/api/v1/sessions"): FEED_EVENTS,
    ("PATCH", "/api/v1/sessions/{note_id}"): FEED_EVENTS,
    ("POST", "/api/v1/sessions/{note_id}/finalize"): FEED_EVENTS,
    ("POST", "/api/v1/sessions/{note_id}/cosign"): FEED_EVENTS,
    ("DELETE", "/api/v1/sessions/{note_id}"): FEED_EVENTS,
    ("POST", "/api/v1/sessions/{note_id}/restore"): FEED_EVENTS,
    ("POST", "/api/v1/users"): FEED_EVENTS,
    ("PATCH", "/api/v1/users/{user_id}"): FEED_EVENTS,
    ("POST", "/api/v1/users/{user_id}/disable"): FEED_EVENTS,
    ("POST", "/api/v1/users/{user_id}/enable"): FEED_EVENTS,
    ("POST", "/api/v1/users/{user_id}/temporary-password"): FEED_EVENTS,
    # Issue 25's upserts and FHIR's writes call the same services (exercised in
    # test_upserts_and_fhir_writes_produce_events).
    ("PUT", "/api/v1/clients/external/{external_id}"): FEED_EVENTS,
    ("PUT", "/api/v1/appointments/external/{external_id}"): FEED_EVENTS,
    ("POST", "/fhir/R4/Patient"): FEED_EVENTS,
    ("PUT", "/fhir/R4/Patient/{patient_id}"): FEED_EVENTS,
    ("POST", "/fhir/R4/Appointment"): FEED_EVENTS,
    ("PUT", "/fhir/R4/Appointment/{appointment_id}"): FEED_EVENTS,
    # No change to a record the feed covers:
    ("POST", "/api/v1/clients/search"): "a read (search terms go in the body)",
    ("PUT", "/api/v1/clients/{client_id}/care-team"): "who sees the chart, not the client",
    ("POST", "/api/v1/clients/{client_id}/break-the-glass"): "an access grant, audited",
    ("POST", "/api/v1/auth/login"): "a login session",
    ("POST", "/api/v1/auth/logout"): "a login session",
    ("POST", "/api/v1/auth/tokens"): "an API token",
    ("DELETE", "/api/v1/auth/tokens/{token_id}"): "an API token",
    ("POST", "/api/v1/auth/reauth"): "a login session",
    ("POST", "/api/v1/auth/password"): "a password hash (not part of a user's record)",
    ("PATCH", "/api/v1/workspace"): "practice settings",
    # Webhook endpoints are the feed's readers, not its records (the worker itself writes
    # webhook_endpoint.disabled after persistent failure: tests/api/test_webhook_delivery.py).
    ("POST", "/api/v1/webhooks"): "a webhook endpoint",
    ("PATCH", "/api/v1/webhooks/{webhook_id}"): "a webhook endpoint",
    ("DELETE", "/api/v1/webhooks/{webhook_id}"): "a webhook endpoint",
    ("POST", "/api/v1/webhooks/{webhook_id}/rotate-secret"): "a webhook endpoint's secret",
    ("POST", "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"): "a delivery",
    ("POST", "/api/v1/clients/batch-get"): "a read (the ids go in the body)",
    ("POST", "/api/v1/appointments/batch-get"): "a read (the ids go in the body)",
    ("POST", "/api/v1/sessions/batch-get"): "a read (the ids go in the body)",
    ("POST", "/fhir/R4/Patient/_search"): "a read (FHIR's search in a form body)",
    ("POST", "/api/v1/service-accounts"): "a credential",
    ("POST", "/api/v1/service-accounts/{service_account_id}/disable"): "a credential",
    ("POST", "/api/v1/service-accounts/{service_account_id}/enable"): "a credential",
    ("DELETE", "/api/v1/service-accounts/{service_account_id}"): "a credential",
    ("POST", "/api/v1/service-accounts/{service_account_id}/tokens"): "a credential",
    ("DELETE", "/api/v1/service-accounts/{service_account_id}/tokens/{token_id}"): "a credential",
    ("PUT", "/api/v1/workspace/encryption-key"): "the practice's key (no value changes)",
    ("DELETE", "/fhir/R4/$export-status/{job_id}"): "a bulk export job (cancelled)",
    **{
        (method, "/fhir/R4/{rest}"): "an unknown FHIR path (a 404 OperationOutcome)"
        for method in ("POST", "PUT", "PATCH", "DELETE")
    },
}


def test_every_write_route_is_classified() -> None:
    app = create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")
    writes = {(m, p) for m, p, _ in api_routes(app) if m not in ("GET", "HEAD", "OPTIONS")}
    assert writes == set(WRITE_ROUTES), (
        f"unlisted: {sorted(writes - set(WRITE_ROUTES))}; "
        f"gone: {sorted(set(WRITE_ROUTES) - writes)}"
    )


class Feed:
    """An owner's reader of the feed, following cursors."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.cursor: str | None = None
        self.seen: list[str] = []

    async def poll(self, limit: int = 100) -> dict[str, Any]:
        params: dict[str, Any] = {"limit": limit}
        if self.cursor is not None:
            params["after"] = self.cursor
        response = await self.client.get("/events", params=params)
        assert response.status_code == 200, response.text
        page: dict[str, Any] = response.json()
        self.cursor = page["next_cursor"]
        self.seen += [event["id"] for event in page["data"]]
        return page

    async def new(self, expected: int) -> list[tuple[str, str]]:
        """The (type, resource id) of the next `expected` events. An event shows once every
        transaction that began before its own has ended (the app's sealer may be in one), so
        this polls a few times rather than once."""
        events: list[tuple[str, str]] = []
        for _ in range(200):
            page = await self.poll()
            events += [(e["type"], e["resource"]["id"]) for e in page["data"]]
            if len(events) >= expected:
                break
            await asyncio.sleep(0.02)
        extra = await self.poll()
        events += [(e["type"], e["resource"]["id"]) for e in extra["data"]]
        return events


async def test_every_write_route_produces_its_events(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        feed = Feed(client)
        await feed.new(0)  # the owner's own creation, and the practice's set-up
        ada = (await create_client(client))["id"]
        assert await feed.new(1) == [("client.created", ada)]
        assert (await client.patch(f"/clients/{ada}", json={"last_name": "B"})).status_code == 200
        assert await feed.new(1) == [("client.updated", ada)]
        assert (await client.delete(f"/clients/{ada}")).status_code == 204
        assert await feed.new(1) == [("client.archived", ada)]
        assert (await client.post(f"/clients/{ada}/restore")).status_code == 200
        assert await feed.new(1) == [("client.restored", ada)]
        imported = await client.post(
            "/clients/import",
            content=b"first_name,last_name\nA,B\nC,D\n",
            headers={"Content-Type": "text/csv"},
        )
        assert imported.status_code in (200, 201), imported.text
        assert [kind for kind, _ in await feed.new(2)] == ["client.created"] * 2

        me = (await client.get("/auth/me")).json()["user"]["id"]
        visit = {"client_id": ada, "starts_at": "2030-03-04T09:00:00Z"}
        visit["ends_at"] = "2030-03-04T09:50:00Z"
        booked = (await client.post("/appointments", json=visit)).json()["id"]
        assert await feed.new(1) == [("appointment.created", booked)]
        moved = await client.patch(f"/appointments/{booked}", json={"room": "Room 9"})
        assert moved.status_code == 200, moved.text
        assert await feed.new(1) == [("appointment.updated", booked)]
        weekly = visit | {
            "starts_at": "2030-04-01T09:00:00Z",
            "ends_at": "2030-04-01T09:50:00Z",
            "recurrence": {"count": 2},
        }
        series = await client.post("/appointments/series", json=weekly)
        assert series.status_code == 201, series.text
        occurrences = [item["id"] for item in series.json()["items"]]
        assert sorted(await feed.new(2)) == sorted(("appointment.created", i) for i in occurrences)
        following = await client.post(f"/appointments/{occurrences[0]}/cancel-following")
        assert following.status_code == 200, following.text
        assert sorted(await feed.new(2)) == sorted(
            ("appointment.cancelled", i) for i in occurrences
        )
        assert (await client.delete(f"/appointments/{booked}")).status_code == 204
        assert await feed.new(1) == [("appointment.deleted", booked)]

        # A trainee whose signed notes await the owner's co-signature.
        trainee_email = f"trainee-{uuid.uuid4().hex[:8]}@example.test"
        made = await client.post(
            "/users", json={"email": trainee_email, "password": PASSWORD, "role": "clinician"}
        )
        assert made.status_code == 201, made.text
        trainee = made.json()["id"]
        assert await feed.new(1) == [("user.created", trainee)]
        supervised = await client.patch(f"/users/{trainee}", json={"requires_cosign": True})
        assert supervised.status_code == 200, supervised.text
        assert await feed.new(1) == [("user.updated", trainee)]

        async with api.signed_in(trainee_email) as writer:
            body = {"client_id": ada, "session_date": "2025-01-15", "subjective": "Calmer."}
            note = (await writer.post("/sessions", json=body)).json()
            assert await feed.new(1) == [("note.created", note["id"])]
            saved = await writer.patch(
                f"/sessions/{note['id']}", json={"plan": "Weekly", "version": note["version"]}
            )
            assert saved.status_code == 200, saved.text
            assert await feed.new(1) == [("note.updated", note["id"])]
            signed = await writer.post(
                f"/sessions/{note['id']}/finalize",
                json={"version": saved.json()["version"], "attestation_version": 1},
            )
            assert signed.status_code == 200, signed.text
            assert await feed.new(1) == [("note.signed", note["id"])]
        cosigned = await client.post(
            f"/sessions/{note['id']}/cosign",
            json={"version": signed.json()["version"], "attestation_version": 1},
        )
        assert cosigned.status_code == 200, cosigned.text
        assert await feed.new(1) == [("note.cosigned", note["id"])]
        amended = await client.patch(
            f"/sessions/{note['id']}",
            json={"plan": "Fortnightly", "version": cosigned.json()["version"], "reason": "typo"},
        )
        assert amended.status_code == 200, amended.text
        assert await feed.new(1) == [("note.amended", note["id"])]
        assert (await client.delete(f"/sessions/{note['id']}")).status_code == 204
        assert await feed.new(1) == [("note.deleted", note["id"])]
        assert (await client.post(f"/sessions/{note['id']}/restore")).status_code == 200
        assert await feed.new(1) == [("note.restored", note["id"])]

        assert (await client.post(f"/users/{trainee}/disable")).status_code == 200
        assert await feed.new(1) == [("user.disabled", trainee)]
        assert (await client.post(f"/users/{trainee}/enable")).status_code == 200
        assert await feed.new(1) == [("user.enabled", trainee)]
        temporary = await client.post(
            f"/users/{trainee}/temporary-password", json={"temporary_password": "x" * 16}
        )
        assert temporary.status_code in (200, 204), temporary.text
        assert await feed.new(1) == [("user.updated", trainee)]

        # Routes that change nothing the feed covers add nothing.
        assert (
            await client.put(f"/clients/{ada}/care-team", json={"clinician_ids": [me]})
        ).is_success
        assert (await client.patch("/workspace", json={"late_entry_hours": 48})).is_success
        assert await feed.new(0) == []
        # Every event was read once.
        assert len(feed.seen) == len(set(feed.seen))


async def test_upserts_and_fhir_writes_produce_events(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    fhir_json = {"Content-Type": "application/fhir+json"}
    async with api.signed_in(owner) as client, api.with_token(owner) as (token, _):
        feed = Feed(client)
        await feed.new(0)
        body = {"first_name": "Ada", "last_name": "Upsert"}
        created = await token.put("/clients/external/crm-1", json=body)
        assert created.status_code == 201, created.text
        ada = created.json()["id"]
        assert await feed.new(1) == [("client.created", ada)]
        again = await token.put("/clients/external/crm-1", json=body | {"last_name": "B"})
        assert again.status_code == 200, again.text
        assert await feed.new(1) == [("client.updated", ada)]
        visit = {"client_id": ada, "starts_at": "2030-05-06T09:00:00Z"}
        visit["ends_at"] = "2030-05-06T09:50:00Z"
        booked = await token.put("/appointments/external/sched-1", json=visit)
        assert booked.status_code == 201, booked.text
        assert await feed.new(1) == [("appointment.created", booked.json()["id"])]
        moved = await token.put("/appointments/external/sched-1", json=visit | {"room": "2"})
        assert moved.status_code == 200, moved.text
        assert await feed.new(1) == [("appointment.updated", booked.json()["id"])]

        fhir = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=api.app, client=("203.0.113.7", 50000)),
            base_url="http://testserver/fhir/R4",
            headers=dict(token.headers),
        )
        async with fhir:
            patient = {"resourceType": "Patient", "name": [{"family": "F", "given": ["G"]}]}
            made = await fhir.post("/Patient", json=patient, headers=fhir_json)
            assert made.status_code == 201, made.text
            pid = made.json()["id"]
            assert await feed.new(1) == [("client.created", pid)]
            replaced = await fhir.put(
                f"/Patient/{pid}", json=patient | {"id": pid, "birthDate": "1990-01-01"},
                headers=fhir_json,
            )  # fmt: skip
            assert replaced.status_code == 200, replaced.text
            assert await feed.new(1) == [("client.updated", pid)]
            appointment = {
                "resourceType": "Appointment",
                "status": "booked",
                "start": "2030-05-07T09:00:00Z",
                "end": "2030-05-07T09:50:00Z",
                "participant": [{"actor": {"reference": f"Patient/{pid}"}, "status": "accepted"}],
            }
            made = await fhir.post("/Appointment", json=appointment, headers=fhir_json)
            assert made.status_code == 201, made.text
            aid = made.json()["id"]
            assert await feed.new(1) == [("appointment.created", aid)]
            replaced = await fhir.put(
                f"/Appointment/{aid}", json=appointment | {"id": aid, "comment": "x"},
                headers=fhir_json,
            )  # fmt: skip
            assert replaced.status_code == 200, replaced.text
            assert await feed.new(1) == [("appointment.updated", aid)]
        assert len(feed.seen) == len(set(feed.seen))


async def test_an_empty_poll_is_small_and_unaudited(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner, ("events:read",)) as (client, _):
        first = await client.get("/events")
        assert first.status_code == 200, first.text
        cursor = first.json()["next_cursor"]
        while first.json()["has_more"]:  # (not with a new practice, but be exact)
            first = await client.get("/events", params={"after": cursor})
            cursor = first.json()["next_cursor"]
        before = await sql(api, "SELECT count(*) FROM audit_events")
        empty = await client.get("/events", params={"after": cursor})
        after = await sql(api, "SELECT count(*) FROM audit_events")
    assert empty.status_code == 200
    assert empty.json() == {"data": [], "next_cursor": cursor, "has_more": False}
    # The whole answer as it goes over the wire: status line, headers and body.
    size = len(b"HTTP/1.1 200 OK\r\n") + len(empty.content) + 2
    size += sum(len(k) + len(v) + 4 for k, v in empty.headers.raw)
    assert size < 1024, (size, empty.headers)
    assert after == before, "a poll of the feed discloses no PHI and writes no audit event"


async def test_the_head_cursor_skips_what_is_there_and_keeps_what_comes(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        await create_client(client)
        answer = await client.get("/events/head")
        assert answer.status_code == 200, answer.text
        feed = Feed(client)
        feed.cursor = answer.json()["cursor"]
        later = (await create_client(client))["id"]
        assert await feed.new(1) == [("client.created", later)]
        strict = await client.get("/events/head", params={"after": feed.cursor})
        assert error_of(strict)["code"] == "unknown_parameter"


async def test_the_feed_is_for_owners_and_tokens_with_its_scope(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        for path in ("/events", "/events/head"):
            refused = await client.get(path)
            assert (refused.status_code, error_of(refused)["code"]) == (403, "owner_required")
        token = await client.post("/auth/tokens", json={"name": "t", "scopes": ["events:read"]})
        assert token.status_code in (403, 422), token.text
    async with api.with_token(owner, ("clients:read",)) as (client, _):
        lacking = await client.get("/events")
        assert (lacking.status_code, error_of(lacking)["code"]) == (403, "insufficient_scope")


async def test_bad_cursors_and_limits_are_refused_with_documented_codes(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner, ("events:read",)) as (client, _):
        for bad in ("nope", "ev_AAAA", "ev_" + "A" * 60):
            answer = await client.get("/events", params={"after": bad})
            assert answer.status_code == 422, answer.text
            assert error_of(answer)["code"] == "invalid_cursor"
            assert error_of(answer)["details"][0]["field"] == "query.after"
        for limit in ("0", "501", "x"):
            answer = await client.get("/events", params={"limit": limit})
            assert (answer.status_code, error_of(answer)["code"]) == (422, "validation_error")
        unknown = await client.get("/events", params={"since": "2025-01-01"})
        assert error_of(unknown)["code"] == "unknown_parameter"


async def test_a_pruned_cursor_answers_410_cursor_expired(api: ApiContext) -> None:
    space, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        await create_client(client)
        feed = Feed(client)
        await feed.new(2)
        old = feed.seen[0]
        await create_client(client)
        await sql(
            api,
            "UPDATE change_events SET occurred_at = now() - interval '40 days' "
            f"WHERE workspace_id = '{space.id}'",
        )
        await sql(
            api,
            "INSERT INTO change_event_horizons (workspace_id, txid, event_id) "
            f"SELECT workspace_id, max(txid), max(id) FROM change_events "
            f"WHERE workspace_id = '{space.id}' GROUP BY workspace_id",
        )
        expired = await client.get("/events", params={"after": old})
        assert (expired.status_code, error_of(expired)["code"]) == (410, "cursor_expired")
