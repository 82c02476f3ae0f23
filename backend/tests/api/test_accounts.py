"""Accounts an owner controls: disable and enable, temporary passwords, your own password,
re-authentication for sensitive changes, and API tokens limited by scope and time."""

from __future__ import annotations

import asyncio
import logging
import uuid

import asyncpg
import pytest

from carevault.auth.models import Role
from tests.support.db import libpq_dsn, sql
from tests.support.http import PASSWORD, ApiContext, event_details

NEW_PASSWORD = "a different long passphrase"


async def user_id(api: ApiContext, email: str) -> str:
    rows = await sql(api, "SELECT id::text AS id FROM users WHERE email = $1", email)
    return str(rows[0]["id"])


async def make_password_stale(api: ApiContext) -> None:
    await sql(api, "UPDATE login_sessions SET reauthenticated_at = now() - interval '6 minutes'")


# --- a leaked token cannot manage people or tokens --------------------------------------------


async def test_an_owner_token_cannot_create_users_or_manage_tokens(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    target = await user_id(api, clinician)
    async with api.with_token(owner) as (client, token_id):
        attempts = [
            await client.post(
                "/users",
                json={
                    "email": "mallory@example.test",
                    "password": "long enough pw",
                    "role": "owner",
                },
            ),
            await client.get("/users"),
            await client.post(f"/users/{target}/disable"),
            await client.post(
                f"/users/{target}/temporary-password", json={"temporary_password": "x" * 12}
            ),
            await client.get("/auth/tokens"),
            await client.post("/auth/tokens", json={"name": "more", "scopes": ["notes:read"]}),
            await client.delete(f"/auth/tokens/{token_id}"),
            await client.post(
                "/auth/password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
            ),
            await client.post("/auth/reauth", json={"password": PASSWORD}),
        ]
    assert [a.status_code for a in attempts] == [403] * len(attempts)
    assert {a.json()["error"]["code"] for a in attempts} == {"login_session_required"}
    assert (await sql(api, "SELECT 1 FROM users WHERE email = 'mallory@example.test'")) == []


# --- disable and enable -------------------------------------------------------------------


async def test_disabling_ends_sessions_and_tokens_on_the_very_next_request(
    api: ApiContext,
) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    target = await user_id(api, clinician)
    async with (
        api.signed_in(clinician) as session_client,
        api.with_token(clinician) as (token_client, _),
        api.signed_in(owner) as owner_client,
    ):
        assert (await session_client.get("/clients")).status_code == 200
        assert (await token_client.get("/clients")).status_code == 200
        disabled = await owner_client.post(f"/users/{target}/disable")
        assert disabled.status_code == 200 and disabled.json()["disabled_at"]
        by_session = await session_client.get("/clients")
        by_token = await token_client.get("/clients")
        assert by_session.status_code == by_token.status_code == 401
        assert by_session.json()["error"]["code"] == "session_ended"
        assert by_token.json()["error"]["code"] == "token_revoked"
        async with api.client() as fresh:
            refused = await fresh.post(
                "/auth/login", json={"email": clinician, "password": PASSWORD}
            )
            assert refused.status_code == 401
        enabled = await owner_client.post(f"/users/{target}/enable")
        assert enabled.status_code == 200 and enabled.json()["disabled_at"] is None
        # Enabling brings back neither the old session nor the old token.
        assert (await session_client.get("/clients")).status_code == 401
        assert (await token_client.get("/clients")).status_code == 401
    async with api.signed_in(clinician) as back:
        assert (await back.get("/clients")).status_code == 200
    rows = await sql(
        api, "SELECT action, resource_ids, details FROM audit_events WHERE action LIKE 'user.%'"
    )
    assert [r["action"] for r in rows] == ["user.disable", "user.enable"]
    assert [str(i) for i in rows[0]["resource_ids"]] == [target]
    # Two sessions: with_token signed in to create the token.
    assert event_details(rows[0]["details"]) == {"sessions_ended": 2, "tokens_revoked": 1}


async def test_only_owners_disable_and_never_themselves(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    async with api.signed_in(clinician) as client:
        refused = await client.post(f"/users/{await user_id(api, owner)}/disable")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "owner_required"
    async with api.signed_in(owner) as client:
        own = await client.post(f"/users/{await user_id(api, owner)}/disable")
        assert own.status_code == 409 and own.json()["error"]["code"] == "account_conflict"
        missing = await client.post(f"/users/{uuid.uuid4()}/disable")
        assert missing.status_code == 404


async def test_users_of_another_practice_cannot_be_disabled(api: ApiContext) -> None:
    _, (owner_a,) = await api.workspace_with_users(None, Role.OWNER)
    _, (clinician_b,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(owner_a) as client:
        answer = await client.post(f"/users/{await user_id(api, clinician_b)}/disable")
    assert answer.status_code == 404
    assert (await sql(api, "SELECT disabled_at FROM users WHERE disabled_at IS NOT NULL")) == []


@pytest.mark.parametrize("seen_seconds_ago", [0, 40])
async def test_two_owners_disabling_each_other_at_once_leave_one_owner(
    api: ApiContext, seen_seconds_ago: int
) -> None:
    _, (first, second) = await api.workspace_with_users(None, Role.OWNER, Role.OWNER)
    first_id, second_id = await user_id(api, first), await user_id(api, second)
    async with api.signed_in(first) as a, api.signed_in(second) as b:
        # 40 s: each request also updates its own session's last-seen time, a row the other
        # request must end (the lock order in disable_user keeps this from deadlocking).
        await sql(
            api,
            "UPDATE login_sessions SET last_seen_at = now() - make_interval(secs => $1)",
            seen_seconds_ago,
        )
        answers = await asyncio.gather(
            a.post(f"/users/{second_id}/disable"), b.post(f"/users/{first_id}/disable")
        )
    assert sorted(r.status_code for r in answers) == [200, 409]
    active = await sql(api, "SELECT 1 FROM users WHERE role = 'owner' AND disabled_at IS NULL")
    assert len(active) == 1


# --- re-authentication ----------------------------------------------------------------------


async def test_sensitive_changes_need_the_password_within_five_minutes(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    target = await user_id(api, clinician)
    async with api.signed_in(owner) as client:
        await make_password_stale(api)
        body = {"email": "late@example.test", "password": "long enough pw"}
        for answer in (
            await client.post("/users", json=body),
            await client.post(f"/users/{target}/disable"),
            await client.post("/auth/tokens", json={"name": "t", "scopes": ["notes:read"]}),
        ):
            assert answer.status_code == 403, answer.text
            assert answer.json()["error"]["code"] == "reauthentication_required"
        assert (await client.get("/users")).status_code == 200  # reading needs no re-proof
        wrong = await client.post("/auth/reauth", json={"password": "not it"})
        assert wrong.status_code == 401
        proved = await client.post("/auth/reauth", json={"password": PASSWORD})
        assert proved.status_code == 200 and proved.json()["reauthenticated_until"]
        assert (await client.post("/users", json=body)).status_code == 201
    actions = [r["action"] for r in await sql(api, "SELECT action FROM audit_events ORDER BY id")]
    assert "auth.reauthenticate_failed" in actions and "auth.reauthenticate" in actions


async def test_re_authentication_guesses_are_throttled_per_session(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as client:
        answers = [
            (await client.post("/auth/reauth", json={"password": f"guess {n}"})).status_code
            for n in range(6)
        ]
        assert answers == [401] * 5 + [429]
        # Another sign-in of the same user is not slowed by this session's guesses.
        async with api.signed_in(owner) as other:
            assert (
                await other.post("/auth/reauth", json={"password": PASSWORD})
            ).status_code == 200


# --- your own password ---------------------------------------------------------------------


async def test_changing_your_password_ends_your_other_sessions(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.signed_in(email) as here, api.signed_in(email) as elsewhere:
        wrong = await here.post(
            "/auth/password", json={"current_password": "nope", "new_password": NEW_PASSWORD}
        )
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "invalid_credentials"
        same = await here.post(
            "/auth/password", json={"current_password": PASSWORD, "new_password": PASSWORD}
        )
        assert same.status_code == 422
        changed = await here.post(
            "/auth/password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        )
        assert changed.status_code == 200 and changed.json() == {"other_sessions_ended": 1}
        assert (await here.get("/auth/me")).status_code == 200
        gone = await elsewhere.get("/auth/me")
        assert gone.status_code == 401 and gone.json()["error"]["code"] == "session_ended"
    async with api.client() as client:
        old = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
        new = await client.post("/auth/login", json={"email": email, "password": NEW_PASSWORD})
    assert old.status_code == 401 and new.status_code == 200
    actions = [r["action"] for r in await sql(api, "SELECT action FROM audit_events")]
    assert "auth.password_change" in actions and "auth.password_change_failed" in actions


# --- temporary passwords -------------------------------------------------------------------


async def test_a_temporary_password_must_be_changed_at_the_next_sign_in(api: ApiContext) -> None:
    _, (owner, clinician) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    target = await user_id(api, clinician)
    temporary = "temporary pass 4821"
    async with api.signed_in(clinician) as old_session, api.signed_in(owner) as owner_client:
        reset = await owner_client.post(
            f"/users/{target}/temporary-password", json={"temporary_password": temporary}
        )
        assert reset.status_code == 200 and reset.json()["must_change_password"] is True
        assert (await old_session.get("/auth/me")).status_code == 401
        own = await owner_client.post(
            f"/users/{await user_id(api, owner)}/temporary-password",
            json={"temporary_password": temporary},
        )
        assert own.status_code == 409
    async with api.client() as client:
        login = await client.post("/auth/login", json={"email": clinician, "password": temporary})
        assert login.status_code == 200 and login.json()["user"]["must_change_password"] is True
        client.headers["X-CSRF-Token"] = login.json()["csrf_token"]
        assert (await client.get("/auth/me")).json()["user"]["must_change_password"] is True
        blocked = await client.get("/clients")
        assert blocked.status_code == 403
        assert blocked.json()["error"]["code"] == "password_change_required"
        changed = await client.post(
            "/auth/password", json={"current_password": temporary, "new_password": NEW_PASSWORD}
        )
        assert changed.status_code == 200
        assert (await client.get("/clients")).status_code == 200
        # One-time: the temporary password no longer signs in.
        again = await client.post("/auth/login", json={"email": clinician, "password": temporary})
        assert again.status_code == 401
    actions = [r["action"] for r in await sql(api, "SELECT action FROM audit_events")]
    assert "user.temporary_password" in actions


# --- token scopes and expiry ---------------------------------------------------------------


async def test_a_token_can_do_only_what_its_scopes_allow(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner, scopes=("clients:read",)) as (client, _):
        assert (await client.get("/clients")).status_code == 200
        assert (await client.get("/auth/me")).status_code == 200
        for answer, needed in (
            (
                await client.post("/clients", json={"first_name": "A", "last_name": "B"}),
                "clients:write",
            ),
            (await client.get("/sessions"), "notes:read"),
            (await client.get("/appointments"), "appointments:read"),
            (await client.get("/audit-events"), "audit:read"),
        ):
            assert answer.status_code == 403, answer.text
            assert answer.json()["error"]["code"] == "insufficient_scope"
            assert answer.json()["error"]["details"] == {
                "required_scope": needed,
                "required_scopes": [needed],
            }
    assert (await sql(api, "SELECT 1 FROM clients")) == []


async def test_tokens_expire_and_list_their_scopes(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.signed_in(owner) as session_client:
        created = await session_client.post(
            "/auth/tokens",
            json={"name": "weekly", "scopes": ["appointments:read"], "expires_in_days": 7},
        )
        assert created.status_code == 201
        assert created.json()["scopes"] == ["appointments:read"]
        assert created.json()["expires_at"]
        unscoped = await session_client.post("/auth/tokens", json={"name": "all"})
        assert unscoped.status_code == 422
        unknown = await session_client.post(
            "/auth/tokens", json={"name": "x", "scopes": ["users:write"]}
        )
        assert unknown.status_code == 422
    async with api.client() as client:
        client.headers["Authorization"] = f"Bearer {created.json()['token']}"
        week = {"start": "2025-01-13T00:00:00Z", "end": "2025-01-20T00:00:00Z"}
        assert (await client.get("/appointments", params=week)).status_code == 200
        await sql(api, "UPDATE api_tokens SET expires_at = now() - interval '1 second'")
        expired = await client.get("/appointments", params=week)
    assert expired.status_code == 401 and expired.json()["error"]["code"] == "token_expired"


# --- adding users at once -----------------------------------------------------------------------


def _logged_text(caplog: pytest.LogCaptureFixture) -> str:
    """Everything logged, messages, extras and tracebacks alike."""
    parts = [caplog.text]
    for record in caplog.records:
        parts += [record.getMessage(), str(record.__dict__)]
    return "\n".join(parts).lower()


async def test_adding_one_address_twice_at_once_is_one_user_and_409s_without_logging_it(
    api: ApiContext, caplog: pytest.LogCaptureFixture
) -> None:
    """Both requests pass the service's "already there?" check before either commits; the
    unique index decides, and the loser is answered 409 like any duplicate (not a 500 whose
    traceback quotes the address). Made certain: a transaction holding the same address,
    uncommitted, keeps every request waiting at its INSERT until it commits."""
    caplog.set_level(logging.DEBUG)
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    workspace_id = (await sql(api, "SELECT workspace_id FROM users WHERE email = $1", owner))[0][0]
    email = f"Racing-{uuid.uuid4().hex[:8]}@Example.test"
    body = {"email": email, "password": "a long enough password", "role": "clinician"}
    blocker = await asyncpg.connect(libpq_dsn(api.database_url))
    watcher = await asyncpg.connect(libpq_dsn(api.database_url))
    try:
        async with api.signed_in(owner) as client:
            await blocker.execute("BEGIN")
            await blocker.execute(
                "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role, "
                "must_change_password, created_at) VALUES (gen_random_uuid(), $1, lower($2), "
                "'blocker', 'x', 'clinician', false, now())",
                workspace_id,
                email,
            )
            racing = asyncio.gather(*(client.post("/users", json=body) for _ in range(3)))
            for _ in range(500):  # bounded: until all three wait on the uncommitted row
                waiting = await watcher.fetchval(  # outside a transaction: a fresh view
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database() AND query LIKE 'INSERT INTO users%'"
                )
                if waiting == 3 or racing.done():
                    break
                await asyncio.sleep(0.01)
            await blocker.execute("COMMIT")
            answers = await racing
            # And without the blocker: one of two simultaneous requests wins.
            second = {**body, "email": "other-" + email}
            pair = await asyncio.gather(*(client.post("/users", json=second) for _ in range(2)))
    finally:
        await blocker.close()
        await watcher.close()
    assert waiting == 3
    assert [a.status_code for a in answers] == [409, 409, 409], [a.text for a in answers]
    assert all(a.json()["error"]["code"] == "user_exists" for a in answers)
    assert sorted(a.status_code for a in pair) == [201, 409]
    rows = await sql(api, "SELECT count(*) AS n FROM users WHERE lower(email) LIKE '%racing-%'")
    assert rows[0]["n"] == 2
    logged = _logged_text(caplog)
    assert "racing-" not in logged and "traceback" not in logged
