"""Service accounts: integration credentials that belong to the practice. Their tokens keep
working when the owner who made them is disabled, the audit trail names the account, and
token creation refuses scopes a role can never use."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.db import sql
from tests.support.http import ApiContext, error_of

SYNC_SCOPES = ["clients:read", "clients:write", "appointments:read", "appointments:write"]


async def user_id(api: ApiContext, email: str) -> str:
    rows = await sql(api, "SELECT id::text AS id FROM users WHERE email = $1", email)
    return str(rows[0]["id"])


async def new_account(
    session: httpx.AsyncClient, scopes: list[str] | None = None, **fields: Any
) -> dict[str, Any]:
    body = {"name": "scheduling sync", "scopes": scopes or SYNC_SCOPES, **fields}
    created = await session.post("/service-accounts", json=body)
    assert created.status_code == 201, created.text
    account: dict[str, Any] = created.json()
    return account


async def new_token(session: httpx.AsyncClient, account_id: str) -> dict[str, Any]:
    issued = await session.post(
        f"/service-accounts/{account_id}/tokens", json={"name": "production"}
    )
    assert issued.status_code == 201, issued.text
    token: dict[str, Any] = issued.json()
    return token


@asynccontextmanager
async def bearer(api: ApiContext, secret: str) -> AsyncIterator[httpx.AsyncClient]:
    async with api.client() as client:
        client.headers["Authorization"] = f"Bearer {secret}"
        yield client


async def test_lifecycle_create_list_issue_disable_enable_revoke_delete(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        account = await new_account(session)
        assert account["scopes"] == SYNC_SCOPES and account["disabled_at"] is None
        listed = (await session.get("/service-accounts")).json()
        assert [a["id"] for a in listed["items"]] == [account["id"]]
        token = await new_token(session, account["id"])
        assert token["token"].startswith("cvt_") and token["scopes"] == SYNC_SCOPES
        # Not among personal tokens, and shown once: the list has no secret.
        personal = (await session.get("/auth/tokens")).json()
        assert personal["total"] == 0
        tokens = (await session.get(f"/service-accounts/{account['id']}/tokens")).json()
        assert [t["id"] for t in tokens["items"]] == [token["id"]]
        assert "token" not in tokens["items"][0]

        async with bearer(api, token["token"]) as integration:
            me = (await integration.get("/auth/me")).json()
            assert me["service_account"] == {"id": account["id"], "name": "scheduling sync"}
            assert (await integration.get("/clients")).status_code == 200

            disabled = await session.post(f"/service-accounts/{account['id']}/disable")
            assert disabled.status_code == 200 and disabled.json()["disabled_at"]
            refused = await integration.get("/clients")
            assert refused.status_code == 401
            assert error_of(refused)["code"] == "service_account_disabled"
            no_new = await session.post(
                f"/service-accounts/{account['id']}/tokens", json={"name": "x"}
            )
            assert no_new.status_code == 409
            assert error_of(no_new)["code"] == "service_account_inactive"

            assert (await session.post(f"/service-accounts/{account['id']}/enable")).is_success
            assert (await integration.get("/clients")).status_code == 200

            revoked = await session.delete(
                f"/service-accounts/{account['id']}/tokens/{token['id']}"
            )
            assert revoked.status_code == 204
            after = await integration.get("/clients")
            assert after.status_code == 401 and error_of(after)["code"] == "token_revoked"

        second = await new_token(session, account["id"])
        assert (await session.delete(f"/service-accounts/{account['id']}")).status_code == 204
        assert (await session.get("/service-accounts")).json()["total"] == 0
        assert (await session.get(f"/service-accounts/{account['id']}")).status_code == 404
        async with bearer(api, second["token"]) as integration:
            gone = await integration.get("/clients")
            assert gone.status_code == 401 and error_of(gone)["code"] == "token_revoked"
    actions = [
        row["action"]
        for row in await sql(
            api,
            "SELECT action FROM audit_events WHERE action LIKE 'service_account.%' ORDER BY id",
        )
    ]
    assert actions == [
        "service_account.create",
        "service_account.token_create",
        "service_account.disable",
        "service_account.enable",
        "service_account.token_revoke",
        "service_account.token_create",
        "service_account.delete",
    ]


async def test_managing_needs_an_owner_session_with_a_recent_password(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as session:
        refused = await session.post("/service-accounts", json={"name": "x", "scopes": SYNC_SCOPES})
        assert refused.status_code == 403 and error_of(refused)["code"] == "owner_required"
    async with api.with_token(owner) as (personal, _):
        refused = await personal.post(
            "/service-accounts", json={"name": "x", "scopes": SYNC_SCOPES}
        )
        assert error_of(refused)["code"] == "login_session_required"
        assert (await personal.get("/service-accounts")).status_code == 403
    async with api.signed_in(owner) as session:
        account = await new_account(session)
        await sql(api, "UPDATE login_sessions SET reauthenticated_at = now() - interval '6 min'")
        stale = await session.post(f"/service-accounts/{account['id']}/tokens", json={"name": "x"})
        assert stale.status_code == 403
        assert error_of(stale)["code"] == "reauthentication_required"
    # A service account's own token cannot manage service accounts either.
    async with api.signed_in(owner) as session:
        token = await new_token(session, account["id"])
    async with bearer(api, token["token"]) as integration:
        refused = await integration.post(
            "/service-accounts", json={"name": "x", "scopes": SYNC_SCOPES}
        )
        assert error_of(refused)["code"] == "login_session_required"


async def test_its_tokens_outlive_the_owner_who_created_it(api: ApiContext) -> None:
    """The defect of issue 25: an integration on a person's token stops with that person."""
    _, (creator, other_owner) = await api.workspace_with_users(None, Role.OWNER, Role.OWNER)
    async with api.signed_in(creator) as session:
        account = await new_account(session)
        token = await new_token(session, account["id"])
        personal = await session.post(
            "/auth/tokens", json={"name": "mine", "scopes": ["clients:read"]}
        )
        assert personal.status_code == 201
    async with api.signed_in(other_owner) as session:
        disabled = await session.post(f"/users/{await user_id(api, creator)}/disable")
        assert disabled.status_code == 200, disabled.text
    async with bearer(api, personal.json()["token"]) as mine:
        assert (await mine.get("/clients")).status_code == 401
    async with bearer(api, token["token"]) as integration:
        listed = await integration.get("/clients")
        assert listed.status_code == 200, listed.text
        created = await integration.post("/clients", json={"first_name": "Ada", "last_name": "L"})
        assert created.status_code == 201, created.text
    # The other owner still manages it.
    async with api.signed_in(other_owner) as session:
        tokens = (await session.get(f"/service-accounts/{account['id']}/tokens")).json()
        assert tokens["items"][0]["revoked_at"] is None
        assert tokens["items"][0]["last_used_at"] is not None


