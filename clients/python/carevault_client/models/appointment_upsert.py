from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.appointment_upsert_status import AppointmentUpsertStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.appointment_upsert_metadata import AppointmentUpsertMetadata


T = TypeVar("T", bound="AppointmentUpsert")


@_attrs_define
class AppointmentUpsert:
    """`PUT /appointments/external/{external_id}`: a new appointment, or the changes to the
    one with that external id (the fields sent are set, the others kept, `metadata`
    merged; `client_id` cannot change).

        Attributes:
            client_id (UUID): A client of your workspace, not archived
            ends_at (datetime.datetime): After starts_at, at most 24 hours later
            starts_at (datetime.datetime):
            allow_overlap (bool | Unset): Book it even if it overlaps another appointment (not cancelled) of the same
                clinician, the same client or the same room; otherwise such an overlap is 409 `appointment_conflict` naming the
                conflicting appointments and what they share Default: False.
            clinician_id (None | Unset | UUID): An active user of your workspace; omitted: you (on create)
            location (None | str | Unset):
            metadata (AppointmentUpsertMetadata | Unset): Merged into the record's metadata: a key sent with a value sets
                it, a key sent as null or empty removes it, keys not sent stay
            notes (None | str | Unset): Scheduling notes, up to 5,000 characters
            room (None | str | Unset): A short label such as `Room 2` (not PHI: stored plain so overlaps per room can be
                checked, case-insensitively); blank is none
            status (AppointmentUpsertStatus | Unset):
    """

    client_id: UUID
    ends_at: datetime.datetime
    starts_at: datetime.datetime
    allow_overlap: bool | Unset = False
    clinician_id: None | Unset | UUID = UNSET
    location: None | str | Unset = UNSET
    metadata: AppointmentUpsertMetadata | Unset = UNSET
    notes: None | str | Unset = UNSET
    room: None | str | Unset = UNSET
    status: AppointmentUpsertStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = str(self.client_id)

        ends_at = self.ends_at.isoformat()

        starts_at = self.starts_at.isoformat()

        allow_overlap = self.allow_overlap

        clinician_id: None | str | Unset
        if isinstance(self.clinician_id, Unset):
            clinician_id = UNSET
        elif isinstance(self.clinician_id, UUID):
            clinician_id = str(self.clinician_id)
        else:
            clinician_id = self.clinician_id

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

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "client_id": client_id,
                "ends_at": ends_at,
                "starts_at": starts_at,
            }
        )
        if allow_overlap is not UNSET:
            field_dict["allow_overlap"] = allow_overlap
        if clinician_id is not UNSET:
            field_dict["clinician_id"] = clinician_id
        if location is not UNSET:
            field_dict["location"] = location
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if notes is not UNSET:
            field_dict["notes"] = notes
        if room is not UNSET:
            field_dict["room"] = room
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.appointment_upsert_metadata import AppointmentUpsertMetadata  # noqa: PLC0415

        d = dict(src_dict)
        client_id = UUID(d.pop("client_id"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        allow_overlap = d.pop("allow_overlap", UNSET)

        def _parse_clinician_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                clinician_id_type_0 = UUID(data)

                return clinician_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        clinician_id = _parse_clinician_id(d.pop("clinician_id", UNSET))

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: AppointmentUpsertMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = AppointmentUpsertMetadata.from_dict(_metadata)

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

        _status = d.pop("status", UNSET)
        status: AppointmentUpsertStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = AppointmentUpsertStatus(_status)

        appointment_upsert = cls(
            client_id=client_id,
            ends_at=ends_at,
            starts_at=starts_at,
            allow_overlap=allow_overlap,
            clinician_id=clinician_id,
            location=location,
            metadata=metadata,
            notes=notes,
            room=room,
            status=status,
        )

        return appointment_upsert
