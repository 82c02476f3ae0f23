"""Webhook endpoints and deliveries over HTTP. Nothing here is PHI: URLs, event types,
ids, status codes; the secret appears only in the answers to create and rotate."""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from carevault.auth.schemas import OneLine, StrictModel, examples
from carevault.core.fields import not_nullable

_EVENT_TYPE = re.compile(r"^(\*|[a-z][a-z_]{0,38}\.(\*|[a-z][a-z_]{0,38}))$")


def _event_type(value: str) -> str:
    if not _EVENT_TYPE.fullmatch(value):
        raise ValueError("an event type such as client.updated, a resource's client.*, or *")
    return value


EventType = Annotated[str, AfterValidator(_event_type)]

WEBHOOK_SECRET_EXAMPLE = "whsec_EXAMPLEexampleEXAMPLEexampleEXAMPLEexample"  # noqa: S105 (made up)
WEBHOOK_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000f1",
    "url": "https://integrations.example.org/carevault/webhook",
    "description": "scheduling sync",
    "event_types": ["appointment.*", "client.updated"],
    "enabled": True,
    "disabled_at": None,
    "disabled_reason": None,
    "consecutive_failures": 0,
    "failing_since": None,
    "last_success_at": "2025-01-20T17:45:12Z",
    "created_at": "2025-01-15T09:00:00Z",
    "updated_at": "2025-01-15T09:00:00Z",
}
ATTEMPT_EXAMPLE: dict[str, Any] = {
    "attempted_at": "2025-01-20T17:45:12Z",
    "succeeded": False,
    "status_code": 503,
    "duration_ms": 412,
    "error": "http_status",
}
DELIVERY_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000f2",
    "endpoint_id": WEBHOOK_EXAMPLE["id"],
    "event_id": "evt_0000000000000042",
    "event_type": "appointment.updated",
    "status": "pending",
    "attempts": 1,
    "created_at": "2025-01-20T17:45:11Z",
    "next_attempt_at": "2025-01-20T17:45:42Z",
    "give_up_at": "2025-01-21T17:45:11Z",
    "last_attempt_at": "2025-01-20T17:45:12Z",
    "last_status_code": 503,
    "last_error": "http_status",
    "delivered_at": None,
    "payload": {
        "id": "evt_0000000000000042",
        "type": "appointment.updated",
        "resource": {"type": "appointment", "id": "00000000-0000-4000-8000-0000000000e2"},
        "occurred_at": "2025-01-20T17:45:10Z",
    },
    "recent_attempts": [ATTEMPT_EXAMPLE],
}

_URL = Field(
    min_length=1,
    max_length=2048,
    description="HTTPS URL the events are POSTed to; private, loopback and link-local "
    "addresses are refused unless the operator allow-lists them",
    examples=["https://integrations.example.org/carevault/webhook"],
)
_TYPES = Field(
    min_length=1,
    max_length=50,
    description="Event types to send: `client.updated`, every type of a resource "
    "(`appointment.*`), or `*` for all",
    examples=[["appointment.*", "client.updated"]],
)


class WebhookCreate(StrictModel):
    model_config = examples(
        {
            "url": WEBHOOK_EXAMPLE["url"],
            "event_types": WEBHOOK_EXAMPLE["event_types"],
            "description": "scheduling sync",
        }
    )

    url: OneLine = _URL
    event_types: list[EventType] = _TYPES
    description: OneLine = Field(default="", max_length=500)


class WebhookUpdate(StrictModel):
    """Send the fields that change (at least one). Enabling a disabled endpoint resumes its
    deliveries, the ones that were waiting included."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"minProperties": 1, "examples": [{"enabled": True}]},
    )

    url: OneLine | None = Field(
        default=None, min_length=1, max_length=2048, json_schema_extra=not_nullable
    )
    event_types: list[EventType] | None = Field(
        default=None, min_length=1, max_length=50, json_schema_extra=not_nullable
    )
    description: OneLine | None = Field(
        default=None, max_length=500, json_schema_extra=not_nullable
    )
    enabled: bool | None = Field(default=None, json_schema_extra=not_nullable)


class WebhookRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(WEBHOOK_EXAMPLE))

    id: uuid.UUID
    url: str
    description: str
    event_types: list[str]
    enabled: bool
    disabled_at: datetime | None = Field(
        description="When it was disabled, by an owner or by persistent failure"
    )
    disabled_reason: str | None = Field(
        description="Why it was disabled; `persistent_failure` when every delivery failed "
        "for the retry window"
    )
    consecutive_failures: int
    failing_since: datetime | None
    last_success_at: datetime | None
    created_at: datetime
    updated_at: datetime


class WebhookCreated(WebhookRead):
    model_config = examples(WEBHOOK_EXAMPLE | {"secret": WEBHOOK_SECRET_EXAMPLE})

    secret: str = Field(
        description="The signing secret, shown only in this answer (stored encrypted)"
    )


class WebhookAttemptRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(ATTEMPT_EXAMPLE))

    attempted_at: datetime
    succeeded: bool
    status_code: int | None = Field(description="The receiver's HTTP status; null when none")
    duration_ms: int
    error: str | None = Field(
        description="What went wrong: http_status, redirect_not_followed, timeout, "
        "connect_error, target_refused, … (never the response body)"
    )


class WebhookDeliveryRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(DELIVERY_EXAMPLE))

    id: uuid.UUID
    endpoint_id: uuid.UUID
    event_id: str
    event_type: str
    status: Literal["pending", "succeeded", "failed"]
    attempts: int
    created_at: datetime
    next_attempt_at: datetime | None = Field(description="When pending: the next attempt")
    give_up_at: datetime
    last_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    delivered_at: datetime | None
    payload: dict[str, Any] = Field(description="The event as sent (ids and types only)")
    recent_attempts: list[WebhookAttemptRead] = Field(
        default_factory=list, description="The latest attempts, newest first (at most 10)"
    )
