from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkspaceUpdate")


@_attrs_define
class WorkspaceUpdate:
    """Send the settings that change (at least one).

    Attributes:
        late_entry_hours (int | Unset): A note signed more than this many hours after its session ended is flagged as a
            late entry (default 72); applies to notes signed from now on
        phone_region (str | Unset): ISO 3166 two-letter region (any case). It decides how numbers written from now on,
            and searches, are read; stored numbers keep the meaning they had
        time_zone (str | Unset): IANA time zone
    """

    late_entry_hours: int | Unset = UNSET
    phone_region: str | Unset = UNSET
    time_zone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        late_entry_hours = self.late_entry_hours

        phone_region = self.phone_region

        time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if late_entry_hours is not UNSET:
            field_dict["late_entry_hours"] = late_entry_hours
        if phone_region is not UNSET:
            field_dict["phone_region"] = phone_region
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        late_entry_hours = d.pop("late_entry_hours", UNSET)

        phone_region = d.pop("phone_region", UNSET)

        time_zone = d.pop("time_zone", UNSET)

        workspace_update = cls(
            late_entry_hours=late_entry_hours,
            phone_region=phone_region,
            time_zone=time_zone,
        )

        return workspace_update
