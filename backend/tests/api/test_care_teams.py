"""Care teams and chart access (issue 24): under the practice's `care_team` chart access a
clinician outside a client's care team reaches nothing of that client through any route;
owners see every chart; `practice` keeps today's behaviour; break-the-glass only when the
practice allows it, flagged in the audit trail, its reason kept out of it."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from carevault.api.app import create_app
from carevault.auth.models import Role
from carevault.auth.permissions import PHI_RESOURCES, operation_of
from tests.support.db import sql
from tests.support.http import ApiContext, error_of
from tests.support.routes import api_routes

MARK = "zqchartmark"
WEEK = {"start": "2026-03-01T00:00:00Z", "end": "2026-03-08T00:00:00Z"}
REASON = "Covering zqreasonmark for the client's clinician today"


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(database_url="postgresql+asyncpg://nobody@127.0.0.1:1/none")


@dataclass
class Chart:
    """A client of clinician A's care team, with an appointment, a draft note, a signed and
    amended note awaiting co-signature by clinician B (A's supervisor, not on the care
    team; its versions), and a deleted note."""

    owner: str
    member: str  # clinician A, on the care team
    outsider: str  # clinician B, not on it
    member_id: str
    outsider_id: str
    client_id: str
    appointment_id: str
    note_id: str
    note_version: int
    amended_id: str
    amended_version: int
    deleted_id: str


async def _user_ids(api: ApiContext, *emails: str) -> list[str]:
    rows = await sql(api, "SELECT id, email FROM users WHERE email = ANY($1)", list(emails))
    by_email = {row["email"]: str(row["id"]) for row in rows}
    return [by_email[email] for email in emails]


async def set_policy(api: ApiContext, owner: str, **settings: Any) -> None:
    async with api.signed_in(owner) as session:
        changed = await session.patch("/workspace", json=settings)
        assert changed.status_code == 200, changed.text
        for name, value in settings.items():
            assert changed.json()[name] == value


async def chart(api: ApiContext, policy: str = "care_team") -> Chart:
    _, (owner, member, outsider) = await api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN, Role.CLINICIAN
    )
    member_id, outsider_id = await _user_ids(api, member, outsider)
    # The member's signed notes await the outsider's co-signature: a supervisor who is not on
    # the client's care team still reaches nothing of the chart.
    async with api.signed_in(owner) as http:
        trainee = await http.patch(
            f"/users/{member_id}", json={"requires_cosign": True, "supervisor_id": outsider_id}
        )
        assert trainee.status_code == 200, trainee.text
    async with api.signed_in(member) as http:
        person = await http.post(
            "/clients",
            json={"first_name": f"Mara {MARK}", "last_name": "Example", "notes": MARK},
        )
        assert person.status_code == 201, person.text
        client_id = person.json()["id"]
        booked = await http.post(
            "/appointments",
            json={
                "client_id": client_id,
                "starts_at": "2026-03-02T09:00:00Z",
                "ends_at": "2026-03-02T09:50:00Z",
                "location": f"Room {MARK}",
            },
        )
        assert booked.status_code == 201, booked.text

        async def note(text: str) -> dict[str, Any]:
            made = await http.post(
                "/sessions",
                json={"client_id": client_id, "session_date": "2025-01-15", "subjective": text},
            )
            assert made.status_code == 201, made.text
            created: dict[str, Any] = made.json()
            return created

        draft, amended, deleted = await note(MARK), await note(MARK), await note(MARK)
        final = await http.post(
            f"/sessions/{amended['id']}/finalize", json={"version": 1, "attestation_version": 1}
        )
        assert final.status_code == 200, final.text
        assert final.json()["cosign_status"] == "awaiting"
        amend = await http.patch(
            f"/sessions/{amended['id']}", json={"version": 2, "plan": MARK, "reason": "Typo."}
        )
        assert amend.status_code == 200, amend.text
        assert (await http.delete(f"/sessions/{deleted['id']}")).status_code == 204
    await set_policy(api, owner, chart_access=policy)
    return Chart(
        owner,
        member,
        outsider,
        member_id,
        outsider_id,
        client_id,
        booked.json()["id"],
        draft["id"],
        draft["version"],
        amended["id"],
        3,
        deleted["id"],
    )


Call = Callable[[httpx.AsyncClient, Chart], Awaitable[httpx.Response]]


def _note_body(c: Chart) -> dict[str, Any]:
    return {"client_id": c.client_id, "session_date": "2025-01-16", "subjective": "x"}


def _booking(c: Chart) -> dict[str, Any]:
    return {
        "client_id": c.client_id,
        "starts_at": "2026-03-03T09:00:00Z",
        "ends_at": "2026-03-03T09:50:00Z",
    }


# Every route that touches a client, an appointment or a note (its operation needs a scope
# of one of them), called by a clinician outside the client's care team. Each answer must
# hold nothing of the client's chart.
CALLS: dict[tuple[str, str], Call] = {
    ("POST", "/api/v1/clients"): lambda h, c: h.post(
        "/clients", json={"first_name": "Own", "last_name": "Client"}
    ),
    ("POST", "/api/v1/clients/import"): lambda h, c: h.post(
        "/clients/import",
        content=b"first_name,last_name\nA,B\n",
        headers={"Content-Type": "text/csv"},
    ),
    ("GET", "/api/v1/clients"): lambda h, c: h.get("/clients", params={"include_archived": True}),
    ("POST", "/api/v1/clients/search"): lambda h, c: h.post(
        "/clients/search", json={"q": "Mara", "include_archived": True}
    ),
    ("GET", "/api/v1/clients/{client_id}"): lambda h, c: h.get(f"/clients/{c.client_id}"),
    ("PATCH", "/api/v1/clients/{client_id}"): lambda h, c: h.patch(
        f"/clients/{c.client_id}", json={"last_name": "Changed"}
    ),
    ("DELETE", "/api/v1/clients/{client_id}"): lambda h, c: h.delete(f"/clients/{c.client_id}"),
    ("GET", "/api/v1/clients/{client_id}/export"): lambda h, c: h.get(
        f"/clients/{c.client_id}/export", params={"format": "fhir"}
    ),
    ("POST", "/api/v1/clients/{client_id}/restore"): lambda h, c: h.post(
        f"/clients/{c.client_id}/restore"
    ),
    ("POST", "/api/v1/clients/{client_id}/break-the-glass"): lambda h, c: h.post(
        f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
    ),
    ("GET", "/api/v1/clients/{client_id}/break-the-glass"): lambda h, c: h.get(
        f"/clients/{c.client_id}/break-the-glass"
    ),
    ("GET", "/api/v1/clients/{client_id}/access-log"): lambda h, c: h.get(
        f"/clients/{c.client_id}/access-log"
    ),
    ("GET", "/api/v1/clients/{client_id}/care-team"): lambda h, c: h.get(
        f"/clients/{c.client_id}/care-team"
    ),
    ("PUT", "/api/v1/clients/{client_id}/care-team"): lambda h, c: h.put(
        f"/clients/{c.client_id}/care-team", json={"clinician_ids": [c.outsider_id]}
    ),
    ("POST", "/api/v1/appointments"): lambda h, c: h.post("/appointments", json=_booking(c)),
    ("POST", "/api/v1/appointments/series"): lambda h, c: h.post(
        "/appointments/series", json=_booking(c) | {"recurrence": {"count": 2}}
    ),
    ("GET", "/api/v1/appointments"): lambda h, c: h.get("/appointments", params=WEEK),
    ("GET", "/api/v1/appointments/{appointment_id}"): lambda h, c: h.get(
        f"/appointments/{c.appointment_id}"
    ),
    ("PATCH", "/api/v1/appointments/{appointment_id}"): lambda h, c: h.patch(
        f"/appointments/{c.appointment_id}", json={"status": "attended"}
    ),
    ("DELETE", "/api/v1/appointments/{appointment_id}"): lambda h, c: h.delete(
        f"/appointments/{c.appointment_id}"
    ),
    ("POST", "/api/v1/appointments/{appointment_id}/cancel-following"): lambda h, c: h.post(
        f"/appointments/{c.appointment_id}/cancel-following"
    ),
    ("POST", "/api/v1/sessions"): lambda h, c: h.post("/sessions", json=_note_body(c)),
    ("GET", "/api/v1/sessions"): lambda h, c: h.get(
        "/sessions", params={"client_id": c.client_id, "include_deleted": True}
    ),
    ("GET", "/api/v1/sessions/awaiting-cosign"): lambda h, c: h.get("/sessions/awaiting-cosign"),
    ("GET", "/api/v1/sessions/{note_id}"): lambda h, c: h.get(f"/sessions/{c.note_id}"),
    ("PATCH", "/api/v1/sessions/{note_id}"): lambda h, c: h.patch(
        f"/sessions/{c.note_id}", json={"version": c.note_version, "plan": "typed"}
    ),
    ("DELETE", "/api/v1/sessions/{note_id}"): lambda h, c: h.delete(f"/sessions/{c.note_id}"),
    ("POST", "/api/v1/sessions/{note_id}/finalize"): lambda h, c: h.post(
        f"/sessions/{c.note_id}/finalize",
        json={"version": c.note_version, "attestation_version": 1},
    ),
    ("POST", "/api/v1/sessions/{note_id}/cosign"): lambda h, c: h.post(
        f"/sessions/{c.amended_id}/cosign",
        json={"version": c.amended_version, "attestation_version": 1},
    ),
    ("POST", "/api/v1/sessions/{note_id}/restore"): lambda h, c: h.post(
        f"/sessions/{c.deleted_id}/restore"
    ),
    ("GET", "/api/v1/sessions/{note_id}/versions"): lambda h, c: h.get(
        f"/sessions/{c.amended_id}/versions"
    ),
    ("PUT", "/api/v1/clients/external/{external_id}"): lambda h, c: h.put(
        "/clients/external/outsider-own", json={"first_name": "Own", "last_name": "Client"}
    ),
    ("PUT", "/api/v1/appointments/external/{external_id}"): lambda h, c: h.put(
        "/appointments/external/outsider-booking", json=_booking(c)
    ),
    ("POST", "/api/v1/clients/batch-get"): lambda h, c: h.post(
        "/clients/batch-get", json={"ids": [c.client_id]}
    ),
    ("POST", "/api/v1/appointments/batch-get"): lambda h, c: h.post(
        "/appointments/batch-get", json={"ids": [c.appointment_id]}
    ),
    ("POST", "/api/v1/sessions/batch-get"): lambda h, c: h.post(
        "/sessions/batch-get", json={"ids": [c.note_id, c.amended_id, c.deleted_id]}
    ),
}
# Batch reads answer 200 and name the ids asked for in `not_found`: what they must not hold
# is any record (`items`).
BATCHES = {
    ("POST", "/api/v1/clients/batch-get"),
    ("POST", "/api/v1/appointments/batch-get"),
    ("POST", "/api/v1/sessions/batch-get"),
}
# What the outsider gets from each (404 unless said): a list answers without the chart; a
# create of their own works; owners-only routes refuse them before anything else.
LISTS = {
    ("GET", "/api/v1/clients"),
    ("POST", "/api/v1/clients/search"),
    ("GET", "/api/v1/appointments"),
    ("GET", "/api/v1/sessions"),
    ("GET", "/api/v1/sessions/awaiting-cosign"),
}
ANSWERS = {
    ("POST", "/api/v1/clients"): 201,
    ("PUT", "/api/v1/clients/external/{external_id}"): 201,  # a client of their own
    ("POST", "/api/v1/clients/import"): 403,
    ("PUT", "/api/v1/clients/{client_id}/care-team"): 403,
    ("POST", "/api/v1/clients/{client_id}/break-the-glass"): 403,  # not allowed here
    ("GET", "/api/v1/clients/{client_id}/break-the-glass"): 403,  # owners only
    ("GET", "/api/v1/clients/{client_id}/access-log"): 403,  # owners only
} | dict.fromkeys(LISTS | BATCHES, 200)


CHART_PARAMETERS = ("{client_id}", "{appointment_id}", "{note_id}")


def chart_routes(app: FastAPI) -> set[tuple[str, str]]:
    """Routes whose declared operation needs a scope of clients, appointments or notes, or
    whose path names one of them."""
    found = set()
    for method, path, route in api_routes(app):
        if path.startswith("/fhir/"):
            continue  # walked by tests/api/test_fhir_care_teams.py
        operation = operation_of(route.endpoint)
        scopes = (operation.token_scopes or ()) if operation else ()
        named = any(parameter in path for parameter in CHART_PARAMETERS)
        if named or any(scope.split(":")[0] in PHI_RESOURCES for scope in scopes):
            found.add((method, path))
    return found


def test_the_walk_covers_every_route_that_touches_a_chart(app: FastAPI) -> None:
    assert set(CALLS) == chart_routes(app), "add the route to CALLS (and ANSWERS if not 404)"


def chart_ids(c: Chart) -> set[str]:
    return {c.client_id, c.appointment_id, c.note_id, c.amended_id, c.deleted_id}


def leaks(response: httpx.Response, c: Chart) -> set[str]:
    """What of the chart an answer holds: its mark, or the ids of its records (of a batch
    read, in the records it returns: `not_found` names the ids asked for)."""
    found = {MARK} if MARK in response.text else set()
    text = response.text
    if response.request.url.path.endswith("/batch-get") and response.status_code == 200:
        text = str(response.json()["items"])
    return found | {i for i in chart_ids(c) if i in text}


async def state_of(api: ApiContext, c: Chart) -> list[Any]:
    """Everything a refused change could have touched."""
    return [
        await sql(api, "SELECT updated_at, archived_at FROM clients WHERE id = $1", c.client_id),
        await sql(api, "SELECT updated_at, status FROM appointments ORDER BY id"),
        await sql(api, "SELECT id, version, status, deleted_at FROM sessions ORDER BY id"),
        await sql(api, "SELECT client_id, user_id FROM care_team_members ORDER BY user_id"),
    ]


async def test_a_clinician_outside_the_care_team_gets_nothing_of_the_chart_on_any_route(
    api: ApiContext,
) -> None:
    c = await chart(api)
    before = await state_of(api, c)
    wrong: list[tuple[tuple[str, str], int, set[str]]] = []
    async with api.signed_in(c.outsider) as session:
        for route, call in CALLS.items():
            answer = await call(session, c)
            expected = ANSWERS.get(route, 404)
            if answer.status_code != expected or leaks(answer, c):
                wrong.append((route, answer.status_code, leaks(answer, c)))
    assert wrong == []
    # Nothing of the chart changed (the outsider's own new client aside).
    after = await state_of(api, c)
    assert after[0] == before[0] and after[2] == before[2] and after[1] == before[1]
    assert [r for r in after[3] if str(r["client_id"]) == c.client_id] == [
        r for r in before[3] if str(r["client_id"]) == c.client_id
    ]
    # The same with a token.
    async with api.with_token(c.outsider) as (token, _):
        for route in [r for r in CALLS if r[0] == "GET"]:
            answer = await CALLS[route](token, c)
            assert leaks(answer, c) == set(), route


async def test_the_care_team_member_and_the_owner_see_the_whole_chart(api: ApiContext) -> None:
    c = await chart(api)
    for email in (c.member, c.owner):
        async with api.signed_in(email) as session:
            assert (await session.get(f"/clients/{c.client_id}")).status_code == 200
            listed = (await session.get("/clients")).json()["items"]
            assert c.client_id in {item["id"] for item in listed}
            found = (await session.post("/clients/search", json={"q": "mara"})).json()
            assert [item["id"] for item in found["items"]] == [c.client_id]
            week = (await session.get("/appointments", params=WEEK)).json()
            assert [item["id"] for item in week] == [c.appointment_id]
            notes = (await session.get("/sessions", params={"client_id": c.client_id})).json()
            assert notes["total"] == 2
            assert (await session.get(f"/sessions/{c.note_id}")).status_code == 200
            versions = await session.get(f"/sessions/{c.amended_id}/versions")
            assert versions.status_code == 200
            team = await session.get(f"/clients/{c.client_id}/care-team")
            assert [m["id"] for m in team.json()["clinicians"]] == [c.member_id]
    # The member autosaves the draft (the direct, bound-parameter path).
    async with api.signed_in(c.member) as session:
        saved = await session.patch(
            f"/sessions/{c.note_id}", json={"version": c.note_version, "plan": "typed"}
        )
        assert saved.status_code == 200, saved.text


async def test_practice_chart_access_lets_every_clinician_see_every_chart(
    api: ApiContext,
) -> None:
    c = await chart(api, policy="practice")
    async with api.signed_in(c.outsider) as session:
        for route in [r for r in CALLS if r[0] == "GET" and ANSWERS.get(r) != 403]:
            answer = await CALLS[route](session, c)
            assert answer.status_code == 200, (route, answer.text)
        assert c.client_id in {i["id"] for i in (await session.get("/clients")).json()["items"]}


async def test_assigning_the_care_team_opens_and_closes_the_chart(api: ApiContext) -> None:
    c = await chart(api)
    async with api.signed_in(c.owner) as owner:
        put = await owner.put(
            f"/clients/{c.client_id}/care-team", json={"clinician_ids": [c.outsider_id]}
        )
        assert put.status_code == 200, put.text
        assert [m["id"] for m in put.json()["clinicians"]] == [c.outsider_id]
    async with api.signed_in(c.outsider) as session:
        assert (await session.get(f"/sessions/{c.note_id}")).status_code == 200
    async with api.signed_in(c.member) as session:
        assert (await session.get(f"/sessions/{c.note_id}")).status_code == 404
        assert (await session.get(f"/clients/{c.client_id}")).status_code == 404
    (event,) = await sql(
        api, "SELECT resource_ids, details FROM audit_events WHERE action = 'client.care_team'"
    )
    assert [str(i) for i in event["resource_ids"]] == [c.client_id]
    assert json.loads(event["details"])["added"] == [c.outsider_id]
    assert json.loads(event["details"])["removed"] == [c.member_id]


async def test_only_owners_assign_care_teams_and_only_to_active_users(api: ApiContext) -> None:
    c = await chart(api)
    async with api.signed_in(c.member) as member:
        refused = await member.put(
            f"/clients/{c.client_id}/care-team", json={"clinician_ids": [c.member_id]}
        )
    assert refused.status_code == 403 and error_of(refused)["code"] == "owner_required"
    _, (stranger,) = await api.workspace_with_users(None, Role.CLINICIAN)
    (stranger_id,) = await _user_ids(api, stranger)
    async with api.signed_in(c.owner) as owner:
        bad = await owner.put(
            f"/clients/{c.client_id}/care-team",
            json={"clinician_ids": [c.member_id, stranger_id]},
        )
        assert bad.status_code == 422 and error_of(bad)["code"] == "unknown_clinician"
        assert error_of(bad)["details"][0]["field"] == "body.clinician_ids.1"
        # Another practice's client is not found.
        elsewhere = await owner.put(f"/clients/{stranger_id}/care-team", json={"clinician_ids": []})
        assert elsewhere.status_code == 404


async def test_break_the_glass_is_refused_unless_the_practice_allows_it(api: ApiContext) -> None:
    c = await chart(api)
    async with api.signed_in(c.outsider) as session:
        refused = await session.post(
            f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
        )
        assert refused.status_code == 403
        assert error_of(refused)["code"] == "break_the_glass_disabled"
        # Not allowed: the chart is not found, as any other.
        assert (await session.get(f"/clients/{c.client_id}")).status_code == 404
    assert await sql(api, "SELECT 1 FROM chart_access_grants") == []


async def test_break_the_glass_opens_the_chart_for_a_while_flagged_in_the_audit_trail(
    api: ApiContext,
) -> None:
    c = await chart(api)
    await set_policy(api, c.owner, break_the_glass=True)
    async with api.signed_in(c.outsider) as session:
        denied = await session.get(f"/clients/{c.client_id}")
        assert denied.status_code == 403, denied.text
        assert error_of(denied)["code"] == "chart_access_denied"
        assert MARK not in denied.text
        # A client that does not exist is still just not found.
        missing = await session.get(f"/clients/{c.member_id}")
        assert missing.status_code == 404
        short = await session.post(f"/clients/{c.client_id}/break-the-glass", json={"reason": ""})
        assert short.status_code == 422
        opened = await session.post(
            f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
        )
        assert opened.status_code == 201, opened.text
        assert opened.json()["client_id"] == c.client_id
        read = await session.get(f"/clients/{c.client_id}")
        assert read.status_code == 200 and MARK in read.text
        assert (await session.get(f"/sessions/{c.note_id}")).status_code == 200
        listed = (await session.get("/clients")).json()["items"]
        assert c.client_id in {item["id"] for item in listed}
        assert (await session.get(f"/appointments/{c.appointment_id}")).status_code == 200
        assert len((await session.get("/appointments", params=WEEK)).json()) == 1
        notes = await session.get("/sessions", params={"client_id": c.client_id})
        assert notes.json()["total"] == 2
    async with api.with_token(c.outsider) as (token, _):
        by_token = await token.post(
            f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
        )
        assert by_token.status_code == 403
        assert error_of(by_token)["code"] == "login_session_required"
    flagged = await sql(
        api,
        "SELECT action, details FROM audit_events WHERE details->>'break_the_glass' = 'true' "
        "AND action <> 'workspace.update' ORDER BY id",
    )
    assert [row["action"] for row in flagged] == [
        "client.break_the_glass",
        "client.read",
        "session.read",
        "client.list",
        "appointment.read",
        "appointment.list",
        "session.list",
    ]
    # Every flagged event is the outsider's.
    actors = await sql(
        api,
        "SELECT DISTINCT actor_user_id FROM audit_events WHERE details->>'break_the_glass' "
        "= 'true' AND action <> 'workspace.update'",
    )
    assert [str(row["actor_user_id"]) for row in actors] == [c.outsider_id]
    # The reason is in no audit event, and is stored sealed.
    assert await sql(api, "SELECT 1 FROM audit_events WHERE details::text LIKE '%zqreason%'") == []
    (grant,) = await sql(api, "SELECT reason, user_id FROM chart_access_grants")
    assert b"zqreason" not in bytes(grant["reason"])
    assert str(grant["user_id"]) == c.outsider_id
    # Owners review who opened the chart and why; reading the reasons is audited.
    async with api.signed_in(c.owner) as owner:
        review = await owner.get(f"/clients/{c.client_id}/break-the-glass")
        assert review.status_code == 200, review.text
        (entry,) = review.json()
        assert (entry["user_id"], entry["reason"]) == (c.outsider_id, REASON)
    (reviewed,) = await sql(
        api, "SELECT resource_ids FROM audit_events WHERE action = 'client.break_the_glass_review'"
    )
    assert [str(i) for i in reviewed["resource_ids"]] == [c.client_id]
    # A member does not need it; turning break-the-glass off closes the grant.
    async with api.signed_in(c.member) as member:
        needless = await member.post(
            f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
        )
        assert needless.status_code == 409
        # A member's reads are never flagged.
        assert (await member.get(f"/sessions/{c.note_id}")).status_code == 200
        assert (await member.get(f"/clients/{c.client_id}")).status_code == 200
    member_flagged = await sql(
        api,
        "SELECT 1 FROM audit_events WHERE details->>'break_the_glass' = 'true' "
        "AND actor_user_id = $1::uuid",
        c.member_id,
    )
    assert member_flagged == []
    await set_policy(api, c.owner, break_the_glass=False)
    async with api.signed_in(c.outsider) as session:
        assert (await session.get(f"/clients/{c.client_id}")).status_code == 404
        assert (await session.get(f"/sessions/{c.note_id}")).status_code == 404


async def test_an_expired_grant_opens_nothing(api: ApiContext) -> None:
    c = await chart(api)
    await set_policy(api, c.owner, break_the_glass=True)
    async with api.signed_in(c.outsider) as session:
        opened = await session.post(
            f"/clients/{c.client_id}/break-the-glass", json={"reason": REASON}
        )
        assert opened.status_code == 201
        await sql(api, "UPDATE chart_access_grants SET expires_at = now() - interval '1 second'")
        assert (await session.get(f"/clients/{c.client_id}")).status_code == 403
        assert (await session.get(f"/sessions/{c.note_id}")).status_code == 404


async def test_a_clinician_who_adds_a_client_is_on_their_care_team(api: ApiContext) -> None:
    c = await chart(api)
    async with api.signed_in(c.outsider) as session:
        made = await session.post("/clients", json={"first_name": "Own", "last_name": "One"})
        assert made.status_code == 201
        assert (await session.get(f"/clients/{made.json()['id']}")).status_code == 200
        listed = (await session.get("/clients")).json()
        assert [item["id"] for item in listed["items"]] == [made.json()["id"]]
        assert listed["total"] == 1


async def test_the_workspace_reports_and_validates_its_chart_access(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        me = (await session.get("/auth/me")).json()
        assert me["workspace"]["chart_access"] == "practice"
        assert me["workspace"]["break_the_glass"] is False
        bad = await session.patch("/workspace", json={"chart_access": "everyone"})
        assert bad.status_code == 422
    events = await sql(
        api, "SELECT details FROM audit_events WHERE action = 'workspace.update' ORDER BY id"
    )
    assert events == []


async def test_a_replayed_create_of_a_chart_no_longer_seen_is_not_found(api: ApiContext) -> None:
    c = await chart(api)
    body = {"first_name": f"Kim {MARK}", "last_name": "Replay"}
    key = {"Idempotency-Key": "replay-1"}
    async with api.signed_in(c.member) as member:
        first = await member.post("/clients", json=body, headers=key)
        assert first.status_code == 201
        again = await member.post("/clients", json=body, headers=key)
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        async with api.signed_in(c.owner) as owner:
            emptied = await owner.put(
                f"/clients/{first.json()['id']}/care-team", json={"clinician_ids": []}
            )
            assert emptied.status_code == 200
        refused = await member.post("/clients", json=body, headers=key)
    assert refused.status_code == 404, refused.text
    assert MARK not in refused.text


async def test_a_replayed_series_of_a_chart_no_longer_seen_is_not_found(api: ApiContext) -> None:
    """A recurring booking's remembered answer (its appointments under `items`) replays only
    while the caller still sees the client's chart."""
    c = await chart(api)
    body = _booking(c) | {"location": f"Room {MARK}", "recurrence": {"count": 2}}
    key = {"Idempotency-Key": "replay-series"}
    async with api.signed_in(c.member) as member:
        first = await member.post("/appointments/series", json=body, headers=key)
        assert first.status_code == 201, first.text
        again = await member.post("/appointments/series", json=body, headers=key)
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        async with api.signed_in(c.owner) as owner:
            emptied = await owner.put(
                f"/clients/{c.client_id}/care-team", json={"clinician_ids": []}
            )
            assert emptied.status_code == 200
        refused = await member.post("/appointments/series", json=body, headers=key)
    assert refused.status_code == 404, refused.text
    assert MARK not in refused.text


