"""What the worker delivers: the change feed's events of one practice, after a cursor.

The feed (carevault.events) owns the events table and its commit-safe ordering; this is the
narrow face the webhooks need of it, so the worker can be driven by a stand-in in tests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession


@dataclass(frozen=True)
class FeedEvent:
    id: str  # the feed's cursor of this event: what readers resume after, and the dedup id
    type: str  # "client.updated"
    resource_type: str
    resource_id: str
    occurred_at: datetime

    def envelope(self) -> dict[str, Any]:
        """The body a webhook carries: the feed's own shape, ids and types only."""
        return {
            "id": self.id,
            "type": self.type,
            "resource": {"type": self.resource_type, "id": self.resource_id},
            "occurred_at": self.occurred_at.isoformat().replace("+00:00", "Z"),
        }


class EventSource(Protocol):
    async def head(self, db: AsyncSession, workspace_id: uuid.UUID) -> str | None:
        """The cursor of the practice's newest event (None: no events yet): a new endpoint
        receives what happens after it was registered."""
        ...

    async def after(
        self, db: AsyncSession, workspace_id: uuid.UUID, cursor: str | None, limit: int
    ) -> list[FeedEvent]:
        """Up to `limit` events after `cursor` (None: from the first), oldest first, only
        those whose commit is safe to read past (never skipped, never repeated)."""
        ...


def matches(event_type: str, wanted: list[str]) -> bool:
    """`client.updated` is wanted by `client.updated`, `client.*` or `*`."""
    resource = event_type.split(".", 1)[0]
    return "*" in wanted or event_type in wanted or f"{resource}.*" in wanted
