"""Sign-in, CSRF, idle logoff, rate limiting and API tokens over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from carevault.auth import service as auth_service
from carevault.auth.models import Role
from tests.support.db import NewDatabase, sql
from tests.support.http import PASSWORD, ApiContext, running_api


async def test_login_sets_an_httponly_cookie_and_returns_csrf(api: ApiContext) -> None:
    space, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.client() as client:
        response = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
        assert response.status_code == 200
        body = response.json()
        assert body["user"]["email"] == email and body["workspace"]["id"] == str(space.id)
        assert body["csrf_token"] and body["idle_timeout_seconds"] == 15 * 60
        cookie = response.headers["set-cookie"].lower()
        assert "carevault_session=" in cookie and "httponly" in cookie
        assert "samesite=strict" in cookie
        me = await client.get("/auth/me")
        assert me.status_code == 200 and me.json()["auth_method"] == "session"


async def test_wrong_email_and_wrong_password_get_the_same_401(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.client() as client:
        wrong_password = await client.post("/auth/login", json={"email": email, "password": "x"})
        unknown = await client.post(
            "/auth/login", json={"email": "nobody@example.test", "password": "x"}
        )
    assert wrong_password.status_code == unknown.status_code == 401
    assert wrong_password.json() == unknown.json()
    assert wrong_password.json()["error"]["code"] == "invalid_credentials"


async def test_the_app_makes_the_unknown_email_hash_as_it_starts(
    new_database: NewDatabase, data_dir: Path
) -> None:
    """Made lazily (not at import, which every command pays), but before the first sign-in:
    else the first unknown email would take two hashes' time, and tell that it is unknown."""
    auth_service.dummy_hash.cache_clear()
    async with running_api(await new_database(), data_dir):
        assert auth_service.dummy_hash.cache_info().currsize == 1


