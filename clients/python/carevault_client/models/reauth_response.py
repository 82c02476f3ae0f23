from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReauthResponse")


@_attrs_define
class ReauthResponse:
    """
    Attributes:
        reauthenticated_until (datetime.datetime): Sensitive changes are allowed without asking again until then
    """

    reauthenticated_until: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reauthenticated_until = self.reauthenticated_until.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reauthenticated_until": reauthenticated_until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reauthenticated_until = datetime.datetime.fromisoformat(d.pop("reauthenticated_until"))

        reauth_response = cls(
            reauthenticated_until=reauthenticated_until,
        )

        reauth_response.additional_properties = d
        return reauth_response

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
