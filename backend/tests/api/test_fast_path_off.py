"""CAREVAULT_DB_FAST_PATH=false (carevault.db.fastpath): every caller of the fast path gives
the same answers and writes the same audit events through SQLAlchemy's public API, in the
session's transaction, and nothing of the fast path runs: no direct pool, no statement sent
without BEGIN, no private attribute read."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest

from carevault.auth.models import Role
from carevault.db import direct, fastpath
from carevault.db.direct import DirectPool
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, running_api
from tests.support.notes import create_note, practice
from tests.support.statements import round_trips

# What differs between two answers to the same request by design, whatever the path (each
# app counts its own requests against the limits, in windows of its own).
_PER_REQUEST_HEADERS = frozenset({"date", "x-request-id", "ratelimit-remaining", "ratelimit-reset"})
# What an autosave changes: the second app saves the version the first one made.
_PER_SAVE = frozenset({"version", "updated_at", "etag", "last-modified"})


def _answer(response: httpx.Response, *, drop: frozenset[str] = frozenset()) -> Any:
    headers = {
        name: value
        for name, value in response.headers.items()
        if name not in _PER_REQUEST_HEADERS | drop
    }
    body = response.json()
    if isinstance(body, dict):
        body = {key: value for key, value in body.items() if key not in drop}
    return response.request.method, response.request.url.path, response.status_code, headers, body


async def _reads(
    api: ApiContext,
    token: httpx.AsyncClient,
    cookie: httpx.AsyncClient,
    feed: httpx.AsyncClient,
    note: Any,
) -> list[Any]:
    """Every caller of the fast path that reads: a token's and a sign-in session's
    credentials (carevault.auth.service), a note read (AuditedRows), a stale autosave (the
    note's state, notes.service), the client list twice (the second from the cached name
    index, clients.listing) and under care-team chart access (clients.access), and the
    change feed (events.feed)."""
    answers = [
        _answer(await token.get(f"/sessions/{note['id']}")),
        _answer(await cookie.get(f"/sessions/{note['id']}")),
        _answer(await token.get("/clients")),
        _answer(await token.get("/clients")),
        _answer(await feed.get("/events")),  # not audited: ids and types only
        _answer(
            await cookie.patch(
                f"/sessions/{note['id']}", json={"version": note["version"] - 1, "plan": "old"}
            )
        ),
    ]
    await sql(api, "UPDATE workspaces SET chart_access = 'care_team'")
    try:
        answers.append(_answer(await token.get("/clients")))
    finally:
        await sql(api, "UPDATE workspaces SET chart_access = 'practice'")
    return answers


async def _events_since(api: ApiContext, last: int) -> tuple[list[Any], int]:
    """The audit events written after id `last`, as the tests compare them (each request's
    own id set aside), and the last id."""
    rows = await sql(
        api,
        "SELECT id, action, resource_type, resource_ids::text[] AS ids, "
        "actor_user_id::text AS user_id, actor_token_id::text AS token_id, details "
        "FROM audit_events WHERE id > $1 ORDER BY id",
        last,
    )
    events = []
    for row in rows:
        details = json.loads(row["details"] or "null")
        if isinstance(details, dict):
            assert details.pop("request_id", None) is not None
        events.append(
            (
                row["action"],
                row["resource_type"],
                row["ids"],
                row["user_id"],
                row["token_id"],
                details,
            )
        )
    return events, max([last, *(row["id"] for row in rows)])


@asynccontextmanager
async def _apps(
    new_database: NewDatabase, data_dir: Path
) -> AsyncIterator[tuple[ApiContext, ApiContext]]:
    """Two apps on one database, as two processes would be: the fast path on, and off."""
    url = await new_database()
    async with AsyncExitStack() as stack:
        fast = await stack.enter_async_context(running_api(url, data_dir, audit_sealer=False))
        slow = await stack.enter_async_context(
            running_api(url, data_dir, audit_sealer=False, db_fast_path=False)
        )
        yield fast, slow


async def test_every_fast_path_caller_answers_the_same_with_the_fast_path_off(
    new_database: NewDatabase, data_dir: Path
) -> None:
    async with _apps(new_database, data_dir) as (fast, slow):
        assert direct.pool_of(fast.app.state.carevault.engine) is not None
        assert direct.pool_of(slow.app.state.carevault.engine) is None
        place = await practice(fast, Role.CLINICIAN, Role.OWNER, clients=3)
        email = place.emails[0]
        async with fast.with_token(email) as (token_client, _):
            note = await create_note(token_client, place.client_ids[0])
            # Saved once more, so that an older version exists to send stale.
            saved_once = await token_client.patch(
                f"/sessions/{note['id']}", json={"version": note["version"], "plan": "first"}
            )
            assert saved_once.status_code == 200, saved_once.text
            note = saved_once.json()
            token = token_client.headers["Authorization"]
            await token_client.get("/clients")  # the token's first use is recorded once
        async with fast.with_token(place.emails[1], ("events:read",)) as (feed_client, _):
            feed_token = feed_client.headers["Authorization"]
            assert (await feed_client.get("/events")).status_code == 200
        async with AsyncExitStack() as stack:
            clients = {}
            for name, api in (("fast", fast), ("slow", slow)):
                cookie = await stack.enter_async_context(api.signed_in(email))
                bearer = await stack.enter_async_context(api.client())
                bearer.headers["Authorization"] = token
                feed = await stack.enter_async_context(api.client())
                feed.headers["Authorization"] = feed_token
                clients[name] = api, bearer, cookie, feed
            _, last = await _events_since(fast, 0)

            answers, events = {}, {}
            for name, (api, bearer, cookie, feed) in clients.items():
                answers[name] = await _reads(api, bearer, cookie, feed, note)
                events[name], last = await _events_since(api, last)
            for slow_answer, fast_answer in zip(answers["slow"], answers["fast"], strict=True):
                assert slow_answer == fast_answer
            assert events["slow"] == events["fast"]
            assert {event[0] for event in events["fast"]} >= {"session.read", "client.list"}
            statuses = [answer[2] for answer in answers["fast"]]
            assert statuses == [200, 200, 200, 200, 200, 409, 200], statuses

            # An autosave each (AuditedRows writing): the second saves the first's version.
            saved, version = {}, note["version"]
            for name, (api, _bearer, cookie, _feed) in clients.items():
                response = await cookie.patch(
                    f"/sessions/{note['id']}", json={"version": version, "plan": name}
                )
                assert response.status_code == 200, response.text
                assert response.json()["version"] == version + 1
                version = response.json()["version"]
                saved[name] = _answer(response, drop=_PER_SAVE)
                events[name], last = await _events_since(api, last)
            assert saved["slow"][:4] == saved["fast"][:4]
            assert {**saved["slow"][4], "plan": "-"} == {**saved["fast"][4], "plan": "-"}
            ((*fast_event, fast_details),) = events["fast"]
            ((*slow_event, slow_details),) = events["slow"]
            assert fast_event[0] == "session.update"
            assert slow_event == fast_event
            assert slow_details == {**fast_details, "version": fast_details["version"] + 1}


def _refuse(*_: Any, **__: Any) -> NoReturn:
    raise AssertionError("the fast path ran with CAREVAULT_DB_FAST_PATH=false")


async def test_the_fast_path_off_sends_every_statement_in_a_transaction_and_reads_no_internals(
    new_database: NewDatabase, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (
        "statements_alone",
        "_transaction_connections",
        "compile_for_asyncpg",
        "install_json_codecs",
    ):
        monkeypatch.setattr(fastpath, name, _refuse)
    monkeypatch.setattr(DirectPool, "open", _refuse)
    url = await new_database()
    async with running_api(url, data_dir, audit_sealer=False, db_fast_path=False) as api:
        engine = api.app.state.carevault.engine
        assert direct.pool_of(engine) is None
        place = await practice(api, Role.CLINICIAN, Role.OWNER)
        async with api.with_token(place.emails[0]) as (client, _):
            note = await create_note(client, place.client_ids[0])
            assert (await client.get(f"/sessions/{note['id']}")).status_code == 200
            async with round_trips(engine) as sent:
                read = await client.get(f"/sessions/{note['id']}")
            listed = await client.get("/clients")
        async with api.with_token(place.emails[1], ("events:read",)) as (client, _):
            feed = await client.get("/events")
    assert (read.status_code, listed.status_code, feed.status_code) == (200, 200, 200)
    assert feed.json()["data"], "the note's creation is in the feed"
    # The fast path's note read is two round trips, each a transaction of its own
    # (tests/api/test_request_cost.py); here both run in one transaction SQLAlchemy began.
    first_words = sorted(words.split()[0].rstrip(";") for words in sent)
    assert first_words == ["BEGIN", "COMMIT", "SELECT", "WITH"], sent
