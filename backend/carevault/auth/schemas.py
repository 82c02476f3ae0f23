from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    model_validator,
)

from carevault.auth.passwords import MIN_PASSWORD_LENGTH
from carevault.auth.scopes import Scope, is_smart_scope
from carevault.core.fields import StrictInteger, email_address, not_nullable, single_line

# Sign-in takes any address an account may have (the demo's end in .local), but no control
# characters; new accounts get addresses email-validator accepts.
LoginEmail = Annotated[str, AfterValidator(single_line)]
NewEmail = Annotated[str, AfterValidator(email_address)]
OneLine = Annotated[str, AfterValidator(single_line)]


# Examples for the OpenAPI document (made-up people and ids; `.example.org` never resolves).
USER_EXAMPLE = {
    "id": "00000000-0000-4000-8000-0000000000a1",
    "email": "clinician@example.org",
    "display_name": "Example Clinician",
    "role": "clinician",
    "disabled_at": None,
    "must_change_password": False,
    "requires_cosign": False,
    "supervisor_id": None,
}
WORKSPACE_EXAMPLE = {
    "id": "00000000-0000-4000-8000-0000000000b1",
    "name": "Example Practice",
    "time_zone": "Europe/Berlin",
    "phone_region": "DE",
    "late_entry_hours": 72,
    "chart_access": "practice",
    "break_the_glass": False,
}
TOKEN_SECRET_EXAMPLE = "cvt_EXAMPLEexampleEXAMPLEexampleEXAMPLEexampleE"  # noqa: S105 (made up)
TOKEN_EXAMPLE = {
    "id": "00000000-0000-4000-8000-0000000000c1",
    "user_id": USER_EXAMPLE["id"],
    "name": "billing export",
    "prefix": TOKEN_SECRET_EXAMPLE[:12],
    "created_at": "2025-01-15T09:00:00Z",
    "last_used_at": "2025-01-20T17:45:12Z",
    "revoked_at": None,
    "scopes": ["clients:read", "appointments:read"],
    "expires_at": "2025-07-14T09:00:00Z",
}


def examples(*values: dict[str, Any]) -> ConfigDict:
    """`model_config` entries: the model's examples in its JSON schema (OpenAPI)."""
    return ConfigDict(json_schema_extra={"examples": list(values)})


class StrictModel(BaseModel):
    """Request bodies refuse unknown fields, so a typo is a 422, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class LoginRequest(StrictModel):
    model_config = examples({"email": "clinician@example.org", "password": "a passphrase"})

    email: LoginEmail = Field(min_length=3, max_length=320, examples=["owner@demo.carevault.local"])
    password: str = Field(min_length=1, max_length=1024, examples=["carevault-demo"])


class UserRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(USER_EXAMPLE))

    id: uuid.UUID
    email: str
    display_name: str
    role: Literal["owner", "clinician"]
    disabled_at: datetime | None = None
    must_change_password: bool = Field(
        default=False, description="Signed in with a temporary password: change it first"
    )
    requires_cosign: bool = Field(
        default=False,
        description="A trainee: the notes this user signs await a co-signature by an owner "
        "or `supervisor_id`",
    )
    supervisor_id: uuid.UUID | None = Field(
        default=None, description="The user who may co-sign this user's notes (owners may too)"
    )


CLINICIAN_EXAMPLE = {
    "id": USER_EXAMPLE["id"],
    "display_name": USER_EXAMPLE["display_name"],
    "active": True,
}


class ClinicianRead(BaseModel):
    """A calendar of the practice: any signed-in user may list them (no email, no role
    settings), to choose whose calendars to show and whom to book with."""

    id: uuid.UUID
    display_name: str = Field(description="The user's display name, or their email if unset")
    active: bool = Field(description="False for a disabled user: not bookable")


class UserUpdate(StrictModel):
    """Owners: whether a user's notes need a co-signature, and who supervises them. Send
    the fields that change (at least one)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "minProperties": 1,
            "examples": [
                {
                    "requires_cosign": True,
                    "supervisor_id": "00000000-0000-4000-8000-0000000000a2",
                }
            ],
        },
    )

    requires_cosign: bool | None = Field(default=None, json_schema_extra=not_nullable)
    supervisor_id: uuid.UUID | None = Field(
        default=None, description="A user of your practice, or null for none"
    )


class WorkspaceRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(WORKSPACE_EXAMPLE))

    id: uuid.UUID
    name: str
    time_zone: str = Field(
        description="IANA time zone that decides the practice's today (session dates and "
        "dates of birth may not be after it)",
        examples=["Europe/Berlin"],
    )
    phone_region: str = Field(
        description="ISO 3166 region whose national phone numbers the practice writes: a "
        "number without its country code is read as one of this region's",
        examples=["GB"],
    )
    late_entry_hours: int = Field(
        default=72,
        description="A note signed more than this many hours after its session ended is "
        "flagged as a late entry",
        examples=[72],
    )
    chart_access: Literal["practice", "care_team"] = Field(
        description="`practice`: every clinician sees every chart; `care_team`: clinicians "
        "see only the charts of clients whose care team they are on (owners see every chart)"
    )
    break_the_glass: bool = Field(
        description="Whether a clinician may open a chart outside their care team by stating "
        "a reason (time-limited, flagged in the audit trail)"
    )


