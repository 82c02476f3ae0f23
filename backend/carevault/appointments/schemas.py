"""Appointments over HTTP. Times and status are plain; location and notes are PHI."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from carevault.auth.schemas import StrictModel
from carevault.core.fields import encodable, free_text, not_nullable, single_line

MAX_DURATION = timedelta(hours=24)
LOCATION_MAX_CHARACTERS = 500
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
Notes = Annotated[
    str | None,
    Field(max_length=NOTES_MAX_CHARACTERS),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
AllowOverlap = Annotated[
    bool,
    Field(
        description="Book it even if it overlaps another appointment that is not cancelled; "
        "otherwise an overlap is 409 `appointment_conflict` with the conflicting ids"
    ),
]


class AppointmentBase(BaseModel):
    location: Location = Field(default=None, examples=["Room 2"])
    notes: Notes = Field(default=None, description="Scheduling notes, up to 5,000 characters")


class AppointmentCreate(AppointmentBase, StrictModel):
    """A new calendar entry for a client of your workspace. Times need a UTC offset."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-000000000001",
                    "starts_at": "2025-01-15T09:00:00+01:00",
                    "ends_at": "2025-01-15T09:50:00+01:00",
                    "location": "Room 2",
                    "notes": "Example: first session.",
                }
            ]
        }
    )

    client_id: uuid.UUID = Field(description="A client of your workspace, not archived")
    starts_at: UtcDatetime
    ends_at: UtcDatetime = Field(description="After starts_at, at most 24 hours later")
    status: Status = "scheduled"
    allow_overlap: AllowOverlap = False

    @field_validator("ends_at")
    @classmethod
    def _after_start(cls, ends_at: datetime | None, info: ValidationInfo) -> datetime | None:
        return _ends_after_start(info.data.get("starts_at"), ends_at)


class AppointmentUpdate(AppointmentBase, StrictModel):
    """Send only what changes: reschedule, change the status, location or notes. Location
    and notes sent as null are cleared."""

    model_config = ConfigDict(
        json_schema_extra={
            "minProperties": 1,
            "examples": [
                {"starts_at": "2025-01-16T14:00:00Z", "ends_at": "2025-01-16T14:50:00Z"},
                {"status": "attended"},
            ],
        }
    )

    # Omitted means unchanged and null is refused, so the schema offers neither.
    starts_at: UtcDatetime | None = Field(default=None, json_schema_extra=not_nullable)
    ends_at: UtcDatetime | None = Field(default=None, json_schema_extra=not_nullable)
    status: Status | None = Field(default=None, json_schema_extra=not_nullable)
    allow_overlap: AllowOverlap = False

    @field_validator("starts_at", "ends_at", "status")
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


APPOINTMENT_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000e1",
    "client_id": "00000000-0000-4000-8000-000000000001",
    "starts_at": "2025-01-15T08:00:00Z",
    "ends_at": "2025-01-15T08:50:00Z",
    "status": "scheduled",
    "location": "Room 2",
    "notes": "Example: first session.",
    "created_at": "2025-01-10T14:25:00Z",
    "updated_at": "2025-01-10T14:25:00Z",
}


class AppointmentRead(AppointmentBase):
    model_config = ConfigDict(
        from_attributes=True, json_schema_extra={"examples": [APPOINTMENT_EXAMPLE]}
    )

    id: uuid.UUID
    client_id: uuid.UUID
    starts_at: datetime
    ends_at: datetime
    status: Status
    created_at: datetime
    updated_at: datetime
