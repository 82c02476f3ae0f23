"""The audit trail: owners read it; the hash chain catches rows changed behind our back."""

from __future__ import annotations

import asyncio

import asyncpg
from typer.testing import CliRunner

from carevault.auth.models import Role
from carevault.cli import app as cli
from tests.api.test_auth import sql
from tests.api_support import ApiContext


async def verify(api: ApiContext, env: dict[str, str]) -> tuple[int, str]:
    result = await asyncio.to_thread(CliRunner().invoke, cli, ["audit", "verify"], env=env)
    return result.exit_code, result.output


async def superuser_script(api: ApiContext, script: str) -> None:
    """Run SQL the way someone with superuser access could, outside the application."""
    connection = await asyncpg.connect(api.database_url.replace("+asyncpg", ""))
    try:
        await connection.execute(script)
    finally:
        await connection.close()


async def produce_events(api: ApiContext, count: int) -> str:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        for _ in range(count):
            assert (await client.get("/auth/me")).status_code == 200
            await client.post("/auth/tokens", json={"name": "t"})
    return owner


async def test_owners_read_the_audit_log_with_filters(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        await client.post("/auth/tokens", json={"name": "c"})
        refused = await client.get("/audit-events")
        assert refused.status_code == 403
    async with api.signed_in(owner) as client:
        page = (await client.get("/audit-events", params={"page_size": 100})).json()
        actions = [e["action"] for e in page["items"]]
        assert {"auth.login", "api_token.create"} <= set(actions)
        filtered = (await client.get("/audit-events", params={"action": "api_token.create"})).json()
        assert filtered["total"] == 1 and filtered["items"][0]["action"] == "api_token.create"
        assert filtered["items"][0]["ip_address"] == "203.0.113.7"
        by_user = await client.get("/audit-events", params={"action": "auth.login"})
        assert by_user.json()["total"] == 2
        bad = await client.get("/audit-events", params={"since": "yesterday"})
        assert bad.status_code == 422


async def test_audit_events_of_another_workspace_are_invisible(api: ApiContext) -> None:
    _, (owner_a,) = await api.workspace_with_users(None, Role.OWNER)
    _, (owner_b,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner_a) as client:
        await client.post("/auth/tokens", json={"name": "a"})
    async with api.signed_in(owner_b) as client:
        page = (await client.get("/audit-events", params={"action": "api_token.create"})).json()
    assert page["total"] == 0


async def test_verify_reports_an_intact_chain_then_an_altered_row(api: ApiContext) -> None:
    await produce_events(api, 3)
    env = {"CAREVAULT_DATABASE_URL": api.database_url}
    code, output = await verify(api, env)
    assert code == 0 and "every chain is intact" in output
    rows = await sql(api, "SELECT id FROM audit_events WHERE workspace_id IS NOT NULL ORDER BY id")
    target = rows[3]["id"]
    # What someone with superuser access could do: bypass the append-only trigger.
    await superuser_script(
        api,
        "SET session_replication_role = replica;"
        f"UPDATE audit_events SET action = 'client.read' WHERE id = {int(target)};",
    )
    code, output = await verify(api, env)
    assert code == 1
    assert f"first broken link at event {target}: event altered" in output


async def test_verify_reports_a_removed_row(api: ApiContext) -> None:
    await produce_events(api, 3)
    rows = await sql(api, "SELECT id FROM audit_events WHERE workspace_id IS NOT NULL ORDER BY id")
    removed, following = rows[2]["id"], rows[3]["id"]
    await superuser_script(
        api,
        "SET session_replication_role = replica;"
        f"DELETE FROM audit_events WHERE id = {int(removed)};",
    )
    code, output = await verify(api, {"CAREVAULT_DATABASE_URL": api.database_url})
    assert code == 1
    assert f"first broken link at event {following}: previous event missing" in output
