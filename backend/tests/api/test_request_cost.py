"""What a request costs the server, counted rather than timed: database statements and
thread-pool hops on the hot paths (issue 12). Each was a measured cost:

- every checkout pinged the database (`pool_pre_ping`): a round trip per request;
- the commit fence was its own `SELECT set_config(…)` before every COMMIT;
- two dependencies were plain functions, which FastAPI runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio.to_thread
import asyncpg
import pytest
from sqlalchemy import bindparam, event, select

from carevault.api import readiness
from carevault.auth.models import Role, User
from carevault.clients.models import Client
from carevault.db import direct
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, running_api
from tests.support.notes import create_note, practice
from tests.support.statements import round_trips


@pytest.fixture
async def api(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ApiContext]:
    """The app without its background sealer and readiness keeper, whose statements would be
    counted too (the keeper checks the database every second: on a busy machine a check
    landed inside a measured request)."""
    monkeypatch.setattr(readiness, "READY_REFRESH_SECONDS", 0.0)
    async with running_api(await new_database(), data_dir, audit_sealer=False) as context:
        yield context


def statements_of(api: ApiContext) -> AbstractAsyncContextManager[list[str]]:
    """The app's round trips while the block runs (tests.support.statements.round_trips)."""
    return round_trips(api.app.state.carevault.engine)


