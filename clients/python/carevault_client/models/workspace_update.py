from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.workspace_update_chart_access import WorkspaceUpdateChartAccess
from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkspaceUpdate")


@_attrs_define
class WorkspaceUpdate:
    """Send the settings that change (at least one).

    Attributes:
        break_the_glass (bool | Unset): Allow a clinician to open a chart outside their care team by stating a reason
            (POST /clients/{client_id}/break-the-glass); turning it off ends every open grant
        chart_access (WorkspaceUpdateChartAccess | Unset): `practice`: every clinician sees every chart; `care_team`:
            clinicians see only their care teams' charts (owners see every chart). Takes effect on the next request
        late_entry_hours (int | Unset): A note signed more than this many hours after its session ended is flagged as a
            late entry (default 72); applies to notes signed from now on
        phone_region (str | Unset): ISO 3166 two-letter region (any case). It decides how numbers written from now on,
            and searches, are read; stored numbers keep the meaning they had
        time_zone (str | Unset): IANA time zone
    """

    break_the_glass: bool | Unset = UNSET
    chart_access: WorkspaceUpdateChartAccess | Unset = UNSET
    late_entry_hours: int | Unset = UNSET
    phone_region: str | Unset = UNSET
    time_zone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        break_the_glass = self.break_the_glass

        chart_access: str | Unset = UNSET
        if not isinstance(self.chart_access, Unset):
            chart_access = self.chart_access.value

        late_entry_hours = self.late_entry_hours

        phone_region = self.phone_region

        time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if break_the_glass is not UNSET:
            field_dict["break_the_glass"] = break_the_glass
        if chart_access is not UNSET:
            field_dict["chart_access"] = chart_access
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
        break_the_glass = d.pop("break_the_glass", UNSET)

        _chart_access = d.pop("chart_access", UNSET)
        chart_access: WorkspaceUpdateChartAccess | Unset
        if isinstance(_chart_access, Unset):
            chart_access = UNSET
        else:
            chart_access = WorkspaceUpdateChartAccess(_chart_access)

        late_entry_hours = d.pop("late_entry_hours", UNSET)

        phone_region = d.pop("phone_region", UNSET)

        time_zone = d.pop("time_zone", UNSET)

        workspace_update = cls(
            break_the_glass=break_the_glass,
            chart_access=chart_access,
            late_entry_hours=late_entry_hours,
            phone_region=phone_region,
            time_zone=time_zone,
        )

        return workspace_update
