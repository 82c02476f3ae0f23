from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_note_update_metadata_type_0 import SessionNoteUpdateMetadataType0


T = TypeVar("T", bound="SessionNoteUpdate")


@_attrs_define
class SessionNoteUpdate:
    """An autosave of a draft, or an amendment of a signed note: send `version` and only
    the fields that changed, and for an amendment its `reason`. A SOAP section sent as null
    is cleared.

        Attributes:
            version (int): The note's version as the caller last saw it
            assessment (None | str | Unset): The clinician's assessment
            duration_minutes (int | Unset):
            external_id (None | str | Unset): null removes it; on a signed note, an amendment
            metadata (None | SessionNoteUpdateMetadataType0 | Unset): Merged; on a signed note, an amendment
            objective (None | str | Unset): What the clinician observes
            plan (None | str | Unset): Next steps
            psychotherapy_note (bool | Unset): A psychotherapy note (45 CFR 164.501), kept apart from the record: a client's
                export (`GET /clients/{id}/export`, the right of access) leaves it out and says how many were left out; on a
                signed note, changing it is an amendment
            reason (str | Unset): Required to amend a signed note (422 `reason_required` naming it otherwise), and only
                then: a change with a reason is always an amendment. Kept with the replaced content and shown in the note's
                `addenda`
            session_date (datetime.date | Unset):
            subjective (None | str | Unset): What the client reports
    """

    version: int
    assessment: None | str | Unset = UNSET
    duration_minutes: int | Unset = UNSET
    external_id: None | str | Unset = UNSET
    metadata: None | SessionNoteUpdateMetadataType0 | Unset = UNSET
    objective: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    psychotherapy_note: bool | Unset = UNSET
    reason: str | Unset = UNSET
    session_date: datetime.date | Unset = UNSET
    subjective: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.session_note_update_metadata_type_0 import SessionNoteUpdateMetadataType0  # noqa: PLC0415

        version = self.version

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

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, SessionNoteUpdateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

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

        reason = self.reason

        session_date: str | Unset = UNSET
        if not isinstance(self.session_date, Unset):
            session_date = self.session_date.isoformat()

        subjective: None | str | Unset
        if isinstance(self.subjective, Unset):
            subjective = UNSET
        else:
            subjective = self.subjective

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "version": version,
            }
        )
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
        if reason is not UNSET:
            field_dict["reason"] = reason
        if session_date is not UNSET:
            field_dict["session_date"] = session_date
        if subjective is not UNSET:
            field_dict["subjective"] = subjective

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_note_update_metadata_type_0 import SessionNoteUpdateMetadataType0  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

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

        def _parse_metadata(data: object) -> None | SessionNoteUpdateMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = SessionNoteUpdateMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionNoteUpdateMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

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

        reason = d.pop("reason", UNSET)

        _session_date = d.pop("session_date", UNSET)
        session_date: datetime.date | Unset
        if isinstance(_session_date, Unset):
            session_date = UNSET
        else:
            session_date = datetime.date.fromisoformat(_session_date)

        def _parse_subjective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subjective = _parse_subjective(d.pop("subjective", UNSET))

        session_note_update = cls(
            version=version,
            assessment=assessment,
            duration_minutes=duration_minutes,
            external_id=external_id,
            metadata=metadata,
            objective=objective,
            plan=plan,
            psychotherapy_note=psychotherapy_note,
            reason=reason,
            session_date=session_date,
            subjective=subjective,
        )

        return session_note_update
