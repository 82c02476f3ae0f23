"""The change feed: what changed in a practice, oldest first, read by cursor.

PostgreSQL writes the events (triggers of migration 0023, in the transaction of each
change to a client, appointment, session note or user). This module is the interface to
them:

- `record_event(db, workspace_id, type, resource_type, resource_id)`: append an event of
  another kind (a webhook endpoint disabled, say) in the caller's transaction.
- `read_events(db, workspace_id, after, limit)`: the events after a cursor, committed-safe.
- `prune_expired(db, now, retention, limit)`: housekeeping, a bounded batch at a time.
- `Cursor.encode()` / `Cursor.decode(text)`: the opaque cursor of the API.

Commit order. Ids come from a sequence before commit, so event 7 can commit after event 8;
a reader that had moved past 8 would never see 7. Every event therefore keeps the id of the
transaction that wrote it (`txid`), and a read returns, ordered by (txid, id), only events
whose txid lies below a bound U under which every transaction of this database has ended
(the audit sealer's bound, carevault.audit.sealing.SAFE_UPPER_SQL: the snapshot's oldest
running transaction, not held back by other databases on the same server). Every committed
event below U is visible to the same statement and no new one can appear there later, so a
reader following cursors never skips an event and never reads one twice; U and the events
are read in one statement, so they share one snapshot. An event becomes readable once every
transaction that began before its own has ended: a long transaction delays the feed, never
reorders it. Read in a transaction that has written no events itself.
"""

from __future__ import annotations

import base64
import binascii
import struct
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, DateTime, String, Uuid, column, text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit.sealing import SAFE_UPPER_SQL
from carevault.core.errors import Gone
from carevault.core.fields import invalid
from carevault.db import direct
from carevault.events.models import ChangeEvent

CURSOR_PREFIX = "ev_"
_CURSOR_VERSION = 1
_CURSOR_LAYOUT = struct.Struct(">BQQ")  # version, txid, event id
MAX_LIMIT = 1000
MAX_API_LIMIT = 500  # one more is read to tell `has_more`
DEFAULT_LIMIT = 100

RESOURCE_TYPES = ("client", "appointment", "note", "user", "workspace")
# Every type the triggers of migration 0023 write (docs/how-to/keep-in-sync.md).
EVENT_TYPES: tuple[str, ...] = (
    "client.created",
    "client.updated",
    "client.archived",
    "client.restored",
    "client.deleted",
    "appointment.created",
    "appointment.updated",
    "appointment.cancelled",
    "appointment.deleted",
    "note.created",
    "note.updated",
    "note.signed",
    "note.cosigned",
    "note.amended",
    "note.deleted",
    "note.restored",
    "user.created",
    "user.updated",
    "user.disabled",
    "user.enabled",
    "user.deleted",
    "workspace.shredded",
)


@dataclass(frozen=True, order=True)
class Cursor:
    """A position in the feed: (txid, event id) of the last event read. (0, 0) is before
    every event."""

    txid: int
    event_id: int

    def encode(self) -> str:
        raw = _CURSOR_LAYOUT.pack(_CURSOR_VERSION, self.txid, self.event_id)
        return CURSOR_PREFIX + base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")

    @classmethod
    def decode(cls, value: str, *, field: str = "after") -> Cursor:
        """The cursor `value` encodes, or 422 `invalid_cursor` naming the query parameter.
        Only the canonical spelling is accepted."""
        try:
            if not value.startswith(CURSOR_PREFIX) or not value.isascii():
                raise ValueError(value)
            body = value[len(CURSOR_PREFIX) :]
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
            version, txid, event_id = _CURSOR_LAYOUT.unpack(raw)
        except (ValueError, binascii.Error, struct.error):
            raise _invalid_cursor(field) from None
        cursor = cls(txid, event_id)
        # Canonical, and within PostgreSQL's bigint (a larger value would fail the query).
        if version != _CURSOR_VERSION or cursor.encode() != value or max(txid, event_id) >= 2**63:
            raise _invalid_cursor(field)
        return cursor


START = Cursor(0, 0)


def _invalid_cursor(field: str) -> Exception:
    return invalid(
        "invalid_cursor",
        "not a cursor of this feed: pass a `next_cursor` or event `id` exactly as received",
        field,
        location="query",
    )


CURSOR_EXPIRED_MESSAGE = (
    "events after this cursor are past the retention period and were removed: list the "
    "resources again, then follow the feed from the `next_cursor` of a poll without `after`"
)


def cursor_expired() -> Gone:
    """Events after the cursor were pruned (older than the retention period): 410."""
    return Gone("cursor_expired", CURSOR_EXPIRED_MESSAGE)


@dataclass(frozen=True, slots=True)
class FeedEvent:
    cursor: Cursor
    type: str
    resource_type: str
    resource_id: uuid.UUID
    occurred_at: datetime


@dataclass(frozen=True, slots=True)
class FeedPage:
    events: list[FeedEvent]
    next_cursor: Cursor  # the last event's cursor, or `after` (START) when there was none
    has_more: bool = False  # (read_page) more events were readable after these


async def record_event(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    type: str,
    resource_type: str,
    resource_id: uuid.UUID,
) -> int:
    """Append an event in the caller's transaction (it commits or rolls back with it); returns
    its id. Changes to clients, appointments, notes and users record their own events
    (triggers); call this only for other kinds. Ids and types only: never PHI."""
    event = ChangeEvent(
        workspace_id=workspace_id, type=type, resource_type=resource_type, resource_id=resource_id
    )
    db.add(event)
    await db.flush()
    return event.id