async def test_a_note_read_with_a_token_is_two_round_trips(
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
        async with statements_of(api) as sent:
            read = await client.get(f"/sessions/{note['id']}")
    assert read.status_code == 200
    # Each statement is a transaction by itself (carevault.db.alone): no BEGIN, no COMMIT,
    # and the note comes with its audit event (carevault.audit.service.AuditedRows).
    assert len(sent) == 2, sent
    assert sent[0].startswith("SELECT api_tokens."), sent
    assert sent[1].startswith("WITH audited_rows AS (SELECT sessions."), sent
    assert pings == [], "a pooled connection was pinged: a round trip per request"


async def test_an_autosave_is_two_round_trips(api: ApiContext) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        async with statements_of(api) as sent:
            saved = await client.patch(
                f"/sessions/{note['id']}", json={"version": note["version"], "plan": "typed"}
            )
    assert saved.status_code == 200, saved.text
    assert len(sent) == 2, sent
    assert sent[0].startswith("SELECT login_sessions."), sent
    assert sent[1].startswith("WITH audited_rows AS (UPDATE sessions SET"), sent


async def test_a_cached_client_page_is_two_round_trips_and_a_stale_one_is_not_served(
    api: ApiContext,
) -> None:
    """Issue 24: a page of summaries from the cached name index is read together with its
    audit event, in a statement that also checks the index is current: credentials, then
    that. A name changed by another connection makes it return nothing (no event), and the
    request then refreshes the index and answers the new name."""
    place = await practice(api, Role.CLINICIAN)
    async with api.with_token(place.emails[0]) as (client, _):
        assert (await client.get("/clients")).status_code == 200  # caches the names
        assert (await client.get("/clients")).status_code == 200
        async with statements_of(api) as sent:
            warm = await client.get("/clients")
        assert warm.status_code == 200 and warm.json()["items"]
        assert len(sent) == 2, sent
        assert sent[0].startswith("SELECT api_tokens."), sent
        assert sent[1].startswith("WITH audited_rows AS (SELECT clients."), sent

        renamed = warm.json()["items"][0]["id"]
        async with api.sessions() as db, db.begin():
            found = await db.get(Client, renamed)
            assert found is not None
            found.last_name = "Aaronson"
        async with statements_of(api) as sent:
            fresh = await client.get("/clients")
    assert fresh.status_code == 200
    assert fresh.json()["items"][0]["last_name"] == "Aaronson"
    assert len(sent) > 2, sent  # the stale attempt, then the counter and the refresh
    events = await sql(
        api,
        "SELECT action FROM audit_events WHERE details->>'request_id' = $1",
        fresh.headers["X-Request-ID"],
    )
    assert [e["action"] for e in events] == ["client.list"]


async def test_under_care_team_chart_access_a_cached_client_page_is_three_round_trips(
    api: ApiContext,
) -> None:
    """A clinician's cached page of summaries under `care_team`: credentials, their
    care-team ids (sent alone), then the one statement reading the page with its event and
    checking the name index is current; no BEGIN or COMMIT. Only their client is listed."""
    place = await practice(api, Role.CLINICIAN, clients=3)
    await sql(
        api,
        "INSERT INTO care_team_members (workspace_id, client_id, user_id) "
        "SELECT workspace_id, $1::uuid, id FROM users WHERE email = $2",
        place.client_ids[1],
        place.emails[0],
    )
    await sql(api, "UPDATE workspaces SET chart_access = 'care_team'")
    async with api.with_token(place.emails[0]) as (client, _):
        assert (await client.get("/clients")).status_code == 200  # caches the names
        assert (await client.get("/clients")).status_code == 200
        async with statements_of(api) as sent:
            warm = await client.get("/clients")
    assert warm.status_code == 200, warm.text
    assert [item["id"] for item in warm.json()["items"]] == [place.client_ids[1]]
    assert warm.json()["total"] == 1
    assert len(sent) == 3, sent
    assert sent[0].startswith("SELECT api_tokens."), sent
    assert sent[1].startswith("SELECT care_team_members.client_id"), sent
    assert sent[2].startswith("WITH audited_rows AS (SELECT clients."), sent


async def test_a_stale_autosave_is_refused_in_three_round_trips(api: ApiContext) -> None:
    """Two tabs of one note: the second save's version is stale. The save matched no row,
    so one more statement (version and status, no encrypted column) tells a conflict from a
    missing note: sent alone like the others, with no BEGIN and no ROLLBACK around it."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        await client.get(f"/sessions/{note['id']}")  # the session's last use is recorded once
        first = await client.patch(
            f"/sessions/{note['id']}", json={"version": note["version"], "plan": "tab one"}
        )
        assert first.status_code == 200, first.text
        async with statements_of(api) as sent:
            stale = await client.patch(
                f"/sessions/{note['id']}", json={"version": note["version"], "plan": "tab two"}
            )
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "version_conflict"
    assert len(sent) == 3, sent
    assert sent[1].startswith("WITH audited_rows AS (UPDATE sessions SET"), sent
    assert sent[2].startswith("SELECT sessions.version"), sent


async def test_the_count_sees_begin_and_commit(api: ApiContext) -> None:
    """The counts above would miss nothing: a request that needs a transaction (a note
    created, with the checks before its INSERT) shows its BEGIN and COMMIT."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client, statements_of(api) as sent:
        await create_note(client, place.client_ids[0])
    assert sent[0].startswith("SELECT login_sessions."), sent  # alone, before the BEGIN
    assert sum(statement.startswith("BEGIN") for statement in sent) == 1, sent
    assert sum(statement.startswith("COMMIT") for statement in sent) == 1, sent


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


async def test_no_audit_event_no_note_even_in_one_statement(api: ApiContext) -> None:
    """Read and event share one statement: when the event cannot be written, the note's
    content never leaves the database, and nothing of the read is stored."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0], plan="Kept from the reader.")
        admin = await asyncpg.connect(api.database_url.replace("+asyncpg", ""))
        try:
            await admin.execute(
                "CREATE FUNCTION refuse_reads() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "IF NEW.action = 'session.read' THEN RAISE EXCEPTION 'audit store refuses'; "
                "END IF; RETURN NEW; END $$; "
                "CREATE TRIGGER refuse_reads BEFORE INSERT ON audit_events "
                "FOR EACH ROW EXECUTE FUNCTION refuse_reads()"
            )
            read = await client.get(f"/sessions/{note['id']}")
            reads = await admin.fetchval(
                "SELECT count(*) FROM audit_events WHERE action = 'session.read'"
            )
        finally:
            await admin.execute(
                "DROP TRIGGER IF EXISTS refuse_reads ON audit_events; "
                "DROP FUNCTION IF EXISTS refuse_reads()"
            )
            await admin.close()
    assert read.status_code >= 500, read.text
    assert "Kept from the reader" not in read.text
    assert reads == 0


async def test_the_hot_requests_check_out_no_connection_of_the_engine(api: ApiContext) -> None:
    """A note read and an autosave send their statements on the direct pool
    (carevault.db.direct): the engine's pool, its session and its adapter, which cost more
    CPU than the statements themselves, are not used at all."""
    engine = api.app.state.carevault.engine.sync_engine
    checkouts: list[object] = []

    def counted(dbapi_connection: object, *_: object) -> None:
        checkouts.append(dbapi_connection)

    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        await client.get(f"/sessions/{note['id']}")  # the session's last use is recorded once
        event.listen(engine, "checkout", counted)
        try:
            async with statements_of(api) as sent:
                read = await client.get(f"/sessions/{note['id']}")
                saved = await client.patch(
                    f"/sessions/{note['id']}", json={"version": note["version"], "plan": "typed"}
                )
        finally:
            event.remove(engine, "checkout", counted)
    assert read.status_code == 200 and saved.status_code == 200, saved.text
    assert len(sent) == 4, sent
    assert checkouts == [], "a hot request checked out a connection of the engine's pool"


async def test_the_direct_pool_is_used_only_when_the_session_holds_nothing(
    api: ApiContext,
) -> None:
    """A statement sent on another connection would not see (or join) a transaction the
    request's session holds, nor changes waiting in it: then the session's own path."""
    state = api.app.state.carevault
    place = await practice(api, Role.CLINICIAN)
    async with state.db_sessions() as db:
        assert direct.pool_for(db) is not None
        user = await db.scalar(select(User).where(User.email == place.emails[0]))
        assert user is not None
        workspace_id = user.workspace_id
        assert direct.pool_for(db) is None  # the SELECT checked out a connection
        await db.rollback()
        assert direct.pool_for(db) is not None
        user.display_name = "changed"  # waiting to be flushed
        assert direct.pool_for(db) is None
        await db.rollback()
    async with state.db_sessions() as db:  # nothing loaded: an addition alone is pending
        assert direct.pool_for(db) is not None
        db.add(User(workspace_id=workspace_id, email="new@example.test", role="clinician"))
        assert direct.pool_for(db) is None
    async with state.db_sessions() as db:  # a deletion waits in the session too
        doomed = await db.scalar(select(User).where(User.email == place.emails[0]))
        await db.commit()
        assert direct.pool_for(db) is not None
        await db.delete(doomed)
        assert direct.pool_for(db) is None
        await db.rollback()


async def test_every_request_hands_its_engine_connection_back(api: ApiContext) -> None:
    """A session is closed only when it still holds a transaction (closing costs a greenlet
    switch): a commit, a rollback and a refusal each leave no connection checked out."""
    pool = api.app.state.carevault.engine.sync_engine.pool
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])  # a transaction, committed
        assert pool.checkedout() == 0
        answers = [
            await client.get(f"/sessions/{note['id']}"),
            await client.patch(f"/sessions/{note['id']}", json={"version": 99, "plan": "x"}),
            await client.get("/sessions/00000000-0000-0000-0000-000000000000"),
            await client.post("/sessions", json={"client_id": place.client_ids[0], "x": 1}),
            await client.get("/clients", params={"page_size": 5}),
        ]
        assert [answer.status_code for answer in answers] == [200, 409, 404, 422, 200]
        assert pool.checkedout() == 0


async def test_a_direct_statement_binds_its_own_values_and_refuses_a_missing_one(
    api: ApiContext,
) -> None:
    """The positional parameters are planned once per statement: a value of the statement's
    own (a literal in a WHERE) goes out with it, a bound key comes from the caller, and a
    required key the caller left out is an error, never a silent NULL."""
    engine = api.app.state.carevault.engine
    pool = direct.pool_of(engine)
    assert pool is not None
    place = await practice(api, Role.CLINICIAN)
    statement = select(User.email).where(
        User.email == bindparam("email"), User.role == Role.CLINICIAN.value
    )
    rows = await pool.fetch(statement, {"email": place.emails[0]})
    assert [row.email for row in rows] == [place.emails[0]]
    assert await pool.fetch(statement, {"email": "nobody@example.test"}) == []
    with pytest.raises(KeyError, match="'email'"):
        await pool.fetch(statement, {})


async def test_the_calendar_with_names_costs_the_same_at_2_and_12_appointments(
    api: ApiContext,
) -> None:
    """Each appointment carries its client's names and its clinician's display name (issue
    24): read with the appointments in one statement, never a query per appointment."""
    place = await practice(api, Role.OWNER, Role.CLINICIAN, clients=6)
    week = {"start": "2030-03-04T00:00:00Z", "end": "2030-03-11T00:00:00Z"}
    async with api.signed_in(place.emails[0]) as client:
        await client.get("/appointments", params=week)  # the session's last use, recorded once

        async def book(day: int, client_id: str) -> None:
            booked = await client.post(
                "/appointments",
                json={
                    "client_id": client_id,
                    "starts_at": f"2030-03-0{4 + day % 5}T{9 + day // 5:02d}:00:00Z",
                    "ends_at": f"2030-03-0{4 + day % 5}T{9 + day // 5:02d}:50:00Z",
                },
            )
            assert booked.status_code == 201, booked.text

        counts = []
        for first, last in ((0, 2), (2, 12)):
            for day in range(first, last):
                await book(day, place.client_ids[day % 6])
            async with statements_of(api) as sent:
                listed = await client.get("/appointments", params=week)
            assert listed.status_code == 200 and len(listed.json()) == last
            assert all(item["client"]["first_name"] for item in listed.json())
            counts.append(sent)
    assert len(counts[0]) == len(counts[1]), counts
    selects = [s for s in counts[1] if s.startswith("SELECT appointments.")]
    assert len(selects) == 1, counts[1]


async def test_under_care_team_chart_access_a_note_read_and_an_autosave_stay_two_round_trips(
    api: ApiContext,
) -> None:
    """The chart-access predicate is part of the note's own statement (bound parameters; the
    practice's policy comes with the credential lookup): no statement is added."""
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
    await sql(
        api,
        "INSERT INTO care_team_members (workspace_id, client_id, user_id) "
        "SELECT workspace_id, $1::uuid, id FROM users WHERE email = $2",
        place.client_ids[0],
        place.emails[0],
    )
    await sql(api, "UPDATE workspaces SET chart_access = 'care_team'")
    async with api.signed_in(place.emails[0]) as client:
        await client.get(f"/sessions/{note['id']}")  # the session's last use is recorded once
        async with statements_of(api) as sent:
            read = await client.get(f"/sessions/{note['id']}")
        assert read.status_code == 200, read.text
        assert len(sent) == 2, sent
        async with statements_of(api) as sent:
            saved = await client.patch(
                f"/sessions/{note['id']}", json={"version": note["version"], "plan": "typed"}
            )
        assert saved.status_code == 200, saved.text
        assert len(sent) == 2, sent
    # And without the care team the same statements find nothing.
    await sql(api, "DELETE FROM care_team_members")
    async with api.signed_in(place.emails[0]) as client:
        assert (await client.get(f"/sessions/{note['id']}")).status_code == 404
