from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from carevault.auth.passwords import MIN_PASSWORD_LENGTH


class StrictModel(BaseModel):
    """Request bodies refuse unknown fields, so a typo is a 422, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class LoginRequest(StrictModel):
    email: str = Field(min_length=3, max_length=320, examples=["owner@demo.carevault.local"])
    password: str = Field(min_length=1, max_length=1024, examples=["carevault-demo"])


class UserRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    email: str
    display_name: str
    role: Literal["owner", "clinician"]
    disabled_at: datetime | None = None


class WorkspaceRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    name: str


class LoginResponse(BaseModel):
    user: UserRead
    workspace: WorkspaceRead
    csrf_token: str = Field(description="Send as X-CSRF-Token on every state-changing request")
    idle_timeout_seconds: int


class MeResponse(BaseModel):
    user: UserRead
    workspace: WorkspaceRead
    auth_method: Literal["session", "token"]
    idle_timeout_seconds: int | None = None
    session_expires_at: datetime | None = None
    csrf_token: str | None = Field(
        default=None, description="For cookie sessions: the X-CSRF-Token to send with changes"
    )


class TokenCreate(StrictModel):
    name: str = Field(min_length=1, max_length=200, examples=["billing export"])


class TokenRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    user_id: uuid.UUID
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="Shown once; only its hash is stored")


class UserCreate(StrictModel):
    email: str = Field(min_length=3, max_length=320)
    display_name: str = Field(default="", max_length=200)
    role: Literal["owner", "clinician"] = "clinician"
    password: str = Field(min_length=MIN_PASSWORD_LENGTH, max_length=1024)
