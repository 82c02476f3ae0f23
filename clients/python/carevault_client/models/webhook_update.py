from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookUpdate")


@_attrs_define
class WebhookUpdate:
    """Send the fields that change (at least one). Enabling a disabled endpoint resumes its
    deliveries, the ones that were waiting included.

        Attributes:
            description (str | Unset):
            enabled (bool | Unset):
            event_types (list[str] | Unset):
            url (str | Unset):
    """

    description: str | Unset = UNSET
    enabled: bool | Unset = UNSET
    event_types: list[str] | Unset = UNSET
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        enabled = self.enabled

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        event_types = cast(list[str], d.pop("event_types", UNSET))

        url = d.pop("url", UNSET)

        webhook_update = cls(
            description=description,
            enabled=enabled,
            event_types=event_types,
            url=url,
        )

        return webhook_update