class LoginResponse(BaseModel):
    model_config = examples(
        {
            "user": USER_EXAMPLE,
            "workspace": WORKSPACE_EXAMPLE,
            "csrf_token": "q2v7Yk1nR0x8WmJ3c0t5Tz",
            "idle_timeout_seconds": 900,
        }
    )

    user: UserRead
    workspace: WorkspaceRead
    csrf_token: str = Field(description="Send as X-CSRF-Token on every state-changing request")
    idle_timeout_seconds: int
    session_expires_at: datetime | None = Field(
        default=None, description="When this login session ends at the latest (12 hours)"
    )
    draft_key: str | None = Field(
        default=None,
        description="The web UI encrypts unsaved text it keeps in the browser with this key "
        "(base64url, 32 bytes; the same for every sign-in of the user; keep it in memory only)",
    )


class ServiceAccountRef(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    name: str


class MeResponse(BaseModel):
    model_config = examples(
        {
            "user": USER_EXAMPLE,
            "workspace": WORKSPACE_EXAMPLE,
            "auth_method": "token",
            "idle_timeout_seconds": None,
            "session_expires_at": None,
            "csrf_token": None,
        }
    )

    user: UserRead
    workspace: WorkspaceRead
    auth_method: Literal["session", "token"]
    service_account: ServiceAccountRef | None = Field(
        default=None,
        description="For a service account's token: the account; `user` then stands for the "
        "practice acting through it (no person)",
    )
    idle_timeout_seconds: int | None = None
    session_expires_at: datetime | None = None
    csrf_token: str | None = Field(
        default=None, description="For cookie sessions: the X-CSRF-Token to send with changes"
    )
    draft_key: str | None = Field(
        default=None,
        description="For cookie sessions: the key the web UI encrypts unsaved text with "
        "(see POST /auth/login)",
    )


# A credential's `scopes` (a personal token's, a service account's): CareVault's, and SMART
# v2 ones (`user/Patient.rs`, `system/*.rs`; docs/reference/fhir.md) riding in the same list, kept
# apart here so the documented vocabulary (and the generated clients) stay CareVault's.
class WithSmartScopes(StrictModel):
    scopes: list[Scope]
    _smart_scopes: list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _set_smart_scopes_aside(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        smart: list[str] = []
        if isinstance(data, dict) and isinstance(data.get("scopes"), list):
            smart = [s for s in data["scopes"] if isinstance(s, str) and is_smart_scope(s)]
            if smart:
                others = [s for s in data["scopes"] if s not in smart]
                if len(smart) + len(others) > 16:
                    raise ValueError("at most 16 scopes")
                data = {**data, "scopes": others or ["notes:read"]}
                chosen = handler(data)
                chosen.scopes = others
                chosen._smart_scopes = smart
                return chosen
        return handler(data)

    @property
    def all_scopes(self) -> list[str]:
        """The CareVault scopes asked for, then the SMART ones."""
        return [*self.scopes, *self._smart_scopes]


class TokenCreate(WithSmartScopes):
    model_config = examples(
        {"name": "billing export", "scopes": ["clients:read"], "expires_in_days": 180}
    )

    name: OneLine = Field(min_length=1, max_length=200, examples=["billing export"])
    scopes: list[Scope] = Field(
        min_length=1,
        max_length=16,
        description="What the token may do; any other request gets 403 insufficient_scope",
        examples=[["clients:read", "appointments:read"]],
    )
    expires_in_days: StrictInteger | None = Field(
        default=None, ge=1, le=3650, description="Unset: the token lasts until revoked"
    )


class TokenRead(BaseModel):
    model_config = ConfigDict(from_attributes=True, **examples(TOKEN_EXAMPLE))

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
    model_config = examples(TOKEN_EXAMPLE | {"last_used_at": None, "token": TOKEN_SECRET_EXAMPLE})

    token: str = Field(description="Shown once; only its hash is stored")


class UserCreate(StrictModel):
    model_config = examples(
        {
            "email": "new.clinician@example.org",
            "display_name": "New Clinician",
            "role": "clinician",
            "password": "a long first passphrase",
        }
    )

    email: NewEmail = Field(min_length=3, max_length=320)
    display_name: OneLine = Field(default="", max_length=200)
    role: Literal["owner", "clinician"] = "clinician"
    password: str = Field(min_length=MIN_PASSWORD_LENGTH, max_length=1024)


class ReauthRequest(StrictModel):
    model_config = examples({"password": "a passphrase"})

    password: str = Field(min_length=1, max_length=1024)


class ReauthResponse(BaseModel):
    model_config = examples({"reauthenticated_until": "2025-01-15T09:05:00Z"})

    reauthenticated_until: datetime = Field(
        description="Sensitive changes are allowed without asking again until then"
    )


class PasswordChange(StrictModel):
    model_config = examples(
        {"current_password": "a passphrase", "new_password": "a new and longer passphrase"}
    )

    current_password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=MIN_PASSWORD_LENGTH, max_length=1024)


class PasswordChanged(BaseModel):
    model_config = examples({"other_sessions_ended": 2})

    other_sessions_ended: int


class TemporaryPassword(StrictModel):
    model_config = examples({"temporary_password": "a temporary passphrase"})

    temporary_password: str = Field(
        min_length=MIN_PASSWORD_LENGTH,
        max_length=1024,
        description="Tell the user out of band; they must replace it at their next sign-in",
    )
