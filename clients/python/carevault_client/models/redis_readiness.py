from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.redis_readiness_limits import RedisReadinessLimits
from ..types import UNSET, Unset

T = TypeVar("T", bound="RedisReadiness")


@_attrs_define
class RedisReadiness:
    """Redis (CAREVAULT_REDIS_URL) for the request limits: `shared` while it answers;
    `falling_back` to this process's own budgets while it does not (degraded, still serving).

        Attributes:
            fallback_requests (int): Requests counted in process since start
            limits (RedisReadinessLimits):
            since (datetime.datetime):
            error (None | str | Unset): The last failure's class
    """

    fallback_requests: int
    limits: RedisReadinessLimits
    since: datetime.datetime
    error: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fallback_requests = self.fallback_requests

        limits = self.limits.value

        since = self.since.isoformat()

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fallback_requests": fallback_requests,
                "limits": limits,
                "since": since,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fallback_requests = d.pop("fallback_requests")

        limits = RedisReadinessLimits(d.pop("limits"))

        since = datetime.datetime.fromisoformat(d.pop("since"))

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        redis_readiness = cls(
            fallback_requests=fallback_requests,
            limits=limits,
            since=since,
            error=error,
        )

        redis_readiness.additional_properties = d
        return redis_readiness

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
