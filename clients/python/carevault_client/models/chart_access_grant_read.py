from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ChartAccessGrantRead")


@_attrs_define
class ChartAccessGrantRead:
    """A time-limited opening of one chart (the record, its appointments and notes).

    Attributes:
        client_id (UUID):
        expires_at (datetime.datetime):
        id (UUID):
    """

    client_id: UUID
    expires_at: datetime.datetime
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = str(self.client_id)

        expires_at = self.expires_at.isoformat()

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client_id": client_id,
                "expires_at": expires_at,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = UUID(d.pop("client_id"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = UUID(d.pop("id"))

        chart_access_grant_read = cls(
            client_id=client_id,
            expires_at=expires_at,
            id=id,
        )

        chart_access_grant_read.additional_properties = d
        return chart_access_grant_read

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
