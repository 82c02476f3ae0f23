from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CancelledOccurrences")


@_attrs_define
class CancelledOccurrences:
    """
    Attributes:
        cancelled_ids (list[UUID]): The occurrences cancelled, by start
    """

    cancelled_ids: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancelled_ids = []
        for cancelled_ids_item_data in self.cancelled_ids:
            cancelled_ids_item = str(cancelled_ids_item_data)
            cancelled_ids.append(cancelled_ids_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelled_ids": cancelled_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancelled_ids = []
        _cancelled_ids = d.pop("cancelled_ids")
        for cancelled_ids_item_data in _cancelled_ids:
            cancelled_ids_item = UUID(cancelled_ids_item_data)

            cancelled_ids.append(cancelled_ids_item)

        cancelled_occurrences = cls(
            cancelled_ids=cancelled_ids,
        )

        cancelled_occurrences.additional_properties = d
        return cancelled_occurrences

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
