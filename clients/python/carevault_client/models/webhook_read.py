from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookRead")


@_attrs_define
class WebhookRead:
    """
    Attributes:
        consecutive_failures (int):
        created_at (datetime.datetime):
        description (str):
        disabled_at (datetime.datetime | None): When it was disabled, by an owner or by persistent failure
        disabled_reason (None | str): Why it was disabled; `persistent_failure` when every delivery failed for the retry
            window
        enabled (bool):
        event_types (list[str]):
        failing_since (datetime.datetime | None):
        id (UUID):
        last_success_at (datetime.datetime | None):
        updated_at (datetime.datetime):
        url (str):
    """

    consecutive_failures: int
    created_at: datetime.datetime
    description: str
    disabled_at: datetime.datetime | None
    disabled_reason: None | str
    enabled: bool
    event_types: list[str]
    failing_since: datetime.datetime | None
    id: UUID
    last_success_at: datetime.datetime | None
    updated_at: datetime.datetime
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        consecutive_failures = self.consecutive_failures

        created_at = self.created_at.isoformat()

        description = self.description

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        enabled = self.enabled

        event_types = self.event_types

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        id = str(self.id)

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        updated_at = self.updated_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "consecutive_failures": consecutive_failures,
                "created_at": created_at,
                "description": description,
                "disabled_at": disabled_at,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "event_types": event_types,
                "failing_since": failing_since,
                "id": id,
                "last_success_at": last_success_at,
                "updated_at": updated_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        consecutive_failures = d.pop("consecutive_failures")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        enabled = d.pop("enabled")

        event_types = cast(list[str], d.pop("event_types"))

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))

        id = UUID(d.pop("id"))

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        url = d.pop("url")

        webhook_read = cls(
            consecutive_failures=consecutive_failures,
            created_at=created_at,
            description=description,
            disabled_at=disabled_at,
            disabled_reason=disabled_reason,
            enabled=enabled,
            event_types=event_types,
            failing_since=failing_since,
            id=id,
            last_success_at=last_success_at,
            updated_at=updated_at,
            url=url,
        )

        webhook_read.additional_properties = d
        return webhook_read

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
