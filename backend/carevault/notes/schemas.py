"""Session notes over HTTP. The SOAP sections are PHI: they appear in bodies, never in events."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AliasChoices, BaseModel, ConfigDict, Field, field_validator

from carevault.auth.schemas import StrictModel
from carevault.core.fields import (
    StrictInteger,
    encodable,
    free_text,
    latest_local_date,
    not_nullable,
)

SOAP_MAX_CHARACTERS = 5_000
MAX_DURATION_MINUTES = 600
# The database stores `version` as a 32-bit integer; larger values are refused up front.
MAX_VERSION = 2**31 - 1


def _not_in_future(value: date) -> date:
    if value > latest_local_date():
        raise ValueError("the session date cannot be in the future")
    return value


SoapText = Annotated[
    str | None,
    Field(max_length=SOAP_MAX_CHARACTERS),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
SessionDate = Annotated[date, AfterValidator(_not_in_future)]
DurationMinutes = Annotated[StrictInteger, Field(ge=1, le=MAX_DURATION_MINUTES)]
NoteVersion = Annotated[
    StrictInteger,
    Field(ge=1, le=MAX_VERSION, description="The note's version as the caller last saw it"),
]


class SessionNoteBase(BaseModel):
    """The four SOAP sections; each is optional and holds up to 5,000 characters."""

    subjective: SoapText = Field(default=None, description="What the client reports")
    objective: SoapText = Field(default=None, description="What the clinician observes")
    assessment: SoapText = Field(default=None, description="The clinician's assessment")
    plan: SoapText = Field(default=None, description="Next steps")


class SessionNoteCreate(SessionNoteBase, StrictModel):
    """A new draft note; its SOAP sections may be written now or autosaved later."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "client_id": "00000000-0000-4000-8000-000000000001",
                    "appointment_id": None,
                    "session_date": "2025-01-15",
                    "duration_minutes": 50,
                    "subjective": "Example Client reports sleeping better since the last visit.",
                    "objective": "Example observation: calm, on time, engaged throughout.",
                    "assessment": "Example assessment: steady progress toward the example goal.",
                    "plan": "Example plan: continue weekly sessions; review in four weeks.",
                }
            ]
        }
    )

    client_id: uuid.UUID = Field(description="A client of your workspace")
    appointment_id: uuid.UUID | None = Field(
        default=None, description="An appointment of the same client, if the note belongs to one"
    )
    session_date: SessionDate = Field(description="The day of the session; not in the future")
    duration_minutes: DurationMinutes = 50


class SessionNoteUpdate(SessionNoteBase, StrictModel):
    """An autosave of a draft, or an amendment of a finalized note: send `version` and only
    the fields that changed. A SOAP section sent as null is cleared."""

    model_config = ConfigDict(
        json_schema_extra={
            "minProperties": 2,  # version and at least one change
            "examples": [
                {
                    "version": 3,
                    "assessment": "Example assessment, revised: goals met for this example.",
                }
            ],
        }
    )

    version: NoteVersion
    # Omitted means unchanged: `changes()` leaves the defaults out, and an explicit null is
    # refused, so the schema offers neither a default nor null.
    session_date: SessionDate | None = Field(default=None, json_schema_extra=not_nullable)
    duration_minutes: DurationMinutes | None = Field(default=None, json_schema_extra=not_nullable)

    @field_validator("session_date", "duration_minutes")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field to keep it; it cannot be null")
        return value

    def changes(self) -> dict[str, object]:
        """The fields the caller sent, other than `version`."""
        return self.model_dump(exclude_unset=True, exclude={"version"})


class SessionNoteFinalize(StrictModel):
    """Finalize at the version the caller last saw."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"version": 4}]})

    version: NoteVersion


NOTE_EXAMPLE: dict[str, Any] = {
    "id": "00000000-0000-4000-8000-0000000000d1",
    "client_id": "00000000-0000-4000-8000-000000000001",
    "appointment_id": None,
    "session_date": "2025-01-15",
    "duration_minutes": 50,
    "subjective": "Example Client reports sleeping better since the last visit.",
    "objective": "Example observation: calm, on time, engaged throughout.",
    "assessment": "Example assessment: steady progress toward the example goal.",
    "plan": "Example plan: continue weekly sessions; review in four weeks.",
    "status": "draft",
    "version": 3,
    "finalized_at": None,
    "deleted_at": None,
    "created_at": "2025-01-15T10:02:11Z",
    "updated_at": "2025-01-15T10:14:37Z",
}


class SessionNoteRead(SessionNoteBase):
    model_config = ConfigDict(from_attributes=True, json_schema_extra={"examples": [NOTE_EXAMPLE]})

    id: uuid.UUID
    client_id: uuid.UUID
    appointment_id: uuid.UUID | None
    session_date: date
    duration_minutes: int
    status: Literal["draft", "finalized"]
    version: int = Field(description="Send it back with the next change")
    finalized_at: datetime | None
    deleted_at: datetime | None
    created_at: datetime
    updated_at: datetime


class SessionNoteVersionRead(SessionNoteBase):
    """The SOAP content of a note as it was at `version`, before the amendment that replaced it."""

    model_config = ConfigDict(
        from_attributes=True,
        json_schema_extra={
            "examples": [
                {
                    "id": "00000000-0000-4000-8000-0000000000d2",
                    "note_id": NOTE_EXAMPLE["id"],
                    "version": 4,
                    "subjective": NOTE_EXAMPLE["subjective"],
                    "objective": NOTE_EXAMPLE["objective"],
                    "assessment": NOTE_EXAMPLE["assessment"],
                    "plan": "Example plan, as finalized: weekly sessions.",
                    "amended_by": "00000000-0000-4000-8000-0000000000a1",
                    "amended_at": "2025-01-22T08:30:00Z",
                }
            ]
        },
    )

    id: uuid.UUID
    note_id: uuid.UUID = Field(validation_alias=AliasChoices("note_id", "session_id"))
    version: int
    amended_by: uuid.UUID | None = Field(description="The user whose amendment replaced it")
    amended_at: datetime
