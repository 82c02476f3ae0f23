"""What endpoints subscribe to: the change feed's event types (carevault.events.feed), and
where a new endpoint's cursor starts."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.core.fields import invalid
from carevault.events.feed import EVENT_TYPES, RESOURCE_TYPES, Cursor

# Written by the webhook worker itself (carevault.events.feed.record_event) when it gives up
# on an endpoint; other endpoints (and feed readers) may follow it.
ENDPOINT_DISABLED = "webhook_endpoint.disabled"
SUBSCRIBABLE = (*EVENT_TYPES, ENDPOINT_DISABLED)
_RESOURCES = {*RESOURCE_TYPES, "webhook_endpoint"}


def check_event_types(event_types: list[str]) -> list[str]:
    """The types, duplicates dropped, or 422 `unknown_event_type` for one the feed never
    writes (a typo would otherwise be an endpoint that silently never hears anything)."""
    for event_type in event_types:
        known = (
            event_type == "*"
            or event_type in SUBSCRIBABLE
            or (event_type.endswith(".*") and event_type[:-2] in _RESOURCES)
        )
        if not known:
            raise invalid(
                "unknown_event_type",
                f"{event_type!r} is not an event type: use one of GET /events' types, "
                "a resource's `client.*`, or `*`",
                "event_types",
            )
    return list(dict.fromkeys(event_types))


def matches(event_type: str, wanted: list[str]) -> bool:
    """`client.updated` is wanted by `client.updated`, `client.*` or `*`."""
    resource = event_type.split(".", 1)[0]
    return "*" in wanted or event_type in wanted or f"{resource}.*" in wanted


async def start_cursor(db: AsyncSession) -> Cursor:
    """Where a new endpoint starts: after every transaction that got its id before this one
    (the registering transaction's own id, event 0). Events of those commit "before" the
    endpoint existed; every later change is delivered."""
    txid = await db.scalar(text("SELECT (pg_current_xact_id()::text)::bigint"))
    return Cursor(int(txid or 0), 0)
