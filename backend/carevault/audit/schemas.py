from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class AuditEventRead(BaseModel):
    model_config = ConfigDict(
        from_attributes=True,
        json_schema_extra={
            "examples": [
                {
                    "id": 4182,
                    "occurred_at": "2025-01-15T10:14:37Z",
                    "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
                    "actor_token_id": None,
                    "actor_name": "Dr Example Clinician",
                    "actor_role": "clinician",
                    "token_name": None,
                    "actor_kind": "session",
                    "service_account_id": None,
                    "action": "session.update",
                    "resource_type": "session",
                    "resource_ids": ["00000000-0000-4000-8000-0000000000d1"],
                    "ip_address": "203.0.113.7",
                    "details": {
                        "fields": ["plan"],
                        "version": 3,
                        "request_id": "6f1c2e0a9b7d4c3e8f5a1b2c3d4e5f60",
                    },
                }
            ]
        },
    )

    id: int
    occurred_at: datetime
    actor_user_id: uuid.UUID | None
    actor_token_id: uuid.UUID | None
    actor_name: str | None = Field(
        description="The user's display name, or their sign-in address when they have none"
    )
    actor_role: str | None = Field(description="owner or clinician")
    token_name: str | None = Field(description="The API token's name, when one was used")
    actor_kind: Literal["session", "token", "service_account", "system"] = Field(
        description="session: a person signed in; token: a person's own API token; "
        "service_account: a service account's token (actor_name is then the account's name); "
        "system: no actor (a background job, a refused sign-in)"
    )
    service_account_id: uuid.UUID | None = Field(
        description="The service account whose token acted, if one did"
    )
    action: str
    resource_type: str | None
    resource_ids: list[uuid.UUID] | None
    ip_address: str | None
    details: dict[str, Any] | None

    @field_validator("ip_address", mode="before")
    @classmethod
    def _ip_as_text(cls, value: object) -> str | None:
        return None if value is None else str(value)
