from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.appointment_read_status import AppointmentReadStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="AppointmentRead")


@_attrs_define
class AppointmentRead:
    """
    Attributes:
        client_id (UUID):
        created_at (datetime.datetime):
        ends_at (datetime.datetime):
        id (UUID):
        starts_at (datetime.datetime):
        status (AppointmentReadStatus):
        updated_at (datetime.datetime):
        location (None | str | Unset):
        notes (None | str | Unset): Scheduling notes, up to 5,000 characters
    """

    client_id: UUID
    created_at: datetime.datetime
    ends_at: datetime.datetime
    id: UUID
    starts_at: datetime.datetime
    status: AppointmentReadStatus
    updated_at: datetime.datetime
    location: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = str(self.client_id)

        created_at = self.created_at.isoformat()

        ends_at = self.ends_at.isoformat()

        id = str(self.id)

        starts_at = self.starts_at.isoformat()

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client_id": client_id,
                "created_at": created_at,
                "ends_at": ends_at,
                "id": id,
                "starts_at": starts_at,
                "status": status,
                "updated_at": updated_at,
            }
        )
        if location is not UNSET:
            field_dict["location"] = location
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = UUID(d.pop("client_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        id = UUID(d.pop("id"))

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        status = AppointmentReadStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        appointment_read = cls(
            client_id=client_id,
            created_at=created_at,
            ends_at=ends_at,
            id=id,
            starts_at=starts_at,
            status=status,
            updated_at=updated_at,
            location=location,
            notes=notes,
        )

        appointment_read.additional_properties = d
        return appointment_read

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
