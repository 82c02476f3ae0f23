"""What a request costs the server, counted rather than timed: database statements and
thread-pool hops on the hot paths (issue 12). Each was a measured cost:

- every checkout pinged the database (`pool_pre_ping`): a round trip per request;
- the commit fence was its own `SELECT set_config(…)` before every COMMIT;
- two dependencies were plain functions, which FastAPI runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
import asyncpg
import pytest
from sqlalchemy import event

from carevault.auth.models import Role
from tests.support.db import NewDatabase
from tests.support.http import ApiContext, running_api
from tests.support.notes import create_note, practice


@pytest.fixture
async def api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """The app without its background sealer, whose statements would be counted too."""
    async with running_api(await new_database(), data_dir, audit_sealer=False) as context:
        yield context


@contextmanager
def statements_of(api: ApiContext) -> Iterator[list[str]]:
    """The SQL the app's engine sends while the block runs (first words of each)."""
    engine = api.app.state.carevault.engine.sync_engine
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(" ".join(statement.split())[:60])

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


async def test_a_note_read_with_a_token_is_three_statements(
    api: ApiContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = api.app.state.carevault.engine.sync_engine
    pings: list[object] = []
    real_ping = engine.dialect.do_ping

    def counted_ping(connection: object) -> bool:
        pings.append(connection)
        return bool(real_ping(connection))

    monkeypatch.setattr(engine.dialect, "do_ping", counted_ping)
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
    async with api.with_token(place.emails[0]) as (client, _):
        first = await client.get(f"/sessions/{note['id']}")  # the token's use is recorded once
        assert first.status_code == 200
        with statements_of(api) as sent:
            read = await client.get(f"/sessions/{note['id']}")
    assert read.status_code == 200
    assert len(sent) == 3, sent
    assert sent[0].startswith("SELECT api_tokens."), sent
    assert sent[1].startswith("SELECT sessions."), sent
    assert sent[2].startswith("INSERT INTO audit_events"), sent
    # The commit fence travels inside the audit INSERT, not as a statement of its own.
    assert not any("set_config" in statement for statement in sent[:2]), sent
    assert pings == [], "a pooled connection was pinged: a round trip per request"


async def test_an_autosave_is_three_statements(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        with statements_of(api) as sent:
            saved = await client.patch(
                f"/sessions/{note['id']}", json={"version": note["version"], "plan": "typed"}
            )
    assert saved.status_code == 200, saved.text
    assert [s.split(" ")[0] for s in sent] == ["SELECT", "UPDATE", "INSERT"], sent


async def test_requests_do_not_hop_to_worker_threads(
    api: ApiContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain-function dependency or endpoint runs in anyio's thread pool: a thread switch
    and a context copy per request. None on these paths."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        hops: list[object] = []
        real = anyio.to_thread.run_sync

        async def counting(function: Any, *args: Any, **kwargs: Any) -> Any:
            hops.append(function)
            return await real(function, *args, **kwargs)

        monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
        for path in (f"/sessions/{note['id']}", "/sessions", "/clients", "/auth/me"):
            answer = await client.get(path)
            assert answer.status_code == 200, (path, answer.text)
    assert hops == []


async def test_a_pooled_connection_the_server_closed_is_replaced_without_a_ping(
    api: ApiContext,
) -> None:
    """Without pre-ping, the checkout still refuses a connection whose socket the server
    closed (a restart, an administrator's pg_terminate_backend): the request succeeds."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        assert (await client.get("/clients")).status_code == 200  # a connection is now pooled
        admin = await asyncpg.connect(api.database_url.replace("+asyncpg", ""))
        try:
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert ended >= 1
        await asyncio.sleep(0.2)  # the terminated sockets' EOF reaches the event loop
        answer = await client.get("/clients")
    assert answer.status_code == 200, answer.text
