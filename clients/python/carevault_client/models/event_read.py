from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_resource import EventResource


T = TypeVar("T", bound="EventRead")


@_attrs_define
class EventRead:
    """
    Attributes:
        id (str): The event's cursor: pass it as `after` to read what follows
        occurred_at (datetime.datetime): When the change's transaction began
        resource (EventResource):
        type_ (str): `<resource>.<change>`, such as client.updated
    """

    id: str
    occurred_at: datetime.datetime
    resource: EventResource
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        occurred_at = self.occurred_at.isoformat()

        resource = self.resource.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "occurred_at": occurred_at,
                "resource": resource,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_resource import EventResource  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        resource = EventResource.from_dict(d.pop("resource"))

        type_ = d.pop("type")

        event_read = cls(
            id=id,
            occurred_at=occurred_at,
            resource=resource,
            type_=type_,
        )

        event_read.additional_properties = d
        return event_read

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
