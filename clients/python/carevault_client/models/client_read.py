from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client_read_metadata import ClientReadMetadata


T = TypeVar("T", bound="ClientRead")


@_attrs_define
class ClientRead:
    """
    Attributes:
        archived_at (datetime.datetime | None): Set while the client is archived
        created_at (datetime.datetime):
        first_name (str):
        id (UUID):
        last_name (str):
        updated_at (datetime.datetime):
        address (None | str | Unset): Line breaks allowed
        date_of_birth (datetime.date | None | Unset): Not in the future
        email (None | str | Unset): Found exactly by `POST /clients/search`
        emergency_contact_name (None | str | Unset):
        emergency_contact_phone (None | str | Unset):
        external_id (None | str | Unset): Your own id of the client
        medical_history (None | str | Unset):
        metadata (ClientReadMetadata | Unset): Your own strings
        notes (None | str | Unset):
        phone (None | str | Unset): Found by `q` however it is written
    """

    archived_at: datetime.datetime | None
    created_at: datetime.datetime
    first_name: str
    id: UUID
    last_name: str
    updated_at: datetime.datetime
    address: None | str | Unset = UNSET
    date_of_birth: datetime.date | None | Unset = UNSET
    email: None | str | Unset = UNSET
    emergency_contact_name: None | str | Unset = UNSET
    emergency_contact_phone: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    medical_history: None | str | Unset = UNSET
    metadata: ClientReadMetadata | Unset = UNSET
    notes: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        created_at = self.created_at.isoformat()

        first_name = self.first_name

        id = str(self.id)

        last_name = self.last_name

        updated_at = self.updated_at.isoformat()

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        elif isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        emergency_contact_name: None | str | Unset
        if isinstance(self.emergency_contact_name, Unset):
            emergency_contact_name = UNSET
        else:
            emergency_contact_name = self.emergency_contact_name

        emergency_contact_phone: None | str | Unset
        if isinstance(self.emergency_contact_phone, Unset):
            emergency_contact_phone = UNSET
        else:
            emergency_contact_phone = self.emergency_contact_phone

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        medical_history: None | str | Unset
        if isinstance(self.medical_history, Unset):
            medical_history = UNSET
        else:
            medical_history = self.medical_history

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived_at": archived_at,
                "created_at": created_at,
                "first_name": first_name,
                "id": id,
                "last_name": last_name,
                "updated_at": updated_at,
            }
        )
        if address is not UNSET:
            field_dict["address"] = address
        if date_of_birth is not UNSET:
            field_dict["date_of_birth"] = date_of_birth
        if email is not UNSET:
            field_dict["email"] = email
        if emergency_contact_name is not UNSET:
            field_dict["emergency_contact_name"] = emergency_contact_name
        if emergency_contact_phone is not UNSET:
            field_dict["emergency_contact_phone"] = emergency_contact_phone
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if medical_history is not UNSET:
            field_dict["medical_history"] = medical_history
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if notes is not UNSET:
            field_dict["notes"] = notes
        if phone is not UNSET:
            field_dict["phone"] = phone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.client_read_metadata import ClientReadMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_archived_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        archived_at = _parse_archived_at(d.pop("archived_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        first_name = d.pop("first_name")

        id = UUID(d.pop("id"))

        last_name = d.pop("last_name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        def _parse_date_of_birth(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("date_of_birth", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_emergency_contact_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emergency_contact_name = _parse_emergency_contact_name(d.pop("emergency_contact_name", UNSET))

        def _parse_emergency_contact_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        emergency_contact_phone = _parse_emergency_contact_phone(d.pop("emergency_contact_phone", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))

        def _parse_medical_history(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        medical_history = _parse_medical_history(d.pop("medical_history", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: ClientReadMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ClientReadMetadata.from_dict(_metadata)

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        client_read = cls(
            archived_at=archived_at,
            created_at=created_at,
            first_name=first_name,
            id=id,
            last_name=last_name,
            updated_at=updated_at,
            address=address,
            date_of_birth=date_of_birth,
            email=email,
            emergency_contact_name=emergency_contact_name,
            emergency_contact_phone=emergency_contact_phone,
            external_id=external_id,
            medical_history=medical_history,
            metadata=metadata,
            notes=notes,
            phone=phone,
        )

        client_read.additional_properties = d
        return client_read

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
