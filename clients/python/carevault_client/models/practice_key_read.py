from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PracticeKeyRead")


@_attrs_define
class PracticeKeyRead:
    """The key that protects the practice's data keys: ids and states, never a key.

    Attributes:
        kms_key_id (None | str): With kms: the ARN of the KMS key wrapping the practice's data keys
        own_key (bool): The practice brought this key (else: the installation's)
        provider (str): Where master keys live: local, env, aws or kms
        state (None | str): The key's state as KMS reports it (Enabled, Disabled, PendingDeletion, …), or why it cannot
            be read
    """

    kms_key_id: None | str
    own_key: bool
    provider: str
    state: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kms_key_id: None | str
        kms_key_id = self.kms_key_id

        own_key = self.own_key

        provider = self.provider

        state: None | str
        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kms_key_id": kms_key_id,
                "own_key": own_key,
                "provider": provider,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_kms_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kms_key_id = _parse_kms_key_id(d.pop("kms_key_id"))

        own_key = d.pop("own_key")

        provider = d.pop("provider")

        def _parse_state(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        state = _parse_state(d.pop("state"))

        practice_key_read = cls(
            kms_key_id=kms_key_id,
            own_key=own_key,
            provider=provider,
            state=state,
        )

        practice_key_read.additional_properties = d
        return practice_key_read

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
