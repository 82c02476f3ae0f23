from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.session_note_read_status import SessionNoteReadStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionNoteRead")


@_attrs_define
class SessionNoteRead:
    """
    Attributes:
        appointment_id (None | UUID):
        client_id (UUID):
        created_at (datetime.datetime):
        deleted_at (datetime.datetime | None):
        duration_minutes (int):
        finalized_at (datetime.datetime | None):
        id (UUID):
        session_date (datetime.date):
        status (SessionNoteReadStatus):
        updated_at (datetime.datetime):
        version (int): Send it back with the next change
        assessment (None | str | Unset): The clinician's assessment
        objective (None | str | Unset): What the clinician observes
        plan (None | str | Unset): Next steps
        subjective (None | str | Unset): What the client reports
    """

    appointment_id: None | UUID
    client_id: UUID
    created_at: datetime.datetime
    deleted_at: datetime.datetime | None
    duration_minutes: int
    finalized_at: datetime.datetime | None
    id: UUID
    session_date: datetime.date
    status: SessionNoteReadStatus
    updated_at: datetime.datetime
    version: int
    assessment: None | str | Unset = UNSET
    objective: None | str | Unset = UNSET
    plan: None | str | Unset = UNSET
    subjective: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        appointment_id: None | str
        if isinstance(self.appointment_id, UUID):
            appointment_id = str(self.appointment_id)
        else:
            appointment_id = self.appointment_id

        client_id = str(self.client_id)

        created_at = self.created_at.isoformat()

        deleted_at: None | str
        if isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        duration_minutes = self.duration_minutes

        finalized_at: None | str
        if isinstance(self.finalized_at, datetime.datetime):
            finalized_at = self.finalized_at.isoformat()
        else:
            finalized_at = self.finalized_at

        id = str(self.id)

        session_date = self.session_date.isoformat()

        status = self.status.value

        updated_at = self.updated_at.isoformat()

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

        subjective: None | str | Unset
        if isinstance(self.subjective, Unset):
            subjective = UNSET
        else:
            subjective = self.subjective

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "appointment_id": appointment_id,
                "client_id": client_id,
                "created_at": created_at,
                "deleted_at": deleted_at,
                "duration_minutes": duration_minutes,
                "finalized_at": finalized_at,
                "id": id,
                "session_date": session_date,
                "status": status,
                "updated_at": updated_at,
                "version": version,
            }
        )
        if assessment is not UNSET:
            field_dict["assessment"] = assessment
        if objective is not UNSET:
            field_dict["objective"] = objective
        if plan is not UNSET:
            field_dict["plan"] = plan
        if subjective is not UNSET:
            field_dict["subjective"] = subjective

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_appointment_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                appointment_id_type_0 = UUID(data)

                return appointment_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        appointment_id = _parse_appointment_id(d.pop("appointment_id"))

        client_id = UUID(d.pop("client_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deleted_at = _parse_deleted_at(d.pop("deleted_at"))

        duration_minutes = d.pop("duration_minutes")

        def _parse_finalized_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finalized_at_type_0 = datetime.datetime.fromisoformat(data)

                return finalized_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finalized_at = _parse_finalized_at(d.pop("finalized_at"))

        id = UUID(d.pop("id"))

        session_date = datetime.date.fromisoformat(d.pop("session_date"))

        status = SessionNoteReadStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

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

        def _parse_subjective(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subjective = _parse_subjective(d.pop("subjective", UNSET))

        session_note_read = cls(
            appointment_id=appointment_id,
            client_id=client_id,
            created_at=created_at,
            deleted_at=deleted_at,
            duration_minutes=duration_minutes,
            finalized_at=finalized_at,
            id=id,
            session_date=session_date,
            status=status,
            updated_at=updated_at,
            version=version,
            assessment=assessment,
            objective=objective,
            plan=plan,
            subjective=subjective,
        )

        session_note_read.additional_properties = d
        return session_note_read

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
