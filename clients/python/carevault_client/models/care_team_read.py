from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.care_team_member_read import CareTeamMemberRead


T = TypeVar("T", bound="CareTeamRead")


@_attrs_define
class CareTeamRead:
    """Who is assigned to the client: under the practice's `care_team` chart access, the
    clinicians who see the chart (owners see every chart).

        Attributes:
            client_id (UUID):
            clinicians (list[CareTeamMemberRead]):
    """

    client_id: UUID
    clinicians: list[CareTeamMemberRead]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = str(self.client_id)

        clinicians = []
        for clinicians_item_data in self.clinicians:
            clinicians_item = clinicians_item_data.to_dict()
            clinicians.append(clinicians_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client_id": client_id,
                "clinicians": clinicians,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.care_team_member_read import CareTeamMemberRead  # noqa: PLC0415

        d = dict(src_dict)
        client_id = UUID(d.pop("client_id"))

        clinicians = []
        _clinicians = d.pop("clinicians")
        for clinicians_item_data in _clinicians:
            clinicians_item = CareTeamMemberRead.from_dict(clinicians_item_data)

            clinicians.append(clinicians_item)

        care_team_read = cls(
            client_id=client_id,
            clinicians=clinicians,
        )

        care_team_read.additional_properties = d
        return care_team_read

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
