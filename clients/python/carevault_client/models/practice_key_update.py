from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PracticeKeyUpdate")


@_attrs_define
class PracticeKeyUpdate:
    """
    Attributes:
        kms_key_id (None | str): The practice's own KMS key (ARN, key id or alias); null: back to the installation's
            key. CareVault's role needs kms:Decrypt, kms:GenerateDataKey, kms:DescribeKey and kms:ReEncrypt* on it
    """

    kms_key_id: None | str

    def to_dict(self) -> dict[str, Any]:
        kms_key_id: None | str
        kms_key_id = self.kms_key_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kms_key_id": kms_key_id,
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

        practice_key_update = cls(
            kms_key_id=kms_key_id,
        )

        return practice_key_update
