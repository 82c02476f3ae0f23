"""Session notes over HTTP. The SOAP sections are PHI: they appear in bodies, never in events."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AliasChoices, BaseModel, ConfigDict, Field, field_validator

from carevault.auth.schemas import StrictModel
from carevault.core.external import ExternalId, Metadata, MetadataChange, StoredMetadata
from carevault.core.fields import (
    StrictInteger,
    encodable,
    free_text,
    latest_local_date,
    not_nullable,
)
from carevault.notes.signing import SIGNATURE_STATEMENTS

SOAP_MAX_CHARACTERS = 5_000
MAX_DURATION_MINUTES = 600
# The database stores `version` as a 32-bit integer; larger values are refused up front.
MAX_VERSION = 2**31 - 1


def _not_in_future(value: date) -> date:
    if value > latest_local_date():
        raise ValueError("the session date cannot be in the future")
    return value


REASON_MAX_CHARACTERS = 1_000

SoapText = Annotated[
    str | None,
    Field(max_length=SOAP_MAX_CHARACTERS),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
SessionDate = Annotated[date, AfterValidator(_not_in_future)]
AmendmentReason = Annotated[
    str,
    Field(min_length=1, max_length=REASON_MAX_CHARACTERS),
    AfterValidator(free_text),
    AfterValidator(encodable),
]
AttestationVersion = Annotated[
    StrictInteger,
    Field(
        ge=1,
        le=32_767,
        description="The version of the statement the signer was shown and attests "
        "(GET /sessions/attestations); only the current one is accepted",
    ),
]
DurationMinutes = Annotated[StrictInteger, Field(ge=1, le=MAX_DURATION_MINUTES)]
StrictBool = Annotated[bool, Field(strict=True)]
PSYCHOTHERAPY_NOTE = (
    "A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's export "
    "(`GET /clients/{id}/export`, the right of access) leaves it out and says how many were "
    "left out"
)
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
    external_id: ExternalId | None = None
    metadata: Metadata = Field(default_factory=dict)
    psychotherapy_note: StrictBool = Field(default=False, description=PSYCHOTHERAPY_NOTE)


class SessionNoteUpdate(SessionNoteBase, StrictModel):
    """An autosave of a draft, or an amendment of a signed note: send `version` and only
    the fields that changed, and for an amendment its `reason`. A SOAP section sent as null
    is cleared."""

    model_config = ConfigDict(
        json_schema_extra={
            "minProperties": 2,  # version and at least one change
            "examples": [
                {
                    "version": 3,
                    "assessment": "Example assessment, revised: goals met for this example.",
                },
                {
                    "version": 5,
                    "plan": "Example plan, corrected: fortnightly sessions.",
                    "reason": "Example reason: the frequency agreed in the session was "
                    "recorded wrongly.",
                },
            ],
        }
    )

    version: NoteVersion
    reason: AmendmentReason | None = Field(
        default=None,
        description="Required to amend a signed note (422 `reason_required` naming it "
        "otherwise), and only then: a change with a reason is always an amendment. Kept "
        "with the replaced content and shown in the note's `addenda`",
        json_schema_extra=not_nullable,
    )
    # Omitted means unchanged: `changes()` leaves the defaults out, and an explicit null is
    # refused, so the schema offers neither a default nor null.
    session_date: SessionDate | None = Field(default=None, json_schema_extra=not_nullable)
    duration_minutes: DurationMinutes | None = Field(default=None, json_schema_extra=not_nullable)
    external_id: ExternalId | None = Field(
        default=None, description="null removes it; on a signed note, an amendment"
    )
    metadata: MetadataChange | None = Field(
        default=None, description="Merged; on a signed note, an amendment"
    )
    psychotherapy_note: StrictBool | None = Field(
        default=None,
        description=PSYCHOTHERAPY_NOTE + "; on a signed note, changing it is an amendment",
        json_schema_extra=not_nullable,
    )

    @field_validator("session_date", "duration_minutes", "reason", "psychotherapy_note")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field to keep it; it cannot be null")
        return value

    def changes(self) -> dict[str, object]:
        """The fields the caller sent, other than `version` and `reason`."""
        return self.model_dump(exclude_unset=True, exclude={"version", "reason"})


class SessionNoteFinalize(StrictModel):
    """Sign (finalize) at the version the caller last saw, attesting the current signature
    statement."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"version": 4, "attestation_version": 1}]}
    )

    version: NoteVersion
    attestation_version: AttestationVersion


