"""Phone numbers (issue 13, item 8): read in the practice's phone region into E.164, found
however they are written, refused with the reason when they are not possible numbers, and
rows indexed before E.164 found during and after `reindex-phones`."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.models import Role
from carevault.clients.models import Client
from carevault.clients.phone_index import reindex_phones
from carevault.crypto import PracticeBlindIndex, current_cipher
from carevault.db.engine import create_engine
from carevault.workspaces.keys import load_workspace_keys
from tests.support.clients import create_client, listed_ids
from tests.support.db import sql
from tests.support.http import ApiContext, error_of, event_details


async def test_a_number_is_found_however_it_is_written(api: ApiContext) -> None:
    """The regression: digits-only indexes compared 15550104477 with 5550104477."""
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        stored = await create_client(client, phone="+1 (555) 010-4477")
        assert stored["phone"] == "+1 (555) 010-4477"  # kept as written
        for q in ("555-010-4477", "(555) 010 4477", "1 555 010 4477", "+1.555.010.4477"):
            assert await listed_ids(client, q=q) == [stored["id"]], q
        assert await listed_ids(client, q="555-010-4478") == []


async def set_region(client: httpx.AsyncClient, region: str) -> httpx.Response:
    return await client.patch("/workspace", json={"phone_region": region})


async def test_a_uk_practice_reads_national_numbers_as_uk_ones(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        assert (await set_region(client, "GB")).status_code == 200
        london = await create_client(client, phone="+44 20 7946 0018")
        written_nationally = await create_client(client, first_name="Bea", phone="020 7946 0019")
        assert await listed_ids(client, q="020 7946 0018") == [london["id"]]
        assert await listed_ids(client, q="+44 20 7946 0019") == [written_nationally["id"]]
        assert await listed_ids(client, q="0044 20 7946 0019") == [written_nationally["id"]]
        # In a US practice the same national number is no possible number: refused.
        await set_region(client, "US")
        refused = await client.post(
            "/clients", json={"first_name": "A", "last_name": "B", "phone": "020 7946 0018"}
        )
        assert refused.status_code == 422
        assert error_of(refused)["details"][0]["reason"] == "too_long"
        assert "country code" in error_of(refused)["message"]


async def test_owners_set_the_phone_region_and_me_reports_it(api: ApiContext) -> None:
    _, (owner_email, clinician_email) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN
    )
    async with api.signed_in(owner_email) as owner, api.signed_in(clinician_email) as other:
        assert (await owner.get("/auth/me")).json()["workspace"]["phone_region"] == "US"
        changed = await set_region(owner, "gb")
        assert changed.status_code == 200 and changed.json()["phone_region"] == "GB"
        assert changed.json()["time_zone"] == "UTC"  # unchanged: only what is sent changes
        assert (await other.get("/auth/me")).json()["workspace"]["phone_region"] == "GB"
        for bad in ("XX", "GBR", "", None):
            refused = await owner.patch("/workspace", json={"phone_region": bad})
            assert refused.status_code == 422, bad
            assert error_of(refused)["details"][0]["field"] == "body.phone_region"
        nothing = await owner.patch("/workspace", json={})
        assert nothing.status_code == 422 and error_of(nothing)["code"] == "no_changes"
        both = await owner.patch(
            "/workspace", json={"time_zone": "Europe/London", "phone_region": "IE"}
        )
        assert both.json()["time_zone"] == "Europe/London" and both.json()["phone_region"] == "IE"
        assert (await set_region(other, "FR")).status_code == 403
    events = await sql(
        api,
        "SELECT details FROM audit_events WHERE action = 'workspace.update' ORDER BY occurred_at",
    )
    assert [event_details(e["details"]) for e in events] == [
        {"phone_region": "GB", "previous_phone_region": "US"},
        {
            "time_zone": "Europe/London",
            "previous_time_zone": "UTC",
            "phone_region": "IE",
            "previous_phone_region": "GB",
        },
    ]


async def test_impossible_numbers_are_refused_with_the_reason_and_the_field(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    cases = {
        "555 0100": "local_only",  # no area code
        "555 010": "too_short",
        "+1 555 010 4477 12": "too_long",
        "+999 555 0100": "unknown_country_code",
        "call the office": "not_a_number",
        "+41 22 222 22 222": "invalid_length",  # ten digits: Swiss numbers have 9 or 11+
    }
    async with api.signed_in(email) as client:
        for typed, reason in cases.items():
            body = {"first_name": "A", "last_name": "B", "emergency_contact_phone": typed}
            refused = await client.post("/clients", json=body)
            assert refused.status_code == 422, typed
            error = error_of(refused)
            assert error["code"] == "validation_error"
            [detail] = error["details"]
            assert detail["field"] == "body.emergency_contact_phone" and detail["reason"] == reason
            assert typed not in json.dumps(error)  # the number is PHI: never echoed

        both = await client.post(
            "/clients",
            json={
                "first_name": "A",
                "last_name": "B",
                "phone": "12",
                "emergency_contact_phone": "x",
            },
        )
        assert [d["field"] for d in error_of(both)["details"]] == [
            "body.phone",
            "body.emergency_contact_phone",
        ]
        ada = await create_client(client, phone="555 010 4477")
        edit = await client.patch(f"/clients/{ada['id']}", json={"phone": "555 0100"})
        assert edit.status_code == 422 and error_of(edit)["details"][0]["field"] == "body.phone"
        assert (await client.get(f"/clients/{ada['id']}")).json()["phone"] == "555 010 4477"
        # A cleared phone is no number to read, and stops being found.
        cleared = await client.patch(f"/clients/{ada['id']}", json={"phone": None})
        assert cleared.status_code == 200
        assert await listed_ids(client, q="555 010 4477") == []
    assert await sql(api, "SELECT 1 FROM clients WHERE phone_bidx IS NOT NULL") == []


async def test_a_search_term_that_is_no_number_in_the_region_falls_back(api: ApiContext) -> None:
    """Not a possible number in the practice's region: read as an international number
    without its +, and otherwise matched on its digits alone, as before E.164."""
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        london = await create_client(client, phone="+44 20 7946 0018")
        assert await listed_ids(client, q="44 20 7946 0018") == [london["id"]]
        # A legacy row whose stored text never read as a number keeps a digits-only index.
        odd = await create_client(client, first_name="Odd", phone="555 010 0100")
        await make_legacy(api, space.id, odd["id"], "555 010 0100 then 222")
        assert await listed_ids(client, q="555 010 0100 then 222") == [odd["id"]]
        assert await listed_ids(client, q="5550100100222") == [odd["id"]]
        assert await listed_ids(client, q="7946 0018") == []  # a phone still matches exactly


async def make_legacy(api: ApiContext, workspace_id: uuid.UUID, client_id: Any, text: str) -> None:
    """Turn a row into what the code before migration 0016 wrote: `text` as the phone (sealed
    as the ORM seals it) and its digits-only index, with no region."""
    engine = create_engine(api.database_url, pool_size=1)
    try:
        async with AsyncSession(engine) as db, db.begin():
            await load_workspace_keys(db, workspace_id)
            row = await db.get_one(Client, uuid.UUID(client_id))
            row.phone = text
            row.phone_bidx = PracticeBlindIndex(current_cipher()).phone_digits(
                text, str(workspace_id)
            )
            row.phone_bidx_region = None
    finally:
        await engine.dispose()


async def test_rows_indexed_before_e164_are_found_during_and_after_reindexing(
    api: ApiContext,
) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        ada = await create_client(client)
        bea = await create_client(client, first_name="Bea")
        grace = await create_client(client, first_name="Grace")
        await make_legacy(api, space.id, ada["id"], "+1 (555) 010-4477")
        await make_legacy(api, space.id, bea["id"], "(555) 010-4488")
        await make_legacy(api, space.id, grace["id"], "ext. 12")  # never a number
        before = await sql(api, "SELECT id, updated_at FROM clients ORDER BY id")

        # Waiting: found as before E.164, by the same digits.
        assert await listed_ids(client, q="1 555 010 4477") == [ada["id"]]
        assert await listed_ids(client, q="(555) 010-4488") == [bea["id"]]
        assert await listed_ids(client, q="555-010-4477") == []  # the bug, until reindexed

        engine = create_engine(api.database_url, pool_size=2)
        try:
            summary = await reindex_phones(engine, batch_size=1)
            again = await reindex_phones(engine)
        finally:
            await engine.dispose()
        assert summary.reindexed == 2 and summary.rows_left == 0 and not summary.unopenable
        assert summary.not_numbers == [uuid.UUID(grace["id"])]
        assert again.reindexed == 0 and again.not_numbers == [uuid.UUID(grace["id"])]

        assert await listed_ids(client, q="555-010-4477") == [ada["id"]]
        assert await listed_ids(client, q="+1 555 010 4477") == [ada["id"]]
        assert await listed_ids(client, q="555.010.4488") == [bea["id"]]
        # Stored text as written; a reindex is not an edit.
        assert (await client.get(f"/clients/{ada['id']}")).json()["phone"] == "+1 (555) 010-4477"
    assert await sql(api, "SELECT id, updated_at FROM clients ORDER BY id") == before
    regions = await sql(api, "SELECT id, phone_bidx_region FROM clients")
    assert {str(r["id"]): r["phone_bidx_region"] for r in regions} == {
        ada["id"]: "US",
        bea["id"]: "US",
        grace["id"]: None,
    }


async def test_stored_numbers_keep_their_meaning_when_the_region_changes(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        boston = await create_client(client, phone="617 555 0142")
        await set_region(client, "GB")
        # Read as GB now, the national text would be another number: the row keeps +1.
        assert await listed_ids(client, q="+1 617 555 0142") == [boston["id"]]
        assert await listed_ids(client, q="617 555 0142") == []
        london = await create_client(client, first_name="Bea", phone="020 7946 0018")
        assert await listed_ids(client, q="+44 20 7946 0018") == [london["id"]]
    regions = await sql(api, "SELECT phone_bidx_region FROM clients ORDER BY created_at")
    assert [r["phone_bidx_region"] for r in regions] == ["US", "GB"]


async def test_import_reads_phones_in_the_practice_region(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        await set_region(client, "GB")
        csv_headers = {"Content-Type": "text/csv"}
        bad = await client.post(
            "/clients/import",
            content="first_name,last_name,phone,emergency_phone\n"
            "Ada,L,020 7946 0018,\nBea,M,020 79,\nCem,N,,+1 555 0100\n",
            headers=csv_headers,
        )
        assert bad.status_code == 422
        assert [(d["line"], d["field"]) for d in error_of(bad)["details"]] == [
            (3, "phone"),
            (4, "emergency_contact_phone"),
        ]
        assert "020 79" not in bad.text
        assert await sql(api, "SELECT 1 FROM clients") == []

        imported = await client.post(
            "/clients/import",
            content="first_name,last_name,mobile\nAda,L,020 7946 0018\nBea,M,+1 555 010 4477\n"
            "Cem,N,\n",
            headers=csv_headers,
        )
        assert imported.status_code == 201, imported.text
        found = await client.post("/clients/search", json={"q": "+44 20 7946 0018"})
        assert [c["first_name"] for c in found.json()["items"]] == ["Ada"]
        found = await client.post("/clients/search", json={"q": "001 555 010 4477"})
        assert [c["first_name"] for c in found.json()["items"]] == ["Bea"]
    regions = await sql(api, "SELECT phone_bidx_region, phone IS NULL AS none FROM clients")
    assert sorted((r["phone_bidx_region"] or "-", r["none"]) for r in regions) == [
        ("-", True),
        ("GB", False),
        ("GB", False),
    ]
