from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.imported_client import ImportedClient


T = TypeVar("T", bound="ClientImportResult")


@_attrs_define
class ClientImportResult:
    """
    Attributes:
        created (int):
        imported (int): Rows written: created plus updated
        results (list[ImportedClient]): One per row, in file order
        updated (int):
    """

    created: int
    imported: int
    results: list[ImportedClient]
    updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        imported = self.imported

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        updated = self.updated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "imported": imported,
                "results": results,
                "updated": updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.imported_client import ImportedClient  # noqa: PLC0415

        d = dict(src_dict)
        created = d.pop("created")

        imported = d.pop("imported")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = ImportedClient.from_dict(results_item_data)

            results.append(results_item)

        updated = d.pop("updated")

        client_import_result = cls(
            created=created,
            imported=imported,
            results=results,
            updated=updated,
        )

        client_import_result.additional_properties = d
        return client_import_result

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
