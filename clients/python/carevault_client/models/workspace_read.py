from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workspace_read_chart_access import WorkspaceReadChartAccess
from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkspaceRead")


@_attrs_define
class WorkspaceRead:
    """
    Attributes:
        break_the_glass (bool): Whether a clinician may open a chart outside their care team by stating a reason (time-
            limited, flagged in the audit trail)
        chart_access (WorkspaceReadChartAccess): `practice`: every clinician sees every chart; `care_team`: clinicians
            see only the charts of clients whose care team they are on (owners see every chart)
        id (UUID):
        name (str):
        phone_region (str): ISO 3166 region whose national phone numbers the practice writes: a number without its
            country code is read as one of this region's
        time_zone (str): IANA time zone that decides the practice's today (session dates and dates of birth may not be
            after it)
        late_entry_hours (int | Unset): A note signed more than this many hours after its session ended is flagged as a
            late entry Default: 72.
    """

    break_the_glass: bool
    chart_access: WorkspaceReadChartAccess
    id: UUID
    name: str
    phone_region: str
    time_zone: str
    late_entry_hours: int | Unset = 72
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        break_the_glass = self.break_the_glass

        chart_access = self.chart_access.value

        id = str(self.id)

        name = self.name

        phone_region = self.phone_region

        time_zone = self.time_zone

        late_entry_hours = self.late_entry_hours

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "break_the_glass": break_the_glass,
                "chart_access": chart_access,
                "id": id,
                "name": name,
                "phone_region": phone_region,
                "time_zone": time_zone,
            }
        )
        if late_entry_hours is not UNSET:
            field_dict["late_entry_hours"] = late_entry_hours

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        break_the_glass = d.pop("break_the_glass")

        chart_access = WorkspaceReadChartAccess(d.pop("chart_access"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        phone_region = d.pop("phone_region")

        time_zone = d.pop("time_zone")

        late_entry_hours = d.pop("late_entry_hours", UNSET)

        workspace_read = cls(
            break_the_glass=break_the_glass,
            chart_access=chart_access,
            id=id,
            name=name,
            phone_region=phone_region,
            time_zone=time_zone,
            late_entry_hours=late_entry_hours,
        )

        workspace_read.additional_properties = d
        return workspace_read

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
