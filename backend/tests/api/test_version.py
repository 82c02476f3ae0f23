"""GET /api/v1/version: the release answering, for signed-in callers only."""

from __future__ import annotations

import carevault
from carevault.auth.models import Role
from tests.support.http import ApiContext


async def test_a_token_or_a_session_reads_the_release(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.with_token(email, scopes=("clients:read",)) as (token_client, _):
        by_token = await token_client.get("/version")
    async with api.signed_in(email) as session_client:
        by_session = await session_client.get("/version")
    for response in (by_token, by_session):
        assert response.status_code == 200
        assert response.json() == {"version": carevault.__version__, "api": "v1"}


async def test_an_anonymous_caller_learns_no_release(api: ApiContext) -> None:
    async with api.client() as client:
        response = await client.get("/version")
    assert response.status_code == 401
    assert carevault.__version__ not in response.text
