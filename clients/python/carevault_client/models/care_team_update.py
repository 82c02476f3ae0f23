from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="CareTeamUpdate")


@_attrs_define
class CareTeamUpdate:
    """The whole care team: the users listed, and only they, are on it afterwards.

    Attributes:
        clinician_ids (list[UUID]): Active users of the practice (an empty list empties it)
    """

    clinician_ids: list[UUID]

    def to_dict(self) -> dict[str, Any]:
        clinician_ids = []
        for clinician_ids_item_data in self.clinician_ids:
            clinician_ids_item = str(clinician_ids_item_data)
            clinician_ids.append(clinician_ids_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "clinician_ids": clinician_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clinician_ids = []
        _clinician_ids = d.pop("clinician_ids")
        for clinician_ids_item_data in _clinician_ids:
            clinician_ids_item = UUID(clinician_ids_item_data)

            clinician_ids.append(clinician_ids_item)

        care_team_update = cls(
            clinician_ids=clinician_ids,
        )

        return care_team_update
