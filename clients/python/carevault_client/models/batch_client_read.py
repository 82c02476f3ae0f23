from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.client_read import ClientRead


T = TypeVar("T", bound="BatchClientRead")


@_attrs_define
class BatchClientRead:
    """
    Attributes:
        items (list[ClientRead]): The records you may read, in the order asked
        not_found (list[UUID]): Ids of records that do not exist, are deleted, or that you may not read (another
            practice, outside your care team); or whose protected fields could not be decrypted (each such record is also in
            the audit trail)
    """

    items: list[ClientRead]
    not_found: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        not_found = []
        for not_found_item_data in self.not_found:
            not_found_item = str(not_found_item_data)
            not_found.append(not_found_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "not_found": not_found,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.client_read import ClientRead  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = ClientRead.from_dict(items_item_data)

            items.append(items_item)

        not_found = []
        _not_found = d.pop("not_found")
        for not_found_item_data in _not_found:
            not_found_item = UUID(not_found_item_data)

            not_found.append(not_found_item)

        batch_client_read = cls(
            items=items,
            not_found=not_found,
        )

        batch_client_read.additional_properties = d
        return batch_client_read

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
