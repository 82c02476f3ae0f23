from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionNoteVersionRead")


@_attrs_define
class SessionNoteVersionRead:
    """The SOAP content of a note as it was at `version`, before the amendment that replaced it.

    Attributes:
        amended_at (datetime.datetime):
        amended_by (None | UUID): The user whose amendment replaced it
        id (UUID):
        note_id (UUID):
        version (int):
        assessment (None | str | Unset): The clinician's assessment
        objective (None | str | Unset): What the clinician observes
        plan (None | str | Unset): Next steps
        reason (None | str | Unset): Why the amendment replaced it; null for amendments made before reasons were
            required
        subjective (None | str | Unset): What the client reports
    """

    amended_at: datetime.datetime
    amended_by: None | UUID
    id: UUID
    note_id: UUID
    version: int
    assessment: None | str | Unset = UNSET
    objective: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    subjective: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amended_at = self.amended_at.isoformat()

        amended_by: None | str
        if isinstance(self.amended_by, UUID):
            amended_by = str(self.amended_by)
        else:
            amended_by = self.amended_by

        id = str(self.id)

        note_id = str(self.note_id)

        version = self.version

        assessment: None | str | Unset
        if isinstance(self.assessment, Unset):
            assessment = UNSET
        else:
            assessment = self.assessment

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

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        subjective: None | str | Unset
        if isinstance(self.subjective, Unset):
            subjective = UNSET
        else:
            subjective = self.subjective

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amended_at": amended_at,
                "amended_by": amended_by,
                "id": id,
                "note_id": note_id,
                "version": version,
            }
        )
        if assessment is not UNSET:
            field_dict["assessment"] = assessment
        if objective is not UNSET:
            field_dict["objective"] = objective
        if plan is not UNSET:
            field_dict["plan"] = plan
        if reason is not UNSET:
            field_dict["reason"] = reason
        if subjective is not UNSET:
            field_dict["subjective"] = subjective

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amended_at = datetime.datetime.fromisoformat(d.pop("amended_at"))

        def _parse_amended_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                amended_by_type_0 = UUID(data)

                return amended_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        amended_by = _parse_amended_by(d.pop("amended_by"))

        id = UUID(d.pop("id"))

        note_id = UUID(d.pop("note_id"))

        version = d.pop("version")

        def _parse_assessment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assessment = _parse_assessment(d.pop("assessment", UNSET))

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

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_subjective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subjective = _parse_subjective(d.pop("subjective", UNSET))

        session_note_version_read = cls(
            amended_at=amended_at,
            amended_by=amended_by,
            id=id,
            note_id=note_id,
            version=version,
            assessment=assessment,
            objective=objective,
            plan=plan,
            reason=reason,
            subjective=subjective,
        )

        session_note_version_read.additional_properties = d
        return session_note_version_read

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
