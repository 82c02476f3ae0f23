from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.appointment_update_status import AppointmentUpdateStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appointment_update_metadata_type_0 import AppointmentUpdateMetadataType0


T = TypeVar("T", bound="AppointmentUpdate")


@_attrs_define
class AppointmentUpdate:
    """Send only what changes: reschedule (move or resize), hand it to another clinician,
    change the room, status, location or notes. Room, location and notes sent as null are
    cleared.

        Attributes:
            allow_overlap (bool | Unset): Book it even if it overlaps another appointment (not cancelled) of the same
                clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the
                conflicting appointments and what they share Default: False.
            clinician_id (UUID | Unset): An active user of your workspace
            ends_at (datetime.datetime | Unset):
            external_id (None | str | Unset): null removes it
            location (None | str | Unset):
            metadata (AppointmentUpdateMetadataType0 | None | Unset):
            notes (None | str | Unset): Scheduling notes, up to 5,000 characters
            room (None | str | Unset): A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be
                checked, case-insensitively); blank is none
            starts_at (datetime.datetime | Unset):
            status (AppointmentUpdateStatus | Unset):
    """

    allow_overlap: bool | Unset = False
    clinician_id: UUID | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    external_id: None | str | Unset = UNSET
    location: None | str | Unset = UNSET
    metadata: AppointmentUpdateMetadataType0 | None | Unset = UNSET
    notes: None | str | Unset = UNSET
    room: None | str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    status: AppointmentUpdateStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.appointment_update_metadata_type_0 import AppointmentUpdateMetadataType0  # noqa: PLC0415

        allow_overlap = self.allow_overlap

        clinician_id: str | Unset = UNSET
        if not isinstance(self.clinician_id, Unset):
            clinician_id = str(self.clinician_id)

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

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

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, AppointmentUpdateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

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

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if allow_overlap is not UNSET:
            field_dict["allow_overlap"] = allow_overlap
        if clinician_id is not UNSET:
            field_dict["clinician_id"] = clinician_id
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
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
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.appointment_update_metadata_type_0 import AppointmentUpdateMetadataType0  # noqa: PLC0415

        d = dict(src_dict)
        allow_overlap = d.pop("allow_overlap", UNSET)

        _clinician_id = d.pop("clinician_id", UNSET)
        clinician_id: UUID | Unset
        if isinstance(_clinician_id, Unset):
            clinician_id = UNSET
        else:
            clinician_id = UUID(_clinician_id)

        _ends_at = d.pop("ends_at", UNSET)
        ends_at: datetime.datetime | Unset
        if isinstance(_ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = datetime.datetime.fromisoformat(_ends_at)

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

        def _parse_metadata(data: object) -> AppointmentUpdateMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = AppointmentUpdateMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppointmentUpdateMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

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

        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)

        _status = d.pop("status", UNSET)
        status: AppointmentUpdateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = AppointmentUpdateStatus(_status)

        appointment_update = cls(
            allow_overlap=allow_overlap,
            clinician_id=clinician_id,
            ends_at=ends_at,
            external_id=external_id,
            location=location,
            metadata=metadata,
            notes=notes,
            room=room,
            starts_at=starts_at,
            status=status,
        )

        return appointment_update
