from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.imported_client_action import ImportedClientAction

T = TypeVar("T", bound="ImportedClient")


@_attrs_define
class ImportedClient:
    """
    Attributes:
        action (ImportedClientAction): `updated`: by an upsert
        external_id (None | str): The row's `external_id`, if it had one
        id (UUID): The client the row created or updated
        line (int): The row's line in the file (the CSV header is line 1)
    """

    action: ImportedClientAction
    external_id: None | str
    id: UUID
    line: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        external_id: None | str
        external_id = self.external_id

        id = str(self.id)

        line = self.line

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "external_id": external_id,
                "id": id,
                "line": line,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = ImportedClientAction(d.pop("action"))

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("external_id"))

        id = UUID(d.pop("id"))

        line = d.pop("line")

        imported_client = cls(
            action=action,
            external_id=external_id,
            id=id,
            line=line,
        )

        imported_client.additional_properties = d
        return imported_client

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
