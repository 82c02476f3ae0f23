"""The client list's name cache against real PostgreSQL: the same order, search, archived
filter and totals as before it; every write path seen on the next request (ORM, raw SQL,
COPY, another transaction) and rolled-back or uncommitted ones never; re-encryption costs no
rebuild; a shred and a key retirement drop cached names at once; the cap evicts; /metrics
reports it; and a warm page decrypts the same number of values at 100 and 2,000 clients."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from sqlalchemy import select

from carevault.auth.models import Role
from carevault.auth.rate_limit import RateLimiter
from carevault.clients import listing
from carevault.clients.listing import ClientListCache
from carevault.crypto import current_cipher
from carevault.crypto.registry import operation_counts
from carevault.db.engine import create_engine
from carevault.lifecycle.reencrypt import reencrypt
from tests.support.client_names import FIRST_NAMES, LAST_NAMES, reference_order
from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api

Names = list[tuple[uuid.UUID, str, str, bool]]


def cache_of(api: ApiContext) -> ClientListCache:
    cache = api.app.state.carevault.client_list_cache
    assert isinstance(cache, ClientListCache)
    return cache


async def connect(api: ApiContext) -> asyncpg.Connection:
    return await asyncpg.connect(api.database_url.replace("+asyncpg", ""))


def sealed_client(workspace_id: uuid.UUID, first: str, last: str) -> tuple[Any, ...]:
    """A row as another program would write it: values sealed for their row, no ORM."""
    client_id = uuid.uuid4()
    binding = (workspace_id.bytes, client_id.bytes)
    cipher = current_cipher()
    return (
        client_id,
        workspace_id,
        cipher.seal(first, binding, b"clients.first_name"),
        cipher.seal(last, binding, b"clients.last_name"),
    )


async def insert_raw(connection: asyncpg.Connection, row: tuple[Any, ...]) -> None:
    await connection.execute(
        "INSERT INTO clients (id, workspace_id, first_name, last_name) VALUES ($1, $2, $3, $4)",
        *row,
    )


async def counter(api: ApiContext, workspace_id: uuid.UUID) -> int:
    connection = await connect(api)
    try:
        value = await connection.fetchval(
            "SELECT coalesce(sum(changes), 0) FROM client_list_changes WHERE workspace_id = $1",
            workspace_id,
        )
    finally:
        await connection.close()
    return int(value)


async def every_page(
    client: httpx.AsyncClient, *, q: str | None = None, include_archived: bool = False
) -> tuple[list[uuid.UUID], int]:
    """All ids, walking pages of 7 (GET /clients, or POST /clients/search with `q`)."""
    ids: list[uuid.UUID] = []
    page, total = 1, None
    while True:
        body: dict[str, Any] = {"page": page, "page_size": 7, "include_archived": include_archived}
        if q is None:
            response = await client.get("/clients", params=body)
        else:
            response = await client.post("/clients/search", json={**body, "q": q})
        assert response.status_code == 200, response.text
        found = response.json()
        assert total is None or found["total"] == total
        total = found["total"]
        if not found["items"]:
            break
        ids += [uuid.UUID(item["id"]) for item in found["items"]]
        page += 1
    assert total is not None
    return ids, total


async def assert_lists_match(client: httpx.AsyncClient, names: Names) -> None:
    for include_archived in (False, True):
        for q in (None, "a", "ANG", "de v", "zoë", "Łuk", "ǆ", "ada l", "nobody"):
            expected = reference_order(names, q, include_archived)
            assert await every_page(client, q=q, include_archived=include_archived) == (
                expected,
                len(expected),
            ), (q, include_archived)


async def test_order_search_archived_and_totals_are_those_before_the_cache_through_changes(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    # Hundreds of searches (5 rate-limit units each) in well under a minute from one session.
    api.app.state.carevault.rate_limiter = RateLimiter(1_000_000)
    chance = random.Random(12)
    names: Names = []
    async with api.signed_in(email) as client:
        for _ in range(40):
            first, last = chance.choice(FIRST_NAMES), chance.choice(LAST_NAMES)
            created = await client.post("/clients", json={"first_name": first, "last_name": last})
            assert created.status_code == 201
            names.append((uuid.UUID(created.json()["id"]), first, last, False))
        for position in range(0, 40, 6):
            client_id, first, last, _ = names[position]
            assert (await client.delete(f"/clients/{client_id}")).status_code == 204
            names[position] = (client_id, first, last, True)
        await assert_lists_match(client, names)
        cache = cache_of(api)
        assert (cache.stats.builds, cache.stats.refreshes) == (1, 0)
        assert cache.stats.hits > 10

        # Renamed, restored, archived, added: only the changed clients are opened again.
        opened = cache.stats.names_opened
        renamed_id = names[1][0]
        renamed = await client.patch(f"/clients/{renamed_id}", json={"last_name": "Ångström"})
        assert renamed.status_code == 200
        names[1] = (renamed_id, names[1][1], "Ångström", False)
        assert (await client.post(f"/clients/{names[0][0]}/restore")).status_code == 200
        names[0] = (*names[0][:3], False)
        assert (await client.delete(f"/clients/{names[2][0]}")).status_code == 204
        names[2] = (*names[2][:3], True)
        added = await client.post("/clients", json={"first_name": "Zoë", "last_name": "ångström"})
        names.append((uuid.UUID(added.json()["id"]), "Zoë", "ångström", False))
        await assert_lists_match(client, names)
        assert (cache.stats.builds, cache.stats.refreshes) == (1, 1)
        assert cache.stats.names_opened == opened + 2 * 2  # the renamed and the added client

        # A change that no list shows (a phone number) leaves the cache as it is.
        hits = cache.stats.hits
        await client.patch(f"/clients/{names[3][0]}", json={"phone": "+1 555 010 0100"})
        await assert_lists_match(client, names)
        assert cache.stats.refreshes == 1 and cache.stats.hits > hits


async def test_raw_sql_and_copy_by_another_connection_are_seen_on_the_next_request(
    api: ApiContext,
) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        assert await every_page(client) == ([], 0)  # loads the practice's keys, caches
        connection = await connect(api)
        try:
            inserted = sealed_client(space.id, "Grace", "Hopper")
            await insert_raw(connection, inserted)
            assert (await every_page(client))[0] == [inserted[0]]

            copied = [sealed_client(space.id, "Ada", "Lovelace") for _ in range(3)]
            await connection.copy_records_to_table(
                "clients",
                records=copied,
                columns=["id", "workspace_id", "first_name", "last_name"],
            )
            listed, total = await every_page(client)
            assert total == 4 and set(listed[1:]) == {row[0] for row in copied}
            assert listed[0] == inserted[0]  # Hopper before Lovelace

            binding = (space.id.bytes, copied[2][0].bytes)
            await connection.execute(
                "UPDATE clients SET first_name = $1, last_name = $2 WHERE id = $3",
                current_cipher().seal("Grace", binding, b"clients.first_name"),
                current_cipher().seal("Abbott", binding, b"clients.last_name"),
                copied[2][0],
            )
            assert (await every_page(client))[0][0] == copied[2][0]
            assert (await every_page(client, q="abbo"))[0] == [copied[2][0]]

            await connection.execute(
                "UPDATE clients SET archived_at = now() WHERE id = $1", inserted[0]
            )
            assert inserted[0] not in (await every_page(client))[0]
            assert inserted[0] in (await every_page(client, include_archived=True))[0]

            await connection.execute("DELETE FROM clients WHERE id = $1", copied[0][0])
            assert (await every_page(client, include_archived=True))[1] == 3
        finally:
            await connection.close()
    cache = cache_of(api)
    assert cache.stats.builds == 1 and cache.stats.refreshes == 5


async def test_a_rolled_back_write_is_never_seen_and_costs_no_rebuild(api: ApiContext) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        await client.post("/clients", json={"first_name": "Ada", "last_name": "Lovelace"})
        assert (await every_page(client))[1] == 1
        before = await counter(api, space.id)
        cache = cache_of(api)
        refreshes, builds = cache.stats.refreshes, cache.stats.builds
        connection = await connect(api)
        try:
            transaction = connection.transaction()
            await transaction.start()
            await insert_raw(connection, sealed_client(space.id, "Never", "Committed"))
            assert (await every_page(client))[1] == 1  # not committed: not seen
            await transaction.rollback()
        finally:
            await connection.close()
        assert (await every_page(client))[1] == 1
        assert await every_page(client, q="never") == ([], 0)
    assert await counter(api, space.id) == before
    assert (cache.stats.refreshes, cache.stats.builds) == (refreshes, builds)


async def test_a_write_in_progress_is_seen_once_it_commits(api: ApiContext) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        assert (await every_page(client))[1] == 0
        connection = await connect(api)
        try:
            transaction = connection.transaction()
            await transaction.start()
            row = sealed_client(space.id, "Grace", "Hopper")
            await insert_raw(connection, row)
            assert (await every_page(client))[1] == 0
            await transaction.commit()
        finally:
            await connection.close()
        assert await every_page(client, q="hop") == ([row[0]], 1)


async def test_writers_of_one_practice_never_wait_for_each_other_on_the_counter(
    api: ApiContext,
) -> None:
    """The counter is appended to, never updated in place: a long import holding its
    transaction open does not block a clinician adding a client to the same practice."""
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        await every_page(client)  # loads the practice's keys for sealing below
    before = await counter(api, space.id)
    importer, clinician = await connect(api), await connect(api)
    try:
        held = importer.transaction()
        await held.start()
        await insert_raw(importer, sealed_client(space.id, "Bulk", "Import"))
        async with clinician.transaction():
            await clinician.execute("SET LOCAL lock_timeout = '2s'")
            await asyncio.wait_for(
                insert_raw(clinician, sealed_client(space.id, "Walk", "In")), timeout=5
            )
            await clinician.execute(
                "UPDATE clients SET archived_at = now() WHERE workspace_id = $1 "
                "AND archived_at IS NULL",
                space.id,
            )
        await held.commit()
    finally:
        await importer.close()
        await clinician.close()
    assert await counter(api, space.id) == before + 3


async def test_a_view_holding_its_own_uncommitted_changes_is_never_cached(
    api: ApiContext,
) -> None:
    """Otherwise: transaction A lists with its own new client, rolls back; B, which began
    before the latest commit, commits one change; the counter is then what A saw, and every
    request would be served A's client, who never existed, without B's."""
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    state = api.app.state.carevault
    cache = cache_of(api)
    async with api.signed_in(email) as client:
        await client.post("/clients", json={"first_name": "Ada", "last_name": "Lovelace"})
        assert (await every_page(client))[1] == 1
        connection = await connect(api)
        try:
            early = connection.transaction()
            await early.start()
            await connection.execute("SELECT 1")  # its now() is from before the next change
            async with state.db_sessions() as db:
                await db.execute(select(1))  # transaction A begins: its now() is fixed
                await client.post("/clients", json={"first_name": "Grace", "last_name": "Hopper"})
                ghost = sealed_client(space.id, "Ghost", "Uncommitted")
                await (await db.connection()).exec_driver_sql(
                    "INSERT INTO clients (id, workspace_id, first_name, last_name) "
                    "VALUES ($1, $2, $3, $4)",
                    ghost,
                )
                index = await listing.name_index(db, cache, space.id)
                assert ghost[0].int in index.entries  # A sees its own client...
                await db.rollback()  # ...which never existed
            late = sealed_client(space.id, "Late", "Committer")
            await insert_raw(connection, late)
            await early.commit()
        finally:
            await connection.close()
        listed, total = await every_page(client)
    assert total == 3 and ghost[0] not in listed and late[0] in listed


async def test_a_warm_page_decrypts_as_much_at_2000_clients_as_at_100(
    api: ApiContext,
) -> None:
    """The regression this cache exists for: the list used to decrypt both names of every
    client of the practice per request (4,150 values here at 2,000 clients, 350 at 100)."""
    decrypted: dict[int, int] = {}
    for size in (100, 2_000):
        _, (email,) = await api.workspace_with_users(None, Role.OWNER)
        rows = io.StringIO()
        writer = csv.writer(rows)
        writer.writerow(["first_name", "last_name", "email", "date_of_birth"])
        for n in range(size):
            writer.writerow(
                [FIRST_NAMES[n % 10], f"{LAST_NAMES[n % 8]} {n}", f"c{n}@example.org", "1980-02-03"]
            )
        async with api.signed_in(email) as client:
            imported = await client.post(
                "/clients/import",
                content=rows.getvalue().encode(),
                headers={"Content-Type": "text/csv"},
            )
            assert imported.status_code == 201, imported.text
            for _ in range(2):  # the first request fills the cache
                first = await client.get("/clients", params={"page_size": 50})
            counts = operation_counts()
            before = counts.decrypted
            page = await client.get("/clients", params={"page_size": 50, "page": 2})
            decrypted[size] = counts.decrypted - before
            assert page.json()["total"] == size and len(page.json()["items"]) == 50
            assert first.json()["items"][0]["id"] != page.json()["items"][0]["id"]
    # A page is summaries (issue 24): the names come from the cache, the email is not shown;
    # only each date of birth is opened.
    assert decrypted[100] == decrypted[2_000] == 50


async def test_reencryption_rewrites_names_without_invalidating_the_cache(
    api: ApiContext,
) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        for last in ("Hopper", "Lovelace", "Turing"):
            await client.post("/clients", json={"first_name": "A", "last_name": last})
        listed = await every_page(client)
        before = await counter(api, space.id)
        manager = api.app.state.carevault.key_manager
        manager.provider.store(manager.ring.rotated())
        assert manager.refresh()
        engine = create_engine(api.database_url, pool_size=1)
        try:
            summary = await reencrypt(engine)
        finally:
            await engine.dispose()
        assert summary.rows_rewritten["clients"] == 3
        assert await counter(api, space.id) == before
        cache = cache_of(api)
        refreshes, builds = cache.stats.refreshes, cache.stats.builds
        assert await every_page(client) == listed
    assert (cache.stats.refreshes, cache.stats.builds) == (refreshes, builds)


async def test_a_shred_by_another_process_drops_the_cached_names_at_once(
    api: ApiContext,
) -> None:
    """This process still holds the practice's data keys and names; the request's credential
    lookup reads `shredded_at`, refuses it and drops both (the list's own counter statement
    reads `shredded_at` too, for a shred between the two)."""
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        await client.post("/clients", json={"first_name": "Ada", "last_name": "Lovelace"})
        assert (await every_page(client, q="love"))[1] == 1
        assert cache_of(api).get(space.id) is not None
        connection = await connect(api)
        try:  # what `carevault workspaces shred` does, from another process
            await connection.execute("DELETE FROM workspace_keys WHERE workspace_id = $1", space.id)
            await connection.execute(
                "UPDATE workspaces SET shredded_at = now() WHERE id = $1", space.id
            )
        finally:
            await connection.close()
        for response in (
            await client.post("/clients/search", json={"q": "love"}),
            await client.get("/clients"),
        ):
            assert response.status_code == 410, response.text
            assert response.json()["error"]["code"] == "workspace_shredded"
    assert cache_of(api).get(space.id) is None


async def test_names_under_a_retired_master_version_leave_the_cache(api: ApiContext) -> None:
    """Retired without re-encryption (`keys retire --force`): the names can no longer be
    opened, so a cached copy must not keep matching searches or counting in totals."""
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        created = await client.post("/clients", json={"first_name": "Ada", "last_name": "Lovelace"})
        assert await every_page(client, q="love") == ([uuid.UUID(created.json()["id"])], 1)
        manager = api.app.state.carevault.key_manager
        manager.provider.store(manager.ring.rotated().with_retired(1))
        assert manager.refresh()
        assert await every_page(client, q="love") == ([], 0)
        assert await every_page(client) == ([], 0)
    connection = await connect(api)
    try:
        failures = await connection.fetch(
            "SELECT array_to_json(resource_ids)::text AS ids FROM audit_events "
            "WHERE action = 'phi.decryption_failed' AND workspace_id = $1",
            space.id,
        )
    finally:
        await connection.close()
    assert failures and all(json.loads(f["ids"]) == [created.json()["id"]] for f in failures)


async def test_an_unreadable_name_is_left_out_and_audited_on_every_request(
    api: ApiContext,
) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as client:
        ada = (await client.post("/clients", json={"first_name": "Ada", "last_name": "L"})).json()
        grace = (
            await client.post("/clients", json={"first_name": "Grace", "last_name": "Hopper"})
        ).json()
        connection = await connect(api)
        try:
            stored = await connection.fetchval(
                "SELECT last_name FROM clients WHERE id = $1", uuid.UUID(ada["id"])
            )
            tampered = bytes(stored[:-1]) + bytes([stored[-1] ^ 1])
            await connection.execute(
                "UPDATE clients SET last_name = $1 WHERE id = $2", tampered, uuid.UUID(ada["id"])
            )
            for _ in range(2):
                assert await every_page(client) == ([uuid.UUID(grace["id"])], 1)
            cache_of(api).clear()  # a process's first list of the practice meets it too
            assert await every_page(client) == ([uuid.UUID(grace["id"])], 1)
            events = await connection.fetch(
                "SELECT array_to_json(resource_ids)::text AS ids FROM audit_events "
                "WHERE action = 'phi.decryption_failed' AND workspace_id = $1",
                space.id,
            )
            # every_page reads two pages per walk: each request names the client it left out.
            assert [json.loads(e["ids"]) for e in events] == [[ada["id"]]] * 6
            await connection.execute(
                "UPDATE clients SET last_name = $1 WHERE id = $2", stored, uuid.UUID(ada["id"])
            )
            assert (await every_page(client))[1] == 2
        finally:
            await connection.close()


async def test_the_cap_evicts_and_metrics_report_the_cache_without_ids(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(
        await new_database(), data_dir, client_list_cache_size=3_000, metrics_token="scrape"
    ) as api:
        spaces = []
        for _ in range(2):
            space, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
            spaces.append(space.id)
            async with api.signed_in(email) as client:
                for last in ("Hopper", "Lovelace", "Turing"):
                    await client.post("/clients", json={"first_name": "Ada", "last_name": last})
                await every_page(client)
                await every_page(client)
        cache = cache_of(api)
        assert len(cache) == 1 and cache.get(spaces[1]) is not None
        assert cache.stats.evictions == 1 and 0 < cache.nbytes <= 3_000
        async with api.client() as client:
            scraped = await client.get(
                "http://testserver/metrics", headers={"Authorization": "Bearer scrape"}
            )
        assert scraped.status_code == 200
        lines = [line for line in scraped.text.splitlines() if "client_list_cache" in line]
        values = {
            line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
            for line in lines
            if not line.startswith("#")
        }
        assert values["carevault_client_list_cache_practices"] == 1
        assert values["carevault_client_list_cache_bytes"] == cache.nbytes
        assert values["carevault_client_list_cache_max_bytes"] == 3_000
        assert values['carevault_client_list_cache_lookups_total{result="build"}'] == 2
        assert values['carevault_client_list_cache_lookups_total{result="hit"}'] >= 2
        assert values["carevault_client_list_cache_evictions_total"] == 1
        assert values["carevault_client_list_cache_names_opened_total"] == 12
        for line in lines:
            assert not any(str(space) in line for space in spaces)
            assert "Hopper" not in line and "Ada" not in line


async def test_a_cache_size_of_zero_serves_every_list_uncached(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with running_api(await new_database(), data_dir, client_list_cache_size=0) as api:
        _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
        async with api.signed_in(email) as client:
            await client.post("/clients", json={"first_name": "Ada", "last_name": "Lovelace"})
            assert (await every_page(client, q="love"))[1] == 1
            assert (await every_page(client))[1] == 1
        cache = cache_of(api)
        assert len(cache) == 0 and cache.stats.hits == 0 and cache.stats.bypasses == 4
