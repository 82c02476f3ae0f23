"""Clients over HTTP. Every field but the ids and timestamps is PHI: it appears in bodies,
never in audit events or logs."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)

from carevault.auth.schemas import StrictModel
from carevault.core.external import ExternalId, Metadata, MetadataChange, StoredMetadata
from carevault.core.fields import (
    StrictInteger,
    email_address,
    encodable,
    free_text,
    latest_local_date,
    multi_line,
    not_nullable,
    single_line,
)
from carevault.core.paging import MAX_PAGE_SIZE

NAME_MAX_CHARACTERS = 200
EMAIL_MAX_CHARACTERS = 320
PHONE_MAX_CHARACTERS = 50
# The same limits as the bulk importer, so an imported client can be edited here.
SHORT_TEXT_MAX_CHARACTERS = 500
LONG_TEXT_MAX_CHARACTERS = 5_000


def _blank_is_none(value: Any) -> Any:
    """Surrounding whitespace is dropped; an empty optional field is no value at all."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def _not_in_future(value: date | None) -> date | None:
    if value is not None and value > latest_local_date():
        raise ValueError("the date of birth cannot be in the future")
    return value


Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX_CHARACTERS),
    AfterValidator(single_line),
    AfterValidator(encodable),
]
Email = Annotated[
    Annotated[str, Field(max_length=EMAIL_MAX_CHARACTERS)] | None,
    BeforeValidator(_blank_is_none),
    AfterValidator(email_address),
    AfterValidator(encodable),
]
Phone = Annotated[
    Annotated[str, Field(max_length=PHONE_MAX_CHARACTERS)] | None,
    BeforeValidator(_blank_is_none),
    AfterValidator(single_line),
    AfterValidator(encodable),
]
ShortName = Annotated[
    Annotated[str, Field(max_length=SHORT_TEXT_MAX_CHARACTERS)] | None,
    BeforeValidator(_blank_is_none),
    AfterValidator(single_line),
    AfterValidator(encodable),
]
Address = Annotated[
    Annotated[str, Field(max_length=SHORT_TEXT_MAX_CHARACTERS)] | None,
    BeforeValidator(_blank_is_none),
    AfterValidator(multi_line),
    AfterValidator(encodable),
]
LongText = Annotated[
    Annotated[str, Field(max_length=LONG_TEXT_MAX_CHARACTERS)] | None,
    BeforeValidator(_blank_is_none),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
DateOfBirth = Annotated[date | None, AfterValidator(_not_in_future)]


class ClientBase(BaseModel):
    """The optional personal details of a client. Blank text is stored as no value."""

    email: Email = Field(default=None, description="Found exactly by `POST /clients/search`")
    phone: Phone = Field(default=None, description="Found by `q` however it is written")
    date_of_birth: DateOfBirth = Field(default=None, description="Not in the future")
    address: Address = Field(default=None, description="Line breaks allowed")
    emergency_contact_name: ShortName = None
    emergency_contact_phone: Phone = None
    medical_history: LongText = None
    notes: LongText = None


class ClientCreate(ClientBase, StrictModel):
    """A new client; first and last name are required."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "first_name": "Example",
                    "last_name": "Client",
                    "email": "example.client@example.org",
                    "phone": "+1 555 010 0100",
                    "date_of_birth": "1985-04-12",
                    "address": "1 Example Street, Exampletown",
                    "emergency_contact_name": "Example Contact",
                    "emergency_contact_phone": "+1 555 010 0101",
                    "medical_history": "Example history: none relevant.",
                    "notes": "Example: prefers afternoon appointments.",
                    "external_id": "crm-000123",
                    "metadata": {"crm_segment": "weekday-mornings"},
                }
            ]
        }
    )

    first_name: Name
    last_name: Name
    external_id: ExternalId | None = None
    metadata: Metadata = Field(default_factory=dict)


class ClientUpsert(ClientBase, StrictModel):
    """`PUT /clients/external/{external_id}`: a new client (first and last name required),
    or the changes to the one with that external id: the fields sent are set, the fields
    left out are kept, `metadata` is merged."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "first_name": "Example",
                    "last_name": "Client",
                    "email": "example.client@example.org",
                    "metadata": {"crm_segment": "weekday-mornings"},
                }
            ]
        }
    )

    first_name: Name
    last_name: Name
    metadata: MetadataChange | None = Field(default=None, json_schema_extra=not_nullable)


