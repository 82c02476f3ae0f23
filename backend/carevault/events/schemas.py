"""The change feed over HTTP: ids and types only, never PHI."""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from carevault.events.feed import FeedEvent

_EXAMPLE_CURSOR = "ev_AQAAAAAAAAPpAAAAAAAAAHs"


class EventResource(BaseModel):
    type: str = Field(description="client, appointment, note, user or workspace")
    id: uuid.UUID


class EventRead(BaseModel):
    id: str = Field(description="The event's cursor: pass it as `after` to read what follows")
    type: str = Field(description="`<resource>.<change>`, such as client.updated")
    resource: EventResource
    occurred_at: datetime = Field(description="When the change's transaction began")

    @classmethod
    def of(cls, event: FeedEvent) -> EventRead:
        return cls(
            id=event.cursor.encode(),
            type=event.type,
            resource=EventResource(type=event.resource_type, id=event.resource_id),
            occurred_at=event.occurred_at,
        )


class EventPage(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "data": [
                        {
                            "id": _EXAMPLE_CURSOR,
                            "type": "client.updated",
                            "resource": {
                                "type": "client",
                                "id": "00000000-0000-4000-8000-0000000000c1",
                            },
                            "occurred_at": "2025-01-15T10:14:37Z",
                        }
                    ],
                    "next_cursor": _EXAMPLE_CURSOR,
                    "has_more": False,
                }
            ]
        }
    )

    data: list[EventRead] = Field(description="Oldest first")
    next_cursor: str = Field(
        description="Pass as `after` in the next poll (the cursor sent when `data` is empty)"
    )
    has_more: bool = Field(description="More events are ready now: poll again without waiting")


class EventHead(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"cursor": _EXAMPLE_CURSOR}]})

    cursor: str = Field(
        description="After every change made so far: pass it as `after` to read only what "
        "changes from now on"
    )
