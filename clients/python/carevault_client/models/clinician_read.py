from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClinicianRead")


@_attrs_define
class ClinicianRead:
    """A calendar of the practice: any signed-in user may list them (no email, no role
    settings), to choose whose calendars to show and whom to book with.

        Attributes:
            active (bool): False for a disabled user: not bookable
            display_name (str): The user's display name, or their email if unset
            id (UUID):
    """

    active: bool
    display_name: str
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        display_name = self.display_name

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "display_name": display_name,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        display_name = d.pop("display_name")

        id = UUID(d.pop("id"))

        clinician_read = cls(
            active=active,
            display_name=display_name,
            id=id,
        )

        clinician_read.additional_properties = d
        return clinician_read

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
