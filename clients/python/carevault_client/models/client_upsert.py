from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client_upsert_metadata import ClientUpsertMetadata


T = TypeVar("T", bound="ClientUpsert")


@_attrs_define
class ClientUpsert:
    """`PUT /clients/external/{external_id}`: a new client (first and last name required),
    or the changes to the one with that external id: the fields sent are set, the fields
    left out are kept, `metadata` is merged.

        Attributes:
            first_name (str):
            last_name (str):
            address (None | str | Unset): Line breaks allowed
            date_of_birth (datetime.date | None | Unset): Not in the future
            email (None | str | Unset): Found exactly by `POST /clients/search`
            emergency_contact_name (None | str | Unset):
            emergency_contact_phone (None | str | Unset):
            medical_history (None | str | Unset):
            metadata (ClientUpsertMetadata | Unset): Merged into the record's metadata: a key sent with a value sets it, a
                key sent as null or empty removes it, keys not sent stay
            notes (None | str | Unset):
            phone (None | str | Unset): Found by `q` however it is written
    """

    first_name: str
    last_name: str
    address: None | str | Unset = UNSET
    date_of_birth: datetime.date | None | Unset = UNSET
    email: None | str | Unset = UNSET
    emergency_contact_name: None | str | Unset = UNSET
    emergency_contact_phone: None | str | Unset = UNSET
    medical_history: None | str | Unset = UNSET
    metadata: ClientUpsertMetadata | Unset = UNSET
    notes: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

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

        field_dict.update(
            {
                "first_name": first_name,
                "last_name": last_name,
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
        from ..models.client_upsert_metadata import ClientUpsertMetadata  # noqa: PLC0415

        d = dict(src_dict)
        first_name = d.pop("first_name")

        last_name = d.pop("last_name")

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

        def _parse_medical_history(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        medical_history = _parse_medical_history(d.pop("medical_history", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: ClientUpsertMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ClientUpsertMetadata.from_dict(_metadata)

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

        client_upsert = cls(
            first_name=first_name,
            last_name=last_name,
            address=address,
            date_of_birth=date_of_birth,
            email=email,
            emergency_contact_name=emergency_contact_name,
            emergency_contact_phone=emergency_contact_phone,
            medical_history=medical_history,
            metadata=metadata,
            notes=notes,
            phone=phone,
        )

        return client_upsert