class SessionNoteCosign(StrictModel):
    """Co-sign at the version the caller last saw, attesting the current co-signature
    statement."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"version": 5, "attestation_version": 1}]}
    )

    version: NoteVersion
    attestation_version: AttestationVersion


class AttestationStatement(BaseModel):
    version: int
    text: str


class AttestationsRead(BaseModel):
    """The statements a signer and a co-signer attest, at their current versions."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "signature": {
                        "version": 1,
                        "text": "I attest that I provided this service and that this note is "
                        "an accurate and complete record of it.",
                    },
                    "cosignature": {
                        "version": 1,
                        "text": "I have reviewed this note as the supervising clinician and "
                        "agree with its content.",
                    },
                }
            ]
        }
    )

    signature: AttestationStatement
    cosignature: AttestationStatement


class AddendumRead(BaseModel):
    """One amendment of a signed note: the version it made, by whom, when and why (the
    content it replaced is in `GET /sessions/{id}/versions`)."""

    model_config = ConfigDict(from_attributes=True)

    version: int = Field(description="The note's version the amendment made")
    amended_by: uuid.UUID | None
    amended_at: datetime
    reason: str | None = Field(description="Null for amendments made before reasons were required")


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
    "author_id": "00000000-0000-4000-8000-0000000000a1",
    "finalized_at": None,
    "signed_at": None,
    "signed_by": None,
    "attestation_version": None,
    "attestation": None,
    "late_entry": False,
    "psychotherapy_note": False,
    "cosign_status": None,
    "cosigned_by": None,
    "cosigned_at": None,
    "cosign_attestation_version": None,
    "addenda": [],
    "deleted_at": None,
    "external_id": "ehr-note-000123",
    "metadata": {"source": "dictation"},
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
    status: Literal["draft", "finalized"] = Field(
        description="`finalized`: signed by its author and locked (amend with a reason)"
    )
    version: int = Field(description="Send it back with the next change")
    author_id: uuid.UUID = Field(description="The user who wrote the note")
    finalized_at: datetime | None = Field(description="When it was signed (as `signed_at`)")
    signed_at: datetime | None = Field(
        validation_alias=AliasChoices("signed_at", "finalized_at"),
        description="When the author signed it",
    )
    signed_by: uuid.UUID | None = Field(
        description="Who signed it; null for notes finalized before signatures were recorded"
    )
    attestation_version: int | None = Field(description="The signature statement's version")
    attestation: str | None = Field(default=None, description="The statement the signer attested")
    late_entry: bool = Field(
        description="Signed more than the practice's `late_entry_hours` after the session ended"
    )
    psychotherapy_note: bool = Field(default=False, description=PSYCHOTHERAPY_NOTE)
    cosign_status: Literal["awaiting", "cosigned"] | None = Field(
        description="Null when the author needs no co-signature; `awaiting` until an owner or "
        "the author's supervisor co-signs (POST /sessions/{id}/cosign)"
    )
    cosigned_by: uuid.UUID | None
    cosigned_at: datetime | None
    cosign_attestation_version: int | None
    addenda: list[AddendumRead] = Field(
        default_factory=list, description="The amendments made after signing, oldest first"
    )
    deleted_at: datetime | None
    external_id: str | None = Field(default=None, description="Your own id of the note")
    metadata: StoredMetadata = Field(
        default_factory=dict, validation_alias="metadata_json", description="Your own strings"
    )
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, note: Any, addenda: Sequence[Any] = ()) -> SessionNoteRead:
        read = cls.model_validate(note)
        read.attestation = SIGNATURE_STATEMENTS.get(read.attestation_version or 0)
        read.addenda = [AddendumRead.model_validate(row) for row in addenda]
        return read


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
                    "reason": "Example reason: the plan agreed in the session was recorded "
                    "wrongly.",
                }
            ]
        },
    )

    id: uuid.UUID
    note_id: uuid.UUID = Field(validation_alias=AliasChoices("note_id", "session_id"))
    version: int
    amended_by: uuid.UUID | None = Field(description="The user whose amendment replaced it")
    amended_at: datetime
    reason: str | None = Field(
        default=None,
        description="Why the amendment replaced it; null for amendments made before reasons "
        "were required",
    )
