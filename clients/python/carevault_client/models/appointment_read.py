from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.appointment_read_status import AppointmentReadStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appointment_client import AppointmentClient
    from ..models.appointment_clinician import AppointmentClinician
    from ..models.appointment_read_metadata import AppointmentReadMetadata


T = TypeVar("T", bound="AppointmentRead")


@_attrs_define
class AppointmentRead:
    """
    Attributes:
        client (AppointmentClient | None): The client's names; null for an API token without `clients:read`
        client_id (UUID):
        clinician (AppointmentClinician):
        clinician_id (UUID):
        created_at (datetime.datetime):
        ends_at (datetime.datetime):
        id (UUID):
        series_id (None | UUID): Shared by the occurrences of a series
        starts_at (datetime.datetime):
        status (AppointmentReadStatus):
        updated_at (datetime.datetime):
        external_id (None | str | Unset): Your own id of the appointment
        location (None | str | Unset):
        metadata (AppointmentReadMetadata | Unset): Your own strings
        notes (None | str | Unset): Scheduling notes, up to 5,000 characters
        room (None | str | Unset): A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be
            checked, case-insensitively); blank is none
    """

    client: AppointmentClient | None
    client_id: UUID
    clinician: AppointmentClinician
    clinician_id: UUID
    created_at: datetime.datetime
    ends_at: datetime.datetime
    id: UUID
    series_id: None | UUID
    starts_at: datetime.datetime
    status: AppointmentReadStatus
    updated_at: datetime.datetime
    external_id: None | str | Unset = UNSET
    location: None | str | Unset = UNSET
    metadata: AppointmentReadMetadata | Unset = UNSET
    notes: None | str | Unset = UNSET
    room: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.appointment_client import AppointmentClient  # noqa: PLC0415

        client: dict[str, Any] | None
        if isinstance(self.client, AppointmentClient):
            client = self.client.to_dict()
        else:
            client = self.client

        client_id = str(self.client_id)

        clinician = self.clinician.to_dict()

        clinician_id = str(self.clinician_id)

        created_at = self.created_at.isoformat()

        ends_at = self.ends_at.isoformat()

        id = str(self.id)

        series_id: None | str
        if isinstance(self.series_id, UUID):
            series_id = str(self.series_id)
        else:
            series_id = self.series_id

        starts_at = self.starts_at.isoformat()

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        room: None | str | Unset
        if isinstance(self.room, Unset):
            room = UNSET
        else:
            room = self.room

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client": client,
                "client_id": client_id,
                "clinician": clinician,
                "clinician_id": clinician_id,
                "created_at": created_at,
                "ends_at": ends_at,
                "id": id,
                "series_id": series_id,
                "starts_at": starts_at,
                "status": status,
                "updated_at": updated_at,
            }
        )
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if location is not UNSET:
            field_dict["location"] = location
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if notes is not UNSET:
            field_dict["notes"] = notes
        if room is not UNSET:
            field_dict["room"] = room

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.appointment_client import AppointmentClient  # noqa: PLC0415
        from ..models.appointment_clinician import AppointmentClinician  # noqa: PLC0415
        from ..models.appointment_read_metadata import AppointmentReadMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_client(data: object) -> AppointmentClient | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_type_0 = AppointmentClient.from_dict(data)

                return client_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppointmentClient | None, data)

        client = _parse_client(d.pop("client"))

        client_id = UUID(d.pop("client_id"))

        clinician = AppointmentClinician.from_dict(d.pop("clinician"))

        clinician_id = UUID(d.pop("clinician_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        id = UUID(d.pop("id"))

        def _parse_series_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                series_id_type_0 = UUID(data)

                return series_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        series_id = _parse_series_id(d.pop("series_id"))

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        status = AppointmentReadStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: AppointmentReadMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = AppointmentReadMetadata.from_dict(_metadata)

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_room(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        room = _parse_room(d.pop("room", UNSET))

        appointment_read = cls(
            client=client,
            client_id=client_id,
            clinician=clinician,
            clinician_id=clinician_id,
            created_at=created_at,
            ends_at=ends_at,
            id=id,
            series_id=series_id,
            starts_at=starts_at,
            status=status,
            updated_at=updated_at,
            external_id=external_id,
            location=location,
            metadata=metadata,
            notes=notes,
            room=room,
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