# The horizon, the bound and the page in one statement: one snapshot, one round trip. At
# least one row comes back (the horizon's, events or not). Constant SQL; values are bound.
_READ_SQL = text(
    f"""
    SELECT h.txid AS horizon_txid, h.event_id AS horizon_event_id,
           p.id, p.txid, p.type, p.resource_type, p.resource_id, p.occurred_at
    FROM (SELECT 1) AS one
    LEFT JOIN change_event_horizons h ON h.workspace_id = :workspace_id
    LEFT JOIN LATERAL (
        SELECT e.id, e.txid, e.type, e.resource_type, e.resource_id, e.occurred_at
        FROM change_events e
        WHERE e.workspace_id = :workspace_id
          AND (e.txid, e.id) > (:txid, :event_id)
          AND e.txid < ({SAFE_UPPER_SQL})
        ORDER BY e.txid, e.id
        LIMIT :limit
    ) AS p ON true
    ORDER BY p.txid, p.id
    """  # noqa: S608 (constants only)
).columns(
    column("horizon_txid", BigInteger),
    column("horizon_event_id", BigInteger),
    column("id", BigInteger),
    column("txid", BigInteger),
    column("type", String),
    column("resource_type", String),
    column("resource_id", Uuid),
    column("occurred_at", DateTime(timezone=True)),
)


async def read_events(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    after: Cursor | None = None,
    limit: int = DEFAULT_LIMIT,
) -> FeedPage:
    """Up to `limit` events of the practice after `after` (None: from the oldest kept),
    oldest first, each committed and never to be preceded by a later commit. Raises
    Gone `cursor_expired` (cursor_expired()) when events after `after` may have been pruned."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1..{MAX_LIMIT}")
    position = after or START
    # One statement that may run alone: on the direct pool when the session holds no
    # transaction (a poll), else in the caller's (carevault.db.direct).
    rows = await direct.rows_alone(
        db,
        _READ_SQL,
        {
            "workspace_id": workspace_id,
            "txid": position.txid,
            "event_id": position.event_id,
            "limit": limit,
        },
    )
    first = rows[0]
    if (
        after is not None
        and first.horizon_txid is not None
        and after < Cursor(first.horizon_txid, first.horizon_event_id)
    ):
        raise cursor_expired()
    events = [
        FeedEvent(
            Cursor(row.txid, row.id), row.type, row.resource_type, row.resource_id, row.occurred_at
        )
        for row in rows
        if row.id is not None
    ]
    return FeedPage(events, events[-1].cursor if events else position)


_PRUNE_SQL = text(
    """
    WITH gone AS (
        DELETE FROM change_events
        WHERE id IN (
            SELECT id FROM change_events WHERE occurred_at < :cutoff
            ORDER BY occurred_at LIMIT :limit
        )
        RETURNING workspace_id, txid, id
    ),
    highest AS (
        SELECT DISTINCT ON (workspace_id) workspace_id, txid, id FROM gone
        ORDER BY workspace_id, txid DESC, id DESC
    ),
    horizons AS (
        INSERT INTO change_event_horizons AS h (workspace_id, txid, event_id)
        SELECT workspace_id, txid, id FROM highest ORDER BY workspace_id
        ON CONFLICT (workspace_id) DO UPDATE SET
            txid = CASE WHEN (excluded.txid, excluded.event_id) > (h.txid, h.event_id)
                        THEN excluded.txid ELSE h.txid END,
            event_id = CASE WHEN (excluded.txid, excluded.event_id) > (h.txid, h.event_id)
                            THEN excluded.event_id ELSE h.event_id END,
            pruned_at = now()
    )
    SELECT count(*) FROM gone
    """
)


async def prune_expired(
    db: AsyncSession, now: datetime, retention: timedelta, limit: int = 10_000
) -> int:
    """Delete up to `limit` events older than `retention` (every practice's), moving each
    practice's horizon past them; returns how many went. The caller commits; call again
    until it returns less than `limit`."""
    pruned = await db.scalar(_PRUNE_SQL, {"cutoff": now - retention, "limit": limit})
    return int(pruned or 0)


_BOUND_SQL = text(SAFE_UPPER_SQL).columns(column("upper", BigInteger))


async def head(db: AsyncSession) -> Cursor:
    """A cursor after every event committed so far and before every event still to commit
    (in this practice or any): where a reader that has just listed everything starts.
    Every transaction below the bound has ended; every one still to commit, or to begin,
    has a transaction id at or above it."""
    ((upper,),) = await direct.rows_alone(db, _BOUND_SQL, {})
    return Cursor(int(upper) - 1, 2**63 - 1)


async def read_page(
    db: AsyncSession, workspace_id: uuid.UUID, after: Cursor | None, limit: int
) -> FeedPage:
    """`read_events`, telling whether more events were ready after the page."""
    page = await read_events(db, workspace_id, after, limit + 1)
    if len(page.events) <= limit:
        return page
    events = page.events[:limit]
    return FeedPage(events, events[-1].cursor, has_more=True)


def describe(event: FeedEvent) -> dict[str, Any]:
    """The API's shape of an event (ids and types only)."""
    return {
        "id": event.cursor.encode(),
        "type": event.type,
        "resource": {"type": event.resource_type, "id": str(event.resource_id)},
        "occurred_at": event.occurred_at,
    }
