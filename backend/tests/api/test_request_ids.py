"""Every response carries `X-Request-ID` (echoed when sane, generated otherwise), and the
same id is in the access log line and in the audit events the request wrote (issue 14)."""

from __future__ import annotations

import logging
import re

import pytest

from carevault.auth.models import Role
from tests.support.db import sql
from tests.support.http import ApiContext
from tests.support.notes import create_note, practice

GENERATED = re.compile(r"[0-9a-f]{32}")


async def test_a_sane_id_is_echoed_and_lands_in_the_audit_event_and_access_log(
    api: ApiContext, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="carevault.access")
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        note = await create_note(client, place.client_ids[0])
        offered = "dictation-7f3a9c01:retry.2"
        read = await client.get(f"/sessions/{note['id']}", headers={"X-Request-ID": offered})
    assert read.status_code == 200
    assert read.headers["x-request-id"] == offered
    events = await sql(
        api,
        "SELECT action, details->>'request_id' AS request_id FROM audit_events "
        "WHERE action = 'session.read'",
    )
    assert [e["request_id"] for e in events] == [offered]
    logged = [r for r in caplog.records if getattr(r, "request_id", None) == offered]
    assert len(logged) == 1 and offered in logged[0].getMessage()


@pytest.mark.parametrize(
    "offered",
    ["short", "x" * 129, "id with spaces and more", "<script>alert(1)</script>", "é-accented-id"],
)
async def test_an_unusable_id_is_replaced_by_a_generated_one(api: ApiContext, offered: str) -> None:
    async with api.client() as client:
        answer = await client.get("/auth/me", headers={b"X-Request-ID": offered.encode()})
    assert answer.status_code == 401
    assert GENERATED.fullmatch(answer.headers["x-request-id"])


async def test_every_response_has_an_id_even_errors_and_each_request_its_own(
    api: ApiContext,
) -> None:
    async with api.client() as client:
        answers = [
            await client.get("/auth/me"),
            await client.get("/no/such/route"),
            await client.post("/auth/login", content=b"{not json"),
        ]
    ids = [answer.headers["x-request-id"] for answer in answers]
    assert all(GENERATED.fullmatch(i) for i in ids)
    assert len(set(ids)) == 3
