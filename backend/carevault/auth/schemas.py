from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from carevault.api.fields import email_address, single_line
from carevault.auth.passwords import MIN_PASSWORD_LENGTH
from carevault.auth.scopes import Scope

# Sign-in takes any address an account may have (the demo's end in .local), but no control
# characters; new accounts get addresses email-validator accepts.
LoginEmail = Annotated[str, AfterValidator(single_line)]
NewEmail = Annotated[str, AfterValidator(email_address)]
OneLine = Annotated[str, AfterValidator(single_line)]


class StrictModel(BaseModel):
    """Request bodies refuse unknown fields, so a typo is a 422, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class LoginRequest(StrictModel):
    email: LoginEmail = Field(min_length=3, max_length=320, examples=["owner@demo.carevault.local"])
    password: str = Field(min_length=1, max_length=1024, examples=["carevault-demo"])


class UserRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    email: str
    display_name: str
    role: Literal["owner", "clinician"]
    disabled_at: datetime | None = None
    must_change_password: bool = Field(
        default=False, description="Signed in with a temporary password: change it first"
    )


class WorkspaceRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    name: str
    time_zone: str = Field(
        description="IANA time zone that decides the practice's today (session dates and "
        "dates of birth may not be after it)",
        examples=["Europe/Berlin"],
    )


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
    name: OneLine = Field(min_length=1, max_length=200, examples=["billing export"])
    scopes: list[Scope] = Field(
        min_length=1,
        max_length=16,
        description="What the token may do; any other request gets 403 insufficient_scope",
        examples=[["clients:read", "appointments:read"]],
    )
    expires_in_days: int | None = Field(
        default=None, ge=1, le=3650, description="Unset: the token lasts until revoked"
    )


class TokenRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    user_id: uuid.UUID
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    scopes: list[str]
    expires_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="Shown once; only its hash is stored")


class UserCreate(StrictModel):
    email: NewEmail = Field(min_length=3, max_length=320)
    display_name: OneLine = Field(default="", max_length=200)
    role: Literal["owner", "clinician"] = "clinician"
    password: str = Field(min_length=MIN_PASSWORD_LENGTH, max_length=1024)


class ReauthRequest(StrictModel):
    password: str = Field(min_length=1, max_length=1024)


class ReauthResponse(BaseModel):
    reauthenticated_until: datetime = Field(
        description="Sensitive changes are allowed without asking again until then"
    )


class PasswordChange(StrictModel):
    current_password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=MIN_PASSWORD_LENGTH, max_length=1024)


class PasswordChanged(BaseModel):
    other_sessions_ended: int


class TemporaryPassword(StrictModel):
    temporary_password: str = Field(
        min_length=MIN_PASSWORD_LENGTH,
        max_length=1024,
        description="Tell the user out of band; they must replace it at their next sign-in",
    )
