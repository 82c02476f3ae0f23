"""API requests are limited per token and per login session, and every authenticated
response says how much of the limit is left (issue 14, item 3)."""

from __future__ import annotations

import uuid

from carevault.auth.models import Role
from carevault.auth.rate_limit import RateLimiter
from carevault.auth.scopes import EVERY_SCOPE
from tests.support.http import ApiContext, error_of
from tests.support.notes import practice


def tight_limit(api: ApiContext, per_minute: int) -> None:
    api.app.state.carevault.rate_limiter = RateLimiter(per_minute)


async def test_a_session_gets_its_quota_in_headers_then_429_with_retry_after(
    api: ApiContext,
) -> None:
    place = await practice(api, Role.CLINICIAN)
    async with api.signed_in(place.emails[0]) as client:
        tight_limit(api, 3)
        answers = [await client.get("/auth/me") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(a.headers["RateLimit-Limit"] == "3" for a in answers)
    assert answers[0].headers["RateLimit-Policy"] == "3;w=60"
    refused = answers[3]
    assert error_of(refused)["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["Retry-After"] == refused.headers["RateLimit-Reset"]


async def test_tokens_and_sessions_are_counted_apart(api: ApiContext) -> None:
    place = await practice(api, Role.OWNER)
    async with api.signed_in(place.emails[0]) as client:
        token = (
            await client.post("/auth/tokens", json={"name": "t", "scopes": list(EVERY_SCOPE)})
        ).json()["token"]
        tight_limit(api, 2)
        headers = {"Authorization": f"Bearer {token}"}
        async with api.client() as integration:
            by_token = [(await integration.get("/clients", headers=headers)) for _ in range(3)]
        by_session = await client.get("/clients")
    assert [a.status_code for a in by_token] == [200, 200, 429]
    assert by_session.status_code == 200
    assert by_session.headers["RateLimit-Remaining"] == "1"


async def test_signed_out_requests_carry_no_quota(api: ApiContext) -> None:
    async with api.client() as client:
        answer = await client.get("/auth/me")
    assert answer.status_code == 401
    assert "RateLimit-Limit" not in answer.headers


async def test_the_window_resets_after_a_minute() -> None:
    now = [1000.0]
    limiter = RateLimiter(2, clock=lambda: now[0])
    credential = uuid.uuid4()
    assert (await limiter.take("token", credential)).remaining == 1
    assert (await limiter.take("token", credential)).remaining == 0
    now[0] += 30
    over = await limiter.take("token", credential)
    assert over.exceeded and over.reset_seconds == 30
    now[0] += 30
    assert (await limiter.take("token", credential)).remaining == 1