async def test_repeated_failures_are_rate_limited_per_email(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.client() as client:
        for _ in range(5):
            failed = await client.post("/auth/login", json={"email": email, "password": "nope"})
            assert failed.status_code == 401
        limited = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
    assert limited.status_code == 429
    # A short progressive delay, not a 15-minute lockout.
    assert 0 < int(limited.headers["Retry-After"]) <= 31
    assert limited.json()["error"]["code"] == "rate_limited"
    events = await sql(api, "SELECT action FROM audit_events ORDER BY id")
    actions = [e["action"] for e in events]
    assert actions.count("auth.login_failed") == 5 and "auth.login_throttled" in actions


async def test_repeated_failures_are_rate_limited_per_address(api: ApiContext) -> None:
    async with api.client() as client:
        for index in range(20):
            await client.post(
                "/auth/login", json={"email": f"guess{index}@example.test", "password": "x"}
            )
        limited = await client.post(
            "/auth/login", json={"email": "another@example.test", "password": "x"}
        )
    assert limited.status_code == 429


async def test_changes_without_the_csrf_header_are_403(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        csrf = client.headers.pop("X-CSRF-Token")
        refused = await client.post("/auth/tokens", json={"name": "x", "scopes": ["clients:read"]})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf_failed"
        wrong = await client.post(
            "/auth/tokens",
            json={"name": "x", "scopes": ["clients:read"]},
            headers={"X-CSRF-Token": "forged"},
        )
        assert wrong.status_code == 403
        allowed = await client.post(
            "/auth/tokens",
            json={"name": "x", "scopes": ["clients:read"]},
            headers={"X-CSRF-Token": csrf},
        )
        assert allowed.status_code == 201
        assert (await client.get("/auth/me")).status_code == 200  # reads need no header


async def test_idle_session_is_over_and_cannot_be_revived(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        assert (await client.get("/auth/me")).status_code == 200
        await sql(
            api,
            "UPDATE login_sessions SET last_seen_at = $1",
            datetime.now(UTC) - timedelta(minutes=16),
        )
        expired = await client.get("/auth/me")
        assert expired.status_code == 401
        assert expired.json()["error"]["code"] == "session_idle_timeout"
        await sql(api, "UPDATE login_sessions SET last_seen_at = now()")  # "activity" later
        again = await client.get("/auth/me")
        assert again.status_code == 401
        assert again.json()["error"]["code"] == "session_idle_timeout"


async def test_logout_ends_the_session(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        cookie = client.cookies.get("carevault_session")
        assert (await client.post("/auth/logout")).status_code == 204
        client.cookies.set("carevault_session", cookie or "")
        after = await client.get("/auth/me")
    assert after.status_code == 401 and after.json()["error"]["code"] == "session_ended"


async def test_api_token_authenticates_without_cookie_or_csrf_and_revokes_at_once(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with (
        api.with_token(email) as (token_client, token_id),
        api.signed_in(email) as session_client,
    ):
        me = await token_client.get("/auth/me")
        assert me.status_code == 200 and me.json()["auth_method"] == "token"
        page = (await session_client.get("/auth/tokens")).json()
        assert page["total"] == 1 and page["page"] == 1
        listed = page["items"]
        assert [t["id"] for t in listed] == [token_id]
        assert "token" not in listed[0] and listed[0]["prefix"].startswith("cvt_")
        minted = await token_client.post(
            "/auth/tokens", json={"name": "from a token", "scopes": ["clients:read"]}
        )
        assert minted.status_code == 403
        assert (await session_client.delete(f"/auth/tokens/{token_id}")).status_code == 204
        revoked = await token_client.get("/auth/me")
    assert revoked.status_code == 401 and revoked.json()["error"]["code"] == "token_revoked"
    stored = await sql(api, "SELECT token_hash, prefix FROM api_tokens")
    assert len(stored[0]["token_hash"]) == 32


async def test_a_tokens_use_is_marked_and_audited_at_most_once_a_minute(api: ApiContext) -> None:
    """Its last use (shown in the token list) and one auth.token_used event per minute of
    use, in the request's own transaction; a token that last did so over a minute ago is
    marked again."""
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.with_token(email) as (client, token_id):
        for _ in range(3):
            assert (await client.get("/auth/me")).status_code == 200
        events = "SELECT count(*) AS n FROM audit_events WHERE action = 'auth.token_used'"
        first = await sql(api, "SELECT last_used_at FROM api_tokens")
        assert first[0]["last_used_at"] is not None
        assert (await sql(api, events))[0]["n"] == 1
        await sql(api, "UPDATE api_tokens SET last_used_at = now() - interval '2 minutes'")
        assert (await client.get("/auth/me")).status_code == 200
        later = await sql(api, "SELECT id::text, last_used_at FROM api_tokens")
    assert later[0]["id"] == token_id
    assert later[0]["last_used_at"] > first[0]["last_used_at"]
    assert (await sql(api, events))[0]["n"] == 2


async def test_malformed_authorization_is_401(api: ApiContext) -> None:
    async with api.client() as client:
        for header in ("Basic abc", "Bearer", "Bearer cvt_unknown"):
            response = await client.get("/auth/me", headers={"Authorization": header})
            assert response.status_code == 401, header


async def test_only_owners_manage_users(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        assert (await client.get("/users")).status_code == 403
    async with api.signed_in(owner) as client:
        created = await client.post(
            "/users",
            json={"email": "new@example.test", "password": "long enough pw", "role": "clinician"},
        )
        assert created.status_code == 201
        duplicate = await client.post(
            "/users", json={"email": "NEW@example.test", "password": "long enough pw"}
        )
        assert duplicate.status_code == 409
        emails = {u["email"] for u in (await client.get("/users")).json()["items"]}
    assert emails == {owner, clinician, "new@example.test"}


async def test_tokens_of_another_workspace_are_404(api: ApiContext) -> None:
    _, (owner_a,) = await api.workspace_with_users(None, Role.OWNER)
    _, (owner_b,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner_a) as (_, token_id):
        pass
    async with api.signed_in(owner_b) as client:
        response = await client.delete(f"/auth/tokens/{token_id}")
    assert response.status_code == 404


async def test_login_logout_and_failures_are_audited(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.client() as client:
        await client.post("/auth/login", json={"email": email, "password": "bad"})
    async with api.signed_in(email) as client:
        await client.post("/auth/logout")
    rows = await sql(
        api, "SELECT action, ip_address::text AS ip, details FROM audit_events ORDER BY id"
    )
    actions = [r["action"] for r in rows]
    assert actions == ["auth.login_failed", "auth.login", "auth.logout"]
    assert all(r["ip"].startswith("203.0.113.7") for r in rows)


async def test_me_gives_a_reloaded_tab_the_csrf_token_of_its_session(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(email) as client:
        issued = client.headers.pop("X-CSRF-Token")
        me = (await client.get("/auth/me")).json()
        assert me["csrf_token"] == issued
        allowed = await client.post(
            "/auth/tokens",
            json={"name": "x", "scopes": ["clients:read"]},
            headers={"X-CSRF-Token": me["csrf_token"]},
        )
        assert allowed.status_code == 201
    async with api.with_token(email) as (token_client, _):
        assert (await token_client.get("/auth/me")).json()["csrf_token"] is None
