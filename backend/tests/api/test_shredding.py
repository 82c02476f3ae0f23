"""`carevault workspaces shred` takes effect on the practice's next request in every process,
and no write in flight commits a value under a destroyed key (issue 23).

A process here holds the practice's data keys in its cache, as every worker does for up to
the refresh interval: the shred runs elsewhere (the real command, in a process of its own,
or `shred` on an engine of its own), so nothing tells this process. What refuses is the
credential lookup, which reads the practice's `shredded_at` in its round trip, and
PostgreSQL, which refuses a write of a shredded practice's PHI (migration 0018)."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text

import carevault
from carevault.auth.models import Role
from carevault.crypto import current_cipher
from carevault.db.engine import create_engine, session_factory
from carevault.lifecycle import reencrypt as reencrypt_module
from carevault.lifecycle.reencrypt import encrypted_tables, reencrypt
from carevault.workspaces.keys import load_workspace_keys, shred
from carevault.workspaces.models import Workspace
from tests.support import factories
from tests.support.cli import carevault as carevault_command
from tests.support.db import libpq_dsn, sql
from tests.support.http import ApiContext
from tests.support.notes import create_note, practice

SOURCE = Path(carevault.__file__).resolve().parents[1]  # the backend/ this test imports
# What tests.support.factories writes into a client, and what the tests try to write.
PHI = ("Ada", "Lovelace", "Analytical", "Migraine", "Babbage", "Hopper", "Grace")


async def workspace_of(api: ApiContext, client_id: str) -> tuple[uuid.UUID, str]:
    [row] = await sql(
        api,
        "SELECT w.id, w.name FROM clients c JOIN workspaces w ON w.id = c.workspace_id "
        "WHERE c.id = $1",
        uuid.UUID(client_id),
    )
    return row["id"], row["name"]


async def stored(api: ApiContext, table: str, row_id: str) -> dict[str, Any]:
    """The row as stored: ciphertexts, version, timestamps."""
    [row] = await sql(api, f"SELECT * FROM {table} WHERE id = $1", uuid.UUID(row_id))
    return dict(row)


async def shred_in_another_process(api: ApiContext, name: str) -> None:
    """`carevault workspaces shred` as an operator runs it: a process of its own, with its
    own key ring, that shares nothing with this one but the database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAREVAULT_")}
    source = str(SOURCE)
    env.update(
        CAREVAULT_DATABASE_URL=api.database_url,
        CAREVAULT_DATA_DIR=str(api.settings.data_dir),
        PYTHONPATH=os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")])),
    )
    command = ["workspaces", "shred", "--workspace", name, "--confirm", name]
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "carevault",
        *command,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, output.decode()


@asynccontextmanager
async def shred_held_open(api: ApiContext, workspace_id: uuid.UUID) -> AsyncIterator[int]:
    """`shred` in a transaction of its own, on an engine of its own, left open while the
    block runs and committed as it ends; yields the transaction's server process id."""
    engine = create_engine(api.database_url, pool_size=1)
    try:
        async with session_factory(engine)() as db, db.begin():
            assert await shred(db, workspace_id) >= 1
            pid = await db.scalar(text("SELECT pg_backend_pid()"))
            assert isinstance(pid, int)
            yield pid
    finally:
        await engine.dispose()


