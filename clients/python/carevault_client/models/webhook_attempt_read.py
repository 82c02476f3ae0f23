from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookAttemptRead")


@_attrs_define
class WebhookAttemptRead:
    """
    Attributes:
        attempted_at (datetime.datetime):
        duration_ms (int):
        error (None | str): What went wrong: http_status, redirect_not_followed, timeout, connect_error, target_refused,
            … (never the response body)
        status_code (int | None): The receiver's HTTP status; null when none
        succeeded (bool):
    """

    attempted_at: datetime.datetime
    duration_ms: int
    error: None | str
    status_code: int | None
    succeeded: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        status_code: int | None
        status_code = self.status_code

        succeeded = self.succeeded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempted_at": attempted_at,
                "duration_ms": duration_ms,
                "error": error,
                "status_code": status_code,
                "succeeded": succeeded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        duration_ms = d.pop("duration_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        succeeded = d.pop("succeeded")

        webhook_attempt_read = cls(
            attempted_at=attempted_at,
            duration_ms=duration_ms,
            error=error,
            status_code=status_code,
            succeeded=succeeded,
        )

        webhook_attempt_read.additional_properties = d
        return webhook_attempt_read

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
