"""Following the change feed (`GET /api/v1/events`): every change to a client, appointment,
session note or user of the practice, oldest first, never skipped or repeated.

Written by hand (tools/client_templates/extra in the CareVault repository) and copied into
the package by `make client`. A sync keeps one cursor: read what follows it, apply each
event (fetch the resource it names, or remove it for `*.deleted`), and store the event's `id`
as the new cursor only once the event is applied, so a crash repeats at most that event.

    from carevault_client import AuthenticatedClient
    from carevault_client.sync import iter_events

    client = AuthenticatedClient(base_url="https://carevault.example", token=TOKEN)
    for event in iter_events(client, after=saved_cursor):
        apply(event.type_, event.resource.type_, event.resource.id)
        saved_cursor = event.id

`iter_events` stops when the feed has nothing more for now; call it again later with the
last cursor (polling every few seconds costs one small request, and no audit event).
`FeedError` carries the API's error: `cursor_expired` (410) means the cursor is older than
the server's retention: list the resources again (`updated_since` helps), then follow the
feed from a fresh cursor.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from .api.events import list_events_api_v1_events_get as list_events
from .client import AuthenticatedClient
from .models.error_response import ErrorResponse
from .models.event_page import EventPage
from .models.event_read import EventRead
from .types import UNSET


class FeedError(Exception):
    """The feed answered with an error: `status` and the API's `code` (`cursor_expired`,
    `invalid_cursor`, `insufficient_scope` …)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code


def _page(answer: object, status: int) -> EventPage:
    if isinstance(answer, EventPage):
        return answer
    if isinstance(answer, ErrorResponse):
        raise FeedError(status, answer.error.code, answer.error.message)
    raise FeedError(status, "unexpected_answer", "the feed answered with no page")


def iter_events(
    client: AuthenticatedClient, after: str | None = None, *, limit: int = 100
) -> Iterator[EventRead]:
    """The events after the cursor `after` (None: from the oldest the server keeps), page by
    page, until none are ready now."""
    cursor = after
    while True:
        response = list_events.sync_detailed(
            client=client, after=UNSET if cursor is None else cursor, limit=limit
        )
        page = _page(response.parsed, int(response.status_code))
        yield from page.data
        cursor = page.next_cursor
        if not page.has_more:
            return


async def aiter_events(
    client: AuthenticatedClient, after: str | None = None, *, limit: int = 100
) -> AsyncIterator[EventRead]:
    """`iter_events` for asyncio."""
    cursor = after
    while True:
        response = await list_events.asyncio_detailed(
            client=client, after=UNSET if cursor is None else cursor, limit=limit
        )
        page = _page(response.parsed, int(response.status_code))
        for event in page.data:
            yield event
        cursor = page.next_cursor
        if not page.has_more:
            return
