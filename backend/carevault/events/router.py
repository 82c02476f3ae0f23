from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.replica import ReplicaReads
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentOwner
from carevault.auth.permissions import declare, reads
from carevault.core.fields import QueryInteger
from carevault.events import feed
from carevault.events.schemas import EventHead, EventPage, EventRead

router = APIRouter(prefix="/events", tags=["events"], route_class=ApiRoute)


@router.get(
    "",
    response_model=EventPage,
    responses=error_responses(*AUTHENTICATED, codes=("invalid_cursor", "cursor_expired")),
)
@declare(reads("events"))
async def list_events(
    owner: CurrentOwner,
    db: ReplicaReads,
    after: Annotated[
        str | None,
        Query(
            max_length=64,
            description="A `next_cursor` or event `id` as received; none: from the oldest kept",
        ),
    ] = None,
    limit: Annotated[
        QueryInteger, Query(ge=1, le=feed.MAX_API_LIMIT, description="events per page")
    ] = feed.DEFAULT_LIMIT,
) -> EventPage:
    """The practice's change feed: every change to a client, appointment, session note or
    user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
    `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
    this feed did not issue, 410 `cursor_expired` when events after it were past retention.
    Owners only (token scope `events:read`)."""
    cursor = None if after is None else feed.Cursor.decode(after)
    page = await feed.read_page(db, owner.workspace_id, cursor, limit)
    return EventPage(
        data=[EventRead.of(event) for event in page.events],
        next_cursor=page.next_cursor.encode(),
        has_more=page.has_more,
    )


@router.get("/head", response_model=EventHead, responses=error_responses(*AUTHENTICATED))
@declare(reads("events"))
async def read_event_head(owner: CurrentOwner, db: DbSession) -> EventHead:
    """A cursor at the head of the feed, without reading it: take it before a full list,
    then follow the feed from it (`GET /events?after=…`), and nothing changed during the
    list is missed. Owners only (token scope `events:read`); not audited."""
    return EventHead(cursor=(await feed.head(db)).encode())
