from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreate")


@_attrs_define
class WebhookCreate:
    """
    Attributes:
        event_types (list[str]): Event types to send: `client.updated`, every type of a resource (`appointment.*`), or
            `*` for all
        url (str): HTTPS URL the events are POSTed to; private, loopback and link-local addresses are refused unless the
            operator allow-lists them
        description (str | Unset):  Default: ''.
    """

    event_types: list[str]
    url: str
    description: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        event_types = self.event_types

        url = self.url

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event_types": event_types,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_types = cast(list[str], d.pop("event_types"))

        url = d.pop("url")

        description = d.pop("description", UNSET)

        webhook_create = cls(
            event_types=event_types,
            url=url,
            description=description,
        )

        return webhook_create
