"""Appointments over HTTP. Times, status, clinician and room are plain; location and notes
are PHI, and so are the client's names an answer carries (`client`)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from carevault.auth.schemas import StrictModel
from carevault.core.external import ExternalId, Metadata, MetadataChange
from carevault.core.fields import encodable, free_text, not_nullable, single_line

MAX_DURATION = timedelta(hours=24)
LOCATION_MAX_CHARACTERS = 500
ROOM_MAX_CHARACTERS = 100
MAX_OCCURRENCES = 100
MAX_EVERY_WEEKS = 52
NOTES_MAX_CHARACTERS = 5_000

Status = Literal["scheduled", "attended", "cancelled", "no-show"]


def as_utc(value: datetime) -> datetime:
    """Times are kept and returned in UTC. A time near year 1 or 9999 with an offset can fall
    outside what Python represents once converted; that is a validation error, not a 500."""
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the time is out of range") from None


def check_duration(starts_at: datetime, ends_at: datetime) -> str | None:
    """Why an appointment from `starts_at` to `ends_at` is refused, or None."""
    if ends_at <= starts_at:
        return "must be after starts_at"
    if ends_at - starts_at > MAX_DURATION:
        return "an appointment lasts at most 24 hours"
    return None


def _ends_after_start(starts_at: datetime | None, ends_at: datetime | None) -> datetime | None:
    """Check ends_at against starts_at when the body has both."""
    problem = check_duration(starts_at, ends_at) if starts_at and ends_at else None
    if problem:
        raise ValueError(problem)
    return ends_at


UtcDatetime = Annotated[AwareDatetime, AfterValidator(as_utc)]
Location = Annotated[
    str | None,
    Field(max_length=LOCATION_MAX_CHARACTERS),
    AfterValidator(single_line),
    AfterValidator(encodable),
]


def _blank_is_none(value: str | None) -> str | None:
    value = value.strip() if value is not None else None
    return value or None


Room = Annotated[
    str | None,
    Field(
        max_length=ROOM_MAX_CHARACTERS,
        description="A short label such as `Room 2` (not PHI: stored plain so overlaps per "
        "room can be checked, case-insensitively); blank is none",
    ),
    AfterValidator(single_line),
    AfterValidator(encodable),
    AfterValidator(_blank_is_none),
]
Notes = Annotated[
    str | None,
    Field(max_length=NOTES_MAX_CHARACTERS),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
AllowOverlap = Annotated[
    bool,
    Field(
        description="Book it even if it overlaps another appointment (not cancelled) of the "
        "same clinician, the same client or the same room; otherwise such an overlap is 409 "
        "`appointment_conflict` naming the conflicting appointments and what they share"
    ),
]


class AppointmentBase(BaseModel):
    location: Location = Field(default=None, examples=["Main building, 2nd floor"])
    room: Room = Field(default=None, examples=["Room 2"])
    notes: Notes = Field(default=None, description="Scheduling notes, up to 5,000 characters")


class AppointmentCreate(AppointmentBase, StrictModel):
    """A new calendar entry for a client of your workspace. Times need a UTC offset."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-000000000001",
                    "clinician_id": "00000000-0000-4000-8000-0000000000c1",
                    "starts_at": "2025-01-15T09:00:00+01:00",
                    "ends_at": "2025-01-15T09:50:00+01:00",
                    "room": "Room 2",
                    "notes": "Example: first session.",
                }
            ]
        }
    )

    client_id: uuid.UUID = Field(description="A client of your workspace, not archived")
    clinician_id: uuid.UUID | None = Field(
        default=None,
        description="An active user of your workspace whose calendar it goes on; "
        "omitted or null: you",
    )
    starts_at: UtcDatetime
    ends_at: UtcDatetime = Field(description="After starts_at, at most 24 hours later")
    status: Status = "scheduled"
    allow_overlap: AllowOverlap = False
    external_id: ExternalId | None = None
    metadata: Metadata = Field(default_factory=dict)

    @field_validator("ends_at")
    @classmethod
    def _after_start(cls, ends_at: datetime | None, info: ValidationInfo) -> datetime | None:
        return _ends_after_start(info.data.get("starts_at"), ends_at)


