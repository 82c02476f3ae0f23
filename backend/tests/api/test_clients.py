"""Clients over HTTP: create, read, partial update, archive and restore; search through the
blind indexes and by name; order and pagination; workspace isolation; the audit trail."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from carevault.auth.models import Role
from tests.support.clients import create_client, listed_ids
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, error_of, event_details, fields_named, running_api

CLIENT_FIELDS = {
    "id",
    "external_id",
    "metadata",
    "first_name",
    "last_name",
    "email",
    "phone",
    "date_of_birth",
    "address",
    "emergency_contact_name",
    "emergency_contact_phone",
    "medical_history",
    "notes",
    "archived_at",
    "created_at",
    "updated_at",
}
# What a list or search shows of a client: the minimum necessary (issue 24).
SUMMARY_FIELDS = {"id", "first_name", "last_name", "date_of_birth", "archived_at", "updated_at"}


async def test_lists_and_searches_answer_with_summaries_never_whole_charts(
    api: ApiContext,
) -> None:
    """The defect (issue 24): `GET /clients` and `POST /clients/search` returned every PHI
    field of every client on the page, medical history included. A list shows names, date of
    birth, archived and updated; the chart is `GET /clients/{id}`, audited as a read."""
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        ada = await create_client(
            client,
            email="ada@example.org",
            phone="+44 20 7946 0000",
            date_of_birth="1990-12-10",
            address="12 Example Row",
            emergency_contact_name="Example Contact",
            emergency_contact_phone="+44 20 7946 0001",
            medical_history="zqhistorymark",
            notes="zqnotesmark",
        )
        answers = [
            await client.get("/clients"),
            await client.get("/clients", params={"include_archived": "true"}),
            await client.post("/clients/search", json={"q": "ada"}),
            await client.post("/clients/search", json={"q": "ada@example.org"}),
            await client.post("/clients/search", json={"q": "+44 20 7946 0000"}),
        ]
        for answer in answers:
            assert answer.status_code == 200, answer.text
            (item,) = answer.json()["items"]
            assert set(item) == SUMMARY_FIELDS
            assert item == {key: ada[key] for key in SUMMARY_FIELDS}
            for phi in ("zqhistorymark", "zqnotesmark", "ada@example.org", "7946", "Example Row"):
                assert phi not in answer.text
        chart = await client.get(f"/clients/{ada['id']}")
        assert chart.json()["medical_history"] == "zqhistorymark"
    rows = await sql(
        api,
        "SELECT action, details->>'disclosure' AS disclosure FROM audit_events "
        "WHERE resource_type = 'client' AND action IN ('client.list', 'client.read') "
        "ORDER BY id",
    )
    assert [(r["action"], r["disclosure"]) for r in rows] == [
        *[("client.list", "summary")] * len(answers),
        ("client.read", None),
    ]


async def test_client_is_created_read_updated_archived_and_restored(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        created = await create_client(
            client,
            first_name="  Ada ",
            email="ada@example.org",
            phone="+44 20 7946 0000",
            date_of_birth="1990-12-10",
            address="12 Example Row",
            emergency_contact_name="Example Contact",
            emergency_contact_phone="+44 20 7946 0001",
            medical_history="Example history.",
            notes="",
        )
        assert set(created) == CLIENT_FIELDS  # never the blind-index bytes
        assert created["first_name"] == "Ada" and created["notes"] is None
        assert created["date_of_birth"] == "1990-12-10" and created["archived_at"] is None
        path = f"/clients/{created['id']}"
        assert (await client.get(path)).json() == created

        changed = await client.patch(path, json={"phone": "+44 20 7946 0099", "address": None})
        assert changed.status_code == 200, changed.text
        updated = changed.json()
        assert updated["phone"] == "+44 20 7946 0099" and updated["address"] is None
        unchanged = CLIENT_FIELDS - {"phone", "address", "updated_at"}
        assert {k: updated[k] for k in unchanged} == {k: created[k] for k in unchanged}
        assert datetime.fromisoformat(updated["updated_at"]) > datetime.fromisoformat(
            created["updated_at"]
        )

        archived = await client.delete(path)
        assert archived.status_code == 204 and archived.content == b""
        read_archived = (await client.get(path)).json()
        assert read_archived["archived_at"] is not None
        assert (await client.delete(path)).status_code == 204  # archiving again: no change
        assert (await client.get(path)).json()["archived_at"] == read_archived["archived_at"]
        assert await listed_ids(client) == []

        restored = await client.post(f"{path}/restore")
        assert restored.status_code == 200, restored.text
        assert restored.json()["archived_at"] is None
        assert await listed_ids(client) == [created["id"]]
        assert (await client.post(f"{path}/restore")).status_code == 200  # not archived: as is


async def test_clients_of_another_workspace_are_404_on_every_route(api: ApiContext) -> None:
    _, (ours,) = await api.workspace_with_users(None, Role.OWNER)
    _, (theirs,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(ours) as client:
        mine = await create_client(client, email="ada@example.org", phone="+44 20 7946 0000")
    async with api.signed_in(theirs) as client:
        for path in (f"/clients/{mine['id']}", f"/clients/{uuid.uuid4()}"):
            attempts = {
                "GET": await client.get(path),
                "PATCH": await client.patch(path, json={"first_name": "Mallory"}),
                "DELETE": await client.delete(path),
                "restore": await client.post(f"{path}/restore"),
            }
            for route, response in attempts.items():
                assert response.status_code == 404, (route, path)
                assert error_of(response) == {"code": "not_found", "message": "client not found"}
        assert await listed_ids(client) == []
        assert await listed_ids(client, q="ada@example.org") == []
        assert await listed_ids(client, q="+44 20 7946 0000") == []
        assert await listed_ids(client, q="Ada", include_archived=True) == []
    async with api.signed_in(ours) as client:
        after = (await client.get(f"/clients/{mine['id']}")).json()
    assert after == mine


async def test_search_finds_email_and_phone_however_written_and_names_by_substring(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        ada = await create_client(client, email="Ada@Example.org", phone="+44 20 7946 0000")
        grace = await create_client(
            client, first_name="Grace", last_name="Hopper", phone="(555) 010-0123"
        )
        alan = await create_client(client, first_name="Alan", last_name="Turing")

        assert await listed_ids(client, q="  ada@EXAMPLE.ORG ") == [ada["id"]]
        assert await listed_ids(client, q="other@example.org") == []
        assert await listed_ids(client, q="+44 (20) 7946-0000") == [ada["id"]]
        assert await listed_ids(client, q="44.20.7946.0000") == [ada["id"]]
        assert await listed_ids(client, q="555 010 0123") == [grace["id"]]
        assert await listed_ids(client, q="7946 0000") == []  # a phone matches exactly

        assert await listed_ids(client, q="LACE") == [ada["id"]]
        assert await listed_ids(client, q="grace") == [grace["id"]]
        assert await listed_ids(client, q="Alan Tur") == [alan["id"]]
        assert await listed_ids(client, q="a") == [grace["id"], ada["id"], alan["id"]]
        assert await listed_ids(client, q="nobody") == []

        moved = await client.patch(f"/clients/{ada['id']}", json={"email": "ada@example.net"})
        assert moved.status_code == 200
        assert await listed_ids(client, q="ada@example.org") == []
        assert await listed_ids(client, q="ADA@example.net") == [ada["id"]]
        await client.patch(f"/clients/{ada['id']}", json={"phone": None})
        assert await listed_ids(client, q="+44 20 7946 0000") == []


async def test_search_finds_rows_whose_indexes_are_still_under_the_ring_wide_key(
    api: ApiContext,
) -> None:
    """Rows written before practice blind-index keys carry indexes under the ring's key until
    `carevault reencrypt` recomputes them; search must still find them."""
    from carevault.crypto import BlindIndex, current_cipher

    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        legacy = await create_client(client, email="old@example.org", phone="+1 555 010 0199")
        fresh = await create_client(client, first_name="Grace", email="new@example.org")
        ring_wide = BlindIndex(current_cipher())
        await sql(
            api,
            "UPDATE clients SET email_bidx = $1, phone_bidx = $2, phone_bidx_region = NULL "
            "WHERE id = $3",
            ring_wide.email("old@example.org", str(space.id)),
            ring_wide.phone_digits("+1 555 010 0199", str(space.id)),
            uuid.UUID(legacy["id"]),
        )
        assert await listed_ids(client, q="OLD@example.org") == [legacy["id"]]
        assert await listed_ids(client, q="1 (555) 010-0199") == [legacy["id"]]
        assert await listed_ids(client, q="new@example.org") == [fresh["id"]]


async def test_list_is_ordered_by_last_then_first_name_and_paginated(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        bob = await create_client(client, first_name="bob", last_name="smith")
        alice = await create_client(client, first_name="Alice", last_name="Smith")
        zed = await create_client(client, first_name="Zed", last_name="adams")
        carol = await create_client(client, first_name="Carol", last_name="de Vries")

        first = (await client.get("/clients", params={"page_size": 3})).json()
        second = (await client.get("/clients", params={"page_size": 3, "page": 2})).json()
        assert first["total"] == second["total"] == 4
        assert (first["page"], first["page_size"], second["page"]) == (1, 3, 2)
        ids = [c["id"] for c in first["items"] + second["items"]]
        assert ids == [zed["id"], carol["id"], alice["id"], bob["id"]]
        beyond = (await client.get("/clients", params={"page": 3, "page_size": 3})).json()
        assert beyond["items"] == [] and beyond["total"] == 4

        for params in ({"page_size": 101}, {"page_size": 0}, {"page": 0}):
            refused = await client.get("/clients", params=params)
            assert refused.status_code == 422, params


async def test_archived_clients_are_hidden_unless_asked(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        ada = await create_client(client, email="ada@example.org")
        grace = await create_client(client, first_name="Grace", last_name="Hopper")
        assert (await client.delete(f"/clients/{ada['id']}")).status_code == 204

        listed = (await client.get("/clients")).json()
        assert listed["total"] == 1 and [c["id"] for c in listed["items"]] == [grace["id"]]
        assert await listed_ids(client, q="ada@example.org") == []
        assert await listed_ids(client, q="Lovelace") == []
        everyone = (await client.get("/clients", params={"include_archived": True})).json()
        assert everyone["total"] == 2
        assert [c["id"] for c in everyone["items"]] == [grace["id"], ada["id"]]
        assert everyone["items"][1]["archived_at"] is not None
        assert await listed_ids(client, q="ada@example.org", include_archived=True) == [ada["id"]]


async def test_invalid_input_is_422_naming_the_field(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    future = (date.today() + timedelta(days=2)).isoformat()
    async with api.signed_in(email) as client:
        at_limits = await create_client(
            client, first_name="x" * 200, email="a@b.org", medical_history="x" * 5_000
        )
        path = f"/clients/{at_limits['id']}"
        valid = {"first_name": "Ada", "last_name": "Lovelace"}
        posts: dict[str, dict[str, Any]] = {
            "body.date_of_birth": valid | {"date_of_birth": future},
            "body.first_name": {"last_name": "Lovelace"},
            "body.last_name": valid | {"last_name": "   "},
            "body.email": valid | {"email": "not an email"},
            "body.phone": valid | {"phone": "1" * 51},
            "body.medical_history": valid | {"medical_history": "x" * 5_001},
            "body.notes": valid | {"notes": "x" * 5_001},
            "body.ssn": valid | {"ssn": "unknown fields are refused"},
        }
        for field, body in posts.items():
            assert fields_named(await client.post("/clients", json=body)) == {field}, field
        assert fields_named(
            await client.post("/clients", json=valid | {"first_name": "y" * 201})
        ) == {"body.first_name"}
        assert fields_named(
            await client.post("/clients", json=valid | {"email": "a" * 321 + "@b"})
        ) == {"body.email"}
        surrogate = json.dumps(valid).replace("Lovelace", "\\ud800")
        lone = await client.post(
            "/clients", content=surrogate, headers={"Content-Type": "application/json"}
        )
        assert fields_named(lone) == {"body.last_name"}

        patches: dict[str, dict[str, Any]] = {
            "body.date_of_birth": {"date_of_birth": future},
            "body.first_name": {"first_name": None},
            "body.last_name": {"last_name": ""},
            "body.email": {"email": "ada.example.org"},
            "body.archived_at": {"archived_at": None},
        }
        for field, change in patches.items():
            assert fields_named(await client.patch(path, json=change)) == {field}, field
        nothing = await client.patch(path, json={})
        assert nothing.status_code == 422 and error_of(nothing)["code"] == "no_changes"
        assert fields_named(await client.get("/clients/not-a-uuid")) == {"path.client_id"}
        assert (await client.get(path)).json() == at_limits


async def test_reads_and_changes_are_audited_without_phi(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        user_id = (await client.get("/auth/me")).json()["user"]["id"]
        ada = await create_client(client, email="ada@example.org")
        grace = await create_client(client, first_name="Grace", last_name="Hopper")
        assert await listed_ids(client) == [grace["id"], ada["id"]]
        assert await listed_ids(client, q="ada@example.org") == [ada["id"]]
        assert await listed_ids(client, q="nobody") == []
        await client.get(f"/clients/{ada['id']}")
        await client.patch(f"/clients/{ada['id']}", json={"phone": "+1 555 010 0100", "notes": "N"})
        await client.delete(f"/clients/{ada['id']}")
        await client.post(f"/clients/{ada['id']}/restore")
    rows = await sql(
        api,
        "SELECT action, array_to_json(resource_ids)::text AS resource_ids, "
        "details::text AS details, actor_user_id::text AS actor "
        "FROM audit_events WHERE resource_type = 'client' ORDER BY id",
    )
    assert [(r["action"], json.loads(r["resource_ids"])) for r in rows] == [
        ("client.create", [ada["id"]]),
        ("client.create", [grace["id"]]),
        ("client.list", [grace["id"], ada["id"]]),
        ("client.list", [ada["id"]]),
        ("client.list", []),
        ("client.read", [ada["id"]]),
        ("client.update", [ada["id"]]),
        ("client.archive", [ada["id"]]),
        ("client.restore", [ada["id"]]),
    ]
    details = [event_details(r["details"]) for r in rows]
    SUMMARY = {"disclosure": "summary"}
    assert details[2] == SUMMARY | {"search": None, "include_archived": False, "count": 2}
    assert details[3] == SUMMARY | {"search": "email", "include_archived": False, "count": 1}
    assert details[4] == SUMMARY | {"search": "name", "include_archived": False, "count": 0}
    assert details[6] == {"fields": ["notes", "phone"]}
    assert details[7] == {"archived": True} and details[8] == {"restored": True}
    # Checked on the details without their request id: a random hex id can contain "555".
    stored = [json.dumps(event_details(r["details"])) for r in rows]
    for phi in ("ada@", "Lovelace", "Grace", "Hopper", "555", "nobody"):
        assert all(phi not in text for text in stored), phi
    assert {r["actor"] for r in rows} == {user_id}


@pytest.fixture
async def pgcrypto_api(
    require_pgcrypto: None, new_database: NewDatabase, data_dir: Path
) -> AsyncIterator[ApiContext]:
    """The app with the database-side PHI backend."""
    async with running_api(await new_database(), data_dir, phi_backend="pgcrypto") as context:
        yield context


@pytest.mark.pgcrypto
async def test_list_and_search_work_with_the_pgcrypto_backend(pgcrypto_api: ApiContext) -> None:
    _, (email,) = await pgcrypto_api.workspace_with_users(None, Role.CLINICIAN)
    async with pgcrypto_api.signed_in(email) as client:
        zoe = await create_client(
            client, first_name="Zoë", last_name="Ängström", phone="555 010 0101"
        )
        ada = await create_client(client, email="ada@example.org")
        assert await listed_ids(client) == [zoe["id"], ada["id"]]  # accents ignored
        assert await listed_ids(client, q="ANGS") == [zoe["id"]]
        assert await listed_ids(client, q="ADA@example.org") == [ada["id"]]
        assert await listed_ids(client, q="(555) 010-0101") == [zoe["id"]]
        changed = await client.patch(f"/clients/{zoe['id']}", json={"first_name": "Zoe"})
        assert changed.status_code == 200 and changed.json()["first_name"] == "Zoe"
    raw = await sql(
        pgcrypto_api, "SELECT last_name FROM clients WHERE id = $1", uuid.UUID(zoe["id"])
    )
    assert "Ängström".encode() not in bytes(raw[0]["last_name"])


async def test_openapi_documents_the_client_routes(api: ApiContext) -> None:
    async with api.client() as client:
        document = (await client.get("http://testserver/openapi.json")).json()
        assert (await client.get("/clients")).status_code == 401
    paths = {p: ops for p, ops in document["paths"].items() if p.startswith("/api/v1/clients")}
    assert set(paths) == {
        "/api/v1/clients",
        "/api/v1/clients/{client_id}",
        "/api/v1/clients/{client_id}/restore",
        "/api/v1/clients/{client_id}/access-log",
        "/api/v1/clients/{client_id}/care-team",
        "/api/v1/clients/{client_id}/break-the-glass",
        "/api/v1/clients/import",
        "/api/v1/clients/search",
        "/api/v1/clients/batch-get",
        "/api/v1/clients/external/{external_id}",
        "/api/v1/clients/{client_id}/export",
    }
    # A search term is PHI: it is never a query parameter.
    for operations in paths.values():
        for operation in operations.values():
            names = {parameter["name"] for parameter in operation.get("parameters", [])}
            assert "q" not in names
    assert set(paths["/api/v1/clients/{client_id}"]) == {"get", "patch", "delete"}
    error_ref = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, operations in paths.items():
        for method, operation in operations.items():
            documented = set(operation["responses"])
            assert {"401", "403", "422"} <= documented, (method, path)
            assert "{client_id}" not in path or "404" in documented, (method, path)
            for status, response in operation["responses"].items():
                if status.startswith("4"):
                    assert response["content"]["application/json"]["schema"] == error_ref
    schemas = document["components"]["schemas"]
    assert schemas["ClientCreate"]["examples"] and schemas["ClientUpdate"]["examples"]
    assert "email_bidx" not in schemas["ClientRead"]["properties"]
    # Lists answer with summaries (issue 24); the access log also as CSV.
    listed = paths["/api/v1/clients"]["get"]["responses"]["200"]["content"]["application/json"]
    assert listed["schema"]["$ref"] == "#/components/schemas/Page_ClientSummary_"
    log = paths["/api/v1/clients/{client_id}/access-log"]["get"]["responses"]["200"]["content"]
    assert set(log) == {"application/json", "text/csv"}
    assert schemas["ClientUpdate"]["properties"]["first_name"]["type"] == "string"