async def test_an_appointment_outside_the_care_team_cannot_be_named_by_a_note(
    api: ApiContext,
) -> None:
    """A note for one's own client naming another chart's appointment: not found (not a
    422 telling that the appointment exists and belongs to someone else)."""
    c = await chart(api)
    async with api.signed_in(c.outsider) as session:
        own = (await session.post("/clients", json={"first_name": "O", "last_name": "N"})).json()
        body = _note_body(c) | {"client_id": own["id"], "appointment_id": c.appointment_id}
        refused = await session.post("/sessions", json=body)
    assert refused.status_code == 404, refused.text
    assert error_of(refused)["message"] == "appointment not found"


async def test_an_exact_email_or_phone_search_finds_only_the_callers_charts(
    api: ApiContext,
) -> None:
    c = await chart(api)
    contact = {"email": "kim.zq@example.org", "phone": "+1 555 010 4477"}
    async with api.signed_in(c.member) as member:
        made = await member.post("/clients", json={"first_name": "Kim", "last_name": "Z"} | contact)
        assert made.status_code == 201
        for q in contact.values():
            found = (await member.post("/clients/search", json={"q": q})).json()
            assert [item["id"] for item in found["items"]] == [made.json()["id"]]
    async with api.signed_in(c.outsider) as outsider:
        for q in contact.values():
            found = (await outsider.post("/clients/search", json={"q": q})).json()
            assert (found["items"], found["total"]) == ([], 0)


