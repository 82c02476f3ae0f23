from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator


class AuditEventRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    occurred_at: datetime
    actor_user_id: uuid.UUID | None
    actor_token_id: uuid.UUID | None
    action: str
    resource_type: str | None
    resource_ids: list[uuid.UUID] | None
    ip_address: str | None
    details: dict[str, Any] | None

    @field_validator("ip_address", mode="before")
    @classmethod
    def _ip_as_text(cls, value: object) -> str | None:
        return None if value is None else str(value)