class AppointmentUpsert(AppointmentBase, StrictModel):
    """`PUT /appointments/external/{external_id}`: a new appointment, or the changes to the
    one with that external id (the fields sent are set, the others kept, `metadata`
    merged; `client_id` cannot change)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-000000000001",
                    "starts_at": "2025-01-15T09:00:00+01:00",
                    "ends_at": "2025-01-15T09:50:00+01:00",
                    "room": "Room 2",
                    "metadata": {"scheduler": "online-booking"},
                }
            ]
        }
    )

    client_id: uuid.UUID = Field(description="A client of your workspace, not archived")
    clinician_id: uuid.UUID | None = Field(
        default=None, description="An active user of your workspace; omitted: you (on create)"
    )
    starts_at: UtcDatetime
    ends_at: UtcDatetime = Field(description="After starts_at, at most 24 hours later")
    status: Status | None = Field(default=None, json_schema_extra=not_nullable)
    allow_overlap: AllowOverlap = False
    metadata: MetadataChange | None = Field(default=None, json_schema_extra=not_nullable)

    @field_validator("ends_at")
    @classmethod
    def _after_start(cls, ends_at: datetime | None, info: ValidationInfo) -> datetime | None:
        return _ends_after_start(info.data.get("starts_at"), ends_at)


class AppointmentUpdate(AppointmentBase, StrictModel):
    """Send only what changes: reschedule (move or resize), hand it to another clinician,
    change the room, status, location or notes. Room, location and notes sent as null are
    cleared."""

    model_config = ConfigDict(
        json_schema_extra={
            "minProperties": 1,
            "examples": [
                {"starts_at": "2025-01-16T14:00:00Z", "ends_at": "2025-01-16T14:50:00Z"},
                {"clinician_id": "00000000-0000-4000-8000-0000000000c2", "room": "Room 3"},
                {"status": "attended"},
            ],
        }
    )

    # Omitted means unchanged and null is refused, so the schema offers neither.
    starts_at: UtcDatetime | None = Field(default=None, json_schema_extra=not_nullable)
    ends_at: UtcDatetime | None = Field(default=None, json_schema_extra=not_nullable)
    status: Status | None = Field(default=None, json_schema_extra=not_nullable)
    clinician_id: uuid.UUID | None = Field(
        default=None,
        json_schema_extra=not_nullable,
        description="An active user of your workspace",
    )
    allow_overlap: AllowOverlap = False
    external_id: ExternalId | None = Field(default=None, description="null removes it")
    metadata: MetadataChange | None = None

    @field_validator("starts_at", "ends_at", "status", "clinician_id")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field to keep it; it cannot be null")
        return value

    @field_validator("ends_at")
    @classmethod
    def _after_start(cls, ends_at: datetime | None, info: ValidationInfo) -> datetime | None:
        return _ends_after_start(info.data.get("starts_at"), ends_at)

    def changes(self) -> dict[str, Any]:
        """The fields the caller sent, other than `allow_overlap`."""
        return self.model_dump(exclude_unset=True, exclude={"allow_overlap"})


class Recurrence(StrictModel):
    """Weekly, or every N weeks, on the first occurrence's weekday and local time in the
    practice's time zone (so 09:00 stays 09:00 across a daylight-saving change), until a
    date or for a number of occurrences: exactly one of `until` and `count`."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"every_weeks": 1, "count": 10}, {"until": "2025-06-30"}]}
    )

    every_weeks: int = Field(default=1, ge=1, le=MAX_EVERY_WEEKS, strict=True)
    count: int | None = Field(
        default=None,
        ge=1,
        le=MAX_OCCURRENCES,
        strict=True,
        description="How many occurrences, the first included",
    )
    until: date | None = Field(
        default=None,
        description="The last day an occurrence may start on (inclusive), in the practice's "
        "calendar",
    )

    @model_validator(mode="after")
    def _count_or_until(self) -> Recurrence:
        if (self.count is None) == (self.until is None):
            raise ValueError("send exactly one of count and until")
        return self


class AppointmentSeriesCreate(AppointmentCreate):
    """A recurring booking: the appointment as for `POST /appointments` (its times are the
    first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
    own, sharing a `series_id`; all are booked or none."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-000000000001",
                    "starts_at": "2025-01-15T09:00:00+01:00",
                    "ends_at": "2025-01-15T09:50:00+01:00",
                    "recurrence": {"every_weeks": 1, "count": 10},
                }
            ]
        }
    )

    recurrence: Recurrence


class CancelledOccurrences(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "cancelled_ids": [
                        "00000000-0000-4000-8000-0000000000e1",
                        "00000000-0000-4000-8000-0000000000e2",
                    ]
                }
            ]
        }
    )

    cancelled_ids: list[uuid.UUID] = Field(description="The occurrences cancelled, by start")


APPOINTMENT_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000e1",
    "client_id": "00000000-0000-4000-8000-000000000001",
    "clinician_id": "00000000-0000-4000-8000-0000000000c1",
    "series_id": None,
    "starts_at": "2025-01-15T08:00:00Z",
    "ends_at": "2025-01-15T08:50:00Z",
    "status": "scheduled",
    "room": "Room 2",
    "location": "Main building, 2nd floor",
    "notes": "Example: first session.",
    "external_id": "sched-000123",
    "metadata": {"scheduler": "online-booking"},
    "client": {
        "id": "00000000-0000-4000-8000-000000000001",
        "first_name": "Ada",
        "last_name": "Example",
    },
    "clinician": {"id": "00000000-0000-4000-8000-0000000000c1", "display_name": "Dr. Example"},
    "created_at": "2025-01-10T14:25:00Z",
    "updated_at": "2025-01-10T14:25:00Z",
}


class AppointmentClient(BaseModel):
    """The client's names (PHI), for drawing the calendar without a client list."""

    id: uuid.UUID
    first_name: str
    last_name: str


class AppointmentClinician(BaseModel):
    id: uuid.UUID
    display_name: str = Field(description="The user's display name, or their email if unset")


class AppointmentRead(AppointmentBase):
    model_config = ConfigDict(json_schema_extra={"examples": [APPOINTMENT_EXAMPLE]})

    id: uuid.UUID
    client_id: uuid.UUID
    clinician_id: uuid.UUID
    series_id: uuid.UUID | None = Field(description="Shared by the occurrences of a series")
    starts_at: datetime
    ends_at: datetime
    status: Status
    client: AppointmentClient | None = Field(
        description="The client's names; null for an API token without `clients:read`"
    )
    clinician: AppointmentClinician
    external_id: str | None = Field(default=None, description="Your own id of the appointment")
    metadata: dict[str, str] = Field(default_factory=dict, description="Your own strings")
    created_at: datetime
    updated_at: datetime


class AppointmentSeriesRead(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "series_id": "00000000-0000-4000-8000-0000000000f1",
                    "items": [
                        APPOINTMENT_EXAMPLE | {"series_id": "00000000-0000-4000-8000-0000000000f1"}
                    ],
                }
            ]
        }
    )

    series_id: uuid.UUID
    items: list[AppointmentRead] = Field(description="The occurrences, by start time")