class ClientUpdate(ClientBase, StrictModel):
    """Send only the fields that change. An optional field sent as null (or blank) is
    cleared; first and last name can change but never be cleared."""

    model_config = ConfigDict(
        json_schema_extra={
            "minProperties": 1,
            "examples": [{"phone": "+1 555 010 0199", "notes": None}],
        }
    )

    external_id: ExternalId | None = Field(default=None, description="null removes it")
    metadata: MetadataChange | None = None

    # Omitted means unchanged and null is refused, so the schema offers neither.
    first_name: Name | None = Field(default=None, json_schema_extra=not_nullable)
    last_name: Name | None = Field(default=None, json_schema_extra=not_nullable)

    @field_validator("first_name", "last_name")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field to keep it; it cannot be null")
        return value

    def changes(self) -> dict[str, Any]:
        """The fields the caller sent."""
        return self.model_dump(exclude_unset=True)


class ClientRead(ClientBase):
    model_config = ConfigDict(
        from_attributes=True,
        json_schema_extra={
            "examples": [
                {
                    "id": "00000000-0000-4000-8000-000000000001",
                    "first_name": "Example",
                    "last_name": "Client",
                    "email": "example.client@example.org",
                    "phone": "+1 555 0100",
                    "date_of_birth": "1985-04-12",
                    "address": "1 Example Street, Exampletown",
                    "emergency_contact_name": "Example Contact",
                    "emergency_contact_phone": "+1 555 0101",
                    "medical_history": "Example history: none relevant.",
                    "notes": "Example: prefers afternoon appointments.",
                    "archived_at": None,
                    "external_id": "crm-000123",
                    "metadata": {"crm_segment": "weekday-mornings"},
                    "created_at": "2025-01-10T14:20:00Z",
                    "updated_at": "2025-01-10T14:20:00Z",
                }
            ]
        },
    )

    id: uuid.UUID
    first_name: str
    last_name: str
    external_id: str | None = Field(default=None, description="Your own id of the client")
    metadata: StoredMetadata = Field(
        default_factory=dict, validation_alias="metadata_json", description="Your own strings"
    )
    archived_at: datetime | None = Field(description="Set while the client is archived")
    created_at: datetime
    updated_at: datetime


class ClientSummary(BaseModel):
    """What a list shows of a client: the minimum necessary to find them (45 CFR
    164.502(b)). The whole record is `GET /clients/{client_id}`, the audited chart read."""

    model_config = ConfigDict(
        from_attributes=True,
        json_schema_extra={
            "examples": [
                {
                    "id": "00000000-0000-4000-8000-000000000001",
                    "first_name": "Example",
                    "last_name": "Client",
                    "date_of_birth": "1985-04-12",
                    "archived_at": None,
                    "updated_at": "2025-01-10T14:20:00Z",
                }
            ]
        },
    )

    id: uuid.UUID
    first_name: str
    last_name: str
    date_of_birth: date | None
    archived_at: datetime | None = Field(description="Set while the client is archived")
    updated_at: datetime


