"""Lists that filter by change (issue 25): `updated_since`, `sort=updated_at` and the keyset
cursor (`updated_since` = the last item's updated_at, `after_id` = its id) on clients,
appointments and notes, next to their usual paging."""

from __future__ import annotations

from typing import Any

import httpx

from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.http import ApiContext, error_of, fields_named


async def follow(client: httpx.AsyncClient, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item, a page of one at a time, by the keyset cursor."""
    items: list[dict[str, Any]] = []
    cursor: dict[str, Any] = {}
    for _ in range(50):
        answer = await client.get(path, params={"sort": "updated_at", **params, **cursor})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        page = body if isinstance(body, list) else body["items"]
        if not page:
            return items
        items += page
        cursor = {"updated_since": page[-1]["updated_at"], "after_id": page[-1]["id"]}
    raise AssertionError("the cursor did not move")


async def test_clients_by_change_with_a_stable_cursor(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        first = await create_client(client, first_name="First")
        # Three clients from one import: one transaction, so one updated_at; the id breaks
        # the tie, and the cursor still reads each once.
        imported = await client.post(
            "/clients/import",
            content=b"first_name,last_name\nA,Imported\nB,Imported\nC,Imported\n",
            headers={"Content-Type": "text/csv"},
        )
        assert imported.status_code in (200, 201), imported.text
        changed = await client.patch(f"/clients/{first['id']}", json={"last_name": "Changed"})
        since = changed.json()["updated_at"]
        assert (await client.delete(f"/clients/{first['id']}")).status_code == 204

        everyone = await follow(client, "/clients", page_size=1, include_archived=True)
        assert len(everyone) == 4 == len({c["id"] for c in everyone})
        assert everyone[-1]["id"] == first["id"]  # changed last
        keys = [(c["updated_at"], c["id"]) for c in everyone]
        assert keys == sorted(keys)

        recent = await client.get(
            "/clients", params={"updated_since": since, "include_archived": True}
        )
        assert [c["id"] for c in recent.json()["items"]] == [first["id"]]
        # The archival is a change too, but leaves the default list.
        hidden = await client.get("/clients", params={"updated_since": since})
        assert hidden.json()["items"] == []
        # Page numbers still work in the updated_at order.
        second = await client.get(
            "/clients", params={"sort": "updated_at", "page": 2, "page_size": 2}
        )
        assert [c["id"] for c in second.json()["items"]] == [c["id"] for c in everyone[2:3]]
        assert second.json()["total"] == 3

        lone = await client.get("/clients", params={"after_id": first["id"]})
        assert (lone.status_code, error_of(lone)["code"]) == (422, "validation_error")
        assert fields_named(lone) == {"query.after_id"}
        naive = await client.get("/clients", params={"updated_since": "2025-01-01T00:00:00"})
        assert fields_named(naive) == {"query.updated_since"}
        wrong = await client.get("/clients", params={"sort": "name"})
        assert fields_named(wrong) == {"query.sort"}


async def test_notes_by_change(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        person = (await create_client(client))["id"]
        notes = []
        for day in ("2025-01-13", "2025-01-14", "2025-01-15"):
            body = {"client_id": person, "session_date": day, "subjective": "Calmer."}
            notes.append((await client.post("/sessions", json=body)).json())
        saved = await client.patch(
            f"/sessions/{notes[0]['id']}", json={"plan": "Weekly", "version": notes[0]["version"]}
        )
        assert saved.status_code == 200, saved.text
        order = [n["id"] for n in await follow(client, "/sessions", page_size=2)]
        assert order == [notes[1]["id"], notes[2]["id"], notes[0]["id"]]
        since = await client.get("/sessions", params={"updated_since": saved.json()["updated_at"]})
        assert [n["id"] for n in since.json()["items"]] == [notes[0]["id"]]


async def test_appointments_sync_by_updated_at_without_a_range(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        person = (await create_client(client))["id"]
        ids = []
        for month in ("2025-01", "2027-06", "2031-12"):  # far apart: no calendar range holds all
            visit = {
                "client_id": person,
                "starts_at": f"{month}-04T09:00:00Z",
                "ends_at": f"{month}-04T09:50:00Z",
            }
            ids.append((await client.post("/appointments", json=visit)).json()["id"])
        moved = await client.patch(f"/appointments/{ids[0]}", json={"room": "Room 2"})
        assert moved.status_code == 200, moved.text
        assert [a["id"] for a in await follow(client, "/appointments", limit=2)] == [
            ids[1],
            ids[2],
            ids[0],
        ]
        since = await client.get(
            "/appointments", params={"updated_since": moved.json()["updated_at"]}
        )
        assert [a["id"] for a in since.json()] == [ids[0]]
        # The calendar as before: a range is required, and `limit` is the sync's only.
        missing = await client.get("/appointments", params={"start": "2025-01-01T00:00:00Z"})
        assert fields_named(missing) == {"query.end"}
        neither = await client.get("/appointments")
        assert fields_named(neither) == {"query.start", "query.end"}
        limited = await client.get(
            "/appointments",
            params={"start": "2025-01-01T00:00:00Z", "end": "2025-01-31T00:00:00Z", "limit": 5},
        )
        assert limited.status_code == 422