async def test_a_clinicians_cached_client_list_pages_only_their_care_teams_clients(
    api: ApiContext,
) -> None:
    """The client list's one-statement page from the cached name index (issue 24 summaries)
    is filtered by the caller's care team: order, totals and pages count only their charts,
    for a plain list and a name search, on cache hits as on the first build."""
    _, (owner, member) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    mine: list[tuple[str, str]] = []
    async with api.signed_in(owner) as session:
        for last in ("Adams", "Clark", "Evans"):
            made = await session.post("/clients", json={"first_name": "Zed", "last_name": last})
            assert made.status_code == 201, made.text
    async with api.signed_in(member) as session:
        for last in ("Baker", "Dunn", "Fox"):
            made = await session.post("/clients", json={"first_name": "Zed", "last_name": last})
            assert made.status_code == 201, made.text
            mine.append((last, made.json()["id"]))
    await set_policy(api, owner, chart_access="care_team")
    cache = api.app.state.carevault.client_list_cache
    async with api.signed_in(member) as session:
        for _ in range(2):  # built (or refreshed) once, then served from the cache
            hits = cache.stats.hits
            first = (await session.get("/clients", params={"page_size": 2})).json()
            second = (await session.get("/clients", params={"page": 2, "page_size": 2})).json()
            found = (await session.post("/clients/search", json={"q": "zed"})).json()
            assert [i["id"] for i in first["items"]] == [i for _, i in mine[:2]]
            assert [i["id"] for i in second["items"]] == [mine[2][1]]
            assert [i["id"] for i in found["items"]] == [i for _, i in mine]
            assert (first["total"], second["total"], found["total"]) == (3, 3, 3)
        assert cache.stats.hits >= hits + 3
    async with api.signed_in(owner) as session:
        everyone = (await session.get("/clients")).json()
        assert everyone["total"] == 6
    rows = await sql(
        api,
        "SELECT resource_ids FROM audit_events WHERE action = 'client.list' "
        "AND actor_user_id = (SELECT id FROM users WHERE email = $1)",
        member,
    )
    named = {str(i) for row in rows for i in row["resource_ids"]}
    assert named == {i for _, i in mine}
