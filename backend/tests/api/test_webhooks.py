"""Webhook endpoints over HTTP (issue 25): owners register them with a cookie session and a
recent password; the secret is shown once and stored sealed; URLs that could reach inside
the network are refused (SSRF) unless the operator allow-lists them."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from carevault.auth.models import Role
from tests.support.db import NewDatabase, sql
from tests.support.http import ApiContext, error_of, running_api

HOOK = "https://127.0.0.1/hook"


@pytest.fixture
async def loopback_api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """Webhooks may go to loopback (as in development against a local receiver); the worker
    is not running, so nothing is sent behind the tests' backs."""
    async with running_api(
        await new_database(),
        data_dir,
        webhook_worker=False,
        webhook_allowed_networks="127.0.0.0/8,::1/128",
    ) as context:
        yield context


@pytest.fixture
async def strict_api(new_database: NewDatabase, data_dir: Path) -> AsyncIterator[ApiContext]:
    """The default policy: HTTPS to public addresses only."""
    async with running_api(await new_database(), data_dir, webhook_worker=False) as context:
        yield context


async def test_owner_registers_an_endpoint_and_sees_the_secret_once(
    loopback_api: ApiContext,
) -> None:
    space, (owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        created = await client.post(
            "/webhooks",
            json={"url": HOOK, "event_types": ["client.*", "note.signed"], "description": "sync"},
        )
        assert created.status_code == 201, created.text
        body = created.json()
        secret = body["secret"]
        assert secret.startswith("whsec_") and len(secret) > 40
        assert body["enabled"] is True and body["event_types"] == ["client.*", "note.signed"]
        webhook_id = body["id"]

        listed = (await client.get("/webhooks")).json()
        assert [w["id"] for w in listed["items"]] == [webhook_id]
        assert "secret" not in listed["items"][0]
        got = await client.get(f"/webhooks/{webhook_id}")
        assert got.status_code == 200 and "secret" not in got.json()

        rotated = await client.post(f"/webhooks/{webhook_id}/rotate-secret")
        assert rotated.status_code == 200, rotated.text
        new_secret = rotated.json()["secret"]
        assert new_secret.startswith("whsec_") and new_secret != secret

    # Stored sealed: neither secret is anywhere in the row's bytes.
    (row,) = await sql(loopback_api, "SELECT secret, cursor FROM webhook_endpoints")
    assert secret.encode() not in bytes(row["secret"])
    assert new_secret.encode() not in bytes(row["secret"])
    assert row["cursor"].startswith("ev_")  # starts after the moment it was registered
    actions = [
        r["action"]
        for r in await sql(
            loopback_api,
            "SELECT action FROM audit_events WHERE workspace_id = $1 AND action LIKE 'webhook.%' "
            "ORDER BY occurred_at",
            space.id,
        )
    ]
    assert actions == ["webhook.create", "webhook.rotate_secret"]
    # No secret in any audit row either.
    dumped = str(await sql(loopback_api, "SELECT * FROM audit_events"))
    assert secret not in dumped and new_secret not in dumped


async def test_update_disable_enable_and_delete(loopback_api: ApiContext) -> None:
    _, (owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        webhook_id = (
            await client.post("/webhooks", json={"url": HOOK, "event_types": ["*"]})
        ).json()["id"]
        disabled = await client.patch(f"/webhooks/{webhook_id}", json={"enabled": False})
        assert disabled.status_code == 200, disabled.text
        assert disabled.json()["enabled"] is False
        assert disabled.json()["disabled_reason"] == "disabled_by_owner"
        assert disabled.json()["disabled_at"] is not None

        enabled = await client.patch(
            f"/webhooks/{webhook_id}",
            json={"enabled": True, "url": "https://127.0.0.2/other", "event_types": ["user.*"]},
        )
        assert enabled.status_code == 200, enabled.text
        assert enabled.json() | {"updated_at": None} == enabled.json() | {
            "enabled": True,
            "disabled_reason": None,
            "disabled_at": None,
            "url": "https://127.0.0.2/other",
            "event_types": ["user.*"],
            "updated_at": None,
        }
        nothing = await client.patch(f"/webhooks/{webhook_id}", json={})
        assert nothing.status_code == 422 and error_of(nothing)["code"] == "no_changes"
        typo = await client.patch(f"/webhooks/{webhook_id}", json={"event_types": ["client.x"]})
        assert error_of(typo)["code"] == "unknown_event_type"

        assert (await client.delete(f"/webhooks/{webhook_id}")).status_code == 204
        assert (await client.get(f"/webhooks/{webhook_id}")).status_code == 404
        assert (await client.delete(f"/webhooks/{webhook_id}")).status_code == 404


async def test_only_owners_with_a_session_and_a_recent_password_manage_webhooks(
    loopback_api: ApiContext,
) -> None:
    space, (owner, clinician) = await loopback_api.workspace_with_users(
        None, Role.OWNER, Role.CLINICIAN
    )
    async with loopback_api.signed_in(clinician) as client:
        refused = await client.post("/webhooks", json={"url": HOOK, "event_types": ["*"]})
        assert refused.status_code == 403 and error_of(refused)["code"] == "owner_required"
        assert (await client.get("/webhooks")).status_code == 403
    # Tokens never manage webhooks, whatever their scopes (an endpoint is a credential).
    async with loopback_api.with_token(owner) as (token_client, _):
        refused = await token_client.get("/webhooks")
        assert refused.status_code == 403
        assert error_of(refused)["code"] == "login_session_required"
    async with loopback_api.signed_in(owner) as client:
        await sql(
            loopback_api,
            "UPDATE login_sessions SET reauthenticated_at = now() - '1 hour'::interval",
        )
        stale = await client.post("/webhooks", json={"url": HOOK, "event_types": ["*"]})
        assert stale.status_code == 403
        assert error_of(stale)["code"] == "reauthentication_required"
        assert (await client.get("/webhooks")).status_code == 200  # reading needs no re-proof
    # Another practice's owner sees none of them.
    other_space, (other_owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        await sql(loopback_api, "UPDATE login_sessions SET reauthenticated_at = now()")
        webhook_id = (
            await client.post("/webhooks", json={"url": HOOK, "event_types": ["*"]})
        ).json()["id"]
    async with loopback_api.signed_in(other_owner) as client:
        assert (await client.get(f"/webhooks/{webhook_id}")).status_code == 404
        assert (await client.get(f"/webhooks/{webhook_id}/deliveries")).status_code == 404
        assert (await client.get("/webhooks")).json()["items"] == []
    assert space.id != other_space.id


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://10.0.0.1/hook", "private"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://169.254.169.254/latest/meta-data", "link-local"),
        ("https://[::1]/hook", "loopback"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://100.64.0.1/hook", "reserved"),
        ("https://224.0.0.1/hook", "multicast"),
        ("https://0.0.0.0/hook", "reserved"),
        ("http://93.184.215.14/hook", "https"),
        ("ftp://93.184.215.14/hook", "https"),
        ("https://user:pw@93.184.215.14/hook", "credentials"),
        ("https://does-not-exist.invalid/hook", "does not resolve"),
    ],
)
async def test_urls_that_could_reach_inside_are_refused(
    strict_api: ApiContext, url: str, why: str
) -> None:
    _, (owner,) = await strict_api.workspace_with_users(None, Role.OWNER)
    async with strict_api.signed_in(owner) as client:
        refused = await client.post("/webhooks", json={"url": url, "event_types": ["*"]})
        assert refused.status_code == 422, refused.text
        error = error_of(refused)
        assert error["code"] == "webhook_url_refused"
        assert why in error["message"]
        assert error["details"][0]["field"] == "body.url"
    assert await sql(strict_api, "SELECT 1 FROM webhook_endpoints") == []


async def test_a_public_https_url_is_accepted_under_the_default_policy(
    strict_api: ApiContext,
) -> None:
    """An IP literal needs no DNS: the policy itself lets public HTTPS through."""
    _, (owner,) = await strict_api.workspace_with_users(None, Role.OWNER)
    async with strict_api.signed_in(owner) as client:
        created = await client.post(
            "/webhooks", json={"url": "https://93.184.215.14/hook", "event_types": ["*"]}
        )
        assert created.status_code == 201, created.text


async def test_the_allow_list_admits_loopback_and_plain_http_to_it_only(
    loopback_api: ApiContext,
) -> None:
    _, (owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        for url in ("http://127.0.0.1:8080/hook", "https://[::1]/hook"):
            created = await client.post("/webhooks", json={"url": url, "event_types": ["*"]})
            assert created.status_code == 201, (url, created.text)
        for url in ("https://10.0.0.1/hook", "http://93.184.215.14/hook"):
            refused = await client.post("/webhooks", json={"url": url, "event_types": ["*"]})
            assert error_of(refused)["code"] == "webhook_url_refused", url


async def test_unknown_event_types_are_refused(loopback_api: ApiContext) -> None:
    _, (owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        for types in (["client.renamed"], ["clients.*"], ["nonsense"]):
            refused = await client.post("/webhooks", json={"url": HOOK, "event_types": types})
            assert refused.status_code == 422, types
        for types in (["*"], ["appointment.*"], ["webhook_endpoint.disabled", "user.created"]):
            created = await client.post("/webhooks", json={"url": HOOK, "event_types": types})
            assert created.status_code == 201, (types, created.text)


async def test_redeliver_of_an_unknown_delivery_is_404(loopback_api: ApiContext) -> None:
    _, (owner,) = await loopback_api.workspace_with_users(None, Role.OWNER)
    async with loopback_api.signed_in(owner) as client:
        webhook_id = (
            await client.post("/webhooks", json={"url": HOOK, "event_types": ["*"]})
        ).json()["id"]
        missing = await client.post(f"/webhooks/{webhook_id}/deliveries/{uuid.uuid4()}/redeliver")
        assert missing.status_code == 404
        page = await client.get(f"/webhooks/{webhook_id}/deliveries")
        assert page.status_code == 200 and page.json()["items"] == []
