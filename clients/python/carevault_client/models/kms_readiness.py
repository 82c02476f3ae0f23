from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.kms_key_readiness import KmsKeyReadiness
    from ..models.kms_readiness_calls import KmsReadinessCalls
    from ..models.kms_readiness_practices_refused import KmsReadinessPracticesRefused


T = TypeVar("T", bound="KmsReadiness")


@_attrs_define
class KmsReadiness:
    """CAREVAULT_KEY_PROVIDER=kms: the keys, and the practices this process serves.

    Attributes:
        calls (KmsReadinessCalls):
        installation_key_id (str):
        keys (list[KmsKeyReadiness]):
        practices_cached (int):
        practices_refused (KmsReadinessPracticesRefused):
    """

    calls: KmsReadinessCalls
    installation_key_id: str
    keys: list[KmsKeyReadiness]
    practices_cached: int
    practices_refused: KmsReadinessPracticesRefused
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        calls = self.calls.to_dict()

        installation_key_id = self.installation_key_id

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        practices_cached = self.practices_cached

        practices_refused = self.practices_refused.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "calls": calls,
                "installation_key_id": installation_key_id,
                "keys": keys,
                "practices_cached": practices_cached,
                "practices_refused": practices_refused,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.kms_key_readiness import KmsKeyReadiness  # noqa: PLC0415
        from ..models.kms_readiness_calls import KmsReadinessCalls  # noqa: PLC0415
        from ..models.kms_readiness_practices_refused import KmsReadinessPracticesRefused  # noqa: PLC0415

        d = dict(src_dict)
        calls = KmsReadinessCalls.from_dict(d.pop("calls"))

        installation_key_id = d.pop("installation_key_id")

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = KmsKeyReadiness.from_dict(keys_item_data)

            keys.append(keys_item)

        practices_cached = d.pop("practices_cached")

        practices_refused = KmsReadinessPracticesRefused.from_dict(d.pop("practices_refused"))

        kms_readiness = cls(
            calls=calls,
            installation_key_id=installation_key_id,
            keys=keys,
            practices_cached=practices_cached,
            practices_refused=practices_refused,
        )

        kms_readiness.additional_properties = d
        return kms_readiness

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