async def until_blocked_or_done(api: ApiContext, holder: int, task: asyncio.Task[Any]) -> None:
    """Wait until `task` has finished or one of its statements waits for a lock that the
    server process `holder` holds, whichever comes first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not task.done():
        waiting = await sql(
            api, "SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))", holder
        )
        if waiting:
            return
        assert loop.time() < deadline, "the task neither finished nor waited for the lock"
        await asyncio.sleep(0.01)


def assert_gone(response: Any) -> None:
    assert response.status_code == 410, response.text
    assert response.json()["error"]["code"] == "workspace_shredded"
    assert not any(word in response.text for word in PHI), response.text


async def test_a_shred_refuses_the_next_request_of_a_process_that_holds_the_keys(
    api: ApiContext,
) -> None:
    """Cookie and token alike: reads, lists and writes answer 410 at once (the cache's
    refresh interval is 300 s), with no PHI, and the process drops its copy of the keys."""
    place = await practice(api, Role.OWNER)
    client_id = place.client_ids[0]
    workspace_id, name = await workspace_of(api, client_id)
    keys = current_cipher().data_keys
    async with (
        api.signed_in(place.emails[0]) as by_cookie,
        api.with_token(place.emails[0]) as (by_token, _),
    ):
        for caller in (by_cookie, by_token):
            read = await caller.get(f"/clients/{client_id}")
            assert read.status_code == 200 and "Lovelace" in read.text
        before = await stored(api, "clients", client_id)
        await shred_in_another_process(api, name)
        # Nothing told this process: its cache still holds the practice's keys, fresh.
        assert keys.loaded(workspace_id.bytes)
        assert not keys.needs_load(workspace_id.bytes, current_cipher().ring)
        responses = []
        for caller in (by_cookie, by_token):
            responses += [
                await caller.get(f"/clients/{client_id}"),
                await caller.get("/clients"),
                await caller.patch(f"/clients/{client_id}", json={"last_name": "Hopper"}),
                await caller.post("/clients", json={"first_name": "Grace", "last_name": "Hopper"}),
            ]
    for response in responses:
        assert_gone(response)
    assert not keys.loaded(workspace_id.bytes)
    assert await stored(api, "clients", client_id) == before
    [count] = await sql(api, "SELECT count(*) FROM clients WHERE workspace_id = $1", workspace_id)
    assert count[0] == 1


@pytest.mark.parametrize("write", ["client_update", "note_autosave"])
async def test_a_write_in_flight_across_a_shred_is_refused_not_sealed_under_the_destroyed_key(
    api: ApiContext, write: str
) -> None:
    """The write was admitted before the shred committed (its credential lookup saw the
    practice live) and seals under the cached key; its statement then waits for the shred's
    lock and fails once the shred commits. A client update goes through the ORM, an autosave
    through the direct pool (carevault.db.direct)."""
    place = await practice(api, Role.OWNER)
    client_id = place.client_ids[0]
    workspace_id, _ = await workspace_of(api, client_id)
    async with api.with_token(place.emails[0]) as (caller, _):
        note = await create_note(caller, client_id)
        assert (await caller.get(f"/clients/{client_id}")).status_code == 200
        if write == "client_update":
            table, row_id = "clients", client_id
            path, body = f"/clients/{client_id}", {"last_name": "Hopper"}
        else:
            table, row_id = "sessions", note["id"]
            path, body = f"/sessions/{note['id']}", {"version": note["version"], "plan": "Hopper"}
        before = await stored(api, table, row_id)
        async with shred_held_open(api, workspace_id) as shredder:
            saving = asyncio.create_task(caller.patch(path, json=body))
            await until_blocked_or_done(api, shredder, saving)
        response = await saving
    assert_gone(response)
    assert await stored(api, table, row_id) == before


async def test_a_shred_waits_for_a_write_in_flight_which_commits_before_it(
    api: ApiContext,
) -> None:
    """The other order: a write that took its lock first commits, then the shred goes on.
    Its value was written before the shred, like every other value of the practice."""
    place = await practice(api, Role.OWNER)
    workspace_id, _ = await workspace_of(api, place.client_ids[0])
    engine = create_engine(api.database_url, pool_size=1)
    try:
        async with api.sessions() as db:
            async with db.begin():
                space = await db.get_one(Workspace, workspace_id)
                written = await factories.client(db, space, last_name="Hopper")
                writer = await db.scalar(text("SELECT pg_backend_pid()"))
                assert isinstance(writer, int)

                async def shred_alone() -> int:
                    async with session_factory(engine)() as other, other.begin():
                        return await shred(other, workspace_id)

                shredding = asyncio.create_task(shred_alone())
                await until_blocked_or_done(api, writer, shredding)
                assert not shredding.done(), "the shred went on while a write was in flight"
            assert await shredding >= 1
    finally:
        await engine.dispose()
    [row] = await sql(
        api,
        "SELECT c.workspace_id, w.shredded_at FROM clients c "
        "JOIN workspaces w ON w.id = c.workspace_id WHERE c.id = $1",
        written.id,
    )
    assert row["workspace_id"] == workspace_id and row["shredded_at"] is not None


async def test_every_table_with_encrypted_columns_refuses_writes_of_a_shredded_practice(
    api: ApiContext,
) -> None:
    guarded = await sql(
        api,
        "SELECT tgrelid::regclass::text AS name, tgname FROM pg_trigger "
        "WHERE tgname LIKE '%\\_refuse\\_shredded\\_%' AND tgenabled = 'O'",
    )
    assert {(row["name"], row["tgname"]) for row in guarded} == {
        (table.name, f"{table.name}_refuse_shredded_{event}")
        for table in encrypted_tables()
        for event in ("insert", "update")
    }

    doomed, live = await practice(api, Role.OWNER), await practice(api, Role.OWNER)
    doomed_id, _ = await workspace_of(api, doomed.client_ids[0])
    live_id, _ = await workspace_of(api, live.client_ids[0])
    async with shred_held_open(api, doomed_id):
        pass
    connection = await asyncpg.connect(libpq_dsn(api.database_url))
    try:
        for table in ("clients", "appointments"):
            update = f"UPDATE {table} SET workspace_id = workspace_id WHERE workspace_id = $1"
            with pytest.raises(asyncpg.PostgresError) as refused:
                await connection.execute(update, doomed_id)
            assert refused.value.sqlstate == "SHRED"
            assert await connection.execute(update, live_id) == "UPDATE 1"
        # An INSERT: a copy of each of the practice's clients under a new id.
        insert = (
            "INSERT INTO clients SELECT (jsonb_populate_record(c, "
            "jsonb_build_object('id', gen_random_uuid()))).* FROM clients c "
            "WHERE workspace_id = $1"
        )
        with pytest.raises(asyncpg.PostgresError) as refused:
            await connection.execute(insert, doomed_id)
        assert refused.value.sqlstate == "SHRED"
        assert await connection.execute(insert, live_id) == "INSERT 0 1"
    finally:
        await connection.close()


async def test_reencrypt_leaves_a_practice_shredded_in_the_middle_of_a_batch(
    api: ApiContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch read the practice's rows and loaded its keys; the shred, by the command in
    another process, commits before the batch writes. The batch is refused whole and read
    again without the practice: its rows keep the ciphertexts they had, every other
    practice's are re-sealed."""
    doomed, kept = await practice(api, Role.OWNER), await practice(api, Role.OWNER)
    doomed_id, doomed_name = await workspace_of(api, doomed.client_ids[0])
    kept_id, _ = await workspace_of(api, kept.client_ids[0])
    before = await stored(api, "clients", doomed.client_ids[0])
    manager = api.app.state.carevault.key_manager
    manager.provider.store(manager.ring.rotated())
    assert manager.refresh()
    real_load = load_workspace_keys
    shredded: list[uuid.UUID] = []

    async def load_then_shred(db: Any, workspace_id: uuid.UUID, **options: Any) -> None:
        await real_load(db, workspace_id, **options)
        if workspace_id == doomed_id and not shredded:
            await shred_in_another_process(api, doomed_name)
            shredded.append(workspace_id)

    monkeypatch.setattr(reencrypt_module, "load_workspace_keys", load_then_shred)
    engine = create_engine(api.database_url, pool_size=2)
    try:
        summary = await reencrypt(engine)
    finally:
        await engine.dispose()
    assert shredded == [doomed_id]
    assert await stored(api, "clients", doomed.client_ids[0]) == before
    assert summary.rows_rewritten["clients"] == 1  # the kept practice's client
    [head] = await sql(
        api,
        "SELECT substring(last_name FROM 1 FOR 5) AS head FROM clients WHERE workspace_id = $1",
        kept_id,
    )
    assert int.from_bytes(head["head"][1:], "big") == manager.ring.encryption_version()


async def test_an_import_into_a_shredded_practice_is_refused_whole(
    api: ApiContext, tmp_path: Path
) -> None:
    """`carevault import clients` says so in one line and writes nothing (it used to end in
    a traceback)."""
    place = await practice(api, Role.OWNER)
    workspace_id, name = await workspace_of(api, place.client_ids[0])
    async with shred_held_open(api, workspace_id):
        pass
    source = tmp_path / "clients.csv"
    source.write_text("first_name,last_name\nGrace,Hopper\n")
    arguments = ["import", "clients", str(source), "--workspace", name]
    code, output = await carevault_command(api, *arguments)
    assert code == 1, output
    assert f"{name!r} was shredded; nothing was imported" in output
    assert "Traceback" not in output and "Hopper" not in output
    [count] = await sql(api, "SELECT count(*) FROM clients WHERE workspace_id = $1", workspace_id)
    assert count[0] == 1