class AccessLogEntry(BaseModel):
    """One access to a client's records: who, what, when, from where. Staff and token names
    are not client PHI; nothing of the client is in it."""

    model_config = ConfigDict(
        from_attributes=True,
        json_schema_extra={
            "examples": [
                {
                    "id": 4182,
                    "occurred_at": "2025-01-15T10:14:37Z",
                    "kind": "chart_read",
                    "action": "client.read",
                    "resource_type": "client",
                    "via": "ui",
                    "actor_user_id": "00000000-0000-4000-8000-0000000000a1",
                    "actor_name": "Dr Example Clinician",
                    "actor_role": "clinician",
                    "token_name": None,
                    "ip_address": "203.0.113.7",
                }
            ]
        },
    )

    id: int = Field(description="The audit event's id")
    occurred_at: datetime
    kind: Literal["chart_read", "list_appearance", "change", "export", "access_log", "other"] = (
        Field(
            description="chart_read: the record was read; list_appearance: the client (or "
            "their note or appointment) was in a list or search, as a summary; change; "
            "export: data left as a file; access_log: this history was read; other"
        )
    )
    action: str = Field(description="The audit action, e.g. `client.read`")
    resource_type: str | None = Field(description="client, session (a note) or appointment")
    via: Literal["ui", "token", "system"] = Field(
        description="ui: a signed-in session; token: an API token; system: a server command"
    )
    actor_user_id: uuid.UUID | None
    actor_name: str | None = Field(
        description="The user's display name, or sign-in address; for a service account's "
        "token, the service account's name"
    )
    actor_role: str | None
    token_name: str | None = Field(description="The API token's name, when one was used")
    ip_address: str | None


class ClientSearch(StrictModel):
    """A client search. In a body, not a URL: the term is PHI."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"q": "example.client@example.org", "page": 1}]}
    )

    q: Annotated[str | None, AfterValidator(encodable), AfterValidator(single_line)] = Field(
        default=None,
        max_length=EMAIL_MAX_CHARACTERS,
        description="An email or phone number (exact match, however it is written), or part "
        "of a first or last name (case-insensitive); empty or omitted lists everyone",
    )
    page: StrictInteger = Field(default=1, ge=1, le=1_000_000, description="1-based page number")
    page_size: StrictInteger = Field(
        default=20, ge=1, le=MAX_PAGE_SIZE, description="items per page"
    )
    include_archived: bool = Field(default=False, description="Include archived clients")


class CareTeamUpdate(StrictModel):
    """The whole care team: the users listed, and only they, are on it afterwards."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"clinician_ids": ["00000000-0000-4000-8000-0000000000a2"]}]
        }
    )

    clinician_ids: list[uuid.UUID] = Field(
        max_length=100, description="Active users of the practice (an empty list empties it)"
    )


class CareTeamMemberRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    display_name: str
    role: str = Field(description="`owner` or `clinician`")


class CareTeamRead(BaseModel):
    """Who is assigned to the client: under the practice's `care_team` chart access, the
    clinicians who see the chart (owners see every chart)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-0000000000d1",
                    "clinicians": [
                        {
                            "id": "00000000-0000-4000-8000-0000000000a2",
                            "display_name": "Dr. Example",
                            "role": "clinician",
                        }
                    ],
                }
            ]
        }
    )

    client_id: uuid.UUID
    clinicians: list[CareTeamMemberRead]


class BreakTheGlass(StrictModel):
    """Why you must open a chart outside your care team. Kept sealed like PHI and shown to
    the practice's owners; never written to the audit trail or logs."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"reason": "Covering for the client's clinician"}]}
    )

    reason: Annotated[str, AfterValidator(encodable), AfterValidator(free_text)] = Field(
        min_length=10, max_length=SHORT_TEXT_MAX_CHARACTERS
    )


class ChartAccessGrantRead(BaseModel):
    """A time-limited opening of one chart (the record, its appointments and notes)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "00000000-0000-4000-8000-0000000000f1",
                    "client_id": "00000000-0000-4000-8000-0000000000d1",
                    "expires_at": "2025-01-15T10:00:00Z",
                }
            ]
        }
    )

    id: uuid.UUID
    client_id: uuid.UUID
    expires_at: datetime


GRANT_REVIEW_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000f1",
    "user_id": "00000000-0000-4000-8000-0000000000a3",
    "display_name": "Dr. Example",
    "reason": "Covering for the client's clinician",
    "granted_at": "2025-01-15T09:00:00Z",
    "expires_at": "2025-01-15T10:00:00Z",
}


class ChartAccessGrantReview(BaseModel):
    """A break-the-glass grant as the practice's owners review it."""

    model_config = ConfigDict(
        from_attributes=True, json_schema_extra={"examples": [GRANT_REVIEW_EXAMPLE]}
    )

    id: uuid.UUID
    user_id: uuid.UUID
    display_name: str
    reason: str
    granted_at: datetime
    expires_at: datetime
