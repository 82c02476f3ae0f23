"""A client's access history (issue 24): `GET /clients/{id}/access-log` says who (name and
role, or token name), what (chart read, list appearance, change, export), when and from
where, filtered, paged and exported as CSV; owners only; each read audited."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx

from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.db import sql
from tests.support.http import ApiContext, error_of

FORMULA_NAME = '=HYPERLINK("http://attacker.example/","x")'


async def named(api: ApiContext, email: str, name: str) -> str:
    """Give the user a display name; their id."""
    (row,) = await sql(
        api,
        "UPDATE users SET display_name = $1 WHERE email = $2 RETURNING id::text AS id",
        name,
        email,
    )
    return str(row["id"])


async def history(http: httpx.AsyncClient, client_id: str, **params: Any) -> httpx.Response:
    return await http.get(f"/clients/{client_id}/access-log", params=params)


def lines(answer: httpx.Response) -> list[tuple[str, str, str | None, str | None, str]]:
    """(kind, action, name, token name, via) of each entry, oldest first."""
    assert answer.status_code == 200, answer.text
    return [
        (e["kind"], e["action"], e["actor_name"], e["token_name"], e["via"])
        for reversed_entry in [answer.json()["items"]]
        for e in reversed(reversed_entry)
    ]


async def test_the_history_names_who_did_what_when_and_from_where(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    owner_id = await named(api, owner, "Olive Owner")
    clinician_id = await named(api, clinician, "Dr Cleo Clinician")
    async with api.signed_in(clinician) as ui:
        ada = await create_client(ui, medical_history="zqhistorymark")
        other = await create_client(ui, first_name="Grace", last_name="Hopper")
        assert (await ui.get("/clients")).status_code == 200
        assert (await ui.get(f"/clients/{ada['id']}")).status_code == 200
        assert (
            await ui.patch(f"/clients/{ada['id']}", json={"phone": "+1 555 010 4477"})
        ).is_success
        note = await ui.post(
            "/sessions",
            json={"client_id": ada["id"], "session_date": "2025-01-15", "plan": "zqplan"},
        )
        assert (await ui.get(f"/sessions/{note.json()['id']}")).status_code == 200
        assert (await ui.get(f"/clients/{other['id']}")).status_code == 200  # not Ada's
        created = await ui.post(
            "/auth/tokens", json={"name": FORMULA_NAME, "scopes": ["clients:read"]}
        )
        assert created.status_code == 201, created.text
    token = httpx.Headers({"Authorization": f"Bearer {created.json()['token']}"})
    async with api.client() as integration:
        integration.headers.update(token)
        assert (await integration.get(f"/clients/{ada['id']}")).status_code == 200

    async with api.signed_in(owner) as owners:
        answer = await history(owners, ada["id"])
        clinician_line = "Dr Cleo Clinician"
        assert lines(answer) == [
            ("change", "client.create", clinician_line, None, "ui"),
            ("list_appearance", "client.list", clinician_line, None, "ui"),
            ("chart_read", "client.read", clinician_line, None, "ui"),
            ("change", "client.update", clinician_line, None, "ui"),
            ("change", "session.create", clinician_line, None, "ui"),
            ("chart_read", "session.read", clinician_line, None, "ui"),
            ("chart_read", "client.read", clinician_line, FORMULA_NAME, "token"),
        ]
        first = answer.json()["items"][-1]
        assert first["actor_user_id"] == clinician_id and first["actor_role"] == "clinician"
        assert first["ip_address"] == "203.0.113.7" and first["resource_type"] == "client"
        assert answer.json()["total"] == 7
        assert "zqhistorymark" not in answer.text and "zqplan" not in answer.text

        # Reading the history is itself in it, as is exporting it.
        again = await history(owners, ada["id"], kind="access_log")
        assert lines(again) == [("access_log", "client.access_log", "Olive Owner", None, "ui")]
        assert again.json()["items"][0]["actor_user_id"] == owner_id

        # Filters: kind, user, time; paging.
        reads = await history(owners, ada["id"], kind="chart_read", page_size=2)
        assert reads.json()["total"] == 3 and len(reads.json()["items"]) == 2
        assert {e["kind"] for e in reads.json()["items"]} == {"chart_read"}
        mine = await history(owners, ada["id"], actor_user_id=owner_id)
        assert {e["actor_name"] for e in mine.json()["items"]} == {"Olive Owner"}
        later = await history(owners, ada["id"], since="2999-01-01T00:00:00Z")
        assert later.json() == {"items": [], "total": 0, "page": 1, "page_size": 20}


async def test_the_history_exports_as_csv_with_formulas_neutralised(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    await named(api, owner, "-Olive +Owner")
    async with api.signed_in(owner) as ui:
        ada = await create_client(ui)
        await ui.get(f"/clients/{ada['id']}")
        by_query = await history(ui, ada["id"], format="csv")
        by_accept = await ui.get(f"/clients/{ada['id']}/access-log", headers={"Accept": "text/csv"})
    for answer in (by_query, by_accept):
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].startswith("text/csv")
        assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(by_query.text)))
    assert [(r["kind"], r["action"]) for r in rows] == [
        ("chart_read", "client.read"),
        ("change", "client.create"),
    ]
    # A name typed as a formula is text in a spreadsheet.
    assert {r["actor_name"] for r in rows} == {"'-Olive +Owner"}
    assert rows[0]["via"] == "ui" and rows[0]["actor_role"] == "owner"
    # The export is recorded as one, and shows in the history.
    async with api.signed_in(owner) as ui:
        exports = await history(ui, ada["id"], kind="export")
    assert [e["action"] for e in exports.json()["items"]] == ["client.access_log"] * 2
    events = await sql(
        api,
        "SELECT details->>'format' AS format, details->>'count' AS count FROM audit_events "
        "WHERE action = 'client.access_log' ORDER BY id",
    )
    assert [(e["format"], e["count"]) for e in events] == [
        ("csv", "2"),
        ("csv", "3"),
        ("json", "2"),  # the two exports, filtered by kind
    ]


async def test_only_owners_read_it_and_an_inverted_range_is_refused(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    _, (stranger,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(clinician) as ui:
        ada = await create_client(ui)
        refused = await history(ui, ada["id"])
        assert refused.status_code == 403, refused.text
    async with api.signed_in(stranger) as elsewhere:
        assert (await history(elsewhere, ada["id"])).status_code == 404
    async with api.signed_in(owner) as ui:
        inverted = await history(
            ui, ada["id"], since="2026-02-01T00:00:00Z", until="2026-01-01T00:00:00Z"
        )
        assert inverted.status_code == 422, inverted.text
        assert error_of(inverted)["code"] == "invalid_date_range"
        assert "inverted" in error_of(inverted)["message"]
        assert {d["field"] for d in error_of(inverted)["details"]} == {"query.since", "query.until"}
        assert (await history(ui, ada["id"], kind="gossip")).status_code == 422
    # A token needs both audit:read and clients:read.
    async with api.with_token(owner, ("audit:read",)) as (token, _):
        missing = await history(token, ada["id"])
        assert missing.status_code == 403
        assert error_of(missing)["details"]["required_scope"] == "clients:read"
    async with api.with_token(owner, ("audit:read", "clients:read")) as (token, _):
        allowed = await history(token, ada["id"])
        assert allowed.status_code == 200, allowed.text
    reads = await sql(api, "SELECT 1 FROM audit_events WHERE action = 'client.access_log'")
    assert len(reads) == 1  # the refused attempts read nothing
