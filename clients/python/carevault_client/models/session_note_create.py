from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_note_create_metadata import SessionNoteCreateMetadata


T = TypeVar("T", bound="SessionNoteCreate")


@_attrs_define
class SessionNoteCreate:
    """A new draft note; its SOAP sections may be written now or autosaved later.

    Attributes:
        client_id (UUID): A client of your workspace
        session_date (datetime.date): The day of the session; not in the future
        appointment_id (None | Unset | UUID): An appointment of the same client, if the note belongs to one
        assessment (None | str | Unset): The clinician's assessment
        duration_minutes (int | Unset):  Default: 50.
        external_id (None | str | Unset):
        metadata (SessionNoteCreateMetadata | Unset): Your own key-value strings (at most 50 keys of up to 40
            characters, values of up to 500), encrypted like PHI
        objective (None | str | Unset): What the clinician observes
        plan (None | str | Unset): Next steps
        psychotherapy_note (bool | Unset): A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's
            export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out Default:
            False.
        subjective (None | str | Unset): What the client reports
    """

    client_id: UUID
    session_date: datetime.date
    appointment_id: None | Unset | UUID = UNSET
    assessment: None | str | Unset = UNSET
    duration_minutes: int | Unset = 50
    external_id: None | str | Unset = UNSET
    metadata: SessionNoteCreateMetadata | Unset = UNSET
    objective: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    psychotherapy_note: bool | Unset = False
    subjective: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = str(self.client_id)

        session_date = self.session_date.isoformat()

        appointment_id: None | str | Unset
        if isinstance(self.appointment_id, Unset):
            appointment_id = UNSET
        elif isinstance(self.appointment_id, UUID):
            appointment_id = str(self.appointment_id)
        else:
            appointment_id = self.appointment_id

        assessment: None | str | Unset
        if isinstance(self.assessment, Unset):
            assessment = UNSET
        else:
            assessment = self.assessment

        duration_minutes = self.duration_minutes

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        objective: None | str | Unset
        if isinstance(self.objective, Unset):
            objective = UNSET
        else:
            objective = self.objective

        plan: None | str | Unset
        if isinstance(self.plan, Unset):
            plan = UNSET
        else:
            plan = self.plan

        psychotherapy_note = self.psychotherapy_note

        subjective: None | str | Unset
        if isinstance(self.subjective, Unset):
            subjective = UNSET
        else:
            subjective = self.subjective

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "client_id": client_id,
                "session_date": session_date,
            }
        )
        if appointment_id is not UNSET:
            field_dict["appointment_id"] = appointment_id
        if assessment is not UNSET:
            field_dict["assessment"] = assessment
        if duration_minutes is not UNSET:
            field_dict["duration_minutes"] = duration_minutes
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if objective is not UNSET:
            field_dict["objective"] = objective
        if plan is not UNSET:
            field_dict["plan"] = plan
        if psychotherapy_note is not UNSET:
            field_dict["psychotherapy_note"] = psychotherapy_note
        if subjective is not UNSET:
            field_dict["subjective"] = subjective

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_note_create_metadata import SessionNoteCreateMetadata  # noqa: PLC0415

        d = dict(src_dict)
        client_id = UUID(d.pop("client_id"))

        session_date = datetime.date.fromisoformat(d.pop("session_date"))

        def _parse_appointment_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                appointment_id_type_0 = UUID(data)

                return appointment_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        appointment_id = _parse_appointment_id(d.pop("appointment_id", UNSET))

        def _parse_assessment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assessment = _parse_assessment(d.pop("assessment", UNSET))

        duration_minutes = d.pop("duration_minutes", UNSET)

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: SessionNoteCreateMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = SessionNoteCreateMetadata.from_dict(_metadata)

        def _parse_objective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        objective = _parse_objective(d.pop("objective", UNSET))

        def _parse_plan(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        plan = _parse_plan(d.pop("plan", UNSET))

        psychotherapy_note = d.pop("psychotherapy_note", UNSET)

        def _parse_subjective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subjective = _parse_subjective(d.pop("subjective", UNSET))

        session_note_create = cls(
            client_id=client_id,
            session_date=session_date,
            appointment_id=appointment_id,
            assessment=assessment,
            duration_minutes=duration_minutes,
            external_id=external_id,
            metadata=metadata,
            objective=objective,
            plan=plan,
            psychotherapy_note=psychotherapy_note,
            subjective=subjective,
        )

        return session_note_create
