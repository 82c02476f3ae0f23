"""Request and answer bodies of /service-accounts (carevault.service_accounts.service)."""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from carevault.auth.schemas import (
    TOKEN_SECRET_EXAMPLE,
    OneLine,
    StrictModel,
    WithSmartScopes,
    examples,
)
from carevault.auth.scopes import Scope
from carevault.core.fields import StrictInteger

SERVICE_ACCOUNT_EXAMPLE = {
    "id": "00000000-0000-4000-8000-0000000000e1",
    "name": "scheduling sync",
    "scopes": ["clients:read", "appointments:read", "appointments:write"],
    "created_by": "00000000-0000-4000-8000-0000000000a1",
    "created_at": "2025-01-15T09:00:00Z",
    "expires_at": None,
    "disabled_at": None,
}
SERVICE_ACCOUNT_TOKEN_EXAMPLE = {
    "id": "00000000-0000-4000-8000-0000000000e2",
    "service_account_id": SERVICE_ACCOUNT_EXAMPLE["id"],
    "name": "production",
    "prefix": TOKEN_SECRET_EXAMPLE[:12],
    "created_at": "2025-01-15T09:01:00Z",
    "last_used_at": "2025-01-20T17:45:12Z",
    "revoked_at": None,
    "scopes": SERVICE_ACCOUNT_EXAMPLE["scopes"],
    "expires_at": None,
}


class ServiceAccountCreate(WithSmartScopes):
    model_config = examples(
        {"name": "scheduling sync", "scopes": ["appointments:read", "appointments:write"]}
    )

    name: OneLine = Field(min_length=1, max_length=200, examples=["scheduling sync"])
    scopes: list[Scope] = Field(
        min_length=1,
        max_length=16,
        description="What the account's tokens may do; a scope the creator's role can never "
        "use is refused (422 scope_not_allowed). SMART `system/` scopes (`system/*.rs`) "
        "may ride here too (docs/reference/fhir.md)",
    )
    expires_in_days: StrictInteger | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Unset: the account lasts until deleted; its tokens never outlive it",
    )


class ServiceAccountRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(SERVICE_ACCOUNT_EXAMPLE))

    id: uuid.UUID
    name: str
    scopes: list[str]
    created_by: uuid.UUID | None = Field(
        description="The owner who created it (informational: the account does not depend on them)"
    )
    created_at: datetime
    expires_at: datetime | None
    disabled_at: datetime | None


class ServiceAccountTokenCreate(StrictModel):
    model_config = examples({"name": "production", "expires_in_days": 90})

    name: OneLine = Field(min_length=1, max_length=200, examples=["production"])
    expires_in_days: StrictInteger | None = Field(
        default=None,
        ge=1,
        le=3650,
        description="Unset: until revoked (or the account's own expiry, whichever is first)",
    )


class ServiceAccountTokenRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(SERVICE_ACCOUNT_TOKEN_EXAMPLE))

    id: uuid.UUID
    service_account_id: uuid.UUID
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    scopes: list[str]
    expires_at: datetime | None


class ServiceAccountTokenCreated(ServiceAccountTokenRead):
    model_config = examples(
        SERVICE_ACCOUNT_TOKEN_EXAMPLE | {"last_used_at": None, "token": TOKEN_SECRET_EXAMPLE}
    )

    token: str = Field(description="Shown once; only its hash is stored")
