"""The web UI's draft key (carevault.auth.drafts): what the browser encrypts unsaved note
text with. Given to login sessions only, the same at every sign-in of a user, different for
every other user."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

from carevault.auth.models import Role
from tests.support.http import PASSWORD, ApiContext


async def _sign_in(api: ApiContext, email: str) -> dict[str, object]:
    async with api.client() as client:
        response = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
        assert response.status_code == 200
        body: dict[str, object] = response.json()
        me = (await client.get("/auth/me")).json()
    assert me["draft_key"] == body["draft_key"]
    return body


async def test_the_draft_key_is_per_user_and_the_same_at_every_sign_in(api: ApiContext) -> None:
    _, (first, second) = await api.workspace_with_users(None, Role.OWNER, Role.CLINICIAN)
    _, (elsewhere,) = await api.workspace_with_users(None, Role.CLINICIAN)
    one = await _sign_in(api, first)
    again = await _sign_in(api, first)
    other = await _sign_in(api, second)
    other_practice = await _sign_in(api, elsewhere)

    key = one["draft_key"]
    assert isinstance(key, str) and len(base64.urlsafe_b64decode(key + "=")) == 32
    assert again["draft_key"] == key
    assert other["draft_key"] != key and other_practice["draft_key"] != key
    assert other_practice["draft_key"] != other["draft_key"]
    expires = datetime.fromisoformat(str(one["session_expires_at"]))
    assert timedelta(hours=11) < expires - datetime.now(UTC) <= timedelta(hours=12)


async def test_api_tokens_get_no_draft_key(api: ApiContext) -> None:
    _, (email,) = await api.workspace_with_users(None, Role.CLINICIAN)
    async with api.with_token(email) as (token_client, _):
        me = await token_client.get("/auth/me")
    assert me.status_code == 200 and me.json()["draft_key"] is None
