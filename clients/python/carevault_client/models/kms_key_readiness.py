from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="KmsKeyReadiness")


@_attrs_define
class KmsKeyReadiness:
    """A KMS key this process uses, as KMS last described it (an id, never a key).

    Attributes:
        checked_at (datetime.datetime):
        installation (bool):
        key_id (str):
        state (str):
    """

    checked_at: datetime.datetime
    installation: bool
    key_id: str
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_at = self.checked_at.isoformat()

        installation = self.installation

        key_id = self.key_id

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_at": checked_at,
                "installation": installation,
                "key_id": key_id,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        installation = d.pop("installation")

        key_id = d.pop("key_id")

        state = d.pop("state")

        kms_key_readiness = cls(
            checked_at=checked_at,
            installation=installation,
            key_id=key_id,
            state=state,
        )

        kms_key_readiness.additional_properties = d
        return kms_key_readiness

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
