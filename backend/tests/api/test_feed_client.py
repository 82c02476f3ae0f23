"""The Python client's feed helper (clients/python, carevault_client.sync): follows cursors
page by page, and turns the API's errors into FeedError with their code."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from carevault.auth.models import Role
from tests.support.clients import create_client
from tests.support.http import ApiContext

CLIENT_ROOT = Path(__file__).resolve().parents[3] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))

from carevault_client import AuthenticatedClient  # noqa: E402
from carevault_client.sync import FeedError, aiter_events  # noqa: E402


async def test_aiter_events_follows_the_feed_across_pages(api: ApiContext) -> None:
    _, (owner,) = await api.workspace_with_users(None, Role.OWNER)
    async with api.with_token(owner) as (http, _):
        token = http.headers["Authorization"].removeprefix("Bearer ")
        made = [(await create_client(http, first_name=f"N{n}"))["id"] for n in range(5)]
    transport = httpx.ASGITransport(app=api.app, client=("127.0.0.1", 50000))
    client = AuthenticatedClient(base_url="http://127.0.0.1", token=token)
    client.set_async_httpx_client(
        httpx.AsyncClient(
            transport=transport,
            base_url="http://127.0.0.1",
            headers={"Authorization": f"Bearer {token}"},
        )
    )
    async with client:
        events = [event async for event in aiter_events(client, limit=2)]
        created = [str(e.resource.id) for e in events if e.type_ == "client.created"]
        assert created == made
        assert len({e.id for e in events}) == len(events)
        # From the last cursor: nothing new.
        assert [event async for event in aiter_events(client, after=events[-1].id)] == []
        with pytest.raises(FeedError) as refused:
            async for _ in aiter_events(client, after="not-a-cursor"):
                pass
        assert (refused.value.status, refused.value.code) == (422, "invalid_cursor")
