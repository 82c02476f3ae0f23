from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClientSummary")


@_attrs_define
class ClientSummary:
    """What a list shows of a client: the minimum necessary to find them (45 CFR
    164.502(b)). The whole record is `GET /clients/{client_id}`, the audited chart read.

        Attributes:
            archived_at (datetime.datetime | None): Set while the client is archived
            date_of_birth (datetime.date | None):
            first_name (str):
            id (UUID):
            last_name (str):
            updated_at (datetime.datetime):
    """

    archived_at: datetime.datetime | None
    date_of_birth: datetime.date | None
    first_name: str
    id: UUID
    last_name: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        date_of_birth: None | str
        if isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        first_name = self.first_name

        id = str(self.id)

        last_name = self.last_name

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived_at": archived_at,
                "date_of_birth": date_of_birth,
                "first_name": first_name,
                "id": id,
                "last_name": last_name,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
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

        def _parse_date_of_birth(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        date_of_birth = _parse_date_of_birth(d.pop("date_of_birth"))

        first_name = d.pop("first_name")

        id = UUID(d.pop("id"))

        last_name = d.pop("last_name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        client_summary = cls(
            archived_at=archived_at,
            date_of_birth=date_of_birth,
            first_name=first_name,
            id=id,
            last_name=last_name,
            updated_at=updated_at,
        )

        client_summary.additional_properties = d
        return client_summary

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