async def test_audit_events_name_the_service_account(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        account = await new_account(session)
        token = await new_token(session, account["id"])
        async with bearer(api, token["token"]) as integration:
            created = await integration.post(
                "/clients", json={"first_name": "Ada", "last_name": "L"}
            )
            assert created.status_code == 201, created.text
        rows = await sql(
            api,
            "SELECT actor_user_id, actor_token_id::text AS token FROM audit_events "
            "WHERE action = 'client.create'",
        )
        assert rows[0]["actor_user_id"] is None and rows[0]["token"] == token["id"]
        page = (await session.get("/audit-events", params={"action": "client.create"})).json()
    [event] = page["items"]
    assert event["actor_kind"] == "service_account"
    assert event["service_account_id"] == account["id"]
    assert event["actor_name"] == "scheduling sync"
    assert event["token_name"] == "production"
    assert event["actor_user_id"] is None and event["actor_role"] is None


async def test_what_needs_a_person_is_refused_not_a_500(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        client = await create_client(session)
        account = await new_account(session, [*SYNC_SCOPES, "notes:read", "notes:write"])
        token = await new_token(session, account["id"])
    async with bearer(api, token["token"]) as integration:
        booked = await integration.post(
            "/appointments",
            json={
                "client_id": client["id"],
                "starts_at": "2030-03-04T09:00:00Z",
                "ends_at": "2030-03-04T10:00:00Z",
            },
        )
        assert booked.status_code == 403, booked.text
        assert error_of(booked)["code"] == "person_required"
        as_itself = await integration.post(
            "/appointments",
            json={
                "client_id": client["id"],
                "clinician_id": account["id"],
                "starts_at": "2030-03-04T09:00:00Z",
                "ends_at": "2030-03-04T10:00:00Z",
            },
        )
        assert as_itself.status_code == 422, as_itself.text
        with_clinician = await integration.post(
            "/appointments",
            json={
                "client_id": client["id"],
                "clinician_id": await user_id(api, owner),
                "starts_at": "2030-03-04T09:00:00Z",
                "ends_at": "2030-03-04T10:00:00Z",
            },
        )
        assert with_clinician.status_code == 201, with_clinician.text
        note = await integration.post(
            "/sessions",
            json={"client_id": client["id"], "session_date": "2024-01-10", "subjective": "x"},
        )
        assert note.status_code == 403, note.text
        assert error_of(note)["code"] == "person_required"


# --- scopes a role can never use are refused when the credential is made ----------------------


async def test_a_clinician_token_with_an_owner_only_scope_is_refused_naming_the_scope(
    api: ApiContext,
) -> None:
    _, (clinician,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(clinician) as session:
        refused = await session.post(
            "/auth/tokens",
            json={"name": "x", "scopes": ["clients:read", "audit:read", "system:read"]},
        )
    assert refused.status_code == 422, refused.text
    error = error_of(refused)
    assert error["code"] == "scope_not_allowed"
    assert error["details"][0]["field"] == "body.scopes"
    assert error["details"][0]["scopes"] == ["audit:read", "system:read"]
    assert await sql(api, "SELECT 1 FROM api_tokens") == []


# --- the owner's audit screen filters integration traffic in or out ----------------------------


async def test_audit_events_filter_by_actor_kind(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        await create_client(session)
        account = await new_account(session)
        token = await new_token(session, account["id"])
        personal = await session.post(
            "/auth/tokens", json={"name": "mine", "scopes": ["clients:read"]}
        )
        async with bearer(api, token["token"]) as integration:
            listed = await integration.get("/clients", params={"page_size": 10})
            assert listed.status_code == 200
        async with bearer(api, personal.json()["token"]) as mine:
            assert (await mine.get("/clients")).status_code == 200

        async def kinds(*actor_kind: str) -> list[tuple[str, str]]:
            answer = await session.get(
                "/audit-events", params={"actor_kind": list(actor_kind), "page_size": 100}
            )
            assert answer.status_code == 200, answer.text
            # Each of these reads is audited itself (audit.read): left out to compare.
            items = answer.json()["items"]
            return [(e["actor_kind"], e["action"]) for e in items if e["action"] != "audit.read"]

        integrations = await kinds("service_account")
        # One event per page read (and the token's first use), nothing per record.
        assert sorted(integrations) == [
            ("service_account", "auth.token_used"),
            ("service_account", "client.list"),
        ]
        people = await kinds("session")
        assert people and {kind for kind, _ in people} == {"session"}
        assert ("session", "service_account.create") in people
        both = await kinds("service_account", "token")
        assert {kind for kind, _ in both} == {"service_account", "token"}
        everything = await kinds()
        assert len(everything) == len(people) + len(both) + len(await kinds("system"))
        unknown = await session.get("/audit-events", params={"actor_kind": "robot"})
        assert unknown.status_code == 422


async def test_a_clients_access_log_names_the_service_account(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        client = await create_client(session)
        account = await new_account(session)
        token = await new_token(session, account["id"])
        async with bearer(api, token["token"]) as integration:
            assert (await integration.get(f"/clients/{client['id']}")).status_code == 200
        log = await session.get(f"/clients/{client['id']}/access-log")
        assert log.status_code == 200, log.text
    reads = [e for e in log.json()["items"] if e["token_name"] == "production"]
    assert reads and all(e["actor_name"] == "scheduling sync" for e in reads)
    # Nothing but the integration's token names it: the creator's own entries are theirs.
    assert all(e["actor_user_id"] is None for e in reads)
    rows = await sql(
        api,
        "SELECT user_id, (SELECT delete_rule FROM information_schema.referential_constraints "
        "WHERE constraint_name = 'fk_service_accounts_created_by_users') AS creator_rule "
        "FROM api_tokens WHERE service_account_id IS NOT NULL",
    )
    # No path from a person to the token: removing the creator cannot cascade to it.
    assert [(r["user_id"], r["creator_rule"]) for r in rows] == [(None, "SET NULL")]


async def test_an_expired_service_account_stops_its_tokens_and_issues_none(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session:
        account = await new_account(session, expires_in_days=30)
        token = await new_token(session, account["id"])
        # A token never outlives its account.
        assert token["expires_at"] == account["expires_at"]
        async with bearer(api, token["token"]) as integration:
            assert (await integration.get("/clients")).status_code == 200
            await sql(api, "UPDATE service_accounts SET expires_at = now() - interval '1 second'")
            expired = await integration.get("/clients")
            assert expired.status_code == 401 and error_of(expired)["code"] == "token_expired"
        refused = await session.post(
            f"/service-accounts/{account['id']}/tokens", json={"name": "x"}
        )
        assert refused.status_code == 409
        assert error_of(refused)["code"] == "service_account_inactive"
