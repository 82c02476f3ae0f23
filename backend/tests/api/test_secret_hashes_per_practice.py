"""Secret hashes are unique within a practice only (migration 0029, so that a Citus cluster
can shard on the practice), and a credential is looked up by its hash before the practice
is known. A hash found in two practices (a planted row: a 256-bit random secret does not
repeat) authenticates no one: never the first row found, never the other practice's."""

from __future__ import annotations

import asyncpg
import pytest

from carevault.auth import service as auth_service
from carevault.auth.models import Role
from carevault.workspaces import service as workspace_service
from tests.support.db import sql
from tests.support.http import PASSWORD, ApiContext, error_of


async def test_a_token_hash_found_in_two_practices_authenticates_no_one(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.OWNER)
    _, (other_email,) = await api.workspace_with_users(None, Role.OWNER)
    planted = (
        "INSERT INTO api_tokens (id, workspace_id, user_id, name, token_hash, prefix, scopes) "
        "SELECT gen_random_uuid(), u.workspace_id, u.id, 'planted', t.token_hash, t.prefix, "
        "t.scopes FROM api_tokens t, users u WHERE t.id = $1::uuid AND u.email = $2"
    )
    async with api.with_token(email) as (client, token_id):
        before = await client.get("/auth/me")
        # Within one practice the hash stays unique.
        with pytest.raises(asyncpg.UniqueViolationError):
            await sql(api, planted, token_id, email)
        await sql(api, planted, token_id, other_email)
        refused = await client.get("/auth/me")
        await sql(api, "DELETE FROM api_tokens WHERE name = 'planted'")
        after = await client.get("/auth/me")
    assert before.status_code == 200 and before.json()["user"]["email"] == email
    assert refused.status_code == 401 and error_of(refused)["code"] == "invalid_token"
    assert after.status_code == 200 and after.json()["user"]["email"] == email


async def test_a_session_hash_found_in_two_practices_authenticates_no_one(
    api: ApiContext,
) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    _, (other_email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as browser:
        before = await browser.get("/auth/me")
        await sql(
            api,
            "INSERT INTO login_sessions (id, workspace_id, user_id, secret_hash, csrf_hash, "
            "created_at, last_seen_at, expires_at) SELECT gen_random_uuid(), u.workspace_id, "
            "u.id, s.secret_hash, s.csrf_hash, s.created_at, s.last_seen_at, s.expires_at "
            "FROM login_sessions s JOIN users mine ON mine.id = s.user_id, users u "
            "WHERE mine.email = $1 AND u.email = $2",
            email,
            other_email,
        )
        refused = await browser.get("/auth/me")
        await sql(
            api,
            "DELETE FROM login_sessions WHERE user_id IN (SELECT id FROM users WHERE email = $1)",
            other_email,
        )
        after = await browser.get("/auth/me")
    assert before.status_code == 200 and before.json()["user"]["email"] == email
    assert refused.status_code == 401 and error_of(refused)["code"] == "not_authenticated"
    assert after.status_code == 200 and after.json()["user"]["email"] == email


async def test_a_device_hash_found_in_two_practices_trusts_neither_browser(
    api: ApiContext,
) -> None:
    """The same address in two practices; its usual browser's device secret planted for the
    other practice's account too. While the address is locked by a stranger's guesses, the
    browser is then no longer trusted (429, not a 500 and not the other account)."""
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.sessions() as db, db.begin():
        space = await workspace_service.create(db, "The other practice")
        await auth_service.create_user(
            db, space, email=email, password="the other practice's password", role=Role.CLINICIAN
        )
    async with api.signed_in(email) as usual_browser:
        assert "carevault_device" in usual_browser.cookies
        await usual_browser.post("/auth/logout")
        async with api.client() as stranger:
            for _ in range(8):
                await stranger.post("/auth/login", json={"email": email, "password": "guess"})
            locked = await stranger.post("/auth/login", json={"email": email, "password": PASSWORD})
        await sql(
            api,
            "INSERT INTO trusted_devices (id, workspace_id, user_id, secret_hash, created_at, "
            "last_used_at) SELECT gen_random_uuid(), $1::uuid, u.id, d.secret_hash, now(), "
            "now() FROM trusted_devices d, users u WHERE u.workspace_id = $1::uuid",
            space.id,
        )
        planted = await usual_browser.post(
            "/auth/login", json={"email": email, "password": PASSWORD}
        )
        await sql(api, "DELETE FROM trusted_devices WHERE workspace_id = $1::uuid", space.id)
        trusted = await usual_browser.post(
            "/auth/login", json={"email": email, "password": PASSWORD}
        )
    assert locked.status_code == 429
    assert planted.status_code == 429
    assert trusted.status_code == 200 and trusted.json()["user"]["email"] == email
    assert trusted.json()["workspace"]["id"] != str(space.id)
