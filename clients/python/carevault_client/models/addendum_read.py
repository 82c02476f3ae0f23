from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AddendumRead")


@_attrs_define
class AddendumRead:
    """One amendment of a signed note: the version it made, by whom, when and why (the
    content it replaced is in `GET /sessions/{id}/versions`).

        Attributes:
            amended_at (datetime.datetime):
            amended_by (None | UUID):
            reason (None | str): Null for amendments made before reasons were required
            version (int): The note's version the amendment made
    """

    amended_at: datetime.datetime
    amended_by: None | UUID
    reason: None | str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amended_at = self.amended_at.isoformat()

        amended_by: None | str
        if isinstance(self.amended_by, UUID):
            amended_by = str(self.amended_by)
        else:
            amended_by = self.amended_by

        reason: None | str
        reason = self.reason

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amended_at": amended_at,
                "amended_by": amended_by,
                "reason": reason,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amended_at = datetime.datetime.fromisoformat(d.pop("amended_at"))

        def _parse_amended_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                amended_by_type_0 = UUID(data)

                return amended_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        amended_by = _parse_amended_by(d.pop("amended_by"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        version = d.pop("version")

        addendum_read = cls(
            amended_at=amended_at,
            amended_by=amended_by,
            reason=reason,
            version=version,
        )

        addendum_read.additional_properties = d
        return addendum_read

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
