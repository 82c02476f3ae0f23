"""Query strings are strict: a parameter the endpoint does not declare is refused with
400 `unknown_parameter`, before anything is read or audited (issue 14, item 1)."""

from __future__ import annotations

import httpx

from carevault.auth.models import Role
from carevault.auth.scopes import EVERY_SCOPE
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.notes import create_note, practice


async def test_a_misspelled_filter_is_refused_and_reads_nothing(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN, clients=2)
    first, second = place.client_ids
    async with api.signed_in(place.emails[0]) as client:
        await create_note(client, first)
        await create_note(client, second)
        before = await sql(api, "SELECT count(*) AS n FROM audit_events")

        typo = await client.get("/sessions", params={"clientid": first})

        assert typo.status_code == 400, typo.text
        error = error_of(typo)
        assert error["code"] == "unknown_parameter"
        assert "'clientid'" in error["message"] and "client_id" in error["message"]
        assert error["details"]["field"] == "query.clientid"
        assert "client_id" in error["details"]["allowed"]
        # Nothing was read, so nothing was audited as a read.
        assert await sql(api, "SELECT count(*) AS n FROM audit_events") == before

        spelled_right = await client.get("/sessions", params={"client_id": first})
        assert spelled_right.status_code == 200
        assert {n["client_id"] for n in spelled_right.json()["items"]} == {first}


async def test_every_kind_of_endpoint_refuses_unknown_parameters(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        paths = [
            "/clients",
            f"/clients/{place.client_ids[0]}",
            "/appointments",
            f"/sessions/{note['id']}",
            "/audit-events",
            "/auth/me",
        ]
        for path in paths:
            answer = await client.get(path, params={"surprise": "1"})
            assert answer.status_code == 400, (path, answer.text)
            assert error_of(answer)["code"] == "unknown_parameter", path
        # Body-only endpoints accept no query parameters at all.
        answer = await client.post("/sessions?dry_run=1", json={})
        assert answer.status_code == 400 and error_of(answer)["details"]["allowed"] == []


async def test_unknown_parameters_are_refused_for_api_tokens_too(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with api.signed_in(place.emails[0]) as client:
        token = (
            await client.post("/auth/tokens", json={"name": "t", "scopes": list(EVERY_SCOPE)})
        ).json()["token"]
    async with api.client() as integration:
        headers = {"Authorization": f"Bearer {token}"}
        answer = await integration.get("/sessions?clientid=x", headers=headers)
        assert answer.status_code == 400
        assert error_of(answer)["code"] == "unknown_parameter"


async def test_details_field_says_where_the_value_was_sent(api: ApiContext) -> None:
    """`details.field` is `<location>.<name>` for body, query, path and header alike, from
    the framework's validation and from the services' own checks, so the same name in two
    places (`client_id` in a body and in a query) stays two fields."""
    place = await practice(api, Role.CLINICIAN)
    client_id = place.client_ids[0]
    future = "2999-01-01"

    def fields(response: httpx.Response) -> list[str]:
        assert response.status_code in (400, 422), response.text
        details = error_of(response)["details"]
        return [d["field"] for d in details] if isinstance(details, list) else [details["field"]]

    async with api.signed_in(place.emails[0]) as client:
        body = {"client_id": "not-a-uuid", "session_date": "2025-01-15"}
        assert fields(await client.post("/sessions", json=body)) == ["body.client_id"]
        assert fields(await client.get("/sessions", params={"client_id": "nope"})) == [
            "query.client_id"
        ]
        assert fields(await client.get("/sessions/not-a-uuid")) == ["path.note_id"]
        dated = {"client_id": client_id, "session_date": future}  # the service's own check
        assert fields(await client.post("/sessions", json=dated)) == ["body.session_date"]
        nested = {"name": "export", "scopes": ["notes:read", "everything"]}
        assert fields(await client.post("/auth/tokens", json=nested)) == ["body.scopes.1"]
        missing = await client.post(
            "/sessions", content=b"", headers={"Content-Type": "application/json"}
        )
        assert fields(missing) == ["body"]
        unknown = await client.get("/sessions", params={"clientid": client_id})
        assert fields(unknown) == ["query.clientid"]
        key = await client.post(
            "/sessions",
            json={"client_id": client_id, "session_date": "2025-01-15"},
            headers={"Idempotency-Key": " "},
        )
        assert fields(key) == ["header.idempotency-key"]
